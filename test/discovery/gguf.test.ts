import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/discovery/gguf.js';
import { UsageError } from '../../src/util/errors.js';
import { type GgufSpec, gguf, ggufBytes, ggufHeader, writeGguf } from '../helpers/gguf-writer.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gguf-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TOKENS = Array.from({ length: 20_000 }, (_, i) => gguf.str(`tok${i}`));

/** A header with a value of every type, arrays included, in an order that puts the context length first. */
const FULL: GgufSpec = {
  kv: [
    ['qwen3.context_length', gguf.u32(40_960)],
    ['general.architecture', gguf.str('qwen3')],
    ['general.name', gguf.str('Qwen3 8B')],
    ['general.size_label', gguf.str('8B')],
    ['general.file_type', gguf.u32(15)],
    ['general.parameter_count', gguf.u64(8_190_735_360n)],
    ['general.quantization_version', gguf.u32(2)],
    ['t.u8', gguf.u8(255)],
    ['t.i8', gguf.i8(-5)],
    ['t.u16', gguf.u16(65_000)],
    ['t.i16', gguf.i16(-300)],
    ['t.i32', gguf.i32(-70_000)],
    ['t.f32', gguf.f32(0.5)],
    ['t.bool', gguf.bool(true)],
    ['t.i64', gguf.i64(-1n)],
    ['t.f64', gguf.f64(1e-6)],
    ['tokenizer.ggml.tokens', gguf.array('string', TOKENS)],
    [
      'tokenizer.ggml.scores',
      gguf.array(
        'f32',
        TOKENS.map((_, i) => gguf.f32(i)),
      ),
    ],
    ['tokenizer.chat_template', gguf.str(`{% for m in messages %}${'x'.repeat(10_000)}{% endfor %}`)],
    [
      't.nested',
      gguf.array('array', [
        gguf.array('u8', [gguf.u8(1), gguf.u8(2)]),
        gguf.array('string', [gguf.str('a')]),
      ]),
    ],
    ['qwen3.block_count', gguf.u32(36)],
  ],
  tensors: [
    { name: 'token_embd.weight', dims: [8, 4] },
    { name: 'blk.0.attn_q.weight', dims: [4, 4] },
    { name: 'output_norm.weight', dims: [4] },
  ],
};

describe('readGgufHeader', () => {
  it('reads architecture, name, size label, parameter count, file type and context length', async () => {
    const path = join(dir, 'full.gguf');
    const size = await writeGguf(path, FULL);
    const header = await readGgufHeader(path);
    // The last tensor (4 F32 = 16 bytes) ends inside the file; the writer pads the file to 32 bytes.
    expect(header.minimumBytes).toBeGreaterThan(size - 32);
    expect(header.minimumBytes).toBeLessThanOrEqual(size);
    expect(header).toEqual({
      minimumBytes: header.minimumBytes,
      version: 3,
      architecture: 'qwen3',
      name: 'Qwen3 8B',
      sizeLabel: '8B',
      parameterCount: 8_190_735_360,
      parameterSource: 'metadata',
      fileType: 'Q4_K_M',
      contextLength: 40_960,
      splitCount: null,
      tensorCount: 3,
      kvCount: FULL.kv.length,
      fileSizeBytes: size,
      // A block count without head counts: no shape to size a KV cache by.
      kvShape: null,
    });
  });

  it('writes files that node-llama-cpp reads the same way (the writer is a valid GGUF)', async () => {
    const path = join(dir, 'cross.gguf');
    await writeGguf(path, FULL);
    const { readGgufFileInfo } = await import('node-llama-cpp');
    const info = await readGgufFileInfo(path, { logWarnings: false });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe('qwen3');
    expect(info.metadata.general.file_type).toBe(15);
    expect(info.fullTensorInfo?.map((t) => t.name)).toEqual(FULL.tensors?.map((t) => t.name));
  });

  it('counts parameters from the tensors when the metadata has no parameter count', async () => {
    const path = join(dir, 'no-count.gguf');
    await writeGguf(path, { kv: [['general.architecture', gguf.str('llama')]], tensors: FULL.tensors ?? [] });
    const h = await readGgufHeader(path);
    expect(h).toMatchObject({
      parameterCount: 32 + 16 + 4,
      parameterSource: 'tensors',
      fileType: null,
      contextLength: null,
    });
  });

  it('reads a version 2 file and leaves an unknown file type unknown', async () => {
    const path = join(dir, 'v2.gguf');
    await writeGguf(path, { version: 2, kv: [['general.file_type', gguf.u32(99)]] });
    expect(await readGgufHeader(path)).toMatchObject({
      version: 2,
      fileType: null,
      parameterCount: null,
      parameterSource: null,
    });
  });

  it('reads only the header of a large file', async () => {
    const path = join(dir, 'large.gguf');
    await writeGguf(path, FULL);
    await truncate(path, 4 * 2 ** 30); // sparse: 4 GiB of "weights" that must never be read
    const started = Date.now();
    const h = await readGgufHeader(path);
    expect(h.fileSizeBytes).toBe(4 * 2 ** 30);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rejects a file that is not GGUF', async () => {
    const path = join(dir, 'text.gguf');
    await writeFile(path, 'hello, this is not a model\n');
    await expect(readGgufHeader(path)).rejects.toThrow(UsageError);
    await expect(readGgufHeader(path)).rejects.toThrow(/not a GGUF file/);
  });

  it('rejects unsupported and big-endian versions', async () => {
    const v1 = join(dir, 'v1.gguf');
    await writeGguf(v1, { version: 1, kv: [] });
    await expect(readGgufHeader(v1)).rejects.toThrow(/unsupported GGUF version 1/);
    const be = join(dir, 'be.gguf');
    await writeGguf(be, { version: 0x03000000, kv: [] });
    await expect(readGgufHeader(be)).rejects.toThrow(/big-endian/);
  });

  it('says "truncated" for a file cut anywhere inside the header, never crashing', async () => {
    const spec = { ...FULL, kv: FULL.kv.filter(([k]) => !k.startsWith('tokenizer')) };
    const bytes = ggufBytes(spec);
    const headerEnd = ggufHeader(spec).length;
    const path = join(dir, 'cut.gguf');
    for (let cut = 0; cut < headerEnd; cut += 3) {
      await writeFile(path, bytes.subarray(0, cut));
      await expect(readGgufHeader(path), `cut at ${cut}`).rejects.toThrow(/truncated GGUF file/);
    }
  });

  it('says which file is missing', async () => {
    await expect(readGgufHeader(join(dir, 'nope.gguf'))).rejects.toThrow(
      /cannot open GGUF file: .*nope\.gguf/,
    );
  });
});
