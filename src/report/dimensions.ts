/**
 * Dialogue tasks by policy dimension (OpsBench's table): for each model and dimension, the pass
 * rate and pass^k over the dimension's scenarios, each a mean over scenarios with its 95 % interval
 * (the scenario is the unit: its k trials are correlated). Who played the user is shown with it,
 * since a model user changes what is measured.
 */
import { type Estimate, meanOverTasks } from '../stats/task-estimate.js';
import { fixed } from './format.js';
import { sortedUnique } from './load.js';

/** What a dimension row reads of a matrix cell. */
export interface DimensionCell {
  model: string;
  dimension: string | null;
  simulated_user: string | null;
  k: number;
  trials_run: number;
  passed_trials: number;
  pass_hat_k: number | null;
}

export interface DimensionRow {
  model: string;
  dimension: string;
  scenarios: number;
  /** The k of the cells ("3", or "1, 3" when they differ). */
  k: string;
  /** Who played the user: "scripted", "llm:<model>", or several. */
  users: string;
  pass_rate: Estimate;
  pass_hat_k: Estimate;
}

export function dimensionRows(cells: readonly DimensionCell[]): DimensionRow[] {
  const rows: DimensionRow[] = [];
  const dialogue = cells.filter((c) => c.dimension !== null);
  for (const model of sortedUnique(dialogue.map((c) => c.model)))
    for (const dimension of sortedUnique(
      dialogue.filter((c) => c.model === model).map((c) => c.dimension ?? ''),
    )) {
      const mine = dialogue.filter((c) => c.model === model && c.dimension === dimension);
      rows.push({
        model,
        dimension,
        scenarios: mine.length,
        k: sortedUnique(mine.map((c) => String(c.k))).join(', '),
        users: sortedUnique(mine.map((c) => c.simulated_user ?? 'scripted')).join(', '),
        pass_rate: meanOverTasks(
          mine.map((c) => (c.trials_run === 0 ? null : c.passed_trials / c.trials_run)),
        ),
        pass_hat_k: meanOverTasks(mine.map((c) => c.pass_hat_k)),
      });
    }
  return rows;
}

/** "0.67 [0.21, 0.94]"; "—" with no value; no bounds when too few scenarios to bound it. */
export function formatEstimate(e: Estimate): string {
  if (e.value === null) return '—';
  const bounds = e.low === null || e.high === null ? '' : ` [${fixed(e.low, 2)}, ${fixed(e.high, 2)}]`;
  return `${fixed(e.value, 2)}${bounds}`;
}

export const DIMENSIONS_FOOTNOTE =
  'Dialogue tasks by policy dimension: mean over the scenarios of the pass rate (passed trials / trials) and of pass^k, with 95 % intervals over scenarios (Wilson when every scenario is 0 or 1, else a seeded bootstrap).';

/** The table as Markdown lines (empty when no dialogue task has results). */
export function dimensionsMarkdown(rows: readonly DimensionRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '| model | dimension | scenarios | k | pass rate [95% CI] | pass^k [95% CI] | user |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.model} | ${r.dimension} | ${r.scenarios} | ${r.k} | ${formatEstimate(r.pass_rate)} | ${formatEstimate(r.pass_hat_k)} | ${r.users} |`,
    ),
    '',
    `> ${DIMENSIONS_FOOTNOTE}`,
  ];
}
