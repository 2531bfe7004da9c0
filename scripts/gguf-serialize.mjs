/**
 * A minimal GGUF v3 writer: typed metadata and F32 or F16 tensors, laid out as llama.cpp reads them
 * (tensor data in one section, every tensor's offset aligned to `general.alignment`), and a reader of
 * a file's metadata (to copy a tokenizer from one model into another).
 * Value and tensor type numbers are those of gguf-py/gguf/constants.py.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export const GGUF = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML_TYPE_F32 = 0;
const GGML_TYPE_F16 = 1;

/**
 * kv: [key, type, value][], with array values as { type, items }.
 * tensors: { name, dims (innermost first), data }[]: a Float32Array is F32, a Uint16Array holds
 * F16 bit patterns (see toF16).
 */
export function serializeGguf(spec) {
  const w = new ByteWriter();
  writeGguf(spec, (buf) => w.push(buf));
  return w.toBuffer();
}

/** The same bytes as serializeGguf, written to `path` as they are made (no copy of the whole model in memory). */
export function writeGgufFile(path, spec) {
  const fd = openSync(path, 'w');
  try {
    writeGguf(spec, (buf) => writeSync(fd, buf));
  } finally {
    closeSync(fd);
  }
}

function writeGguf({ kv, tensors, alignment }, sink) {
  const w = new ByteWriter();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, type, value] of kv) {
    w.str(key);
    w.u32(type);
    writeValue(w, type, value);
  }

  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(tensorType(t.data));
    w.u64(offset);
    offset += Math.ceil(t.data.byteLength / alignment) * alignment;
  }
  w.pad(alignment);
  sink(w.toBuffer());
  for (const t of tensors) {
    // Typed array bytes are host order; GGUF is little-endian, as are x86 and ARM hosts.
    sink(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    const rem = t.data.byteLength % alignment;
    if (rem !== 0) sink(Buffer.alloc(alignment - rem));
  }
}

function tensorType(data) {
  if (data instanceof Float32Array) return GGML_TYPE_F32;
  if (data instanceof Uint16Array) return GGML_TYPE_F16;
  throw new Error('tensor data must be a Float32Array (F32) or a Uint16Array (F16 bits)');
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half-precision bits of `x`, rounded to nearest even; out-of-range values become ±infinity. */
export function toF16(x) {
  f32[0] = x;
  const bits = u32[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant === 0 ? 0 : 0x200);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign; // underflows to ±0
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = m & ((1 << shift) - 1);
    let out = m >>> shift;
    if (rest > half || (rest === half && (out & 1) === 1)) out++;
    return sign | out;
  }
  let out = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa moves into the exponent, which is the right rounding.
  if (rest > 0x1000 || (rest === 0x1000 && (out & 1) === 1)) out++;
  return sign | out;
}

/**
 * The metadata of a GGUF v2/v3 file held in `bytes`, as a Map key -> { type, value } (arrays as
 * { type, items }), in file order. Tensor infos and data are not read.
 */
export function readGgufMetadata(bytes) {
  let pos = 0;
  const need = (n) => {
    if (pos + n > bytes.length) throw new Error(`truncated GGUF: needs byte ${pos + n} of ${bytes.length}`);
    const at = pos;
    pos += n;
    return at;
  };
  const u64 = () => Number(bytes.readBigUInt64LE(need(8)));
  const str = () => {
    const n = u64();
    const at = need(n);
    return bytes.toString('utf8', at, at + n);
  };
  const scalar = {
    0: () => bytes.readUInt8(need(1)),
    1: () => bytes.readInt8(need(1)),
    2: () => bytes.readUInt16LE(need(2)),
    3: () => bytes.readInt16LE(need(2)),
    4: () => bytes.readUInt32LE(need(4)),
    5: () => bytes.readInt32LE(need(4)),
    6: () => bytes.readFloatLE(need(4)),
    7: () => bytes.readUInt8(need(1)) !== 0,
    8: str,
    10: () => bytes.readBigUInt64LE(need(8)),
    11: () => bytes.readBigInt64LE(need(8)),
    12: () => bytes.readDoubleLE(need(8)),
  };
  const value = (type) => {
    if (type === GGUF.ARRAY) {
      const itemType = bytes.readUInt32LE(need(4));
      const n = u64();
      const items = new Array(n);
      for (let i = 0; i < n; i++) items[i] = value(itemType);
      return { type: itemType, items };
    }
    const read = scalar[type];
    if (read === undefined) throw new Error(`unknown GGUF value type ${type}`);
    return read();
  };
  if (bytes.toString('ascii', 0, 4) !== 'GGUF') throw new Error('not a GGUF file (no GGUF magic)');
  pos = 4;
  const version = bytes.readUInt32LE(need(4));
  if (version !== 2 && version !== 3) throw new Error(`GGUF version ${version} is not supported (2 or 3)`);
  u64(); // tensor count
  const kvCount = u64();
  const kv = new Map();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    const type = bytes.readUInt32LE(need(4));
    kv.set(key, { type, value: value(type) });
  }
  return kv;
}

function writeValue(w, type, value) {
  if (type === GGUF.UINT32) w.u32(value);
  else if (type === GGUF.INT32) w.i32(value);
  else if (type === GGUF.FLOAT32) w.f32(value);
  else if (type === GGUF.BOOL) w.push(Buffer.from([value ? 1 : 0]));
  else if (type === GGUF.STRING) w.str(value);
  else if (type === GGUF.ARRAY) {
    w.u32(value.type);
    w.u64(value.items.length);
    for (const item of value.items) writeValue(w, value.type, item);
  } else throw new Error(`unsupported GGUF value type ${type}`);
}

class ByteWriter {
  chunks = [];
  length = 0;
  push(buf) {
    this.chunks.push(buf);
    this.length += buf.length;
  }
  u32(v) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(alignment) {
    const rem = this.length % alignment;
    if (rem !== 0) this.push(Buffer.alloc(alignment - rem));
  }
  toBuffer() {
    return Buffer.concat(this.chunks, this.length);
  }
}
