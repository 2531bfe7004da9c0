/**
 * Reads a GGUF file's header (metadata key/values and tensor infos) without loading the model.
 * Format: "GGUF", u32 version, u64 tensor count, u64 KV count, then KV pairs (u64-length key, u32 type,
 * value) and tensor infos (name, u32 n_dims, u64 dims, u32 type, u64 offset). Versions 2 and 3 share
 * this layout; version 1 used 32-bit counts and is long gone.
 */
import { ByteReader } from './gguf-reader.js';
import { fileTypeName } from './quant.js';

export interface GgufHeader {
  version: number;
  architecture: string | null;
  name: string | null;
  /** `general.size_label`, e.g. "8B", "30B-A3B", "E4B". */
  sizeLabel: string | null;
  /** `general.parameter_count` when present, otherwise the sum of the tensors' element counts. */
  parameterCount: number | null;
  parameterSource: 'metadata' | 'tensors' | null;
  /** llama.cpp name of `general.file_type` (e.g. "Q4_K_M"); null when absent or unknown. */
  fileType: string | null;
  /** `<architecture>.context_length`: the training context. */
  contextLength: number | null;
  /** `split.count` of a model split across files (this file is one shard). */
  splitCount: number | null;
  tensorCount: number;
  kvCount: number;
  fileSizeBytes: number;
}

type Scalar = number | boolean | string;

/** Byte size of each fixed-size value type: u8 i8 u16 i16 u32 i32 f32 bool, then u64 i64 f64 (8 string, 9 array). */
const FIXED_SIZE: Readonly<Record<number, number>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};
const STRING = 8;
const ARRAY = 9;
/** Longer strings (chat templates) are skipped: nothing here needs them. */
const MAX_KEPT_STRING = 4096;
const MAX_KEY = 65_535;
const MAX_DIMS = 8;

export async function readGgufHeader(path: string): Promise<GgufHeader> {
  const r = await ByteReader.open(path);
  try {
    const magic = (await r.take(4)).toString('latin1');
    if (magic !== 'GGUF') {
      throw r.corrupt(`not a GGUF file (starts with ${JSON.stringify(magic)}, expected "GGUF")`);
    }
    const version = await r.u32();
    if (version !== 2 && version !== 3) {
      const hint = version > 0xffff ? ' (a big-endian GGUF file?)' : '';
      throw r.corrupt(`unsupported GGUF version ${version}${hint}; versions 2 and 3 are supported`);
    }
    const tensorCount = await r.u64();
    const kvCount = await r.u64();
    const kv = new Map<string, Scalar>();
    for (let i = 0; i < kvCount; i++) {
      const key = await readString(r, MAX_KEY);
      if (key === null) throw r.corrupt(`metadata key ${i} is longer than ${MAX_KEY} bytes`);
      const value = await readValue(r, await r.u32(), 0);
      if (value !== undefined) kv.set(key, value);
    }
    const tensorElements = await readTensorInfos(r, tensorCount);
    const arch = str(kv.get('general.architecture'));
    const declared = num(kv.get('general.parameter_count'));
    const fileTypeId = num(kv.get('general.file_type'));
    const splitCount = num(kv.get('split.count'));
    // A shard of a split model holds only some of the tensors: their sum is not the model's size.
    const counted = tensorCount > 0 && (splitCount ?? 1) <= 1 ? tensorElements : null;
    return {
      version,
      architecture: arch,
      name: str(kv.get('general.name')),
      sizeLabel: str(kv.get('general.size_label')),
      parameterCount: declared ?? counted,
      parameterSource: declared !== null ? 'metadata' : counted !== null ? 'tensors' : null,
      fileType: fileTypeId === null ? null : fileTypeName(fileTypeId),
      contextLength: arch === null ? null : num(kv.get(`${arch}.context_length`)),
      splitCount,
      tensorCount,
      kvCount,
      fileSizeBytes: r.size,
    };
  } finally {
    await r.close();
  }
}

/** Total element count of all tensors (what llama.cpp reports as the model's parameter count). */
async function readTensorInfos(r: ByteReader, count: number): Promise<number> {
  let total = 0n;
  for (let i = 0; i < count; i++) {
    r.skip(await r.u64()); // name
    const nDims = await r.u32();
    if (nDims > MAX_DIMS) throw r.corrupt(`tensor ${i} has ${nDims} dimensions`);
    let elements = 1n;
    for (let d = 0; d < nDims; d++) elements *= BigInt(await r.u64());
    total += elements;
    r.skip(4 + 8); // ggml type, data offset
  }
  return Number(total);
}

/** A kept scalar, or undefined for arrays and long strings (skipped without materialising them). */
async function readValue(r: ByteReader, type: number, depth: number): Promise<Scalar | undefined> {
  if (type === STRING) return (await readString(r, MAX_KEPT_STRING)) ?? undefined;
  if (type === ARRAY) {
    if (depth > 2) throw r.corrupt('arrays nested deeper than 3 levels');
    const elementType = await r.u32();
    const count = await r.u64();
    const size = FIXED_SIZE[elementType];
    if (size !== undefined) r.skip(count * size);
    else for (let i = 0; i < count; i++) await readValue(r, elementType, depth + 1);
    return undefined;
  }
  const size = FIXED_SIZE[type];
  if (size === undefined) throw r.corrupt(`unknown metadata value type ${type} at byte ${r.pos - 4}`);
  const b = await r.take(size);
  switch (type) {
    case 0:
      return b.readUInt8(0);
    case 1:
      return b.readInt8(0);
    case 2:
      return b.readUInt16LE(0);
    case 3:
      return b.readInt16LE(0);
    case 4:
      return b.readUInt32LE(0);
    case 5:
      return b.readInt32LE(0);
    case 6:
      return b.readFloatLE(0);
    case 7:
      return b.readUInt8(0) !== 0;
    case 10:
      return Number(b.readBigUInt64LE(0));
    case 11:
      return Number(b.readBigInt64LE(0));
    default:
      return b.readDoubleLE(0);
  }
}

/** The string, or null when it is longer than max (then it is skipped, not read). */
async function readString(r: ByteReader, max: number): Promise<string | null> {
  const length = await r.u64();
  if (length > max) {
    r.skip(length);
    return null;
  }
  return (await r.take(length)).toString('utf8');
}

function str(v: Scalar | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: Scalar | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
