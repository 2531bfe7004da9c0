/**
 * Whether shard files belong together, before anything is merged (pure). Files of one run agree on
 * everything that decides a verdict — the shard count, the settings, the condition, the task list
 * and each task's version, the agent-bench version and the sandbox image — and between them hold
 * each trial once, each shard's share as the deal gives it. Every way they do not is one line saying
 * which files disagree and how; the merge refuses them all rather than guess which file is right.
 */
import { basename, dirname, join } from 'node:path';
import { canonicalJson } from '../util/hash.js';
import { conditionKey, conditionOf } from './condition.js';
import type { ShardFile } from './merge-read.js';
import { dealTrials } from './shard-deal.js';

/** Every reason the files cannot be merged; empty when they belong together. */
export function mergeRefusals(files: readonly ShardFile[]): string[] {
  const refusals = [
    differ(files, 'shard counts differ', (f) => `${f.shard.count} shards`),
    differ(files, 'other settings', (f) => canonicalJson(f.result.settings), settingsDifference),
    differ(files, "other conditions in the runs' shards", (f) => f.shard.conditions.join(',')),
    differ(files, 'other agent-bench versions', (f) => f.result.environment.harness_version),
    differ(files, 'other sandbox images', (f) => f.result.environment.sandbox_image),
    differ(files, "other task lists in the runs' shards", (f) => f.shard.tasks.join(',')),
    ...byKey(files, (f) => f.result.task_id).flatMap(([task, same]) => [
      differ(same, `task ${task}: other task versions`, (f) => f.result.task_version),
      differ(same, `task ${task}: other skill folder contents`, (f) => f.result.skill_digest ?? 'no skill'),
    ]),
    ...files.flatMap(shareRefusals),
    ...byKey(files, cellKey).flatMap(([, same]) => cellRefusals(same)),
  ].filter((r) => r !== null);
  if (refusals.length > 0) return refusals;
  // Last: with everything above equal, two derived groups differ only in a --run-group given.
  const groups = differ(
    files,
    'shards of different runs (give every shard the same --run-group, or merge one run at a time with --run-group NAME)',
    (f) => f.shard.group,
  );
  return groups === null ? [] : [groups];
}

/** The (task, model, condition) a file is a part of: the cell its merged file fills. */
export function cellKey(f: Pick<ShardFile, 'result'>): string {
  return cellOf(f.result.task_id, f.result.model, conditionKey(conditionOf(f.result)));
}

export function cellOf(taskId: string, model: string, condition: string): string {
  return [taskId, model, condition].join('\u0000');
}

/** How messages name a cell: `task a, model m` (and the condition, when not clean). */
export function cellName(taskId: string, model: string, condition: string): string {
  return `task ${taskId}, model ${model}${condition === 'clean' ? '' : `, condition ${condition}`}`;
}

/** How the merge names a file: its folder and name. */
export function fileLabel(f: Pick<ShardFile, 'path'>): string {
  return join(basename(dirname(f.path)), basename(f.path));
}

/** The file's share is the deal's, and it holds no trial outside it. */
function shareRefusals(f: ShardFile): string[] {
  const { shard, result } = f;
  const where = `${fileLabel(f)} (shard ${shard.index}/${shard.count}, task ${result.task_id})`;
  if (!shard.tasks.includes(result.task_id)) return [`${where}: the task is not among its run's tasks`];
  const condition = conditionKey(conditionOf(result));
  if (!shard.conditions.includes(condition))
    return [`${where}: its condition ${condition} is not among its run's (${shard.conditions.join(', ')})`];
  const dealt = dealTrials(shard, shard.tasks, result.settings.k, result.settings.early_stop);
  const share = dealt.get(result.task_id) ?? [];
  if (share.join() !== shard.trials.join())
    return [`${where}: records trials ${list(shard.trials)} as its share; the deal gives it ${list(share)}`];
  const outside = result.trials.map((t) => t.index).filter((i) => !share.includes(i));
  return outside.length === 0 ? [] : [`${where}: holds trial(s) ${list(outside)}, not the shard's`];
}

/** One cell: each shard once, each trial once. */
function cellRefusals(files: readonly ShardFile[]): string[] {
  const first = files[0];
  if (first === undefined) return [];
  const what = cellName(first.result.task_id, first.result.model, conditionKey(conditionOf(first.result)));
  const twice = byKey(files, (f) => String(f.shard.index))
    .filter(([, same]) => same.length > 1)
    .map(
      ([index, same]) =>
        `${what}: shard ${index}/${first.shard.count} ran it more than once (${same.map((f) => `${fileLabel(f)}, run ${f.result.run_id}`).join('; ')}): keep one`,
    );
  if (twice.length > 0) return twice;
  const holder = new Map<number, ShardFile>();
  const duplicates: string[] = [];
  for (const f of files) {
    for (const t of f.result.trials) {
      const other = holder.get(t.index);
      if (other !== undefined)
        duplicates.push(
          `${what}: duplicate trial ${t.index + 1}, in ${fileLabel(other)} and ${fileLabel(f)}`,
        );
      holder.set(t.index, f);
    }
  }
  return duplicates;
}

/**
 * One line when the files do not all agree on `key`: the first two values with the files holding
 * each (`explain` says how the first two differ, when the key is not readable itself).
 */
function differ(
  files: readonly ShardFile[],
  what: string,
  key: (f: ShardFile) => string,
  explain?: (a: ShardFile, b: ShardFile) => string,
): string | null {
  const groups = byKey(files, key);
  const [a, b] = groups;
  if (a === undefined || b === undefined) return null;
  const [fa] = a[1];
  const [fb] = b[1];
  if (fa === undefined || fb === undefined) return null;
  const values =
    explain === undefined
      ? `${a[0]} (${names(a[1])}) vs ${b[0]} (${names(b[1])})`
      : `${explain(fa, fb)}: ${names(a[1])} vs ${names(b[1])}`;
  return `${what}: ${values}${groups.length > 2 ? `, and ${groups.length - 2} more` : ''}`;
}

/** `k 5 vs 3`: the first setting in which two files differ. */
function settingsDifference(a: ShardFile, b: ShardFile): string {
  return firstDifference(a.result.settings, b.result.settings, '') ?? 'settings';
}

function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (canonicalJson(a) === canonicalJson(b)) return null;
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = firstDifference(a[key], b[key], path === '' ? key : `${path}.${key}`);
      if (found !== null) return found;
    }
  }
  const show = (v: unknown): string => (v === undefined ? 'unset' : JSON.stringify(v));
  return `${path} ${show(a)} vs ${show(b)}`;
}

/** Items grouped by key, in order of first appearance. */
function byKey<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return [...groups];
}

function names(files: readonly ShardFile[]): string {
  const shown = files.slice(0, 2).map(fileLabel).join(', ');
  return files.length > 2 ? `${shown} and ${files.length - 2} more` : shown;
}

/** Trial indices as the CLI numbers them (from 1). */
function list(indices: readonly number[]): string {
  return indices.length === 0 ? 'none' : indices.map((i) => i + 1).join(', ');
}
