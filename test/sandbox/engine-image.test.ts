/** The engine check and the image: cached by input hash, rebuilt when an input changes, errors surfaced. */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEngine, ensureImage, imageStatus } from '../../src/sandbox/index.js';
import { InfraError } from '../../src/util/errors.js';
import { packageRoot } from '../../src/util/package-root.js';
import { IMAGE_TIMEOUT_MS, sandboxImage } from './fixture.js';

const docker = new Docker();

describe('checkEngine', () => {
  it('reports the running engine', async () => {
    const info = await checkEngine();
    expect(info.version).toMatch(/^\d+\.\d+/);
    expect(info.apiVersion).toMatch(/^1\.\d+$/);
  });

  it('says in one line what to do when no engine answers', async () => {
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'unix:///tmp/agent-bench-no-engine.sock';
    try {
      const error = await checkEngine(new Docker()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InfraError);
      expect((error as InfraError).exitCode).toBe(3);
      const message = (error as Error).message;
      expect(message).toMatch(/^no Docker engine answers at unix:\/\/\/tmp\/agent-bench-no-engine.sock/);
      expect(message).toMatch(/start it \(scripts\/provision-docker.sh\) or set DOCKER_HOST$/);
      expect(message).not.toContain('\n');
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });
});

describe.sequential('ensureImage', () => {
  let root: string;
  const made: string[] = [];

  beforeAll(async () => {
    await sandboxImage();
    root = await mkdtemp(join(tmpdir(), 'agent-bench-image-'));
    await cp(join(packageRoot(), 'Dockerfile'), join(root, 'Dockerfile'));
    await cp(join(packageRoot(), 'sandbox'), join(root, 'sandbox'), { recursive: true });
  }, IMAGE_TIMEOUT_MS);

  afterAll(async () => {
    for (const tag of made)
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => {});
    await rm(root, { recursive: true, force: true });
  });

  it('finds the built image by the hash of its inputs and exposes its id', async () => {
    const started = Date.now();
    const image = await ensureImage();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(image).toMatchObject({ source: 'cached', buildMs: 0 });
    expect(image.tag).toMatch(/^agent-bench-sandbox:[0-9a-f]{16}$/);
    expect(image.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await imageStatus()).toEqual({ tag: image.tag, id: image.id });
  });

  it(
    'rebuilds when the Dockerfile changes, and says which path it took',
    async () => {
      const original = await ensureImage();
      const dockerfile = join(root, 'Dockerfile');
      await writeFile(
        dockerfile,
        `${await readFile(dockerfile, 'utf8')}LABEL agent-bench.test="${Date.now()}"\n`,
      );
      const lines: string[] = [];
      const image = await ensureImage({ root, onProgress: (line) => lines.push(line) });
      made.push(image.tag);
      expect(image.tag).not.toBe(original.tag);
      expect(['registry', 'offline']).toContain(image.source);
      expect(lines.join('\n')).toMatch(new RegExp(`Built ${image.tag} \\(${image.source} path\\)`));
      expect((await docker.getImage(image.tag).inspect()).Id).toBe(image.id);
      expect((await ensureImage({ root })).source).toBe('cached');
    },
    IMAGE_TIMEOUT_MS,
  );

  it(
    'surfaces a failing build step as an error',
    async () => {
      const dockerfile = join(root, 'Dockerfile');
      await writeFile(
        dockerfile,
        `${await readFile(dockerfile, 'utf8')}RUN echo "step fails on purpose" && exit 3\n`,
      );
      const error = await ensureImage({ root }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InfraError);
      expect(String(error)).toMatch(/returned a non-zero code: 3/);
    },
    IMAGE_TIMEOUT_MS,
  );
});
