/**
 * Splits Docker's multiplexed attach stream (Tty false): 8-byte headers, byte 0 the stream
 * (1 stdout, 2 stderr), bytes 4-7 the big-endian payload length. Headers may arrive split across
 * chunks. Written here rather than using docker-modem's demuxStream, which never ends its sinks
 * and falls back to raw passthrough on a bad header instead of failing.
 */
export type FrameSink = (stream: 'stdout' | 'stderr', payload: Buffer) => void;

export class FrameDemuxer {
  private pending: Buffer = Buffer.alloc(0);
  private readonly sink: FrameSink;

  constructor(sink: FrameSink) {
    this.sink = sink;
  }

  push(chunk: Buffer): void {
    let buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (buf.length >= 8) {
      const type = buf[0];
      const length = buf.readUInt32BE(4);
      if (type !== 0 && type !== 1 && type !== 2)
        throw new Error(`bad frame header from the engine (stream type ${type})`);
      if (buf.length < 8 + length) break;
      // stdin echoes (type 0) never happen without a TTY; ignore them if they do.
      if (type !== 0) this.sink(type === 1 ? 'stdout' : 'stderr', buf.subarray(8, 8 + length));
      buf = buf.subarray(8 + length);
    }
    this.pending = Buffer.from(buf);
  }

  /** Bytes of a frame that never completed (the stream was cut). */
  get leftover(): number {
    return this.pending.length;
  }
}

/** Keeps at most `limit` bytes; counts the rest. */
export class ByteCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private readonly limit: number;
  dropped = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room >= chunk.length) {
      this.chunks.push(Buffer.from(chunk));
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(Buffer.from(chunk.subarray(0, room)));
      this.kept += room;
    }
    this.dropped += chunk.length - Math.max(room, 0);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}
