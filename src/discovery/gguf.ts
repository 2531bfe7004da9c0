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
  /**
   * The least size the file must have to hold every tensor the header lists (data start plus the
   * furthest tensor's end; tensors of a type not in BLOCK count from their start only). A file
   * shorter than this is truncated — typically a download that did not finish.
   */
  minimumBytes: number;
  /** The attention shape the KV cache is sized by; null when the header lacks any of it. */
  kvShape: KvShape | null;
}

/** Per layer, the cache holds kvHeads × (keyLength + valueLength) elements per token. */
export interface KvShape {
  layers: number;
  kvHeads: number;
  keyLength: number;
  valueLength: number;
}

/** ggml type id -> [elements per block, bytes per block], for the types quantized models use. */
const BLOCK: Readonly<Record<number, readonly [number, number]>> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  30: [1, 2], // BF16
};

const DEFAULT_ALIGNMENT = 32;

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
    const tensors = await readTensorInfos(r, tensorCount);
    const tensorElements = tensors.elements;
    const alignment = num(kv.get('general.alignment')) ?? DEFAULT_ALIGNMENT;
    const dataStart = Math.ceil(r.pos / alignment) * alignment;
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
      minimumBytes: tensorCount === 0 ? r.pos : dataStart + tensors.dataEnd,
      kvShape: arch === null ? null : kvShapeOf(kv, arch),
    };
  } finally {
    await r.close();
  }
}

/**
 * `<arch>.block_count`, `.attention.head_count(_kv)`, `.embedding_length`, `.attention.key_length` and
 * `.value_length` (absent: embedding / heads, as llama.cpp defaults them). A per-layer head count
 * (an array, skipped by this reader) leaves the shape unknown rather than guessed.
 */
function kvShapeOf(kv: ReadonlyMap<string, Scalar>, arch: string): KvShape | null {
  const layers = num(kv.get(`${arch}.block_count`));
  const heads = num(kv.get(`${arch}.attention.head_count`));
  const embedding = num(kv.get(`${arch}.embedding_length`));
  if (layers === null || heads === null || heads === 0) return null;
  const kvHeads = num(kv.get(`${arch}.attention.head_count_kv`)) ?? heads;
  const headDim = embedding === null ? null : embedding / heads;
  const keyLength = num(kv.get(`${arch}.attention.key_length`)) ?? headDim;
  const valueLength = num(kv.get(`${arch}.attention.value_length`)) ?? headDim;
  if (keyLength === null || valueLength === null) return null;
  return { layers, kvHeads, keyLength, valueLength };
}

/**
 * Total element count of all tensors (what llama.cpp reports as the model's parameter count), and
 * the furthest end of a tensor's data, relative to the data section.
 */
async function readTensorInfos(r: ByteReader, count: number): Promise<{ elements: number; dataEnd: number }> {
  let total = 0n;
  let dataEnd = 0;
  for (let i = 0; i < count; i++) {
    r.skip(await r.u64()); // name
    const nDims = await r.u32();
    if (nDims > MAX_DIMS) throw r.corrupt(`tensor ${i} has ${nDims} dimensions`);
    let elements = 1n;
    for (let d = 0; d < nDims; d++) elements *= BigInt(await r.u64());
    total += elements;
    const block = BLOCK[await r.u32()];
    const offset = await r.u64();
    const bytes = block === undefined ? 0 : Math.ceil(Number(elements) / block[0]) * block[1];
    dataEnd = Math.max(dataEnd, offset + bytes);
  }
  return { elements: Number(total), dataEnd };
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
