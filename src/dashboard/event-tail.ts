/**
 * Follows <results>/events.jsonl from a byte offset, calling back once per complete line. The runner
 * appends whole lines; a line still being written is held until its newline arrives.
 */
import { open, stat } from 'node:fs/promises';
import { parseEventLine } from '../results/event-line.js';
import type { LoggedEvent } from '../results/events.js';

export interface EventTail {
  stop(): void;
  /** Delivers every complete line appended so far (after any read in progress), then resolves. */
  flush(): Promise<void>;
}

const POLL_MS = 200;
const MAX_READ = 1024 * 1024;

/** Size of the file now (0 when it does not exist yet): where a tail "from now" starts. */
export async function currentSize(path: string): Promise<number> {
  return (await stat(path).catch(() => null))?.size ?? 0;
}

export function tailEvents(
  path: string,
  fromOffset: number,
  onEvent: (e: LoggedEvent) => void,
  pollMs = POLL_MS,
): EventTail {
  let offset = fromOffset;
  let pending = Buffer.alloc(0);
  let stopped = false;
  /** Reads what was appended since the last read; true when it reached the size it saw. */
  const readNew = async (): Promise<boolean> => {
    try {
      const size = await currentSize(path);
      // Truncated or replaced: start again from the top of the new file.
      if (size < offset) [offset, pending] = [0, Buffer.alloc(0)];
      if (size === offset) return true;
      const handle = await open(path, 'r');
      try {
        const buf = Buffer.alloc(Math.min(size - offset, MAX_READ));
        const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
        offset += bytesRead;
        // Split on the newline byte, never inside a multi-byte character cut by the read size.
        const data = Buffer.concat([pending, buf.subarray(0, bytesRead)]);
        const end = data.lastIndexOf(0x0a);
        pending = end === -1 ? data : data.subarray(end + 1);
        const complete = end === -1 ? '' : data.subarray(0, end).toString('utf8');
        for (const line of complete.split('\n')) {
          const event = parseEventLine(line);
          if (event !== null && !stopped) onEvent(event);
        }
        return offset >= size;
      } finally {
        await handle.close();
      }
    } catch {
      // A file that vanished between stat and open is picked up again on the next poll.
      return true;
    }
  };
  // One read at a time: a timer tick during a slow read joins it instead of reading the same bytes.
  let reading: Promise<boolean> | null = null;
  const poll = (): Promise<boolean> => {
    reading ??= readNew().finally(() => {
      reading = null;
    });
    return reading;
  };
  const timer = setInterval(() => {
    if (!stopped) void poll();
  }, pollMs);
  void poll();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    async flush() {
      // A read in progress may have seen the file before its last lines were appended: read again.
      if (reading !== null) await reading;
      while (!stopped && !(await poll())) {}
    },
  };
}
