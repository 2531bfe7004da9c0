/** One rung: the whole task set against one model, reached on a server, in-process, or on a spawned server. */
import { join } from 'node:path';
import { formatBytes } from '../discovery/models-table.js';
import type { ResultFile } from '../results/result-file.js';
import type { ModelRequest } from '../run/resolve-model.js';
import type { BenchOptions } from '../run/run-bench.js';
import { RunStoppedError } from '../run/run-stopped.js';
import { AgentBenchError, InterruptedError } from '../util/errors.js';
import { formatSize } from './format.js';
import { watchGroupMemory } from './group-memory.js';
import { watchOwnPeak } from './own-memory.js';
import { runRounds, sequentialOutcome } from './rounds.js';
import { configSlug } from './rung-config.js';
import { describeBound, type SequentialRule } from './sequential-rule.js';
import { serverLogName } from './server-command.js';
import type { ModelServer, ServerStartOptions } from './server-process.js';
import { rungOutcome } from './stop-rule.js';
import type { LadderModel, Rung } from './types.js';

/** How the rung's model is reached. */
export type ModelPlace =
  | { kind: 'server'; baseUrl: string }
  /** A GGUF file loaded in-process (`gguf:PATH`). */
  | { kind: 'embedded' }
  /** A GGUF file served by a server spawned from `--server-cmd` for this rung only. */
  | { kind: 'spawn'; command: string; startTimeoutMs: number; graceMs?: number };

export interface RungContext {
  /** Everything runBench needs except the model. */
  bench: Omit<BenchOptions, 'model' | 'handleSignals' | 'signal'>;
  request: Omit<ModelRequest, 'model' | 'baseUrl'>;
  place: ModelPlace;
  /** The ladder's run id, in server log names. */
  runId: string;
  signal: AbortSignal;
  note: (line: string) => void;
  /** `--target` below 1: the rung runs in rounds until its bound decides (sequential-rule.ts). */
  sequential?: SequentialRule;
}

export interface RungDeps {
  runBench: (o: BenchOptions) => Promise<ResultFile[]>;
  startServer: (o: ServerStartOptions) => Promise<ModelServer>;
}

/** Runs the task set against the model at one address. */
type Bench = (request: Pick<ModelRequest, 'model' | 'baseUrl'>) => Promise<ResultFile[]>;

export async function runRung(model: LadderModel, c: RungContext, deps: RungDeps): Promise<Rung> {
  const { sequential } = c;
  const bench = rungBench(model, c, deps);
  const logPath = join(
    c.bench.resultsDir,
    serverLogName(model.id, c.runId, model.config === undefined ? '' : configSlug(model.config)),
  );
  const serverLog = c.place.kind === 'spawn' ? logPath : null;
  const taskIds = c.bench.tasks.map((t) => t.id);
  // Not measured unless every task passed or one failed as measured (rungOutcome): errored trials
  // and a run stopped by a failing server are never the model's failure.
  const done = (results: readonly ResultFile[], error: string | null): Rung => {
    if (sequential === undefined)
      return { model, status: rungOutcome(taskIds, results), results: [...results], error, serverLog };
    const { status, evidence, why } = sequentialOutcome(sequential, results);
    return { model, status, results: [...results], error: error ?? why, serverLog, sequential: evidence };
  };
  try {
    switch (c.place.kind) {
      case 'server':
        return done(await bench({ model: model.id, baseUrl: c.place.baseUrl }), null);
      case 'embedded': {
        const own = watchOwnPeak();
        const rung = done(await bench({ model: `gguf:${model.id}` }), null);
        return { ...rung, serverPeakRssBytes: own.peakBytes(), peakRssOf: 'process' };
      }
      case 'spawn': {
        const { results, diedDuringRun, stopped, peakRssBytes } = await onSpawnedServer(
          model,
          c,
          c.place,
          logPath,
          deps,
          bench,
        );
        const died =
          diedDuringRun === null
            ? null
            : `the model server ${diedDuringRun} during the run (log: ${logPath})`;
        return {
          ...done(results, [died, stopped].filter((e) => e !== null).join('; ') || null),
          serverPeakRssBytes: peakRssBytes,
          peakRssOf: 'server',
        };
      }
    }
  } catch (err) {
    // The results so far are on disk (runBench saved them as interrupted).
    if (err instanceof InterruptedError || c.signal.aborted) {
      return { model, status: 'interrupted', results: [], error: null, serverLog };
    }
    // The model server failed mid-run: what ran is kept, and the rung is judged on it alone.
    if (err instanceof RunStoppedError) return done(err.results, err.message);
    // A model that cannot be served or loaded fails its own rung; the next model may well work.
    if (err instanceof AgentBenchError) {
      return { model, status: 'error', results: [], error: err.message, serverLog };
    }
    throw err;
  }
}

