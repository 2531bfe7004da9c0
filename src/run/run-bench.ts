/**
 * A whole run: resolve the model, make sure the engine and image are there (preflight.ts), then run
 * the tasks' k trials (in order, up to --parallel at once: run-tasks.ts), with cleanup on
 * SIGINT/SIGTERM (interrupt.ts, sandbox-pool.ts), and a summary and the totals at the end.
 */

import type { TranscriptJudge } from '../judge/grade.js';
import { CLEAN, conditionOf, type RunCondition, taskLabel } from '../results/condition.js';
import type { ResultFile, RunSettings } from '../results/result-file.js';
import {
  checkEngine,
  createDockerSandbox,
  type DockerSandboxOptions,
  ensureImage,
  sweepSandboxes,
} from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/types.js';
import type { DialogueUserChoice, Task } from '../tasks/types.js';
import { InterruptedError } from '../util/errors.js';
import { openEventLog } from './event-log.js';
import { createInterrupt } from './interrupt.js';
import { taskOpener } from './open-task.js';
import type { ParallelRequest } from './parallelism.js';
import { type EngineDeps, prepareRun } from './preflight.js';
import { createProgress, type Progress, type ProgressStream } from './progress.js';
import { type ModelRequest, type ResolvedModel, resolveModel } from './resolve-model.js';
import { newRunId } from './run-id.js';
import { planRun, type RunUnit, runPlanLine } from './run-plan.js';
import { RunStoppedError } from './run-stopped.js';
import { runTasks } from './run-tasks.js';
import { createSandboxPool } from './sandbox-pool.js';
import { describeShard, type ShardPlan } from './shard-plan.js';
import { openStatusFile } from './status-file.js';
import { formatSummary, formatTotals } from './summary.js';
import type { VariantChoice } from './trial-instances.js';

export interface BenchOptions {
  tasks: Task[];
  settings: RunSettings;
  resultsDir: string;
  resume: boolean;
  model: ModelRequest;
  /** Where the summary goes (stdout) and where progress goes (stderr). */
  stdout?: { write(text: string): unknown };
  stderr?: ProgressStream;
  /** Install SIGINT/SIGTERM handlers (the CLI does; tests may not). */
  handleSignals?: boolean;
  /** Aborts the run like a first SIGINT does, for a caller that owns the signals (the ladder). */
  signal?: AbortSignal;
  /** Trials at once (default 1); `auto`: as many as the server has slots. */
  parallel?: ParallelRequest;
  /** Each task runs once per condition, condition by condition (default: clean only). */
  conditions?: readonly RunCondition[];
  /** A file to keep the run's progress in, as JSON (status-file.ts). */
  statusFile?: string;
  /** This machine's share of a run split with --shard (shard-plan.ts): only its trials run. */
  shard?: ShardPlan;
  /** Who plays the user of dialogue tasks (default: each scenario's scripted user). */
  dialogueUser?: DialogueUserChoice;
  /** `--judge-model`: grades each trial's transcript, recorded beside its verdict. */
  judge?: TranscriptJudge;
  /**
   * Run each task's trials only until its file holds this many (of k): a later run with `resume`
   * continues the same file, even one this run left `complete` (the sequential ladder's rounds).
   */
  trialsUpTo?: number;
  /** How variant tasks draw their trials' instances (`--variant-seed`, `--variant`); default the fixed seed. */
  variants?: VariantChoice;
}

/** What a run reaches outside the process: the model, and the Docker engine its sandboxes run on. */
export interface BenchDeps extends EngineDeps {
  resolveModel: (req: ModelRequest) => Promise<ResolvedModel>;
  createSandbox: (o: DockerSandboxOptions) => Promise<Sandbox>;
}

const ENGINE: BenchDeps = {
  resolveModel,
  checkEngine,
  sweepSandboxes,
  ensureImage,
  createSandbox: createDockerSandbox,
};

export async function runBench(o: BenchOptions, deps: Partial<BenchDeps> = {}): Promise<ResultFile[]> {
  const d: BenchDeps = { ...ENGINE, ...deps };
  const stdout = o.stdout ?? process.stdout;
  const stream = o.stderr ?? process.stderr;
  const status =
    o.statusFile === undefined
      ? null
      : openStatusFile(o.statusFile, (message) => stream.write(`warning: ${message}\n`));
  const progress = createProgress({
    stream,
    ...(status === null ? {} : { onStatus: (s, finished) => status.write(s, finished) }),
  });
  // A shard runs the tasks it owns trials of; one that owns none has nothing to do (and needs no model).
  const { shard } = o;
  const tasks = shard === undefined ? o.tasks : o.tasks.filter((t) => shard.record(t.id) !== null);
  if (shard !== undefined) progress.note(`${describeShard(shard)}.`);
  if (tasks.length === 0 && shard !== undefined) return [];
  const resolved = await d.resolveModel(o.model);
  try {
    return await runWithModel({ ...o, tasks }, d, resolved, progress, stdout);
  } finally {
    await resolved.dispose();
  }
}

