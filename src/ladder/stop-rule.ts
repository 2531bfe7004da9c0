/** When a rung passes, and so when the ladder stops. */
import type { ResultFile } from '../results/result-file.js';

/** Every trial passed, k of k, and nothing was tampered with. */
export function taskPasses(result: ResultFile): boolean {
  return result.status === 'complete' && result.pass_all_k && result.tamper_detected_count === 0;
}

/** A model passes the suite when every task has a passing result; a task with no result fails. */
export function passesSuite(taskIds: readonly string[], results: readonly ResultFile[]): boolean {
  return taskIds.every((id) => {
    const result = results.find((r) => r.task_id === id);
    return result !== undefined && taskPasses(result);
  });
}

/** The first passing rung ends the ladder, unless every rung is to run (`--exhaustive`). */
export function ladderGoesOn(rungPassed: boolean, exhaustive: boolean): boolean {
  return exhaustive || !rungPassed;
}
