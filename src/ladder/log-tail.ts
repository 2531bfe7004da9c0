import { open } from 'node:fs/promises';

const TAIL_BYTES = 16 * 1024;

/** The last `lines` non-empty lines of a log file; empty when it cannot be read. */
export async function logTail(path: string, lines = 20): Promise<string[]> {
  try {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const length = Math.min(size, TAIL_BYTES);
      const { buffer } = await file.read(Buffer.alloc(length), 0, length, size - length);
      const text = buffer.toString('utf8');
      // Reading from the middle of the file starts mid-line: that first piece is dropped.
      return (length < size ? text.slice(text.indexOf('\n') + 1) : text)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '')
        .slice(-lines);
    } finally {
      await file.close();
    }
  } catch {
    return [];
  }
}
