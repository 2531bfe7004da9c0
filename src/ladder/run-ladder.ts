/**
 * `agent-bench ladder`: run the task set on each candidate model from the smallest up, and stop at
 * the first that passes everything at pass^k (or run them all with `exhaustive`). Each rung is an
 * ordinary run, so its results files land where reports and the dashboard look.
 */

import { formatBytes } from '../discovery/models-table.js';
import type { RunSettings } from '../results/result-file.js';
import { createInterrupt } from '../run/interrupt.js';
import type { ParallelRequest } from '../run/parallelism.js';
import type { ProgressStream } from '../run/progress.js';
import type { ModelRequest } from '../run/resolve-model.js';
import { runBench } from '../run/run-bench.js';
import { newRunId } from '../run/run-id.js';
import { describeShard, type ShardPlan } from '../run/shard-plan.js';
import type { VariantChoice } from '../run/trial-instances.js';
import type { Task } from '../tasks/types.js';
import { InternalError, InterruptedError, UsageError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';
import { type CandidateSource, type Candidates, findCandidates } from './candidates.js';
import { readKvShapes } from './kv-cache.js';
import { planConfigLadder, planLadder } from './plan.js';
import { preflight } from './preflight.js';
import { describeModel, type ModelPlace, type RungContext, type RungDeps, runRung } from './run-rung.js';
import type { RungConfig } from './rung-config.js';
import { rungSpeed } from './rung-speed.js';
import type { SequentialRule } from './sequential-rule.js';
import { checkServerCommand } from './server-command.js';
import { startModelServer } from './server-process.js';
import { ladderGoesOn } from './stop-rule.js';
import { LADDER_SCHEMA, type LadderMeta, ladderSummary, writeLadderSummary } from './summary-file.js';
import { ladderTable } from './table.js';
import type { LadderModel, Rung } from './types.js';
import { ladderVerdict, sequentialLine, sequentialVerdict } from './verdict.js';

const DEFAULT_SERVER_START_TIMEOUT_MS = 300_000;

const SAID: Readonly<Record<Rung['status'], string>> = {
  passed: 'passes every task',
  failed: 'fails',
  undecided: 'undecided at --max-k (never taken for a pass)',
  error: 'not measured (no verdict is built on it)',
  interrupted: 'interrupted',
  not_run: 'not run',
};

export interface LadderOptions {
  tasks: Task[];
  /** How the verdict names the task set: a task id, a suite, a skill. */
  suite: string;
  source: CandidateSource;
  /** `--server-cmd` with `{model}` and `{port}`: one server per GGUF file (GGUF folders only). */
  serverCmd?: string;
  /**
   * `--ctx`/`--cache-type` (rung-config.ts): each GGUF file runs once per configuration, on a
   * `--server-cmd` that takes `{ctx}`/`{cache_type}`; the rungs are ordered by estimated memory.
   */
  configs?: RungConfig[];
  serverStartTimeoutMs?: number;
  /** From SIGTERM to SIGKILL when a server is stopped. */
  serverGraceMs?: number;
  settings: RunSettings;
  resultsDir: string;
  resume: boolean;
  exhaustive: boolean;
  /** How to talk to each model; which model and where is the ladder's business. */
  request: Omit<ModelRequest, 'model' | 'baseUrl'>;
  /** The table and the verdict. */
  stdout?: { write(text: string): unknown };
  /** Progress, each rung's run summary, server notes. */
  stderr?: ProgressStream;
  /** Install SIGINT/SIGTERM handlers (the CLI does; tests pass `signal` instead). */
  handleSignals?: boolean;
  signal?: AbortSignal;
  /**
   * This machine's share of a ladder split with --shard: its trials of every rung. Shards cannot see
   * each other's results, so none stops the climb, and none has a verdict: the merge has it.
   */
  shard?: ShardPlan;
  /** How variant tasks draw their trials' instances: every rung sees the same ones (default seed). */
  variants?: VariantChoice;
  /**
   * `--target P --confidence C --max-k N` with P below 1: each rung runs in rounds until its bound
   * decides (sequential-rule.ts); `settings.k` must then be N, and early stop off. Absent: pass^k.
   */
  sequential?: SequentialRule;
  /** Trials at once within a rung's run (default 1). */
  parallel?: ParallelRequest;
}

export interface LadderDeps extends RungDeps {
  findCandidates: (source: CandidateSource) => Promise<Candidates>;
  preflight: (note: (line: string) => void) => Promise<void>;
}

export interface LadderOutcome {
  runId: string;
  /** In ladder order; rungs above the stop are `not_run`. */
  rungs: Rung[];
  verdict: string;
  summaryPath: string;
}

export async function runLadder(o: LadderOptions, deps: Partial<LadderDeps> = {}): Promise<LadderOutcome> {
  const d: LadderDeps = { runBench, startServer: startModelServer, findCandidates, preflight, ...deps };
  checkOptions(o);
  const { shard } = o;
  const stderr = o.stderr ?? process.stderr;
  const note = (line: string): void => void stderr.write(`${line}\n`);
  const { found, ladder } = await discoverLadder(o, d, note);
  const shardNote =
    shard === undefined
      ? null
      : `${describeShard(shard)} on every rung; the verdict comes from merging the shards (agent-bench results merge DIR... --into DIR)`;
  if (shardNote !== null) note(shardNote);

  // Each rung's run gets this signal with its own handlers off: the ladder owns SIGINT/SIGTERM, and
  // a first one aborts the rung in flight (its trials stop, containers go, its server is stopped).
  const interrupt = createInterrupt({
    handleSignals: o.handleSignals !== false,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    stopping: 'stopping the ladder, removing containers and stopping the model server',
    note,
  });
  const runId = newRunId();
  const meta: LadderMeta = {
    ...ladderMeta(o, runId, found),
    exhaustive: o.exhaustive || shard !== undefined,
    ...(shard === undefined ? {} : { shard: { ...shard.spec, group: shard.group } }),
  };
  const rungs: Rung[] = ladder.map((model) => ({
    model,
    status: 'not_run',
    results: [],
    error: null,
    serverLog: null,
  }));
  const save = (status: 'running' | 'complete' | 'interrupted', verdict: string | null): Promise<string> =>
    writeLadderSummary(o.resultsDir, ladderSummary(meta, rungs, status, verdict));
  const context = rungContext(o, { found, runId, signal: interrupt.signal, stderr, note });
  try {
    await climb(rungs, context, d, { exhaustive: meta.exhaustive, save });
  } finally {
    interrupt.release();
  }

  const stdout = o.stdout ?? process.stdout;
  const table = ladderTable(rungs, meta.tasks);
  if (interrupt.signal.aborted || rungs.some((r) => r.status === 'interrupted')) {
    const path = await save('interrupted', null);
    stdout.write(`${table}\n`);
    throw new InterruptedError(
      `interrupted: model servers stopped, results so far are saved (ladder: ${path})`,
    );
  }
  const verdict =
    shardNote ??
    (o.sequential === undefined
      ? ladderVerdict(o.suite, o.settings.k, rungs)
      : sequentialVerdict(o.suite, o.sequential, rungs));
  const summaryPath = await save('complete', shardNote === null ? verdict : null);
  stdout.write(`${table}\n\n${verdict}\n`);
  note(`ladder summary: ${summaryPath}`);
  return { runId, rungs, verdict, summaryPath };
}

/** The candidates, smallest first, and the engine and image checked before any model loads. */
async function discoverLadder(
  o: LadderOptions,
  d: LadderDeps,
  note: (line: string) => void,
): Promise<{ found: Candidates; ladder: LadderModel[] }> {
  const found = await d.findCandidates(o.source);
  for (const problem of found.problems) note(`skipped ${problem}`);
  const ladder =
    o.configs === undefined
      ? planLadder(found.models)
      : planConfigLadder(found.models, o.configs, await readKvShapes(found.models.map((m) => m.name)));
  note(`ladder of ${ladder.length} model(s), smallest first: ${ladder.map(describeModel).join(', ')}`);
  await d.preflight(note);
  return { found, ladder };
}

function rungContext(
  o: LadderOptions,
  c: {
    found: Candidates;
    runId: string;
    signal: AbortSignal;
    stderr: ProgressStream;
    note: (line: string) => void;
  },
): RungContext {
  const { shard } = o;
  return {
    bench: {
      // A shard runs the tasks it owns trials of.
      tasks: shard === undefined ? o.tasks : o.tasks.filter((t) => shard.record(t.id) !== null),
      ...(shard === undefined ? {} : { shard }),
      settings: o.settings,
      resultsDir: o.resultsDir,
      resume: o.resume,
      ...(o.parallel === undefined ? {} : { parallel: o.parallel }),
      ...(o.variants === undefined ? {} : { variants: o.variants }),
      stdout: c.stderr,
      stderr: c.stderr,
    },
    request: o.request,
    place: modelPlace(o, c.found),
    runId: c.runId,
    signal: c.signal,
    note: c.note,
    ...(o.sequential === undefined ? {} : { sequential: o.sequential }),
  };
}

/**
 * The rungs from the smallest up, each saved in `rungs` as it ends and the summary rewritten, until
 * one passes (unless exhaustive), the ladder is interrupted, or the rungs run out.
 */
async function climb(
  rungs: Rung[],
  context: RungContext,
  d: LadderDeps,
  o: { exhaustive: boolean; save: (status: 'running', verdict: null) => Promise<string> },
): Promise<void> {
  const { note, signal } = context;
  const ladder = rungs.map((r) => r.model);
  await o.save('running', null);
  // A shard that owns no trial has no rung to run.
  for (const [i, model] of (context.bench.tasks.length === 0 ? [] : ladder).entries()) {
    if (signal.aborted) break;
    note(`rung ${i + 1}/${ladder.length}: ${describeModel(model)}`);
    const rung = await runRung(model, context, d);
    rungs[i] = rung;
    if (rung.error !== null) note(`${model.label}: ${rung.error}`);
    if (rung.status === 'interrupted') break;
    const said =
      rung.sequential === undefined || context.sequential === undefined
        ? SAID[rung.status]
        : sequentialLine(rung.sequential, context.sequential);
    note(`${model.label}: ${said}${measurements(rung)}`);
    await o.save('running', null);
    if (!ladderGoesOn(rung.status === 'passed', o.exhaustive)) {
      if (i < ladder.length - 1)
        note(`stopping: ${model.label} passes (--exhaustive runs the larger models too)`);
      break;
    }
  }
}

/** Checked before anything is discovered or started. */
function checkOptions(o: LadderOptions): void {
  if (o.tasks.length === 0) throw new UsageError('the ladder needs at least one task');
  if (o.serverCmd !== undefined) {
    if (o.source.kind !== 'gguf-dir') {
      throw new UsageError('--server-cmd needs --gguf-dir: it starts one server per GGUF file');
    }
    checkServerCommand(o.serverCmd, {
      ctx: o.configs?.some((c) => c.ctx !== null) ?? false,
      cacheType: o.configs?.some((c) => c.cacheType !== null) ?? false,
    });
  }
  if (o.configs !== undefined) checkConfigs(o);
  if (o.sequential !== undefined) checkSequential(o.sequential, o);
  const timeout = o.serverStartTimeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new UsageError(
      `the server start timeout must be a positive number of seconds, got ${timeout / 1000}`,
    );
  }
}

