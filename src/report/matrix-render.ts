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
  return `${[header, rule, ...rows, '', ...notes, ...(dimensions.length === 0 ? [] : ['', ...dimensions])].join('\n')}\n`;
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
  'run_id',
  'file',
] as const;

/** One row per cell (long format), which spreadsheets pivot better than the Markdown grid. */
function renderCsv(m: Matrix): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const cell of m.cells) lines.push(CSV_COLUMNS.map((col) => csvField(cell[col])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
