/**
 * The tasks of a run on up to `parallel` workers. Trials start in order (task by task, each task's
 * in index order); a worker that finishes takes the next trial, of the same task or of the next one,
 * so a task's last trials overlap the next task's first. Anything that stops one trial for good (the
 * user's abort, a server that fails for good, a results file that cannot be written) stops them all:
 * the trials in flight are aborted, and every task that had not ended is saved as `interrupted`.
 */
import type { ResultFile } from '../results/result-file.js';
import { errorMessage, InterruptedError } from '../util/errors.js';
import { runPool } from './pool.js';
import { RunStoppedError } from './run-stopped.js';
import type { TaskRun } from './run-task.js';

/** U: what a task run is opened from (a task, or a task under a condition). */
export interface TasksRunOptions<U> {
  tasks: readonly U[];
  /** Trials at once, >= 1. */
  parallel: number;
  /**
   * The run of one task, its trials to stop on `signal`; a result returned as it is was complete
   * already (--resume) and runs nothing.
   */
  open(task: U, signal: AbortSignal): Promise<TaskRun | ResultFile>;
  /** A task ended (complete, early-stopped, or in error) and its file is final. */
  onTaskEnd?(result: ResultFile, path: string): void;
  signal?: AbortSignal;
}

/** One result per task, in task order. Throws RunStoppedError (with every result so far) or InterruptedError. */
export async function runTasks<U>(o: TasksRunOptions<U>): Promise<ResultFile[]> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(o.signal?.reason);
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  const entries: (TaskRun | ResultFile)[] = [];
  const ended = new Set<TaskRun>();
  const end = async (run: TaskRun): Promise<void> => {
    if (ended.has(run)) return;
    ended.add(run);
    const result = await run.finish();
    o.onTaskEnd?.(result, run.path());
  };

  async function* trials(): AsyncGenerator<{ run: TaskRun; index: number }> {
    for (const task of o.tasks) {
      if (stop.signal.aborted) return;
      const run = await o.open(task, stop.signal);
      entries.push(run);
      if (!isTaskRun(run)) continue;
      await run.start();
      while (!stop.signal.aborted) {
        const index = run.take();
        if (index === null) break;
        yield { run, index };
      }
      // Nothing was left to run (all resumed), or the last trial ended before this check.
      if (run.settled()) await end(run);
    }
  }

  let failure: { error: unknown } | null = null;
  try {
    await runPool(
      o.parallel,
      trials(),
      async ({ run, index }) => {
        await run.runTrial(index);
        if (run.settled()) await end(run);
      },
      (error) => {
        failure = { error };
        stop.abort(new InterruptedError('stopped: the run cannot go on', { cause: error }));
      },
    );
  } catch {
    // The first failure is in `failure` (set before the pool waited for the trials in flight).
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }

  const runs = entries.filter(isTaskRun);
  // An abort between trials throws nothing, yet stops the run all the same.
  if (failure === null && o.signal?.aborted === true) failure = { error: o.signal.reason };
  const stopped = failure as { error: unknown } | null;
  if (stopped === null) {
    for (const run of runs) await end(run);
    return entries.map(resultOf);
  }
  const why = o.signal?.aborted === true ? null : `not finished: ${errorMessage(stopped.error)}`;
  for (const run of runs) if (!ended.has(run)) await run.interrupt(why);
  if (o.signal?.aborted === true) throw new InterruptedError('interrupted', { cause: stopped.error });
  if (stopped.error instanceof RunStoppedError)
    throw new RunStoppedError(stopped.error.message, entries.map(resultOf), { cause: stopped.error });
  throw stopped.error;
}

function isTaskRun(entry: TaskRun | ResultFile): entry is TaskRun {
  return 'take' in entry;
}

function resultOf(entry: TaskRun | ResultFile): ResultFile {
  return isTaskRun(entry) ? entry.result() : entry;
}
