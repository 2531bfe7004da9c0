/**
 * Runs the k trials of one task for one model: one sandbox reused across trials (or one per trial
 * with fresh_container), the results file rewritten after every trial, early stop at the first failure.
 * A model server that fails for good stops the run (RunStoppedError); the file is never left `running`.
 */
import { join } from 'node:path';
import { errorTrial } from '../agent/error-trial.js';
import { runTrial } from '../agent/loop.js';
import type { ChatModel } from '../models/types.js';
import type { EventSink } from '../results/events.js';
import { artifactsDir } from '../results/layout.js';
import type { Environment, ResultFile, RunSettings } from '../results/result-file.js';
import { withHash, writeResultFile } from '../results/store.js';
import type { TrialError, TrialRecord } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { errorMessage, InterruptedError } from '../util/errors.js';
import { summarize, unmeasuredReasons } from './aggregate.js';
import { RunStoppedError } from './run-stopped.js';
import { DISPATCH_LIMITS, nonComparableReasons } from './settings.js';

export interface TaskRunOptions {
  runId: string;
  task: Task;
  taskVersion: string;
  modelName: string;
  /** A fresh model per trial (a scripted model keeps a cursor). */
  makeModel: () => ChatModel;
  openSandbox: () => Promise<Sandbox>;
  settings: RunSettings;
  resultsDir: string;
  environment: Environment;
  onEvent?: EventSink;
  signal?: AbortSignal;
  /** Continue this earlier, unfinished result instead of starting anew. */
  resumeFrom?: ResultFile;
  /** How a results file is written (default writeResultFile); tests make it fail. */
  writeResult?: (dir: string, result: ResultFile) => Promise<string>;
}

export interface TaskRunOutcome {
  result: ResultFile;
  path: string;
}

/** After this many error trials in a row the task stops: the sandbox (or the server) keeps failing. */
const MAX_CONSECUTIVE_ERRORS = 2;

/**
 * Failures no later trial can get past: a server that cannot be reached, keeps failing, refuses the
 * key, lost the model or rejects the requests does the same to the next trial, so the run stops. A
 * context overflow ends only its own trial (a shorter conversation may fit), a harness error only
 * its sandbox.
 */
const ENDS_RUN: ReadonlySet<TrialError['kind']> = new Set([
  'unreachable',
  'server_error',
  'model_not_found',
  'unauthorized',
  'rejected',
]);

