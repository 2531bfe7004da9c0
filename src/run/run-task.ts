/**
 * One task's k trials for one model, run by whoever asks for the next trial (run-tasks.ts, on up to
 * --parallel workers): trials start in index order, each on a container of this task that no other
 * trial is using (reused and reset between trials, or one per trial with fresh_container), and the
 * results file is rewritten after every trial. Early stop: after the first failed trial no new trial
 * starts; those already running finish and are recorded. A model server that fails for good stops
 * the run (RunStoppedError); the file is never left `running`.
 */
import { join } from 'node:path';
import { workspaceTrial } from '../agent/workspace-trial.js';
import { gradable, gradeTrial, type TranscriptJudge } from '../judge/grade.js';
import type { ChatModel } from '../models/types.js';
import { CLEAN, type RunCondition, type TaskSlot } from '../results/condition.js';
import { type EventSink, trialEndEvent } from '../results/events.js';
import { artifactsDir } from '../results/layout.js';
import type { ResultFile } from '../results/result-file.js';
import type { TrialError, TrialRecord } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import { type DialogueUserChoice, inContainer, type Task } from '../tasks/types.js';
import { errorTrial } from '../trial/error-trial.js';
import { runTrial } from '../trial/kernel.js';
import { errorMessage, InternalError } from '../util/errors.js';
import { RunStoppedError } from './run-stopped.js';
import { DISPATCH_LIMITS } from './settings.js';
import { openTaskFile, type TaskFile, type TaskFileOptions } from './task-file.js';
import type { TrialInstances } from './trial-instances.js';

export interface TaskRunOptions extends TaskFileOptions {
  /** A fresh model per trial (a scripted model keeps a cursor), given the trial's index and task (its instance). */
  makeModel: (trialIndex: number, task: Task) => ChatModel;
  /** A variant task's instance per trial (trial-instances.ts); absent: every trial runs the task itself. */
  instances?: TrialInstances;
  /** A container for the task, or for one of its instances (a skill's instance mounts its own folder). */
  openSandbox: (task?: Task) => Promise<Sandbox>;
  /** Who plays the user of a dialogue task (default: the scenario's scripted user). */
  dialogueUser?: DialogueUserChoice;
  /** `--judge-model`: grades each played trial's transcript, recorded beside its verdict (never in it). */
  judge?: TranscriptJudge;
  /** The task's place in the run: which injection class each trial is dealt (src/agent/injection/deal.ts). */
  slot?: TaskSlot;
  onEvent?: EventSink;
  /** Stops every trial of the run (Ctrl-C, or another task stopped the run). */
  signal?: AbortSignal;
  /** Only trials below this index run (BenchOptions.trialsUpTo). */
  trialsUpTo?: number;
}

