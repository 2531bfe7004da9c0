/**
 * `<results-dir>/ladder-<runId>.json`: the ladder as reports read it. Rewritten after every rung, so a
 * crash or Ctrl-C leaves the rungs so far. The per-task numbers are copied from the results files
 * (named by their run ids), which stay the source of truth.
 */
import { join } from 'node:path';
import type { WeightSource } from '../discovery/types.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { estimatedMemoryBytes } from './plan.js';
import { type RungSpeed, rungSpeed } from './rung-speed.js';
import type { SequentialEvidence } from './sequential-rule.js';
import { passesSuite } from './stop-rule.js';
import { clearTimeSec } from './table.js';
import type { Rung, RungStatus } from './types.js';

export const LADDER_SCHEMA = 'agent-bench/ladder@1';

export interface LadderSummary {
  schema: string;
  run_id: string;
  status: 'running' | 'complete' | 'interrupted';
  suite: string;
  tasks: string[];
  k: number;
  early_stop: boolean;
  exhaustive: boolean;
  /** A sequential ladder (`--target` below 1): the pass rate to show, each bound's confidence, trials per task at most. */
  target?: number;
  confidence?: number;
  max_k?: number;
  /** Where the models came from: a server's URL, or a GGUF folder (and the server command, if any). */
  source: { base_url: string } | { gguf_dir: string; server_cmd: string | null };
  started_at: string;
  updated_at: string;
  rungs: RungSummary[];
  /** Labels of every passing model, in ladder order; the first is the verdict's. */
  passing: string[];
  verdict: string | null;
  /**
   * Shard `index`/`count` of run `group` (`--shard`): it ran its share of the trials of every rung, so
   * its rungs and `passing` speak of that share only, and it has no verdict of its own.
   */
  shard?: { index: number; count: number; group: string };
  /** The shard ladders this one was merged from (`agent-bench results merge`). */
  merged?: { group: string; count: number; parts: { shard: number; run_id: string }[] };
}

interface RungSummary {
  model: string;
  /** What the run asked for: a server's model name or a GGUF path. */
  model_id: string;
  /** The `model` field of this rung's results files (a spawned server may name it otherwise). */
  results_model: string | null;
  family: string | null;
  parameters_b: number | null;
  active_parameters_b: number | null;
  quantization: string | null;
  size_bytes: number | null;
  size_source: WeightSource | null;
  status: RungStatus;
  tasks: Record<string, TaskSummary>;
  elapsed_sec: number;
  /** Trial time across all tasks when the model passed them all, else null. */
  clear_time_sec: number | null;
  error: string | null;
  server_log: string | null;
  /** A `--ctx`/`--cache-type` rung: its server's configuration (null: not asked for, the server's default). */
  ctx?: number | null;
  cache_type?: string | null;
  /** The KV cache's estimated bytes (null: the context or the file's attention shape unknown). */
  kv_cache_bytes?: number | null;
  /** What the rung was ordered by: the file size plus the KV estimate; the measured peak is beside it. */
  memory_estimate_bytes?: number | null;
  /**
   * The peak resident memory the model took: a `--server-cmd` rung's server (the process group's
   * VmHWM summed), an in-process rung's agent-bench process (`peak_rss_of`: `process`).
   */
  server_peak_rss_bytes?: number | null;
  /** Whose peak `server_peak_rss_bytes` is; absent in older summaries (then: the server's). */
  peak_rss_of?: 'server' | 'process';
  /** Prompt and generation tokens per second from the server's own timings, when it sent them. */
  speed?: RungSpeed;
  /** A sequential rung's decision: trials pooled over the tasks and the one-sided bounds at `confidence`. */
  sequential?: {
    decision: 'passed' | 'failed' | 'undecided' | 'open';
    passed: number;
    measured: number;
    trials_per_task: number;
    lower: number;
    upper: number;
  };
}

interface TaskSummary {
  run_id: string;
  status: string;
  pass_all_k: boolean;
  pass_hat_k: number | null;
  trials_run: number;
  trials_passed: number;
  tamper_detected_count: number;
}

function rungSummary(rung: Rung, taskIds: readonly string[]): RungSummary {
  const { model } = rung;
  const tasks: Record<string, TaskSummary> = {};
  for (const r of rung.results) {
    tasks[r.task_id] = {
      run_id: r.run_id,
      status: r.status,
      pass_all_k: r.pass_all_k,
      pass_hat_k: r.pass_hat_k,
      trials_run: r.trials_run,
      trials_passed: r.trials.filter((t) => t.passed).length,
      tamper_detected_count: r.tamper_detected_count,
    };
  }
  const elapsed = clearTimeSec(rung);
  const speed = rungSpeed(rung.results);
  return {
    model: model.label,
    model_id: model.id,
    results_model: rung.results[0]?.model ?? null,
    family: model.info.family,
    parameters_b: model.info.parameters,
    active_parameters_b: model.info.activeParameters,
    quantization: model.info.quantization,
    size_bytes: model.size?.bytes ?? null,
    size_source: model.size?.source ?? null,
    status: rung.status,
    tasks,
    elapsed_sec: elapsed,
    // A sequential rung passes on its bound, with fewer than k trials: pass^k is not its test.
    clear_time_sec: (
      rung.sequential === undefined
        ? passesSuite(taskIds, rung.results)
        : rung.status === 'passed'
    )
      ? elapsed
      : null,
    error: rung.error,
    server_log: rung.serverLog,
    ...(model.config === undefined
      ? {}
      : {
          ctx: model.config.ctx,
          cache_type: model.config.cacheType,
          kv_cache_bytes: model.config.kvBytes,
          memory_estimate_bytes: estimatedMemoryBytes(model),
        }),
    ...(rung.serverPeakRssBytes === undefined ? {} : { server_peak_rss_bytes: rung.serverPeakRssBytes }),
    ...(rung.peakRssOf === undefined ? {} : { peak_rss_of: rung.peakRssOf }),
    ...(speed.prompt_tps === null && speed.generation_tps === null ? {} : { speed }),
    ...(rung.sequential === undefined ? {} : { sequential: sequentialSummary(rung.sequential) }),
  };
}

function sequentialSummary(e: SequentialEvidence): NonNullable<RungSummary['sequential']> {
  return {
    decision: e.decision,
    passed: e.passed,
    measured: e.measured,
    trials_per_task: e.trialsPerTask,
    lower: e.lower,
    upper: e.upper,
  };
}

/** What stays the same over a ladder's life; the rungs and the status change as it climbs. */
export type LadderMeta = Omit<LadderSummary, 'status' | 'updated_at' | 'rungs' | 'passing' | 'verdict'>;

export function ladderSummary(
  meta: LadderMeta,
  rungs: readonly Rung[],
  status: LadderSummary['status'],
  verdict: string | null,
): LadderSummary {
  return {
    ...meta,
    status,
    updated_at: new Date().toISOString(),
    rungs: rungs.map((r) => rungSummary(r, meta.tasks)),
    passing: rungs.filter((r) => r.status === 'passed').map((r) => r.model.label),
    verdict,
  };
}

function ladderSummaryPath(resultsDir: string, runId: string): string {
  return join(resultsDir, `ladder-${runId}.json`);
}

export async function writeLadderSummary(resultsDir: string, summary: LadderSummary): Promise<string> {
  const path = ladderSummaryPath(resultsDir, summary.run_id);
  await writeFileAtomic(path, `${JSON.stringify(summary, null, 2)}\n`);
  return path;
}
