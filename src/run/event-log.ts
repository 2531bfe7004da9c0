import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggedEvent, TrialEvent } from '../results/events.js';
import { EVENTS_FILE } from '../results/layout.js';

/**
 * Appends every event to <resultsDir>/events.jsonl as it happens (the dashboard tails it). Appends are
 * synchronous and line-sized so concurrent readers never see half a line from us.
 */
export function openEventLog(
  resultsDir: string,
): (runId: string, task: string, model: string, event: TrialEvent) => void {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, EVENTS_FILE);
  return (run_id, task, model, event) => {
    const line: LoggedEvent = { ts: new Date().toISOString(), run_id, task, model, event };
    appendFileSync(path, `${JSON.stringify(line)}\n`);
  };
}
