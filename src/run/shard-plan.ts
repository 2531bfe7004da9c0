/**
 * A shard's part of a run: which trials of which tasks it runs, and the run it belongs to. All shards
 * of a run must agree on that run without talking to each other, so its name is either given
 * (`--run-group NAME`, the same on every machine) or derived from what defines the work: the task ids
 * and versions, every setting that changes a score, the conditions, and the number of shards. Machines given the same
 * command line derive the same name; a machine with another task version or setting derives another,
 * and `results merge` says which.
 */
import type { RunSettings, ShardRecord } from '../results/result-file.js';
import { dealTrials, sortedIds } from '../results/shard-deal.js';
import type { Task } from '../tasks/types.js';
import { hasVariants } from '../tasks/variants/instances.js';
import { taskVersion } from '../tasks/version.js';
import { UsageError } from '../util/errors.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import type { ShardSpec } from './shard.js';
import type { VariantChoice } from './trial-instances.js';

export interface ShardPlan {
  spec: ShardSpec;
  group: string;
  /** What this task's results file records, or null when the shard owns none of its trials. */
  record(taskId: string): ShardRecord | null;
  /** This shard's trials, and the whole run's. */
  trials: number;
  total: number;
}

export interface ShardRequest {
  spec: ShardSpec;
  /** `--run-group`; derived from the work when absent. */
  group?: string;
}

export function planShard(
  o: ShardRequest & {
    tasks: readonly Task[];
    settings: RunSettings;
    /** The run's conditions, as condition keys (default: clean only). */
    conditions?: readonly string[];
    /** How variant tasks draw their instances: shards of runs drawn differently are different runs. */
    variants?: VariantChoice;
  },
): ShardPlan {
  const ids = sortedIds(o.tasks.map((t) => t.id));
  const conditions = [...(o.conditions ?? ['clean'])];
  const share = dealTrials(o.spec, ids, o.settings.k, o.settings.early_stop);
  const group = o.group ?? derivedGroup(o.tasks, o.settings, conditions, o.spec.count, o.variants);
  let trials = 0;
  for (const owned of share.values()) trials += owned.length;
  return {
    spec: o.spec,
    group,
    record(taskId) {
      const owned = share.get(taskId);
      if (owned === undefined) return null;
      return { index: o.spec.index, count: o.spec.count, group, tasks: ids, conditions, trials: owned };
    },
    trials,
    total: ids.length * o.settings.k,
  };
}

/** `shard 2/3 of run work-1a2b3c4d5e6f: 5 of 15 trials`. */
export function describeShard(plan: ShardPlan): string {
  return `shard ${plan.spec.index}/${plan.spec.count} of run ${plan.group}: ${plan.trials} of ${plan.total} trials`;
}

/** `--run-group`: a name to type on every machine, so it is kept to a file-name-safe slug. */
export function parseRunGroup(text: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(text))
    throw new UsageError(
      `--run-group must be 1-64 letters, digits or ._- starting with a letter or digit, got "${text}"`,
    );
  return text;
}

function derivedGroup(
  tasks: readonly Task[],
  settings: RunSettings,
  conditions: readonly string[],
  count: number,
  variants: VariantChoice | undefined,
): string {
  const work = {
    tasks: [...tasks].sort((a, b) => (a.id < b.id ? -1 : 1)).map((t) => [t.id, taskVersion(t)]),
    settings,
    conditions,
    shards: count,
    // Only where a task has variants, so the names of other runs stay what they were.
    ...(variants !== undefined && tasks.some(hasVariants) ? { variants } : {}),
  };
  return `work-${sha256(canonicalJson(work)).slice(0, 12)}`;
}
