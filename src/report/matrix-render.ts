/** The matrix as Markdown (for READMEs), JSON (for tools) and CSV (for spreadsheets). */
import { shortModelNames } from '../results/short-model-name.js';
import { csvField } from './csv-field.js';
import { dimensionRows, dimensionsMarkdown } from './dimensions.js';
import { fullNamesNote } from './format.js';
import { cellAt, type Matrix } from './matrix.js';

export type MatrixFormat = 'md' | 'json' | 'csv';

export function renderMatrix(m: Matrix, format: MatrixFormat): string {
  if (format === 'json') return `${JSON.stringify({ ...m, dimensions: dimensionRows(m.cells) }, null, 2)}\n`;
  if (format === 'csv') return renderCsv(m);
  return renderMarkdown(m);
}

export const MATRIX_FOOTNOTE = [
  'Newest result per (task, model). ✓ pass^k: all k trials passed · mean turns per trial · mean model+tool time per trial.',
  '✗ score (n of k=K trials): not every trial passed; score is the mean trial score (0..1) over the n trials run;',
  'early-stopped = the run stopped at its first failed trial (--early-stop), so its score comes from fewer than k trials.',
  'Compare cells only at the same k and early stop setting. Markers: running / interrupted / error = the run did not complete;',
  'tamper ×N = trials that changed files they must not touch; † = not comparable (non-default settings); — = no result.',
].join('\n');

/** Said under the table when the cells were not all run at the same k and early stop setting. */
function settingsNote(m: Pick<Matrix, 'comparisons' | 'cells'>): string | null {
  if (m.comparisons.length < 2) return null;
  const counts = m.comparisons.map((key) => {
    const n = m.cells.filter((c) => c.comparison === key).length;
    return `${key} (${n} cell${n === 1 ? '' : 's'})`;
  });
  return `Not every cell was run at the same settings: ${counts.join(', ')}. A score compares only with cells of the same k and early stop.`;
}

function renderMarkdown(m: Matrix): string {
  if (m.cells.length === 0) return 'No results found.\n';
  const names = shortModelNames(m.models);
  const header = `| task | ${m.models.map((model) => mdCell(names.get(model) ?? model)).join(' | ')} |`;
  const rule = `|${' --- |'.repeat(m.models.length + 1)}`;
  const rows = m.tasks.map(
    (task) =>
      `| ${mdCell(task)} | ${m.models.map((model) => mdCell(cellAt(m, task, model)?.text ?? '—')).join(' | ')} |`,
  );
  const note = settingsNote(m);
  const notes = [
    ...(note === null ? [] : [note, '']),
    ...MATRIX_FOOTNOTE.split('\n'),
    ...fullNamesNote(names),
  ].map((line) => (line === '' ? '>' : `> ${line}`));
  const dimensions = dimensionsMarkdown(dimensionRows(m.cells));
  const judged = judgeMarkdown(m, names);
  return `${[header, rule, ...rows, '', ...notes, ...(dimensions.length === 0 ? [] : ['', ...dimensions]), ...(judged.length === 0 ? [] : ['', ...judged])].join('\n')}\n`;
}

/**
 * The optional judge's grades (`run --judge-model`) as a table of their own, named by the judge's
 * model: an LLM's opinion, kept apart from the deterministic scores above. Empty when nothing was judged.
 */
function judgeMarkdown(m: Matrix, names: ReadonlyMap<string, string>): string[] {
  const judges = [...new Set(m.cells.flatMap((c) => (c.judge_model === null ? [] : [c.judge_model])))].sort();
  if (judges.length === 0) return [];
  const tasks = m.tasks.filter((task) =>
    m.models.some((model) => cellAt(m, task, model)?.judge_model != null),
  );
  const grade = (task: string, model: string): string => {
    const c = cellAt(m, task, model);
    if (c === undefined || c.judge_model === null) return '—';
    const score = c.judge_score === null ? 'no grade' : c.judge_score.toFixed(2);
    return `${score} (${c.judge_graded} graded${judges.length > 1 ? `, ${c.judge_model}` : ''})`;
  };
  return [
    `LLM judge (${judges.join(', ')}): its mean grade of the transcripts, 0..1 — an opinion beside the deterministic scores, never part of them.`,
    '',
    `| task | ${m.models.map((model) => mdCell(names.get(model) ?? model)).join(' | ')} |`,
    `|${' --- |'.repeat(m.models.length + 1)}`,
    ...tasks.map(
      (task) => `| ${mdCell(task)} | ${m.models.map((model) => mdCell(grade(task, model))).join(' | ')} |`,
    ),
  ];
}

/** Markdown table cells cannot hold pipes or line breaks. */
function mdCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

const CSV_COLUMNS = [
  'task',
  'model',
  'status',
  'k',
  'trials_run',
  'passed_trials',
  'pass_all_k',
  'pass_hat_k',
  'score',
  'avg_turns',
  'mean_elapsed_sec',
  'tamper_detected_count',
  'invalid_tool_call_count',
  'early_stopped',
  'score_basis',
  'comparison',
  'comparable',
  'dimension',
  'simulated_user',
  'judge_model',
  'judge_score',
  'judge_graded',
  'run_id',
  'file',
] as const;

/** One row per cell (long format), which spreadsheets pivot better than the Markdown grid. */
function renderCsv(m: Matrix): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const cell of m.cells) lines.push(CSV_COLUMNS.map((col) => csvField(cell[col])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
