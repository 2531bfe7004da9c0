/**
 * What a run checks and prepares once its model is resolved and before any trial starts: how many
 * trials run at once, the Docker engine and the sandbox image (only when a task needs a sandbox),
 * and the environment every results file of the run records.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Environment, RunSettings } from '../results/result-file.js';
import type { ensureImage } from '../sandbox/index.js';
import { inContainer, type Task } from '../tasks/types.js';
import { redactUrl } from '../util/redact-url.js';
import { HARNESS_VERSION } from '../util/version.js';
import { chooseParallel, type ParallelRequest } from './parallelism.js';
import type { ResolvedModel } from './resolve-model.js';

/** The Docker engine, as the run reaches it. */
export interface EngineDeps {
  checkEngine: () => Promise<{ version: string }>;
  sweepSandboxes: () => Promise<number>;
  ensureImage: typeof ensureImage;
}

export interface Prepared {
  parallel: number;
  environment: Environment;
  /** The sandbox image's tag; null when no task needs a sandbox. */
  image: string | null;
}

export async function prepareRun(
  o: { tasks: readonly Task[]; settings: RunSettings; parallel?: ParallelRequest },
  d: EngineDeps,
  resolved: ResolvedModel,
  note: (line: string) => void,
): Promise<Prepared> {
  if (resolved.notice !== null) note(resolved.notice);
  for (const warning of resolved.warnings) note(`warning: ${warning}`);
  const { parallel, note: parallelNote } = chooseParallel(o.parallel ?? 1, resolved.server);
  if (parallelNote !== null) note(parallelNote);

  // Dialogue tasks run in the harness: a run of only those never needs the engine.
  const needsEngine = o.tasks.some(inContainer);
  const engine = needsEngine ? await d.checkEngine() : null;
  const swept = needsEngine ? await d.sweepSandboxes() : 0;
  if (swept > 0) note(`Removed ${swept} sandbox container(s) left behind by an earlier run.`);
  const image = needsEngine ? await d.ensureImage({ onProgress: note }) : null;

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
    machine: { cores: availableParallelism(), load_1m: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
  };
  return { parallel, environment, image: image?.tag ?? null };
}
