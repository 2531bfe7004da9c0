import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/discovery/gguf.js';
import { kvCacheBytes } from '../../src/ladder/kv-cache.js';
import { planConfigLadder } from '../../src/ladder/plan.js';
import {
  configSlug,
  describeConfig,
  parseCacheTypes,
  parseCtxList,
  rungConfigs,
} from '../../src/ladder/rung-config.js';
import { checkServerCommand, serverCommandLine, serverLogName } from '../../src/ladder/server-command.js';
import { UsageError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { served } from './models.js';

describe('--ctx and --cache-type', () => {
  it('parse lists, dropping repeats, and make every combination', () => {
    expect(parseCtxList('4096, 8192,4096')).toEqual([4096, 8192]);
    expect(parseCacheTypes('F16,q8_0')).toEqual(['f16', 'q8_0']);
    expect(rungConfigs([4096, 8192], ['f16', 'q4_0'])).toEqual([
      { ctx: 4096, cacheType: 'f16' },
      { ctx: 4096, cacheType: 'q4_0' },
      { ctx: 8192, cacheType: 'f16' },
      { ctx: 8192, cacheType: 'q4_0' },
    ]);
    expect(rungConfigs([], ['q8_0'])).toEqual([{ ctx: null, cacheType: 'q8_0' }]);
  });

  it('reject what no server takes, in one line', () => {
    expect(() => parseCtxList('4k')).toThrow(UsageError);
    expect(() => parseCtxList('100')).toThrow(/at least 256\), got "100"/);
    expect(() => parseCtxList(' , ')).toThrow(/--ctx needs at least one value/);
    expect(() => parseCacheTypes('q3_k')).toThrow(/"q3_k" is not a KV-cache type; use f32, f16/);
  });

  it('name a configuration for people and for file names', () => {
    expect(describeConfig({ ctx: 8192, cacheType: 'q8_0' })).toBe('ctx 8192, KV q8_0');
    expect(configSlug({ ctx: 8192, cacheType: 'q8_0' })).toBe('ctx8192-kv-q8_0');
    expect(configSlug({ ctx: null, cacheType: 'f16' })).toBe('kv-f16');
  });
});

describe('--server-cmd with {ctx} and {cache_type}', () => {
  const both = { ctx: true, cacheType: true };
  it('must pass on every dimension asked for, and ask for every placeholder it has', () => {
    const cmd = 'llama-server -m {model} --port {port} -c {ctx} -ctk {cache_type} -ctv {cache_type}';
    expect(() => checkServerCommand(cmd, both)).not.toThrow();
    expect(() =>
      checkServerCommand('llama-server -m {model} --port {port}', { ctx: true, cacheType: false }),
    ).toThrow(/^--ctx needs \{ctx\} in --server-cmd/);
    expect(() => checkServerCommand('s -m {model} --port {port} -c {ctx}', both)).toThrow(
      /^--cache-type needs \{cache_type\}/,
    );
    expect(() => checkServerCommand(cmd, { ctx: true, cacheType: false })).toThrow(
      '--server-cmd has {cache_type}: give its values with --cache-type',
    );
  });

  it('fills in the rung values, and a log name of its own per configuration', () => {
    const line = serverCommandLine(
      's -m {model} --port {port} -c {ctx} -ctk {cache_type} -ctv {cache_type}',
      '/m/a.gguf',
      9,
      {
        ctx: 8192,
        cacheType: 'q8_0',
      },
    );
    expect(line).toBe("s -m '/m/a.gguf' --port 9 -c 8192 -ctk q8_0 -ctv q8_0");
    expect(serverLogName('/m/a-Q4_K.gguf', 'RUN', 'ctx8192-kv-q8_0')).toBe(
      'servers/a-Q4_K-ctx8192-kv-q8_0-RUN.log',
    );
  });
});

