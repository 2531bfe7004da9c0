/**
 * `--status-file FILE`: the run's progress as JSON, rewritten whole (write and rename, so a reader never
 * sees half a file) whenever it changes and every second while the run goes. For tools that watch a
 * run from outside: the dashboard's run panel shows it, a CI job can print it.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { RunStatusFile } from '../results/run-status.js';
import { type RunStatus, statusLine } from './progress-line.js';

export interface StatusFile {
  write(status: RunStatus, finished?: boolean): void;
}

/** Writes at most every `minIntervalMs` (the last status of a burst is written when the next one comes, or at the end). */
export function openStatusFile(
  path: string,
  onError: (message: string) => void,
  minIntervalMs = 200,
  now: () => number = Date.now,
): StatusFile {
  let lastWrite = Number.NEGATIVE_INFINITY;
  let broken = false;
  return {
    write(status, finished = false) {
      if (broken || (!finished && now() - lastWrite < minIntervalMs)) return;
      lastWrite = now();
      const body: RunStatusFile = {
        line: statusLine(status),
        running: [...status.running],
        done: status.done,
        total: status.total,
        elapsed_ms: Math.round(status.elapsedMs),
        left_ms: status.leftMs === null ? null : Math.round(status.leftMs),
        finished,
      };
      const tmp = `${path}.tmp`;
      try {
        writeFileSync(tmp, `${JSON.stringify(body)}\n`);
        renameSync(tmp, path);
      } catch (err) {
        // Progress for onlookers never stops the run: say so once and stop writing.
        broken = true;
        onError(
          `cannot write the status file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        );
      }
    },
  };
}
