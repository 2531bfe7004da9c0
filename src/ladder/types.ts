/** What the ladder is made of: candidate models in size order, and what happened on each rung. */
import type { WeightEstimate } from '../discovery/order.js';
import type { DiscoveredModel } from '../discovery/types.js';
import type { ResultFile } from '../results/result-file.js';
import type { RungConfig } from './rung-config.js';
import type { SequentialEvidence } from './sequential-rule.js';

export interface LadderModel {
  /** What a run asks for: the name a server knows, or a GGUF file's absolute path. */
  id: string;
  /** Shown in the table and the verdict: the name, or a GGUF file's base name. */
  label: string;
  info: DiscoveredModel;
  /** null: nobody reported a size and there is nothing to estimate it from. */
  size: WeightEstimate | null;
  /** A `--ctx`/`--cache-type` rung: the server configuration this rung runs the file with. */
  config?: ConfiguredRung;
}

interface ConfiguredRung extends RungConfig {
  /** The model file's own label (the rung's label adds the configuration). */
  fileLabel: string;
  /** The KV cache's estimated bytes; null when the context or the header's attention shape is unknown. */
  kvBytes: number | null;
}

/**
 * `error`: not measured (the server did not start, the model did not load, the server failed mid-run,
 * trials errored); never taken for a failure. `not_run`: the ladder stopped before this rung (a
 * smaller model passed, or an interruption). `undecided`: a sequential rung (`--target`) reached
 * --max-k with its bound still on both sides of the target; never a pass.
 */
export type RungStatus = 'passed' | 'failed' | 'undecided' | 'error' | 'interrupted' | 'not_run';

export interface Rung {
  model: LadderModel;
  status: RungStatus;
  /** One per task that ran (what runBench returned). */
  results: ResultFile[];
  /** Why the rung was not (fully) measured: server did not start or died, model did not load, run stopped. */
  error: string | null;
  /** The spawned server's log (`--server-cmd`), else null. */
  serverLog: string | null;
  /**
   * The peak memory the model took, null if unread: a `--server-cmd` rung's server process group
   * (summed VmHWM), or an in-process rung's own process (own-memory.ts) — `peakRssOf` says which.
   */
  serverPeakRssBytes?: number | null;
  peakRssOf?: 'server' | 'process';
  /** A sequential rung's pooled trials and bound (`--target` below 1); absent at pass^k. */
  sequential?: SequentialEvidence;
}
