/**
 * Follows a run's --status-file (src/run/status-file.ts) while the child runs: reads it every half
 * second and passes on each new content. The CLI writes it by rename, so a read sees a whole file or
 * the one before; a file not there yet (the run has not planned its trials) or unreadable is skipped.
 */
import { readFile, rm } from 'node:fs/promises';
import { parseRunStatus, type RunStatusFile } from '../results/run-status.js';

const POLL_MS = 500;

export interface StatusWatch {
  /** Reads it a last time, stops, and removes the file. */
  stop(): void;
}

export function watchStatusFile(
  path: string,
  onStatus: (status: RunStatusFile) => void,
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
    const body = parseRunStatus(text);
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
