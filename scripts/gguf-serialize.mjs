/**
 * A minimal GGUF v3 writer: typed metadata and F32 tensors, laid out as llama.cpp reads them
 * (tensor data in one section, every tensor's offset aligned to `general.alignment`).
 * Value and tensor type numbers are those of gguf-py/gguf/constants.py.
 */
export const GGUF = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML_TYPE_F32 = 0;

/**
 * kv: [key, type, value][], with array values as { type, items }.
 * tensors: { name, dims (innermost first), data: Float32Array }[].
 */
export function serializeGguf({ kv, tensors, alignment }) {
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
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += Math.ceil(t.data.byteLength / alignment) * alignment;
  }
  w.pad(alignment);
  for (const t of tensors) {
    // Float32Array bytes are host order; GGUF is little-endian, as are x86 and ARM hosts.
    w.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.pad(alignment);
  }
  return w.toBuffer();
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