/** The task set against the model at one address: one run, or rounds until the sequential bound decides. */
function rungBench(model: LadderModel, c: RungContext, deps: RungDeps): Bench {
  const once = (
    request: Pick<ModelRequest, 'model' | 'baseUrl'>,
    round: { resume: boolean; trialsUpTo: number } | null = null,
  ): Promise<ResultFile[]> =>
    deps.runBench({
      ...c.bench,
      ...(round ?? {}),
      model: { ...c.request, ...request },
      handleSignals: false,
      signal: c.signal,
    });
  const { sequential } = c;
  return (request) =>
    sequential === undefined
      ? once(request)
      : runRounds(
          sequential,
          c.bench.resume,
          (round) => once(request, round),
          (e) =>
            c.note(
              `${model.label}: ${e.passed}/${e.measured} passed, ${describeBound(e)} after ${e.trialsPerTask} round(s)`,
            ),
        );
}

/** Starts the server, runs, and stops it however the run ends. */
async function onSpawnedServer(
  model: LadderModel,
  c: RungContext,
  place: Extract<ModelPlace, { kind: 'spawn' }>,
  logPath: string,
  deps: RungDeps,
  bench: Bench,
): Promise<{
  results: readonly ResultFile[];
  diedDuringRun: string | null;
  stopped: string | null;
  peakRssBytes: number | null;
}> {
  c.note(`${model.label}: starting a model server (log: ${logPath})`);
  const server = await deps.startServer({
    command: place.command,
    modelPath: model.id,
    ...(model.config === undefined
      ? {}
      : { config: { ctx: model.config.ctx, cacheType: model.config.cacheType } }),
    logPath,
    startTimeoutMs: place.startTimeoutMs,
    ...(place.graceMs === undefined ? {} : { graceMs: place.graceMs }),
    apiKeyEnv: c.request.apiKeyEnv,
    signal: c.signal,
  });
  c.note(`${model.label}: server ready at ${server.baseUrl} (model "${server.modelName}")`);
  // From ready on: loading the weights is part of the peak, as each process keeps its own VmHWM.
  const memory = watchGroupMemory(server.pgid);
  try {
    const results = await bench({ model: server.modelName, baseUrl: server.baseUrl });
    // Read before stopping: afterwards the server has ended because we stopped it.
    return { results, diedDuringRun: server.ended(), stopped: null, peakRssBytes: memory.peakBytes() };
  } catch (err) {
    // A server that died mid-run stops the run; its exit is the likely why.
    if (err instanceof RunStoppedError)
      return {
        results: err.results,
        diedDuringRun: server.ended(),
        stopped: err.message,
        peakRssBytes: memory.peakBytes(),
      };
    throw err;
  } finally {
    memory.stop();
    if ((await server.stop()) === 'lingering') {
      c.note(`${model.label}: processes of the server's group ${server.pgid} survive SIGKILL`);
    }
  }
}

/** `small-3b-q4_K_M (~1.7 GiB)`; a configured rung: `small-3b-q4_K_M@ctx8192 (1.7 GiB + KV ~0.5 GiB)`. */
export function describeModel(model: LadderModel): string {
  const size = model.size === null ? 'size unknown' : formatSize(model.size);
  const kv = model.config?.kvBytes;
  return `${model.label} (${size}${kv === undefined || kv === null ? '' : ` + KV ~${formatBytes(kv)}`})`;
}
