/**
 * Time left in a run, from the wall time per finished trial so far times the trials left. Wall time
 * per trial, not the trials' own durations: it counts container start-up, setup and judging, and
 * whatever parallelism the run really gets. Trials in flight count as left (an upper bound, as it is
 * when early stop cuts a task short). null until a trial has finished: there is nothing to go on.
 */
export function estimateLeftMs(o: { elapsedMs: number; done: number; left: number }): number | null {
  if (o.left <= 0) return 0;
  if (o.done <= 0) return null;
  return Math.round((o.elapsedMs / o.done) * o.left);
}