describe('the KV-cache estimate', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kv-shape-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is 2 × layers × ctx × kv heads × head dim × bytes per element', () => {
    // Llama-3-8B: 32 layers, 8 KV heads of 128: 1 GiB of f16 cache at ctx 8192, as llama.cpp reports.
    const shape = { layers: 32, kvHeads: 8, keyLength: 128, valueLength: 128 };
    expect(kvCacheBytes(shape, 8192, 'f16')).toBe(2 ** 30);
    expect(kvCacheBytes(shape, 8192, null)).toBe(2 ** 30);
    expect(kvCacheBytes(shape, 8192, 'q8_0')).toBe((2 ** 30 / 2) * (34 / 32));
    expect(kvCacheBytes(shape, 4096, 'q4_0')).toBe((2 ** 29 / 2) * (18 / 32));
  });

  it('reads the attention shape from the GGUF header (head dim = embedding / heads unless given)', async () => {
    const path = join(dir, 'm.gguf');
    await writeGguf(path, {
      kv: [
        ['general.architecture', gguf.str('llama')],
        ['llama.block_count', gguf.u32(32)],
        ['llama.embedding_length', gguf.u32(4096)],
        ['llama.attention.head_count', gguf.u32(32)],
        ['llama.attention.head_count_kv', gguf.u32(8)],
      ],
    });
    expect((await readGgufHeader(path)).kvShape).toEqual({
      layers: 32,
      kvHeads: 8,
      keyLength: 128,
      valueLength: 128,
    });
    const withKeys = join(dir, 'k.gguf');
    await writeGguf(withKeys, {
      kv: [
        ['general.architecture', gguf.str('qwen3')],
        ['qwen3.block_count', gguf.u32(2)],
        ['qwen3.attention.head_count', gguf.u32(4)],
        ['qwen3.attention.key_length', gguf.u32(64)],
        ['qwen3.attention.value_length', gguf.u32(32)],
      ],
    });
    expect((await readGgufHeader(withKeys)).kvShape).toEqual({
      layers: 2,
      kvHeads: 4,
      keyLength: 64,
      valueLength: 32,
    });
    const bare = join(dir, 'b.gguf');
    await writeGguf(bare, { kv: [['general.architecture', gguf.str('llama')]] });
    expect((await readGgufHeader(bare)).kvShape).toBeNull();
  });
});

describe('a ladder over configurations', () => {
  const shape = { layers: 32, kvHeads: 8, keyLength: 128, valueLength: 128 };
  const GiB = 2 ** 30;
  const file = (name: string, bytes: number) =>
    served(`/m/${name}.gguf`, { kind: 'gguf-file', weightBytes: bytes, weightSource: 'file' });

  it('is every file × configuration, ordered by file + KV cache, not by file alone', () => {
    const rungs = planConfigLadder(
      [file('beta-8b-Q6_K', 6 * GiB), file('beta-8b-Q4_K_M', 4.5 * GiB)],
      rungConfigs([4096, 16384], ['f16', 'q8_0']),
      new Map([
        ['/m/beta-8b-Q6_K.gguf', shape],
        ['/m/beta-8b-Q4_K_M.gguf', shape],
      ]),
    );
    const rows = rungs.map((r) => [r.label, ((r.size?.bytes ?? 0) + (r.config?.kvBytes ?? 0)) / GiB]);
    expect(rows).toEqual([
      ['beta-8b-Q4_K_M@ctx4096-kv-q8_0', 4.5 + 0.265625],
      ['beta-8b-Q4_K_M@ctx4096-kv-f16', 5],
      ['beta-8b-Q4_K_M@ctx16384-kv-q8_0', 4.5 + 1.0625],
      ['beta-8b-Q6_K@ctx4096-kv-q8_0', 6 + 0.265625],
      // The smaller file at a long context needs as much as the larger one at a short context (a tie
      // keeps the files' order).
      ['beta-8b-Q4_K_M@ctx16384-kv-f16', 6.5],
      ['beta-8b-Q6_K@ctx4096-kv-f16', 6.5],
      ['beta-8b-Q6_K@ctx16384-kv-q8_0', 6 + 1.0625],
      ['beta-8b-Q6_K@ctx16384-kv-f16', 8],
    ]);
    expect(rungs[0]?.id).toBe('/m/beta-8b-Q4_K_M.gguf');
    expect(rungs[0]?.config).toMatchObject({ ctx: 4096, cacheType: 'q8_0', fileLabel: 'beta-8b-Q4_K_M' });
  });

  it('puts a file whose header gives no attention shape after the estimated ones, by file size', () => {
    const rungs = planConfigLadder(
      [file('a-Q4', 1 * GiB), file('b-Q8', 2 * GiB)],
      rungConfigs([4096], []),
      new Map([['/m/b-Q8.gguf', shape]]),
    );
    expect(rungs.map((r) => [r.label, r.config?.kvBytes])).toEqual([
      ['a-Q4@ctx4096', null],
      ['b-Q8@ctx4096', 0.5 * GiB],
    ]);
  });
});
