import { mkdir, mkdtemp, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listGgufDir } from '../../src/discovery/gguf-dir.js';
import { UsageError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gguf-dir-'));
  const repo = join(root, 'lmstudio-community', 'Qwen3-4B-GGUF');
  await mkdir(repo, { recursive: true });
  await writeGguf(join(repo, 'Qwen3-4B-Q6_K.gguf'), {
    kv: [
      ['general.architecture', gguf.str('qwen3')],
      ['general.size_label', gguf.str('4B')],
      ['general.file_type', gguf.u32(18)],
      ['qwen3.context_length', gguf.u32(40_960)],
    ],
  });
  // A name that says Q8_0 and a header that says Q4_K_M: the header wins, and the size label gives MoE sizes.
  await writeGguf(join(root, 'Qwen3-30B-A3B-Q8_0.gguf'), {
    kv: [
      ['general.architecture', gguf.str('qwen3moe')],
      ['general.size_label', gguf.str('30B-A3B')],
      ['general.file_type', gguf.u32(15)],
    ],
  });
  const shard = (i: number) => join(root, `big-model-Q4_0-0000${i}-of-00002.gguf`);
  await writeGguf(shard(1), {
    kv: [
      ['general.architecture', gguf.str('llama')],
      ['split.count', gguf.u16(2)],
    ],
    tensors: [{ name: 'token_embd.weight', dims: [4, 4] }],
  });
  await writeFile(shard(2), Buffer.alloc(1000));
  await writeGguf(join(repo, 'mmproj-model-f16.gguf'), { kv: [['general.architecture', gguf.str('clip')]] });
  await writeFile(join(root, 'broken.gguf'), 'GGUF');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('listGgufDir', () => {
  it('lists models from their headers, with file-sourced values', async () => {
    const { models, problems } = await listGgufDir(root);
    const byName = new Map(models.map((m) => [m.name.slice(root.length + 1), m]));
    expect([...byName.keys()].sort()).toEqual([
      'Qwen3-30B-A3B-Q8_0.gguf',
      'big-model-Q4_0-00001-of-00002.gguf',
      'lmstudio-community/Qwen3-4B-GGUF/Qwen3-4B-Q6_K.gguf',
    ]);
    expect(byName.get('lmstudio-community/Qwen3-4B-GGUF/Qwen3-4B-Q6_K.gguf')).toMatchObject({
      kind: 'gguf-file',
      family: 'qwen3',
      parameters: 4,
      quantization: 'Q6_K',
      contextLength: 40_960,
      weightSource: 'file',
      sources: { parameters: 'file', quantization: 'file', contextLength: 'file' },
    });
    expect(byName.get('Qwen3-30B-A3B-Q8_0.gguf')).toMatchObject({
      parameters: 30,
      activeParameters: 3,
      quantization: 'Q4_K_M',
    });
    const split = byName.get('big-model-Q4_0-00001-of-00002.gguf');
    expect(split?.weightBytes).toBeGreaterThan(1000);
    expect(split).toMatchObject({
      quantization: 'Q4_0',
      sources: { quantization: 'name', parameters: null },
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/broken\.gguf: .*truncated/);
  });

  it('follows the symlinks of a Hugging Face cache, and survives a link cycle', async () => {
    const hub = await mkdtemp(join(tmpdir(), 'gguf-hf-'));
    try {
      const repo = join(hub, 'hub', 'models--Qwen--Qwen3-4B-GGUF');
      const snapshot = join(repo, 'snapshots', '0123abc');
      await mkdir(join(repo, 'blobs'), { recursive: true });
      await mkdir(snapshot, { recursive: true });
      const blob = join(repo, 'blobs', '9f86d081884c7d65');
      await writeGguf(blob, { kv: [['general.architecture', gguf.str('qwen3')]] });
      await symlink('../../blobs/9f86d081884c7d65', join(snapshot, 'Qwen3-4B-Q4_K_M.gguf'));
      await symlink('../../blobs/missing', join(snapshot, 'dangling-Q8_0.gguf'));
      await symlink(hub, join(snapshot, 'loop'));
      const { models, problems } = await listGgufDir(hub);
      expect(models.map((m) => [m.name.slice(hub.length + 1), m.quantization])).toEqual([
        ['hub/models--Qwen--Qwen3-4B-GGUF/snapshots/0123abc/Qwen3-4B-Q4_K_M.gguf', 'Q4_K_M'],
      ]);
      expect(problems).toEqual([]);
    } finally {
      await rm(hub, { recursive: true, force: true });
    }
  });

  it('flags a file cut short after its header (an unfinished download) instead of listing it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gguf-cut-'));
    try {
      const path = join(dir, 'Qwen3-0.6B-Q8_0.gguf');
      await writeGguf(path, {
        kv: [['general.architecture', gguf.str('qwen3')]],
        tensors: [{ name: 'token_embd.weight', dims: [64, 64] }],
      });
      await truncate(path, (await stat(path)).size - 1024);
      const { models, problems } = await listGgufDir(dir);
      expect(models).toEqual([]);
      expect(problems).toEqual([
        expect.stringMatching(/Qwen3-0\.6B-Q8_0\.gguf: truncated: \d+ bytes of at least \d+/),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says so when the folder cannot be read', async () => {
    await expect(listGgufDir(join(root, 'missing'))).rejects.toThrow(UsageError);
  });
});