function modelPlace(o: LadderOptions, found: Candidates): ModelPlace {
  if (found.baseUrl !== null) return { kind: 'server', baseUrl: found.baseUrl };
  if (o.serverCmd === undefined) return { kind: 'embedded' };
  return {
    kind: 'spawn',
    command: o.serverCmd,
    startTimeoutMs: o.serverStartTimeoutMs ?? DEFAULT_SERVER_START_TIMEOUT_MS,
    ...(o.serverGraceMs === undefined ? {} : { graceMs: o.serverGraceMs }),
  };
}

function ladderMeta(o: LadderOptions, runId: string, found: Candidates): LadderMeta {
  return {
    schema: LADDER_SCHEMA,
    run_id: runId,
    suite: o.suite,
    tasks: o.tasks.map((t) => t.id),
    k: o.settings.k,
    early_stop: o.settings.early_stop,
    exhaustive: o.exhaustive,
    ...(o.sequential === undefined
      ? {}
      : {
          target: o.sequential.target,
          confidence: o.sequential.confidence,
          max_k: o.sequential.maxK,
        }),
    source:
      o.source.kind === 'gguf-dir'
        ? { gguf_dir: o.source.dir, server_cmd: o.serverCmd ?? null }
        : { base_url: redactUrl(found.baseUrl ?? '') },
    started_at: new Date().toISOString(),
  };
}

