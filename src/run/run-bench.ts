/**
 * A whole run: resolve the model, make sure the engine and image are there, then run each task's k
 * trials in order, with cleanup on SIGINT/SIGTERM and a summary at the end.
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
import { createProgress, type Progress, type ProgressStream } from './progress.js';
import { type ModelRequest, type ResolvedModel, resolveModel } from './resolve-model.js';
import { findResumable } from './resume.js';
import { newRunId } from './run-id.js';
import { RunStoppedError } from './run-stopped.js';
import { runTaskTrials } from './run-task.js';
import { formatSummary } from './summary.js';

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
}

export async function runBench(o: BenchOptions): Promise<ResultFile[]> {
  const stdout = o.stdout ?? process.stdout;
  const progress = createProgress(o.stderr ?? process.stderr);
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
  };

  const runId = newRunId();
  const logEvent = openEventLog(o.resultsDir);
  const controller = new AbortController();
  const open = new Set<Sandbox>();
  const stopSignals = o.handleSignals === false ? () => {} : onSignals(controller, open, progress.note);
  const unlink = linkAbort(o.signal, controller, open);

  const results: ResultFile[] = [];
  let stopped: RunStoppedError | null = null;
  try {
    for (const task of o.tasks) {
      const version = taskVersion(task);
      const resumeFrom = o.resume
        ? await findResumable(o.resultsDir, task.id, resolved.name, version, o.settings)
        : null;
      if (resumeFrom?.status === 'complete') {
        progress.note(`${task.id}: already complete in ${resumeFrom.run_id}, skipped (--resume).`);
        results.push(resumeFrom);
        continue;
      }
      const outcome = await runTaskTrials({
        runId,
        task,
        taskVersion: version,
        modelName: resolved.name,
        makeModel: () => resolved.forTrial(task),
        openSandbox: async () => {
          const sandbox = await createDockerSandbox({
            image: image.tag,
            limits: o.settings.limits,
            labels: { run: runId, task: task.id },
            ...(task.mounts === undefined ? {} : { mounts: task.mounts }),
          });
          // Kept for SIGINT cleanup; dispose() is idempotent, so disposing twice is harmless.
          open.add(sandbox);
          return sandbox;
        },
        settings: o.settings,
        resultsDir: o.resultsDir,
        environment,
        onEvent: (e) => {
          logEvent(runId, task.id, resolved.name, e);
          progress.event(task.id, resolved.name, o.settings.k, e);
        },
        signal: controller.signal,
        ...(resumeFrom === null ? {} : { resumeFrom }),
      });
      results.push(outcome.result);
      progress.note(`${task.id}: results in ${outcome.path}`);
    }
  } catch (err) {
    if (controller.signal.aborted)
      throw new InterruptedError('interrupted: containers removed, results so far are saved', { cause: err });
    if (!(err instanceof RunStoppedError)) throw err;
    // No later task would fare better: what ran is summed up, and the run ends with exit 3.
    stopped = new RunStoppedError(err.message, [...results, ...err.results], { cause: err });
  } finally {
    progress.done();
    stopSignals();
    unlink();
    await Promise.all([...open].map((s) => s.dispose().catch(() => {})));
  }
  stdout.write(`${formatSummary(stopped?.results ?? results)}\n`);
  if (stopped !== null) throw stopped;
  return results;
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
