/**
 * A whole run: resolve the model, make sure the engine and image are there, then run the tasks' k
 * trials (in order, up to --parallel at once: run-tasks.ts), with cleanup on SIGINT/SIGTERM, and a
 * summary and the totals at the end.
 */

import type { Environment, ResultFile, RunSettings } from '../results/result-file.js';
import { checkEngine, createDockerSandbox, ensureImage, sweepSandboxes } from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { taskVersion } from '../tasks/version.js';
import { InterruptedError } from '../util/errors.js';
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
  /** A file to keep the run's progress in, as JSON (status-file.ts). */
  statusFile?: string;
}

export async function runBench(o: BenchOptions): Promise<ResultFile[]> {
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
  const resolved = await resolveModel(o.model);
  try {
    return await runWithModel(o, resolved, progress, stdout);
  } finally {
    await resolved.dispose();
  }
}

async function runWithModel(
  o: BenchOptions,
  resolved: ResolvedModel,
  progress: Progress,
  stdout: { write(text: string): unknown },
): Promise<ResultFile[]> {
  if (resolved.notice !== null) progress.note(resolved.notice);
  for (const warning of resolved.warnings) progress.note(`warning: ${warning}`);
  const { parallel, note } = chooseParallel(o.parallel ?? 1, resolved.server);
  if (note !== null) progress.note(note);

  const engine = await checkEngine();
  const swept = await sweepSandboxes();
  if (swept > 0) progress.note(`Removed ${swept} sandbox container(s) left behind by an earlier run.`);
  const image = await ensureImage({ onProgress: (line) => progress.note(line) });

  const environment: Environment = {
    sandbox_image: image.tag,
    image_id: image.id,
    image_source: image.source,
    sampling: o.settings.sampling,
    // Recorded without the URL's credentials: results files are shared.
    base_url: resolved.baseUrl === null ? null : redactUrl(resolved.baseUrl),
    server: resolved.server,
    model: resolved.name,
    harness_version: HARNESS_VERSION,
    node_version: process.version,
    docker_version: engine.version,
    parallel,
  };

  const runId = newRunId();
  const logEvent = openEventLog(o.resultsDir);
  const controller = new AbortController();
  const open = new Set<Sandbox>();
  const stopSignals = o.handleSignals === false ? () => {} : onSignals(controller, open, progress.note);
  const unlink = linkAbort(o.signal, controller, open);

  const openSandbox = async (task: Task): Promise<Sandbox> => {
    const sandbox = await createDockerSandbox({
      image: image.tag,
      limits: o.settings.limits,
      labels: { run: runId, task: task.id },
      ...(task.mounts === undefined ? {} : { mounts: task.mounts }),
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
  const openTask = async (task: Task, signal: AbortSignal): Promise<TaskRun | ResultFile> => {
    const version = taskVersion(task);
    const resumeFrom = o.resume
      ? await findResumable(o.resultsDir, task.id, resolved.name, version, o.settings)
      : null;
    const k = o.settings.k;
    if (resumeFrom?.status === 'complete') {
      progress.note(
        `${task.id}: already complete in run ${resumeFrom.run_id} (${resumeFrom.trials.length}/${k} trials), skipped (--resume).`,
      );
      progress.taskOpened(task.id, 0);
      return resumeFrom;
    }
    if (o.resume) progress.note(resumeNote(task.id, k, resumeFrom));
    progress.taskOpened(task.id, k - (resumeFrom?.trials.length ?? 0));
    return createTaskRun({
      runId,
      task,
      taskVersion: version,
      modelName: resolved.name,
      makeModel: () => resolved.forTrial(task),
      openSandbox: () => openSandbox(task),
      settings: o.settings,
      resultsDir: o.resultsDir,
      environment,
      onEvent: (e) => {
        logEvent(runId, task.id, resolved.name, e);
        progress.event(task.id, e);
      },
      signal,
      ...(resumeFrom === null ? {} : { resumeFrom }),
    });
  };

  const trials = o.tasks.length * o.settings.k;
  progress.note(
    `Running ${o.tasks.length} task(s) × k=${o.settings.k} (${trials} trial${trials === 1 ? '' : 's'}) with ${resolved.name}, ${parallel} at a time.`,
  );
  const runStartedAt = new Date().toISOString();
  const wallStart = Date.now();
  progress.plan(
    o.tasks.map((t) => ({ id: t.id, k: o.settings.k, maxTurns: o.settings.max_turns ?? t.maxTurns })),
  );
  let results: ResultFile[] = [];
  let stopped: RunStoppedError | null = null;
  try {
    results = await runTasks({
      tasks: o.tasks,
      parallel,
      open: openTask,
      onTaskEnd: (result, path) => {
        progress.taskEnded(result.task_id);
        if (result.early_stopped)
          progress.note(
            `${result.task_id}: early-stopped at a failed trial: ${result.trials.length} of k=${result.k} trials ran.`,
          );
        progress.note(`${result.task_id}: results in ${path}`);
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
