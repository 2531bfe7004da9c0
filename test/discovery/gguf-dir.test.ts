import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

  it('says so when the folder cannot be read', async () => {
    await expect(listGgufDir(join(root, 'missing'))).rejects.toThrow(UsageError);
  });
});
