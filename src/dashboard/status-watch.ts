/**
 * Follows a run's --status-file (src/run/status-file.ts) while the child runs: reads it every half
 * second and passes on each new content. The CLI writes it by rename, so a read sees a whole file or
 * the one before; a file not there yet (the run has not planned its trials) or unreadable is skipped.
 */
import { readFile, rm } from 'node:fs/promises';
import type { StatusFileBody } from '../run/status-file.js';

const POLL_MS = 500;

export interface StatusWatch {
  /** Reads it a last time, stops, and removes the file. */
  stop(): void;
}

export function watchStatusFile(
  path: string,
  onStatus: (status: StatusFileBody) => void,
  pollMs = POLL_MS,
): StatusWatch {
  let last = '';
  let stopped = false;
  const poll = async (): Promise<void> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return;
    }
    if (text === last) return;
    last = text;
    const body = parseStatus(text);
    if (body !== null) onStatus(body);
  };
  const timer = setInterval(() => {
    if (!stopped) void poll();
  }, pollMs);
  timer.unref();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      void poll().finally(() => rm(path, { force: true }).catch(() => {}));
    },
  };
}

/** The fields the panel shows, checked: the file is the child's, but a stale or foreign one must not break the page. */
function parseStatus(text: string): StatusFileBody | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const b = v as Record<string, unknown>;
  const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  if (typeof b.line !== 'string' || !num(b.done) || !num(b.total) || !num(b.elapsed_ms)) return null;
  if (!(b.left_ms === null || num(b.left_ms)) || typeof b.finished !== 'boolean' || !Array.isArray(b.running))
    return null;
  return v as StatusFileBody;
}