export interface TaskRun {
  readonly taskId: string;
  /** Writes the first version of the file (the task has started). */
  start(): Promise<void>;
  /** Claims the next trial to start (the lowest index not recorded or claimed), or null: none of this task starts any more. */
  take(): number | null;
  /**
   * Runs a claimed trial, records it and rewrites the file. Throws RunStoppedError when the run
   * cannot go on, and whatever the abort threw when the run was aborted (the trial is not recorded).
   */
  runTrial(index: number): Promise<void>;
  /** No trial of this task runs and none will start: finish() may be called. */
  settled(): boolean;
  /** Ends the task: `complete` unless it ended in error, saved, its containers removed. Idempotent. */
  finish(): Promise<ResultFile>;
  /** Ends an unfinished task as `interrupted` (the run stopped; `why` when not by the user): saved, containers removed. */
  interrupt(why: string | null): Promise<ResultFile>;
  /** The file as it is now. */
  result(): ResultFile;
  path(): string;
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

export function createTaskRun(o: TaskRunOptions): TaskRun {
  const { task, settings } = o;
  const file = openTaskFile(o);
  const recorded = new Set(file.trials().map((t) => t.index));
  // A shard runs its share of the trials only.
  const owned =
    o.shard?.trials ?? Array.from({ length: Math.min(settings.k, o.trialsUpTo ?? settings.k) }, (_, i) => i);
  const pending = owned.filter((i) => !recorded.has(i));
  const idle: Sandbox[] = [];
  let inFlight = 0;
  let consecutiveErrors = 0;
  let ending: Promise<ResultFile> | null = null;

  // Only a measured failure decides pass^k; a trial that errored decides nothing.
  const earlyStopped = (): boolean => settings.early_stop && file.trials().some((t) => t.status === 'failed');
  const startsMore = (): boolean => file.status() === 'running' && pending.length > 0 && !earlyStopped();
  /** A container goes back for the next trial only when one will start; otherwise it is removed now. */
  const release = async (sandbox: Sandbox | null): Promise<void> => {
    const keep = sandbox !== null && !settings.fresh_container && !o.signal?.aborted && startsMore();
    if (keep) idle.push(sandbox);
    else if (sandbox !== null) await discard(sandbox);
    if (!startsMore()) await Promise.all(idle.splice(0).map(discard));
  };

  const runOne = async (index: number): Promise<void> => {
    const held: { sandbox: Sandbox | null } = { sandbox: null };
    try {
      const played = await playTrial(o, index, async () => {
        held.sandbox = idle.pop() ?? (await o.openSandbox());
        return held.sandbox;
      });
      const trial =
        o.judge !== undefined && gradable(played)
          ? { ...played, judge: await gradeTrial(o.judge, task, played, o.signal) }
          : played;
      // A sandbox the harness failed in (a throw, or judging that failed under it) is not trusted again.
      if (trial.error?.kind === 'harness' && held.sandbox !== null) {
        await discard(held.sandbox);
        held.sandbox = null;
      }
      file.add(trial);
      consecutiveErrors = trial.status === 'error' ? consecutiveErrors + 1 : 0;
      await settleTrial(file, trial, consecutiveErrors, settings.k, task.id);
    } catch (err) {
      if (err instanceof RunStoppedError || o.signal?.aborted) throw err;
      // A bug in the bookkeeping: the file says so, and the run stops.
      file.end('error', errorMessage(err));
      await file.saveQuietly();
      throw err;
    } finally {
      inFlight--;
      await release(held.sandbox);
    }
  };

  const end = (status: 'complete' | 'interrupted', why: string | null): Promise<ResultFile> => {
    ending ??= (async () => {
      file.end(status, why);
      if (status === 'complete') await file.save();
      else await file.saveQuietly();
      await Promise.all(idle.splice(0).map(discard));
      return file.result();
    })();
    return ending;
  };

  return {
    taskId: task.id,
    start: () => file.save(),
    take() {
      if (!startsMore()) return null;
      const index = pending.shift();
      if (index === undefined) return null;
      // Counted from the claim, so the task cannot look settled before the trial starts.
      inFlight++;
      return index;
    },
    runTrial: runOne,
    settled: () => inFlight === 0 && !startsMore(),
    finish: () => end('complete', null),
    interrupt: (why) => end('interrupted', why),
    result: () => file.result(),
    path: () => file.path(),
  };
}

/** What a recorded trial means for the rest: the run stops, the task ends in error, or both go on. */
export function trialConsequence(
  trial: TrialRecord,
  consecutiveErrors: number,
): 'stop_run' | 'end_task' | 'go_on' {
  const kind = trial.error?.kind;
  if (kind !== undefined && ENDS_RUN.has(kind)) return 'stop_run';
  return consecutiveErrors >= MAX_CONSECUTIVE_ERRORS ? 'end_task' : 'go_on';
}

/** Ends the file as the trial's consequence says and saves it; throws RunStoppedError when the run stops. */
async function settleTrial(
  file: TaskFile,
  trial: TrialRecord,
  consecutiveErrors: number,
  k: number,
  taskId: string,
): Promise<void> {
  const consequence = trialConsequence(trial, consecutiveErrors);
  if (consequence !== 'go_on') file.end('error', trial.failure_reason);
  await file.save();
  if (consequence === 'stop_run')
    throw new RunStoppedError(
      `run stopped: ${trial.failure_reason} (${taskId}, trial ${trial.index + 1} of ${k}; results so far in ${file.path()})`,
      [file.result()],
    );
}

/**
 * Trial `index`: in the harness (a dialogue), or on the sandbox `sandbox()` hands out. A harness
 * failure (not the model's) becomes an error trial; an abort is thrown on, as nothing is recorded.
 */
async function playTrial(
  o: TaskRunOptions,
  index: number,
  sandbox: () => Promise<Sandbox>,
): Promise<TrialRecord> {
  const { task, settings } = o;
  const condition = o.condition ?? CLEAN;
  const startedAt = new Date().toISOString();
  const common = (trialTask: Task) => ({
    index,
    condition,
    ...(o.slot === undefined ? {} : { slot: o.slot }),
    model: o.makeModel(index, trialTask),
    maxTurns: settings.max_turns ?? trialTask.maxTurns,
    ...(o.onEvent === undefined ? {} : { onEvent: o.onEvent }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  try {
    if (!inContainer(task)) {
      // Its environment lives in the harness (a dialogue's desk), and so is its instance drawn.
      const drawn = o.instances === undefined ? task : await o.instances.taskOf(index, sandbox);
      if (drawn.environment.place !== 'harness')
        throw new InternalError(`${task.id}: its instance runs in a container, the task in the harness`);
      const trial = await drawn.environment.runTrial({
        ...common(drawn),
        ...(o.dialogueUser === undefined ? {} : { user: o.dialogueUser }),
      });
      return withVariant(trial, o.instances, index);
    }
    const box = await sandbox();
    // A variant task's instance is drawn in the trial's own container (when not cached).
    const trialTask = o.instances === undefined ? task : await o.instances.taskOf(index, async () => box);
    if (!inContainer(trialTask))
      throw new InternalError(`${task.id}: its instance runs in the harness, the task in a container`);
    // An instance that mounts folders of its own (a skill's generated folder) is mounted when a
    // container starts: the task's container (which drew it) cannot show it, so the trial gets one.
    const own =
      trialTask !== task && trialTask.environment.mounts.length > 0 ? await o.openSandbox(trialTask) : null;
    try {
      const trial = await runTrial(
        trialTask,
        common(trialTask),
        workspaceTrial({
          task: trialTask,
          sandbox: own ?? box,
          limits: { ...DISPATCH_LIMITS, commandTimeoutMs: settings.command_timeout_sec * 1000 },
          artifacts: artifactsFolder(o.resultsDir, task.id, o.modelName, index, condition),
        }),
      );
      return withVariant(trial, o.instances, index);
    } finally {
      await own?.dispose().catch(() => {});
    }
  } catch (err) {
    if (o.signal?.aborted) throw err;
    // The harness failed, not the model (a generator that fails included): record it, and the
    // next trial gets a fresh sandbox.
    const trial = errorTrial({
      index,
      startedAt,
      reason: `harness_error: ${errorMessage(err)}`,
      error: { kind: 'harness' },
    });
    o.onEvent?.(trialEndEvent(trial));
    return withVariant(trial, o.instances, index);
  }
}

function withVariant(trial: TrialRecord, instances: TrialInstances | undefined, index: number): TrialRecord {
  return instances === undefined ? trial : { ...trial, variant: instances.idOf(index) };
}

function discard(sandbox: Sandbox): Promise<void> {
  return sandbox.dispose().catch(() => {});
}

/** results/artifacts/<task>/<model slug>/trial-<n>/: the layout reports and the dashboard read. */
function artifactsFolder(
  resultsDir: string,
  taskId: string,
  model: string,
  index: number,
  condition: RunCondition,
): { dir: string; relative: string } {
  const relative = artifactsDir(taskId, model, index, condition);
  return { dir: join(resultsDir, relative), relative };
}
