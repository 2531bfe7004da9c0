/**
 * Little-endian reads from the front of a file through one small buffer: a GGUF header is read without
 * loading the file, and skipped regions (arrays, tensor data) are never read at all.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { errorMessage, UsageError } from '../util/errors.js';

const CHUNK = 64 * 1024;
/** Bytes actually read from disk: a real header (tokenizer arrays included) is a few MiB. */
const MAX_READ_BYTES = 128 * 1024 * 1024;

export class ByteReader {
  readonly path: string;
  readonly size: number;
  /** File offset of the next read. */
  pos = 0;
  private readonly fh: FileHandle;
  private buf: Buffer = Buffer.alloc(0);
  private bufStart = 0;
  private bytesRead = 0;

  private constructor(fh: FileHandle, path: string, size: number) {
    this.fh = fh;
    this.path = path;
    this.size = size;
  }

  static async open(path: string): Promise<ByteReader> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'r');
    } catch (err) {
      throw new UsageError(`cannot open GGUF file: ${errorMessage(err)}`, { cause: err });
    }
    const { size } = await fh.stat();
    return new ByteReader(fh, path, size);
  }

  async close(): Promise<void> {
    await this.fh.close();
  }

  async take(n: number): Promise<Buffer> {
    const end = this.need(n);
    if (this.pos < this.bufStart || end > this.bufStart + this.buf.length) {
      const len = Math.min(Math.max(n, CHUNK), this.size - this.pos);
      this.bytesRead += len;
      if (this.bytesRead > MAX_READ_BYTES) {
        throw new UsageError(
          `${this.path}: GGUF header larger than ${MAX_READ_BYTES / 2 ** 20} MiB (corrupt file?)`,
        );
      }
      const buf = Buffer.alloc(len);
      const { bytesRead } = await this.fh.read(buf, 0, len, this.pos);
      if (bytesRead < n) throw this.truncated(end);
      this.buf = buf.subarray(0, bytesRead);
      this.bufStart = this.pos;
    }
    const offset = this.pos - this.bufStart;
    this.pos = end;
    return this.buf.subarray(offset, offset + n);
  }

  skip(n: number): void {
    this.pos = this.need(n);
  }

  async u32(): Promise<number> {
    return (await this.take(4)).readUInt32LE(0);
  }

  /** A 64-bit count or length; one beyond 2^53 cannot be real in a file this size. */
  async u64(): Promise<number> {
    const v = (await this.take(8)).readBigUInt64LE(0);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw this.corrupt(`64-bit value ${v} at byte ${this.pos - 8}`);
    return Number(v);
  }

  corrupt(what: string): UsageError {
    return new UsageError(`${this.path}: corrupt GGUF header: ${what}`);
  }

  private need(n: number): number {
    const end = this.pos + n;
    if (!Number.isSafeInteger(end) || n < 0 || end > this.size) throw this.truncated(end);
    return end;
  }

  private truncated(end: number): UsageError {
    return new UsageError(
      `${this.path}: truncated GGUF file: the header needs byte ${end} but the file has ${this.size} bytes`,
    );
  }
}
