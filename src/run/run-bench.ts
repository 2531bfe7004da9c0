/**
 * A whole run: resolve the model, make sure the engine and image are there, then run the tasks' k
 * trials (in order, up to --parallel at once: run-tasks.ts), with cleanup on SIGINT/SIGTERM, and a
 * summary and the totals at the end.
 */

import { CLEAN, conditionOf, type RunCondition, taskLabel } from '../results/condition.js';
import type { Environment, ResultFile, RunSettings } from '../results/result-file.js';
import type { SimulatedUserRecord } from '../results/trial.js';
import {
  checkEngine,
  createDockerSandbox,
  type DockerSandboxOptions,
  ensureImage,
  sweepSandboxes,
} from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/types.js';
import type { DialogueUserChoice, Task } from '../tasks/types.js';
import { taskVersion } from '../tasks/version.js';
import { InternalError, InterruptedError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';
import { HARNESS_VERSION } from '../util/version.js';
import { openEventLog } from './event-log.js';
import { chooseParallel, type ParallelRequest } from './parallelism.js';
import { createProgress, type Progress, type ProgressStream } from './progress.js';
import { type ModelRequest, type ResolvedModel, resolveModel } from './resolve-model.js';
import { findResumable } from './resume.js';
import { newRunId } from './run-id.js';
import { RunStoppedError } from './run-stopped.js';
import { createTaskRun, type TaskRun } from './run-task.js';
import { runTasks } from './run-tasks.js';
import { describeShard, type ShardPlan } from './shard-plan.js';
import { openStatusFile } from './status-file.js';
import { formatSummary, formatTotals } from './summary.js';

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
}

/** What a run reaches outside the process: the model, and the Docker engine its sandboxes run on. */
export interface BenchDeps {
  resolveModel: (req: ModelRequest) => Promise<ResolvedModel>;
  checkEngine: () => Promise<{ version: string }>;
  sweepSandboxes: () => Promise<number>;
  ensureImage: typeof ensureImage;
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
  if (resolved.notice !== null) progress.note(resolved.notice);
  for (const warning of resolved.warnings) progress.note(`warning: ${warning}`);
  const { parallel, note } = chooseParallel(o.parallel ?? 1, resolved.server);
  if (note !== null) progress.note(note);

  // Dialogue tasks run in the harness: a run of only those never needs the engine.
  const needsEngine = o.tasks.some((t) => t.kind !== 'dialogue');
  const engine = needsEngine ? await d.checkEngine() : null;
  const swept = needsEngine ? await d.sweepSandboxes() : 0;
  if (swept > 0) progress.note(`Removed ${swept} sandbox container(s) left behind by an earlier run.`);
  const image = needsEngine ? await d.ensureImage({ onProgress: (line) => progress.note(line) }) : null;

  const environment: Environment = {
    sandbox_image: image?.tag ?? 'none',
    image_id: image?.id ?? null,
    image_source: image?.source ?? null,
    sampling: o.settings.sampling,
    // Recorded without the URL's credentials: results files are shared.
    base_url: resolved.baseUrl === null ? null : redactUrl(resolved.baseUrl),
    server: resolved.server,
    model: resolved.name,
    harness_version: HARNESS_VERSION,
    node_version: process.version,
    docker_version: engine?.version ?? null,
    parallel,
  };

  const runId = newRunId();
  const logEvent = openEventLog(o.resultsDir);
  const controller = new AbortController();
  const open = new Set<Sandbox>();
  const stopSignals = o.handleSignals === false ? () => {} : onSignals(controller, open, progress.note);
  const unlink = linkAbort(o.signal, controller, open);

