/** When a rung passes, and so when the ladder stops. */
import type { ResultFile } from '../results/result-file.js';

/** Every trial passed, k of k (in a shard's file, every trial of its share), and nothing was tampered with. */
export function taskPasses(result: ResultFile): boolean {
  const { shard } = result;
  const allPassed =
    shard === undefined
      ? result.pass_all_k
      : result.trials.filter((t) => t.passed).length === shard.trials.length;
  return result.status === 'complete' && allPassed && result.tamper_detected_count === 0;
}

/**
 * A measured failure: a trial that failed, or tampering, decides pass^k whatever else went wrong. A
 * task whose trials only errored (the model server failed) is neither passed nor failed.
 */
export function taskFails(result: ResultFile): boolean {
  return result.tamper_detected_count > 0 || result.trials.some((t) => t.status === 'failed');
}

/**
 * What a rung's results show: every task passes; some task fails as measured; or neither is known
 * (`error`: a task errored or never ran, and none failed), which is never taken as a failure.
 */
export function rungOutcome(
  taskIds: readonly string[],
  results: readonly ResultFile[],
): 'passed' | 'failed' | 'error' {
  if (passesSuite(taskIds, results)) return 'passed';
  return results.some(taskFails) ? 'failed' : 'error';
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
