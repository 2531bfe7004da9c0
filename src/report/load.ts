/**
 * Which results a report shows: the newest result per (task, model). Reports and the dashboard only
 * read results files; they never import the runner.
 */
import { basename } from 'node:path';
import {
  CLEAN,
  type ConditionName,
  conditionKey,
  conditionOf,
  type RunCondition,
} from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import { describeProblem, readResultFiles } from '../results/store.js';

export interface LoadedResult {
  /** File name inside the results folder (what the dashboard uses to address it). */
  file: string;
  result: ResultFile;
}

/** The identity and dates a result is ordered by: enough to pick the newest without the trials. */
export type Dated = Pick<
  ResultFile,
  'task_id' | 'model' | 'run_id' | 'started_at' | 'updated_at' | 'condition'
>;

/** Every usable results file in dir; each file that was skipped is told to onSkipped in one line. */
export async function loadResults(dir: string, onSkipped?: (line: string) => void): Promise<LoadedResult[]> {
  const { results, problems } = await readResultFiles(dir);
  for (const p of problems) onSkipped?.(describeProblem(p));
  return results.map(({ path, result }) => ({ file: basename(path), result }));
}

/**
 * Later run first. Runs are ordered by start: a run still in progress (status 'running') shows until a
 * newer run replaces it, and an older complete run never hides a newer partial one.
 */
function compareNewestFirst(a: Dated, b: Dated): number {
  return (
    b.started_at.localeCompare(a.started_at) ||
    b.updated_at.localeCompare(a.updated_at) ||
    b.run_id.localeCompare(a.run_id)
  );
}

export function cellKey(taskId: string, model: string): string {
  return `${taskId}\u0000${model}`;
}

/**
 * The newest item per (task, model) of one condition, keyed by cellKey. Clean by default: the matrix,
 * tiers, cards and radar describe a model undisturbed; noisy and adversarial results are the
 * operational axes' (report axes), and never stand in for a clean cell. A condition's name alone
 * (`noisy`) takes it under any parameters (any failure rate).
 */
export function newestPerCell<T>(
  items: readonly T[],
  dated: (item: T) => Dated,
  condition: RunCondition | ConditionName = CLEAN,
): Map<string, T> {
  const newest = new Map<string, T>();
  const wanted = (d: Dated): boolean =>
    typeof condition === 'string'
      ? conditionOf(d).name === condition
      : conditionKey(conditionOf(d)) === conditionKey(condition);
  for (const item of items) {
    const d = dated(item);
    if (!wanted(d)) continue;
    const key = cellKey(d.task_id, d.model);
    const seen = newest.get(key);
    if (seen === undefined || compareNewestFirst(d, dated(seen)) < 0) newest.set(key, item);
  }
  return newest;
}

export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}