/**
 * Configurations are a server's (the in-process backend takes none yet). Several of one file share
 * its model name in the results files, so --resume could continue another configuration's trials.
 */
function checkConfigs(o: LadderOptions): void {
  if (o.serverCmd === undefined)
    throw new UsageError(
      '--ctx and --cache-type need --server-cmd: they are passed to each server it starts',
    );
  if (o.shard !== undefined && (o.configs?.length ?? 0) > 1)
    throw new UsageError(
      '--shard does not go with several --ctx/--cache-type values yet: merging the shards tells rungs apart by model name, which their configurations share',
    );
  if (o.resume && (o.configs?.length ?? 0) > 1)
    throw new UsageError(
      '--resume does not go with several --ctx/--cache-type values: their results files share the model name, so one could continue another',
    );
}

/** The rule's numbers and the run's settings agree, and a shard cannot decide alone. */
function checkSequential(rule: SequentialRule, o: LadderOptions): void {
  if (!(rule.target > 0 && rule.target < 1))
    throw new UsageError(`--target must be above 0 and below 1 for a sequential ladder, got ${rule.target}`);
  if (!(rule.confidence > 0 && rule.confidence < 1))
    throw new UsageError(`--confidence must be above 0 and below 1, got ${rule.confidence}`);
  if (!(Number.isInteger(rule.maxK) && rule.maxK >= 1))
    throw new UsageError(`--max-k must be a whole number of trials, at least 1, got ${rule.maxK}`);
  if (o.settings.k !== rule.maxK || o.settings.early_stop)
    throw new InternalError('a sequential ladder runs with k = --max-k and without early stop');
  if (o.shard !== undefined)
    throw new UsageError(
      '--target does not go with --shard yet: a shard sees only its share of the trials, so it cannot decide when a rung stops',
    );
}

/** ` (server peak 1.2 GiB; prompt 310 tok/s, generation 24.5 tok/s)`: what was measured, else nothing. */
function measurements(rung: Rung): string {
  const peak = rung.serverPeakRssBytes;
  const speed = rungSpeed(rung.results);
  const parts = [
    peak === undefined || peak === null
      ? null
      : `${rung.peakRssOf === 'process' ? 'process' : 'server'} peak ${formatBytes(peak)}`,
    speed.prompt_tps === null ? null : `prompt ${speed.prompt_tps} tok/s`,
    speed.generation_tps === null ? null : `generation ${speed.generation_tps} tok/s`,
  ].filter((p) => p !== null);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}
