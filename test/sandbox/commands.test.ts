/**
 * The commands models type exist in the sandbox and do the right thing there, with no network:
 * python, pip (says at once that nothing can be installed), npm and npx (offline), node, tsc,
 * pytest, strace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

// The shell's directory persists across commands; each one here says where it runs.
const run = (command: string) => sb.runCommand(command, 30_000);

describe.sequential('commands models type', () => {
  it('resolves python, node, tsc, pytest and strace', async () => {
    const r = await run(
      'python -c "import sys; print(sys.version_info[0])"; node -e "console.log(1 + 1)"; tsc --version; pytest --version 2>&1; command -v strace',
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^3\n2\nVersion \d+\.\d+\.\d+\npytest \d+\.\d+\.\d+\n\/usr\/bin\/strace\n$/);
  });

  it('pip, pip3 and python3 -m pip say at once, in one line, that the network is off', async () => {
    for (const cmd of [
      'pip install requests',
      'pip3 install -r requirements.txt',
      'python3 -m pip install x',
    ]) {
      const r = await run(cmd);
      expect(r.exitCode, cmd).toBe(1);
      expect(r.elapsedMs, cmd).toBeLessThan(3_000);
      expect(r.stderr.trim().split('\n'), cmd).toHaveLength(1);
      expect(r.stderr, cmd).toMatch(/the network is off in this sandbox/);
    }
    // What needs no network is answered: pytest is there.
    expect((await run('pip list')).stdout).toMatch(/^pytest +\d/m);
  });

  it('npx runs the image’s tsc, and a binary from ./node_modules/.bin', async () => {
    await sb.writeFile('/workspace/ts/a.ts', 'const n: number = 1;\nexport { n };\n');
    await sb.writeFile('/workspace/ts/bad.ts', 'const s: string = 1;\n');
    const ok = await run('cd /workspace/ts && npx tsc --noEmit a.ts && echo typed');
    expect(ok).toMatchObject({ exitCode: 0, stdout: 'typed\n' });
    const bad = await run('cd /workspace/ts && npx tsc --noEmit bad.ts');
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toMatch(/error TS2322/);
    await run(
      'cd /workspace && mkdir -p proj/node_modules/.bin && printf \'#!/bin/sh\\necho "local $*"\\n\' > proj/node_modules/.bin/hello && chmod +x proj/node_modules/.bin/hello',
    );
    expect((await run('cd /workspace/proj && npx hello a b')).stdout).toBe('local a b\n');
    const missing = await run('cd /workspace/proj && npx cowsay hi');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/cowsay is not installed here .* the network is off/);
  });

  it('npm test and npm run run package.json scripts, with node_modules/.bin on PATH', async () => {
    await sb.writeFile(
      '/workspace/proj/package.json',
      JSON.stringify({
        name: 'proj',
        version: '1.0.0',
        scripts: {
          pretest: 'echo pre',
          test: 'hello tested',
          build: 'echo built "$npm_lifecycle_event"',
          fail: 'exit 4',
        },
      }),
    );
    const test = await run('cd /workspace/proj && npm test');
    expect(test.exitCode).toBe(0);
    expect(test.stdout).toContain('> proj@1.0.0 test\n> hello tested\n');
    expect(test.stdout).toMatch(/pre\n[\s\S]*local tested\n$/);
    const build = await run('cd /workspace/proj && npm run build -- --flag');
    expect(build).toMatchObject({
      exitCode: 0,
      stdout: '\n> proj@1.0.0 build\n> echo built "$npm_lifecycle_event" --flag\n\nbuilt build --flag\n',
    });
    expect((await run('cd /workspace/proj && npm run fail')).exitCode).toBe(4);
    const nope = await run('cd /workspace/proj && npm run nope');
    expect(nope.exitCode).toBe(1);
    expect(nope.stderr).toMatch(/Missing script: "nope"/);
  });

  it('npm install fetches nothing: fine when node_modules has it all, otherwise it says why', async () => {
    expect(await run('cd /workspace/proj && npm install')).toMatchObject({ exitCode: 0 });
    const add = await run('cd /workspace/proj && npm install left-pad');
    expect(add.exitCode).toBe(1);
    expect(add.stderr).toMatch(/the network is off in this sandbox/);
    expect(add.elapsedMs).toBeLessThan(3_000);
  });
});
