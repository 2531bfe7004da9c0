/**
 * Writes small GGUF files for header-reading tests: a v3 header with typed KV pairs (arrays included)
 * and a few tiny F32 tensors, laid out as llama.cpp expects (data aligned to 32 bytes). Not a model
 * generator: the tensor data is zeros.
 */
import { writeFile } from 'node:fs/promises';

export type GgufScalarType =
  | 'u8'
  | 'i8'
  | 'u16'
  | 'i16'
  | 'u32'
  | 'i32'
  | 'f32'
  | 'bool'
  | 'string'
  | 'u64'
  | 'i64'
  | 'f64';

export type GgufValue =
  | { type: GgufScalarType; value: number | bigint | boolean | string }
  | { type: 'array'; itemType: GgufScalarType | 'array'; items: GgufValue[] };

export interface GgufSpec {
  magic?: string;
  version?: number;
  kv: [key: string, value: GgufValue][];
  /** F32 tensors of the given shape. */
  tensors?: { name: string; dims: number[] }[];
}

const TYPE_ID: Record<GgufScalarType | 'array', number> = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12,
};
const ALIGNMENT = 32;

export const gguf = {
  u8: (value: number): GgufValue => ({ type: 'u8', value }),
  i8: (value: number): GgufValue => ({ type: 'i8', value }),
  u16: (value: number): GgufValue => ({ type: 'u16', value }),
  i16: (value: number): GgufValue => ({ type: 'i16', value }),
  u32: (value: number): GgufValue => ({ type: 'u32', value }),
  i32: (value: number): GgufValue => ({ type: 'i32', value }),
  f32: (value: number): GgufValue => ({ type: 'f32', value }),
  bool: (value: boolean): GgufValue => ({ type: 'bool', value }),
  str: (value: string): GgufValue => ({ type: 'string', value }),
  u64: (value: number | bigint): GgufValue => ({ type: 'u64', value }),
  i64: (value: number | bigint): GgufValue => ({ type: 'i64', value }),
  f64: (value: number): GgufValue => ({ type: 'f64', value }),
  array: (itemType: GgufScalarType | 'array', items: GgufValue[]): GgufValue => ({
    type: 'array',
    itemType,
    items,
  }),
};

export function ggufBytes(spec: GgufSpec): Buffer {
  const header = ggufHeader(spec);
  const data = (spec.tensors ?? []).reduce((offset, t) => align(offset + 4 * elements(t.dims)), 0);
  return Buffer.concat([header, Buffer.alloc(align(header.length) - header.length), Buffer.alloc(data)]);
}

/** The header alone: magic, counts, KV pairs and tensor infos (no alignment padding, no data). */
export function ggufHeader(spec: GgufSpec): Buffer {
  const parts: Buffer[] = [];
  const tensors = spec.tensors ?? [];
  parts.push(
    Buffer.from(spec.magic ?? 'GGUF', 'latin1'),
    u32(spec.version ?? 3),
    u64(tensors.length),
    u64(spec.kv.length),
  );
  for (const [key, value] of spec.kv) parts.push(string(key), u32(TYPE_ID[value.type]), encode(value));
  let offset = 0;
  for (const t of tensors) {
    parts.push(string(t.name), u32(t.dims.length), ...t.dims.map(u64), u32(0), u64(offset));
    offset = align(offset + 4 * elements(t.dims));
  }
  return Buffer.concat(parts);
}

export async function writeGguf(path: string, spec: GgufSpec): Promise<number> {
  const bytes = ggufBytes(spec);
  await writeFile(path, bytes);
  return bytes.length;
}

function encode(v: GgufValue): Buffer {
  if (v.type === 'array') {
    return Buffer.concat([u32(TYPE_ID[v.itemType]), u64(v.items.length), ...v.items.map(encode)]);
  }
  const b = Buffer.alloc(8);
  const n = v.value;
  switch (v.type) {
    case 'string':
      return string(String(n));
    case 'bool':
      return Buffer.from([n === true ? 1 : 0]);
    case 'u8':
      return Buffer.from([Number(n)]);
    case 'i8':
      b.writeInt8(Number(n));
      return b.subarray(0, 1);
    case 'u16':
      b.writeUInt16LE(Number(n));
      return b.subarray(0, 2);
    case 'i16':
      b.writeInt16LE(Number(n));
      return b.subarray(0, 2);
    case 'u32':
      return u32(Number(n));
    case 'i32':
      b.writeInt32LE(Number(n));
      return b.subarray(0, 4);
    case 'f32':
      b.writeFloatLE(Number(n));
      return b.subarray(0, 4);
    case 'u64':
      return u64(n as number | bigint);
    case 'i64':
      b.writeBigInt64LE(BigInt(n as number | bigint));
      return b;
    case 'f64':
      b.writeDoubleLE(Number(n));
      return b;
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

function u64(n: number | bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

function string(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([u64(bytes.length), bytes]);
}

function elements(dims: number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

function align(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}
