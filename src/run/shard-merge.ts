/**
 * Shard files that belong together (merge-check.ts said so) -> the results files one machine would
 * have written for the same work: per (task, model, condition), every shard's trials in index order,
 * every field that comes from the trials computed again as a run computes it (aggregate.ts,
 * settings.ts), every other field (the task's, the run's) as the shard files have it. A shard that
 * did not deliver its share (no file, or a file that did not complete) leaves the merged file
 * `interrupted` (or `error`, as the part was) and says which trials are missing: never filled in.
 */
import { conditionKey, conditionOf } from '../results/condition.js';
import { cellKey, cellName, cellOf } from '../results/merge-check.js';
import type { ShardFile } from '../results/merge-read.js';
import type { ResultFile } from '../results/result-file.js';
import { dealTrials } from '../results/shard-deal.js';
import { withHash } from '../results/store.js';
import { InternalError } from '../util/errors.js';
import { sha256 } from '../util/hash.js';
import { summarize, unmeasuredReasons } from './aggregate.js';
import { nonComparableReasons } from './settings.js';

interface MergedCell {
  result: ResultFile;
  /** The shard files it was made from, by shard index. */
  parts: ShardFile[];
  /** What keeps it from being whole, one line each; empty when every shard delivered its share. */
  gaps: string[];
}

export interface Merge {
  cells: MergedCell[];
  /** Tasks of the run that no shard has any results of (for a model and condition that has others). */
  absent: string[];
}

export function mergeShardFiles(files: readonly ShardFile[]): Merge {
  const runId = mergedRunId(
    files.map((f) => f.result.started_at),
    files.map((f) => `${f.shard.index}:${f.result.run_id}`),
  );
  const byCell = new Map<string, ShardFile[]>();
  for (const f of files) byCell.set(cellKey(f), [...(byCell.get(cellKey(f)) ?? []), f]);
  const cells = [...byCell.values()]
    .map((parts) =>
      mergeCell(
        runId,
        [...parts].sort((a, b) => a.shard.index - b.shard.index),
      ),
    )
    .sort((a, b) => compare(cellOrder(a.result), cellOrder(b.result)));
  return { cells, absent: absentCells(files, byCell) };
}

function mergeCell(runId: string, parts: ShardFile[]): MergedCell {
  const [first] = parts;
  if (first === undefined) throw new InternalError('a merged cell has no part');
  const { result: r, shard } = first;
  const { settings } = r;
  const k = settings.k;
  const gaps = shareGaps(r.task_id, shard, parts);
  const trials = parts.flatMap((p) => p.result.trials).sort((a, b) => a.index - b.index);
  const status =
    gaps.length === 0 ? 'complete' : parts.some((p) => p.result.status === 'error') ? 'error' : 'interrupted';
  // The flags as the task defines them, in its order: every shard's file lists them all.
  const flags = Object.entries(r.skills).map(([id, s]) => ({
    id,
    kind: s.kind,
    ...(s.absence === true ? { absence: true as const } : {}),
  }));
  const reasons = [...nonComparableReasons(settings), ...unmeasuredReasons(k, trials)];
  // What the task and the run define is the shard files' own (they agree: merge-check.ts).
  const { result_hash: _hash, schema_version: _version, shard: _shard, ...defined } = r;
  const result = withHash({
    ...defined,
    run_id: runId,
    status,
    early_stopped: settings.early_stop && status === 'complete' && trials.length < k,
    ...summarize({ flags }, k, trials),
    comparable: reasons.length === 0,
    non_comparable_reasons: reasons,
    started_at: parts.map((p) => p.result.started_at).reduce(earliest),
    updated_at: parts.map((p) => p.result.updated_at).reduce(latest),
    error: status === 'complete' ? null : gaps.join('; '),
    trials,
    merged: {
      group: shard.group,
      count: shard.count,
      parts: parts.map((p) => ({
        shard: p.shard.index,
        run_id: p.result.run_id,
        status: p.result.status,
        trials: p.result.trials.map((t) => t.index),
        environment: p.result.environment,
      })),
    },
  });
  const name = cellName(r.task_id, r.model, conditionKey(conditionOf(r)));
  return { result, parts, gaps: gaps.map((g) => `${name}: ${g}`) };
}

/** Each shard that owns trials of the task and did not deliver them, in one line. */
function shareGaps(taskId: string, shard: ShardFile['shard'], parts: readonly ShardFile[]): string[] {
  const { k, early_stop } = parts[0]?.result.settings ?? { k: 0, early_stop: false };
  const gaps: string[] = [];
  for (let index = 1; index <= shard.count; index++) {
    const owned = dealTrials({ index, count: shard.count }, shard.tasks, k, early_stop).get(taskId);
    if (owned === undefined) continue;
    const part = parts.find((p) => p.shard.index === index);
    const who = `shard ${index}/${shard.count}`;
    if (part === undefined) gaps.push(`${who}: no results (trials ${owned.map((i) => i + 1).join(', ')})`);
    else if (part.result.status !== 'complete')
      gaps.push(`${who} ${part.result.status}${part.result.error === null ? '' : `: ${part.result.error}`}`);
  }
  return gaps;
}

/**
 * One run id for everything a merge writes, as one run has one: when its first part started, and a
 * hash of the runs it joins, so merging the same files again gives the same files.
 */
export function mergedRunId(startedAt: readonly string[], runs: readonly string[]): string {
  const stamp = new Date(startedAt.reduce(earliest)).toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-merged-${sha256([...new Set(runs)].sort().join('\n')).slice(0, 6)}`;
}

/** Cells of the run without a single file: each task under each condition, for each model that has files. */
function absentCells(files: readonly ShardFile[], byCell: ReadonlyMap<string, ShardFile[]>): string[] {
  const [first] = files;
  if (first === undefined) return [];
  const absent: string[] = [];
  for (const model of new Set(files.map((f) => f.result.model)))
    for (const condition of first.shard.conditions)
      for (const task of first.shard.tasks)
        if (!byCell.has(cellOf(task, model, condition)))
          absent.push(`${cellName(task, model, condition)}: no shard has results of it`);
  return absent;
}

const earliest = (a: string, b: string): string => (b < a ? b : a);
const latest = (a: string, b: string): string => (b > a ? b : a);

function cellOrder(r: ResultFile): string[] {
  return [r.model, conditionKey(conditionOf(r)), r.task_id];
}

function compare(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
