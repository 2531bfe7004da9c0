/** The ladder table: one row per model in ladder order, pass^k per task, and which models pass. */

import { formatBytes } from '../discovery/models-table.js';
import type { ResultFile } from '../results/result-file.js';
import { formatBillions, formatDuration, formatSize } from './format.js';
import { estimatedMemoryBytes } from './plan.js';
import { describeBound, type SequentialEvidence } from './sequential-rule.js';
import { taskFails, taskPasses } from './stop-rule.js';
import type { LadderModel, Rung } from './types.js';

export function ladderTable(rungs: readonly Rung[], taskIds: readonly string[]): string {
  // Only a ladder that configured or measured memory has the column.
  const memory = rungs.some(
    (r) =>
      r.model.config !== undefined || (r.serverPeakRssBytes !== undefined && r.serverPeakRssBytes !== null),
  );
  const header = [
    '#',
    'model',
    'params',
    'quant',
    'size',
    ...(memory ? ['memory'] : []),
    ...taskIds,
    'clear time',
    'verdict',
  ];
  const smallest = rungs.findIndex((r) => r.status === 'passed');
  const rows = rungs.map((rung, i) => [
    String(i + 1),
    rung.model.label,
    params(rung.model),
    rung.model.info.quantization ?? '?',
    rung.model.size === null ? 'unknown' : formatSize(rung.model.size),
    ...(memory ? [memoryCell(rung)] : []),
    ...taskIds.map((id) => {
      const result = rung.results.find((r) => r.task_id === id);
      // A sequential rung is judged on its pooled pass rate, not pass^k: the cell gives the counts.
      return rung.sequential === undefined || result === undefined ? taskCell(result) : trialCounts(result);
    }),
    rung.status === 'passed' ? formatDuration(clearTimeSec(rung)) : '-',
    mark(rung, i === smallest) + (rung.sequential === undefined ? '' : ` (${boundCell(rung.sequential)})`),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const problems = rungs.flatMap((r) =>
    r.error === null ? [] : [`! ${r.model.label}: ${r.error.split('\n')[0] ?? ''}`],
  );
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ...problems].join('\n');
}

/** `~2.3 GiB est, 2.6 GiB peak`: the estimate a configured rung was ordered by, and what its server took. */
function memoryCell(rung: Rung): string {
  const estimate = rung.model.config === undefined ? null : estimatedMemoryBytes(rung.model);
  const peak = rung.serverPeakRssBytes ?? null;
  const parts = [
    estimate === null ? null : `~${formatBytes(estimate)} est`,
    peak === null ? null : `${formatBytes(peak)} peak`,
  ].filter((p) => p !== null);
  return parts.length === 0 ? '-' : parts.join(', ');
}

/** Time spent in the trials of every task: what clearing the suite cost this model. */
export function clearTimeSec(rung: Pick<Rung, 'results'>): number {
  return Math.round(rung.results.reduce((sum, r) => sum + r.elapsed_sec, 0) * 1000) / 1000;
}

/** `8.2B`, `30B/3B` (total/active), `?`. */
function params(m: LadderModel): string {
  const { parameters, activeParameters } = m.info;
  if (parameters === null) return activeParameters === null ? '?' : `?/${formatBillions(activeParameters)}`;
  return activeParameters === null
    ? formatBillions(parameters)
    : `${formatBillions(parameters)}/${formatBillions(activeParameters)}`;
}

function taskCell(r: ResultFile | undefined): string {
  if (r === undefined) return '-';
  const passed = r.trials.filter((t) => t.passed).length;
  if (taskPasses(r)) return `PASS ${passed}/${r.shard?.trials.length ?? r.k}`;
  if (r.tamper_detected_count > 0) return 'TAMPER';
  if (taskFails(r)) return `FAIL ${passed}/${r.trials_run}`;
  // Not measured: the run was cut short, or trials errored (the model server failed). Never a FAIL.
  const measured = r.trials.filter((t) => t.status !== 'error').length;
  if (r.status === 'interrupted') return `INTERRUPTED ${r.trials.length}/${r.k} run`;
  return measured === 0 ? 'ERROR none measured' : `ERROR ${measured}/${r.k} measured`;
}

function mark(rung: Rung, smallest: boolean): string {
  switch (rung.status) {
    case 'passed':
      return smallest ? 'PASSES (smallest)' : 'PASSES';
    case 'failed':
      return 'fails';
    case 'undecided':
      return 'undecided';
    case 'error':
      return 'not measured';
    case 'interrupted':
      return 'interrupted';
    case 'not_run':
      return 'not run';
  }
}

/** `4/5` passed of measured, tampering a failure; `(1 not measured)` for error trials. */
function trialCounts(r: ResultFile): string {
  const measured = r.trials.filter((t) => t.status !== 'error');
  const passed = measured.filter((t) => t.passed && !t.tamper_detected).length;
  const errors = r.trials.length - measured.length;
  return `${passed}/${measured.length}${errors === 0 ? '' : ` (+${errors} not measured)`}`;
}

/** `pass rate ≥ 0.81, 11 trials` */
function boundCell(e: SequentialEvidence): string {
  return `${describeBound(e)}, ${e.measured} trial${e.measured === 1 ? '' : 's'}`;
}
