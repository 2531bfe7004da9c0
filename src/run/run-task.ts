/**
 * Runs the k trials of one task for one model: one sandbox reused across trials (or one per trial
 * with fresh_container), the results file rewritten after every trial, early stop at the first failure.
 */
import { join } from 'node:path';
import { runTrial } from '../agent/loop.js';
import type { ChatModel } from '../models/types.js';
import type { EventSink } from '../results/events.js';
import { artifactsDir } from '../results/layout.js';
import type { Environment, ResultFile, RunSettings } from '../results/result-file.js';
import { withHash, writeResultFile } from '../results/store.js';
import type { TrialRecord } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { errorMessage, InterruptedError } from '../util/errors.js';
import { summarize } from './aggregate.js';
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
}

export interface TaskRunOutcome {
  result: ResultFile;
  path: string;
}

/** After this many harness errors in a row the task stops: the sandbox keeps dying. */
const MAX_CONSECUTIVE_ERRORS = 2;

export async function runTaskTrials(o: TaskRunOptions): Promise<TaskRunOutcome> {
  const { task, settings } = o;
  const trials: TrialRecord[] = [...(o.resumeFrom?.trials ?? [])];
  const runId = o.resumeFrom?.run_id ?? o.runId;
  const startedAt = o.resumeFrom?.started_at ?? new Date().toISOString();
  let status: ResultFile['status'] = 'running';
  let error: string | null = null;
  let path = '';

  const save = async (): Promise<void> => {
    path = await writeResultFile(o.resultsDir, build());
  };
  const build = (): ResultFile => {
    const reasons = nonComparableReasons(settings);
    return withHash({
      run_id: runId,
      task_id: task.id,
      task_version: o.taskVersion,
      model: o.modelName,
      status,
      k: settings.k,
      early_stopped: settings.early_stop && status === 'complete' && trials.length < settings.k,
      container_reuse: !settings.fresh_container,
      ...summarize(task, settings.k, trials),
      comparable: reasons.length === 0,
      non_comparable_reasons: reasons,
      settings,
      started_at: startedAt,
      updated_at: new Date().toISOString(),
      error,
      environment: o.environment,
      ...(task.skillDigest === undefined ? {} : { skill_digest: task.skillDigest }),
      trials,
    });
  };

  let sandbox: Sandbox | null = null;
  let consecutiveErrors = 0;
  try {
    await save();
    for (let index = trials.length; index < settings.k; index++) {
      if (settings.early_stop && trials.some((t) => !t.passed)) break;
      o.signal?.throwIfAborted();
      const trialStart = new Date().toISOString();
      try {
        if (sandbox === null || settings.fresh_container) {
          await sandbox?.dispose();
          sandbox = await o.openSandbox();
        }
        trials.push(
          await runTrial({
            index,
            task,
            model: o.makeModel(),
            sandbox,
            maxTurns: settings.max_turns ?? task.maxTurns,
            limits: { ...DISPATCH_LIMITS, commandTimeoutMs: settings.command_timeout_sec * 1000 },
            artifacts: artifactsFolder(o.resultsDir, task.id, o.modelName, index),
            ...(o.onEvent === undefined ? {} : { onEvent: o.onEvent }),
            ...(o.signal === undefined ? {} : { signal: o.signal }),
          }),
        );
        consecutiveErrors = 0;
      } catch (err) {
        if (o.signal?.aborted) throw err;
        // The harness failed, not the model: record it, drop the sandbox, and try a fresh one next.
        consecutiveErrors++;
        trials.push(errorTrial(index, trialStart, `harness_error: ${errorMessage(err)}`));
        o.onEvent?.({ type: 'trial_end', trial: index, status: 'error', passed: false, score: 0, turns: 0 });
        await sandbox?.dispose().catch(() => {});
        sandbox = null;
        if (consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
          status = 'error';
          error = errorMessage(err);
          await save();
          return { result: build(), path };
        }
      }
      await save();
    }
    status = 'complete';
    await save();
    return { result: build(), path };
  } catch (err) {
    if (o.signal?.aborted) {
      status = 'interrupted';
      await save();
      throw new InterruptedError('interrupted', { cause: err });
    }
    status = 'error';
    error = errorMessage(err);
    await save();
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

function errorTrial(index: number, startedAt: string, reason: string): TrialRecord {
  return {
    index,
    status: 'error',
    passed: false,
    score: 0,
    flags: {},
    tamper_detected: false,
    tamper_violations: [],
    failure_reason: reason,
    turns: 0,
    elapsed_sec: 0,
    harness_sec: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    final_answer: null,
    native_tool_calls: 0,
    text_tool_calls: 0,
    invalid_tool_call_count: 0,
    missing_argument_count: 0,
    malformed_replies: 0,
    started_at: startedAt,
    artifacts: [],
    artifacts_dir: null,
    turn_logs: [],
  };
}
