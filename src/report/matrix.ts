/** The model × task matrix: newest result per (task, model), one cell each. */
import { formatDuration, meanTrialSec } from './format.js';
import { cellKey, newestPerCell, sortedUnique } from './load.js';
import type { ResultSummary } from './summary.js';

export interface MatrixCell {
  task: string;
  model: string;
  file: string;
  run_id: string;
  status: ResultSummary['status'];
  k: number;
  trials_run: number;
  passed_trials: number;
  pass_all_k: boolean;
  pass_hat_k: number | null;
  score: number;
  avg_turns: number;
  mean_elapsed_sec: number;
  tamper_detected_count: number;
  invalid_tool_call_count: number;
  early_stopped: boolean;
  /** The trials the score comes from: "2 of k=5 trials, early-stopped". */
  score_basis: string;
  /** Cells are compared only under the same key ("k=5", "k=5, early stop"). */
  comparison: string;
  comparable: boolean;
  /** Dialogue tasks: the policy dimension and who played the user; null for other tasks. */
  dimension: string | null;
  simulated_user: string | null;
  /** `run --judge-model`: the judge's model and mean score (0..1) over the trials it graded; null: not judged. */
  judge_model: string | null;
  judge_score: number | null;
  judge_graded: number;
  /** The cell as the Markdown table shows it. */
  text: string;
}

export interface Matrix {
  models: string[];
  tasks: string[];
  /** The comparison keys of the cells: more than one means not every cell compares with every other. */
  comparisons: string[];
  cells: MatrixCell[];
}

export function buildMatrix(summaries: readonly ResultSummary[], models?: readonly string[]): Matrix {
  const wanted = models === undefined ? null : new Set(models);
  const shown = summaries.filter((s) => wanted === null || wanted.has(s.model));
  const newest = newestPerCell(shown, (s) => s);
  const cells = [...newest.values()].map(toCell);
  cells.sort((a, b) => a.task.localeCompare(b.task) || a.model.localeCompare(b.model));
  return {
    models: sortedUnique(cells.map((c) => c.model)),
    tasks: sortedUnique(cells.map((c) => c.task)),
    comparisons: sortedUnique(cells.map((c) => c.comparison)),
    cells,
  };
}

export function cellAt(m: Matrix, task: string, model: string): MatrixCell | undefined {
  return m.cells.find((c) => cellKey(c.task, c.model) === cellKey(task, model));
}

function toCell(s: ResultSummary): MatrixCell {
  const cell: Omit<MatrixCell, 'text'> = {
    task: s.task_id,
    model: s.model,
    file: s.file,
    run_id: s.run_id,
    status: s.status,
    k: s.k,
    trials_run: s.trials_run,
    passed_trials: s.passed_trials,
    pass_all_k: s.pass_all_k,
    pass_hat_k: s.pass_hat_k,
    score: s.score,
    avg_turns: s.avg_turns,
    mean_elapsed_sec: Math.round(meanTrialSec(s) * 1000) / 1000,
    tamper_detected_count: s.tamper_detected_count,
    invalid_tool_call_count: s.invalid_tool_call_count,
    early_stopped: s.early_stopped,
    score_basis: s.score_basis,
    comparison: s.comparison,
    comparable: s.comparable,
    dimension: s.dialogue?.dimension ?? null,
    simulated_user: s.dialogue?.user ?? null,
    judge_model: s.judge?.model ?? null,
    judge_score: s.judge?.mean_score ?? null,
    judge_graded: s.judge?.graded ?? 0,
  };
  return { ...cell, text: cellText(cell) };
}

/**
 * `✓ pass^k · N turns · time` when all k passed, `✗ score (n of k=K trials[, early-stopped])`
 * otherwise, plus markers.
 */
function cellText(c: Omit<MatrixCell, 'text'>): string {
  const main = c.pass_all_k
    ? `✓ pass^${c.k} · ${c.avg_turns} turns · ${formatDuration(c.mean_elapsed_sec)}`
    : `✗ ${c.score.toFixed(2)} (${c.score_basis})`;
  const marks: string[] = [];
  if (c.status !== 'complete') marks.push(c.status);
  if (c.tamper_detected_count > 0) marks.push(`tamper ×${c.tamper_detected_count}`);
  return `${main}${marks.length === 0 ? '' : ` (${marks.join(', ')})`}${c.comparable ? '' : ' †'}`;
}