  const openSandbox = async (task: Task): Promise<Sandbox> => {
    if (image === null) throw new InternalError(`${task.id}: a sandbox was asked for in a run without one`);
    const sandbox = await d.createSandbox({
      // A Harbor task runs in its own image, with task.toml's resources.
      image: task.kind === 'harbor' ? await task.harbor.image((line) => progress.note(line)) : image.tag,
      limits: task.kind === 'harbor' ? { ...o.settings.limits, ...task.harbor.limits } : o.settings.limits,
      labels: { run: runId, task: task.id },
      ...(task.kind === 'skill' ? { mounts: task.mounts } : {}),
    });
    // Kept for SIGINT cleanup; dispose() is idempotent, so disposing twice is harmless.
    open.add(sandbox);
    // Created while the run was being stopped: the cleanup has already been through `open`.
    if (controller.signal.aborted) {
      await sandbox.dispose().catch(() => {});
      throw new InterruptedError('interrupted');
    }
    return sandbox;
  };
  const userRecord: SimulatedUserRecord =
    o.dialogueUser?.kind === 'llm' ? o.dialogueUser.record : { kind: 'scripted' };
  const openTask = async (
    { task, condition }: { task: Task; condition: RunCondition },
    signal: AbortSignal,
  ): Promise<TaskRun | ResultFile> => {
    const version = taskVersion(task);
    const shard = o.shard?.record(task.id) ?? undefined;
    // Progress and notes name a task with its condition: the same task runs once per condition.
    const label = taskLabel(task.id, condition);
    const resumeFrom = o.resume
      ? await findResumable(
          o.resultsDir,
          task.id,
          resolved.name,
          version,
          o.settings,
          condition,
          shard,
          userRecord,
        )
      : null;
    const k = o.settings.k;
    if (resumeFrom?.status === 'complete') {
      progress.note(
        `${label}: already complete in run ${resumeFrom.run_id} (${resumeFrom.trials.length}/${k} trials), skipped (--resume).`,
      );
      progress.taskOpened(label, 0);
      return resumeFrom;
    }
    if (o.resume) progress.note(resumeNote(label, k, resumeFrom));
    progress.taskOpened(label, (shard?.trials.length ?? k) - (resumeFrom?.trials.length ?? 0));
    return createTaskRun({
      runId,
      task,
      taskVersion: version,
      modelName: resolved.name,
      makeModel: (index) => resolved.forTrial(task, index),
      openSandbox: () => openSandbox(task),
      ...(o.dialogueUser === undefined ? {} : { dialogueUser: o.dialogueUser }),
      settings: o.settings,
      condition,
      resultsDir: o.resultsDir,
      environment,
      onEvent: (e) => {
        logEvent(runId, task.id, resolved.name, e);
        progress.event(label, e);
      },
      signal,
      ...(resumeFrom === null ? {} : { resumeFrom }),
      ...(shard === undefined ? {} : { shard }),
    });
  };

  const conditions = o.conditions ?? [CLEAN];
  // Faults and injections are placed at sandbox tool calls: a dialogue task runs clean only.
  const units = conditions.flatMap((condition) =>
    o.tasks
      .filter((t) => condition.name === 'clean' || t.kind !== 'dialogue')
      .map((task) => ({ task, condition })),
  );
  if (units.length < conditions.length * o.tasks.length)
    progress.note(
      'Dialogue tasks run under the clean condition only (no faults or injections at their tools yet).',
    );
  // A shard runs its own trials of each task, under every condition.
  const trials = o.shard === undefined ? units.length * o.settings.k : o.shard.trials * conditions.length;
  const under =
    conditions.length === 1 && conditions[0]?.name === 'clean'
      ? ''
      : ` under ${conditions.length} condition(s)`;
  progress.note(
    `Running ${o.tasks.length} task(s)${under} × k=${o.settings.k} (${trials} trial${trials === 1 ? '' : 's'}) with ${resolved.name}, ${parallel} at a time.`,
  );
  const runStartedAt = new Date().toISOString();
  const wallStart = Date.now();
  progress.plan(
    units.map(({ task, condition }) => ({
      id: taskLabel(task.id, condition),
      k: o.settings.k,
      maxTurns: o.settings.max_turns ?? task.maxTurns,
    })),
  );
  let results: ResultFile[] = [];
  let stopped: RunStoppedError | null = null;
  try {
    results = await runTasks({
      tasks: units,
      parallel,
      open: openTask,
      onTaskEnd: (result, path) => {
        const label = taskLabel(result.task_id, conditionOf(result));
        progress.taskEnded(label);
        if (result.early_stopped)
          progress.note(
            `${label}: early-stopped at a failed trial: ${result.trials.length} of k=${result.k} trials ran.`,
          );
        progress.note(`${label}: results in ${path}`);
      },
      signal: controller.signal,
    });
  } catch (err) {
    if (controller.signal.aborted)
      throw new InterruptedError('interrupted: containers removed, results so far are saved', { cause: err });
    if (!(err instanceof RunStoppedError)) throw err;
    // No later task would fare better: what ran is summed up, and the run ends with exit 3.
    stopped = err;
  } finally {
    progress.done();
    stopSignals();
    unlink();
    await Promise.all([...open].map((s) => s.dispose().catch(() => {})));
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

/** What --resume found for a task: `run X, 2/5 trials done`, or nothing to continue. */
function resumeNote(taskId: string, k: number, from: ResultFile | null): string {
  if (from === null) return `${taskId}: no unfinished result with these settings to resume: starting anew.`;
  return `${taskId}: resuming run ${from.run_id} (${from.status}), ${from.trials.length}/${k} trials done (--resume).`;
}

/** First signal: abort and remove containers (the results file is saved by the task runner). Second: exit now. */
function onSignals(
  controller: AbortController,
  open: Set<Sandbox>,
  note: (line: string) => void,
): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(130);
    note(`${signal}: stopping, removing containers (press Ctrl-C again to exit at once)...`);
    controller.abort(new InterruptedError(signal));
    for (const sandbox of open) void sandbox.dispose().catch(() => {});
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** An abort from outside stops the run as a first signal would: abort the trials, remove the containers. */
function linkAbort(
  signal: AbortSignal | undefined,
  controller: AbortController,
  open: Set<Sandbox>,
): () => void {
  if (signal === undefined) return () => {};
  const abort = (): void => {
    controller.abort(signal.reason);
    for (const sandbox of open) void sandbox.dispose().catch(() => {});
  };
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}
