/**
 * The results file of one (task, model, run), as written to `results/` and read back by every report.
 * Field names are snake_case: this is the published contract. src/results/schema.ts parses it.
 */
import type { RunCondition } from './condition.js';
import type { TrialRecord } from './trial.js';

/** Every setting that can change a score. Recorded in each result; non-default values make a run non-comparable. */
export interface Sampling {
  temperature: number;
  seed?: number;
  top_p?: number;
  max_tokens?: number;
}

export interface SandboxLimits {
  memory_mb: number;
  pids: number;
  cpus: number;
}

export interface RunSettings {
  k: number;
  early_stop: boolean;
  /** null: each task's own max_turns. */
  max_turns: number | null;
  command_timeout_sec: number;
  fresh_container: boolean;
  limits: SandboxLimits;
  sampling: Sampling;
  /**
   * `run --tool-calls` when not both (schema 2.7; absent: both): `native`, calls printed as text were
   * not run; `text`, no tools were sent and the model was told the text format. Part of a cell's
   * identity in `report axes`, as a condition is.
   */
  tool_calls?: 'native' | 'text';
  /**
   * A variant task's instances were drawn with this seed (`run --variant-seed`, schema 2.8; absent
   * for a task with one instance): the same seed draws the same instances.
   */
  variant_seed?: number;
  /** `run --variant ID`: every trial of a variant task ran this one instance (schema 2.8). */
  variant?: string;
}

export interface Environment {
  sandbox_image: string;
  image_id: string | null;
  image_source: string | null;
  sampling: Sampling;
  base_url: string | null;
  server: EnvironmentServer | null;
  model: string;
  harness_version: string;
  node_version: string;
  docker_version: string | null;
  /**
   * Trials the run ran at once (--parallel; schema 2.2, absent before: one at a time). How the run
   * was carried out, not a setting that changes a score: verdicts do not depend on it.
   */
  parallel?: number;
  /**
   * The machine at the run's start (schema 2.7, absent before): its cores and 1-minute load average.
   * Wall time depends on them; `gate` says when two runs' differ.
   */
  machine?: { cores: number; load_1m: number };
}

/** What the model server said about itself (null values: it did not say). */
export interface EnvironmentServer {
  kind: string;
  version: string | null;
  context_length: number | null;
  parallel_slots: number | null;
  /** Whether the model's chat template supports tools; false means the text-format parser carries the run. */
  tool_support: boolean | null;
}

export interface FlagSummary {
  kind: 'process' | 'outcome';
  /** The flag states an absence, credited only in trials that reached an outcome (schema 2.1; absent before). */
  absence?: true;
  /** Share of the trials run (trials_run, not k) that reached the flag. */
  reach_rate: number;
  avg_turns: number | null;
}

export type ResultStatus = 'running' | 'complete' | 'interrupted' | 'error';

export interface ResultFile {
  schema_version: string;
  run_id: string;
  task_id: string;
  task_version: string;
  model: string;
  /** What the trials ran under (schema 2.3); absent in older files, which ran clean (condition.ts). */
  condition?: RunCondition;
  /** The task's fewest turns a careful agent needs, the final answer's included (schema 2.3): efficiency is judged against it. */
  optimal_steps?: number;
  status: ResultStatus;
  k: number;
  trials_run: number;
  early_stopped: boolean;
  container_reuse: boolean;
  pass_all_k: boolean;
  /** Mean trial score. */
  score: number;
  /** Unbiased estimate C(c,k)/C(n,k) from the trials run; null when fewer than k trials ran and none failed. */
  pass_hat_k: number | null;
  skills: Record<string, FlagSummary>;
  invalid_tool_call_count: number;
  tamper_detected_count: number;
  native_tool_calls: number;
  text_tool_calls: number;
  usage: { prompt_tokens: number; completion_tokens: number };
  elapsed_sec: number;
  avg_turns: number;
  comparable: boolean;
  non_comparable_reasons: string[];
  settings: RunSettings;
  started_at: string;
  updated_at: string;
  error: string | null;
  environment: Environment;
  /** Content digest of the skill folder a skill task ran with (absent for other tasks). */
  skill_digest?: string;
  /** Which shard of which run this file holds (`--shard i/N`; schema 2.3); absent for a run on one machine. */
  shard?: ShardRecord;
  /** The shard files this file was merged from (`agent-bench results merge`; schema 2.3). */
  merged?: MergeRecord;
  trials: TrialRecord[];
  result_hash: string;
}

/**
 * A shard's part of a run split with `--shard i/N` (schema 2.3): each shard writes one file per task
 * with its share of the trials; `agent-bench results merge` brings them back into the file one machine
 * would have written (shard-deal.ts says which trials are whose).
 */
export interface ShardRecord {
  /** 1-based: shard `index` of `count` (`--shard index/count`). */
  index: number;
  count: number;
  /** The run every shard of it shares: `--run-group NAME`, or `work-<hash>` of the tasks and settings. */
  group: string;
  /** Every task id of the run, sorted: the work the trials were dealt from. */
  tasks: string[];
  /** The run's conditions (`clean`, `noisy@0.2`...): every shard runs its trials under each. */
  conditions: string[];
  /** The trials of this task this shard owns (its share), ascending. */
  trials: number[];
}

/** Where a merged file's trials came from. */
export interface MergeRecord {
  group: string;
  /** Shards the run was split into. */
  count: number;
  /** One per shard file merged, by shard index. */
  parts: MergedPart[];
}

interface MergedPart {
  shard: number;
  run_id: string;
  status: ResultStatus;
  /** The trials this part gave the merged file. */
  trials: number[];
  /** The machine's own: its model server, Docker engine, parallelism. */
  environment: Environment;
}
