import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertGgufFile, isGgufModelSpec, parseGgufModelSpec } from '../../src/models/gguf-spec.js';
import { UsageError } from '../../src/util/errors.js';

describe('gguf model specs', () => {
  it('recognises gguf: specs and resolves their path', () => {
    expect(isGgufModelSpec('gguf:/m/a.gguf')).toBe(true);
    expect(isGgufModelSpec('qwen3:8b')).toBe(false);
    expect(parseGgufModelSpec('gguf:/m/a.gguf')).toBe('/m/a.gguf');
    expect(parseGgufModelSpec('gguf:models/a.gguf', '/work')).toBe('/work/models/a.gguf');
    expect(() => parseGgufModelSpec('gguf:')).toThrow(UsageError);
    expect(() => parseGgufModelSpec('qwen3:8b')).toThrow(UsageError);
  });
});

describe('assertGgufFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gguf-spec-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const rejection = async (path: string): Promise<UsageError> => {
    const err = await assertGgufFile(path).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    if (!(err instanceof UsageError)) throw new Error('unreachable');
    expect(err.message).not.toContain('\n');
    return err;
  };

  it('names a missing file, a directory, a non-GGUF file and an unsupported version in one line', async () => {
    expect((await rejection(join(dir, 'nope.gguf'))).message).toContain('no such file');
    expect((await rejection(dir)).message).toContain('directory');
    await writeFile(join(dir, 'text.gguf'), 'not a model at all');
    expect((await rejection(join(dir, 'text.gguf'))).message).toContain('not a GGUF model file');
    const v9 = Buffer.alloc(8);
    v9.write('GGUF', 'latin1');
    v9.writeUInt32LE(9, 4);
    await writeFile(join(dir, 'v9.gguf'), v9);
    expect((await rejection(join(dir, 'v9.gguf'))).message).toContain('version 9');
  });

  it('accepts a GGUF v3 header', async () => {
    const v3 = Buffer.alloc(8);
    v3.write('GGUF', 'latin1');
    v3.writeUInt32LE(3, 4);
    await writeFile(join(dir, 'v3.gguf'), v3);
    await expect(assertGgufFile(join(dir, 'v3.gguf'))).resolves.toBeUndefined();
  });
});