async function runWithModel(
  o: BenchOptions,
  d: BenchDeps,
  resolved: ResolvedModel,
  progress: Progress,
  stdout: { write(text: string): unknown },
): Promise<ResultFile[]> {
  const note = (line: string): void => progress.note(line);
  const { parallel, environment, image } = await prepareRun(o, d, resolved, note);
  const runId = newRunId();
  const sandboxes = createSandboxPool({
    create: d.createSandbox,
    image,
    limits: o.settings.limits,
    runId,
    note,
  });
  const interrupt = createInterrupt({
    handleSignals: o.handleSignals !== false,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    stopping: 'stopping, removing containers',
    note,
    // The trials in flight would each notice the abort at their next step; their containers go now.
    onStop: () => void sandboxes.close(),
  });
  const open = taskOpener({
    runId,
    settings: o.settings,
    resultsDir: o.resultsDir,
    resume: o.resume,
    ...(o.shard === undefined ? {} : { shard: o.shard }),
    ...(o.dialogueUser === undefined ? {} : { dialogueUser: o.dialogueUser }),
    ...(o.judge === undefined ? {} : { judge: o.judge }),
    ...(o.trialsUpTo === undefined ? {} : { trialsUpTo: o.trialsUpTo }),
    ...(o.variants === undefined ? {} : { variants: o.variants }),
    model: resolved,
    environment,
    openSandbox: (task) => sandboxes.open(task),
    progress,
    logEvent: openEventLog(o.resultsDir),
  });

  const units = announcePlan(o, resolved.name, parallel, progress);
  const runStartedAt = new Date().toISOString();
  const wallStart = Date.now();
  let results: ResultFile[] = [];
  let stopped: RunStoppedError | null = null;
  try {
    results = await runTasks({
      tasks: units,
      parallel,
      open,
      onTaskEnd: (result, path) => noteTaskEnd(progress, result, path),
      signal: interrupt.signal,
    });
  } catch (err) {
    if (interrupt.signal.aborted)
      throw new InterruptedError('interrupted: containers removed, results so far are saved', { cause: err });
    if (!(err instanceof RunStoppedError)) throw err;
    // No later task would fare better: what ran is summed up, and the run ends with exit 3.
    stopped = err;
  } finally {
    progress.done();
    interrupt.release();
    await sandboxes.close();
  }
  const summed = stopped?.results ?? results;
  stdout.write(`${formatSummary(summed)}\n`);
  // maxRSS is in KiB.
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  stdout.write(
    `${formatTotals(summed, { runStartedAt, wallMs: Date.now() - wallStart, parallel, peakRssBytes })}\n`,
  );
  if (stopped !== null) throw stopped;
  return results;
}

/** Plans the run's units, says what will run, and gives progress the plan. */
function announcePlan(o: BenchOptions, model: string, parallel: number, progress: Progress): RunUnit<Task>[] {
  const conditions = o.conditions ?? [CLEAN];
  // A capped run (the sequential ladder's round) runs the first trials only.
  const k = Math.min(o.settings.k, o.trialsUpTo ?? o.settings.k);
  const { units, trials } = planRun(o.tasks, conditions, k, o.shard);
  progress.note(runPlanLine({ tasks: o.tasks.length, conditions, k, trials, model, parallel }));
  progress.plan(
    units.map(({ task, condition }) => ({
      id: taskLabel(task.id, condition),
      k,
      maxTurns: o.settings.max_turns ?? task.maxTurns,
    })),
  );
  return units;
}

function noteTaskEnd(progress: Progress, result: ResultFile, path: string): void {
  const label = taskLabel(result.task_id, conditionOf(result));
  progress.taskEnded(label);
  if (result.early_stopped)
    progress.note(
      `${label}: early-stopped at a failed trial: ${result.trials.length} of k=${result.k} trials ran.`,
    );
  progress.note(`${label}: results in ${path}`);
}