export async function runTaskTrials(o: TaskRunOptions): Promise<TaskRunOutcome> {
  const { task, settings } = o;
  const trials: TrialRecord[] = [...(o.resumeFrom?.trials ?? [])];
  const runId = o.resumeFrom?.run_id ?? o.runId;
  const startedAt = o.resumeFrom?.started_at ?? new Date().toISOString();
  const write = o.writeResult ?? writeResultFile;
  let status: ResultFile['status'] = 'running';
  let error: string | null = null;
  let path = '';
  /** Trials the file on disk holds in full. */
  let written = 0;

  const build = (list: readonly TrialRecord[]): ResultFile => {
    const reasons = [...nonComparableReasons(settings), ...unmeasuredReasons(settings.k, list)];
    return withHash({
      run_id: runId,
      task_id: task.id,
      task_version: o.taskVersion,
      model: o.modelName,
      status,
      k: settings.k,
      early_stopped: settings.early_stop && status === 'complete' && list.length < settings.k,
      container_reuse: !settings.fresh_container,
      ...summarize(task, settings.k, list),
      comparable: reasons.length === 0,
      non_comparable_reasons: reasons,
      settings,
      started_at: startedAt,
      updated_at: new Date().toISOString(),
      error,
      environment: o.environment,
      ...(task.skillDigest === undefined ? {} : { skill_digest: task.skillDigest }),
      trials: [...list],
    });
  };
  const save = async (): Promise<void> => {
    try {
      path = await write(o.resultsDir, build(trials));
      written = trials.length;
    } catch (err) {
      throw await keepWhatWasWritten(err);
    }
  };
  /**
   * Building, hashing or writing the file failed (a full disk; a record too large to serialize): the
   * file is rewritten marked `error`, with the trials written before in full and the newer ones
   * without their turn logs, and the run stops.
   */
  const keepWhatWasWritten = async (err: unknown): Promise<RunStoppedError> => {
    status = 'error';
    error = `the results file could not be written: ${errorMessage(err)}`.replace(/\s+/g, ' ');
    const kept = trials.map((t, i) => (i < written ? t : { ...t, turn_logs: [], final_answer: null }));
    let result: ResultFile | null = null;
    try {
      result = build(kept);
      path = await write(o.resultsDir, result);
    } catch {
      // Nothing more can be done here: the file keeps what was last written.
    }
    const where = path === '' ? '' : ` (what was recorded is in ${path})`;
    return new RunStoppedError(`${task.id}: ${error}${where}`, result === null ? [] : [result], {
      cause: err,
    });
  };
  // Already saved, or past saving: failing again must not hide what happened first.
  const saveQuietly = (): Promise<void> => save().catch(() => {});

  let sandbox: Sandbox | null = null;
  let consecutiveErrors = 0;
  try {
    await save();
    for (let index = trials.length; index < settings.k; index++) {
      // Only a measured failure decides pass^k; a trial that errored decides nothing.
      if (settings.early_stop && trials.some((t) => t.status === 'failed')) break;
      o.signal?.throwIfAborted();
      const trialStart = new Date().toISOString();
      let record: TrialRecord;
      try {
        if (sandbox === null || settings.fresh_container) {
          await sandbox?.dispose();
          sandbox = await o.openSandbox();
        }
        record = await runTrial({
          index,
          task,
          model: o.makeModel(),
          sandbox,
          maxTurns: settings.max_turns ?? task.maxTurns,
          limits: { ...DISPATCH_LIMITS, commandTimeoutMs: settings.command_timeout_sec * 1000 },
          artifacts: artifactsFolder(o.resultsDir, task.id, o.modelName, index),
          ...(o.onEvent === undefined ? {} : { onEvent: o.onEvent }),
          ...(o.signal === undefined ? {} : { signal: o.signal }),
        });
      } catch (err) {
        if (o.signal?.aborted) throw err;
        // The harness failed, not the model: record it, drop the sandbox, and try a fresh one next.
        record = errorTrial({
          index,
          startedAt: trialStart,
          reason: `harness_error: ${errorMessage(err)}`,
          error: { kind: 'harness' },
        });
        o.onEvent?.({ type: 'trial_end', trial: index, status: 'error', passed: false, score: 0, turns: 0 });
        await sandbox?.dispose().catch(() => {});
        sandbox = null;
      }
      trials.push(record);
      consecutiveErrors = record.status === 'error' ? consecutiveErrors + 1 : 0;
      const kind = record.error?.kind;
      if (kind !== undefined && ENDS_RUN.has(kind)) {
        status = 'error';
        error = record.failure_reason;
        await save();
        throw new RunStoppedError(
          `run stopped: ${error} (${task.id}, trial ${index + 1} of ${settings.k}; results so far in ${path})`,
          [build(trials)],
        );
      }
      if (consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
        status = 'error';
        error = record.failure_reason;
        await save();
        return { result: build(trials), path };
      }
      await save();
    }
    status = 'complete';
    await save();
    return { result: build(trials), path };
  } catch (err) {
    if (err instanceof RunStoppedError) throw err;
    if (o.signal?.aborted) {
      status = 'interrupted';
      await saveQuietly();
      throw new InterruptedError('interrupted', { cause: err });
    }
    status = 'error';
    error = errorMessage(err);
    await saveQuietly();
    throw err;
  } finally {
    await sandbox?.dispose().catch(() => {});
  }
}

/** results/artifacts/<task>/<model slug>/trial-<n>/: the layout reports and the dashboard read. */
function artifactsFolder(
  resultsDir: string,
  taskId: string,
  model: string,
  index: number,
): { dir: string; relative: string } {
  const relative = artifactsDir(taskId, model, index);
  return { dir: join(resultsDir, relative), relative };
}
