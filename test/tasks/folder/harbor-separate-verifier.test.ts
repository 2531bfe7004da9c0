/** Harbor's separate verifier, as loaded: tests/ as a build context, an image named, or a mode that names neither. */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harborEnvironmentSpec } from '../../../src/catalogue/harbor/environment.js';
import { loadHarborFolder } from '../../../src/catalogue/harbor/load.js';

const FIXTURE = join(import.meta.dirname, '../../integration/fixtures/harbor-separate-verifier');

function variant(toml: string, keepDockerfile: boolean): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'separate-')), 'harbor-separate-verifier');
  cpSync(FIXTURE, dir, { recursive: true });
  if (!keepDockerfile) rmSync(join(dir, 'tests/Dockerfile'));
  writeFileSync(join(dir, 'task.toml'), `version = "1.0"\n${toml}`);
  return dir;
}

describe('a separate verifier', () => {
  it('tests/ with a Dockerfile is built as the verifier’s image, on --base-image when given', () => {
    const h = loadHarborFolder(FIXTURE);
    expect(h.verifier.separate).toEqual({ kind: 'build' });
    expect(harborEnvironmentSpec(h, 'local/base:1').verifier.image).toMatchObject({
      kind: 'dockerfile',
      contextDir: join(FIXTURE, 'tests'),
      dockerfileName: 'tests/Dockerfile',
      dockerfile: {
        ok: true,
        text: expect.stringMatching(/^# Harbor's separate verifier.*\nFROM local\/base:1\n/s),
      },
      baseImage: 'local/base:1',
    });
    expect(h.ignoredKeys).toEqual([]);
  });

  it('[verifier.environment] docker_image names the verifier’s image', () => {
    const h = loadHarborFolder(
      variant(
        '[verifier]\nenvironment_mode = "separate"\n[verifier.environment]\ndocker_image = "local/verifier:1"\n',
        false,
      ),
    );
    expect(h.verifier.separate).toEqual({ kind: 'image', image: 'local/verifier:1' });
    expect(harborEnvironmentSpec(h).verifier.image).toEqual({ kind: 'prebuilt', image: 'local/verifier:1' });
  });

  it('environment_mode = "separate" with neither is a problem of the task, in one line', () => {
    const dir = variant('[verifier]\nenvironment_mode = "separate"\n', false);
    expect(() => loadHarborFolder(dir)).toThrow(
      `${dir}/task.toml: verifier.environment_mode: "separate" needs tests/Dockerfile or [verifier.environment] docker_image`,
    );
  });

  it('a task without one verifies in its own image', () => {
    const h = loadHarborFolder(variant('', false));
    expect(h.verifier.separate).toBeNull();
    expect(harborEnvironmentSpec(h).verifier.image).toBeUndefined();
  });
});

describe('artifacts, what a separate verifier is given', () => {
  it('are paths of the workdir, relative to it (a string or a { source } table)', () => {
    const h = loadHarborFolder(
      variant('artifacts = ["/app/answer.txt", { source = "/app/out/", destination = "x" }]\n', true),
    );
    expect(h.verifier.artifacts).toEqual(['answer.txt', 'out']);
    expect(harborEnvironmentSpec(h).verifier.artifacts).toEqual(['answer.txt', 'out']);
    expect(h.ignoredKeys).toEqual([]);
  });

  it('none declared: the whole workdir (the spec names none)', () => {
    const h = loadHarborFolder(FIXTURE);
    expect(h.verifier.artifacts).toBeNull();
    expect(harborEnvironmentSpec(h).verifier.artifacts).toBeUndefined();
  });

  it('one outside the workdir is a problem of the task, in one line', () => {
    const dir = variant('artifacts = ["/app/answer.txt", "/logs/artifacts/run.log"]\n', true);
    expect(() => loadHarborFolder(dir)).toThrow(
      `${dir}/task.toml: artifacts[1]: /logs/artifacts/run.log is not a path inside the workdir /app: a separate verifier is given artifacts of the agent's workdir only`,
    );
  });

  it('a shared verifier sees the whole workdir: declared artifacts are named as ignored', () => {
    const h = loadHarborFolder(variant('artifacts = ["/logs/artifacts/run.log"]\n', false));
    expect(h.verifier.artifacts).toBeNull();
    expect(h.ignoredKeys).toEqual(['artifacts']);
  });
});
