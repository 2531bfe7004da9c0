import { trialBasis } from '../results/comparison.js';
import { conditionOf, taskLabel } from '../results/condition.js';
import { passKWords } from '../results/pass-k-words.js';
import type { ResultFile } from '../results/result-file.js';
import { shortModelNames } from '../results/short-model-name.js';
import { formatDuration } from './progress-line.js';

/**
 * One line when trials could not be measured (`error` trials: the model server or the harness
 * failed), which makes the run end with exit 3; null when every trial was measured.
 */
export function unmeasuredNote(results: readonly ResultFile[]): string | null {
  const errored = results.flatMap((r) =>
    r.trials.filter((t) => t.status === 'error').map((t) => ({ task: r.task_id, trial: t })),
  );
  const first = errored[0];
  if (first === undefined) return null;
  const what = `${first.task} trial ${first.trial.index + 1}: ${first.trial.failure_reason ?? 'error'}`;
  return `${errored.length} trial(s) could not be measured and are not scored (their results are non-comparable); ${errored.length > 1 ? 'the first, ' : ''}${what}`;
}

/**
 * The end-of-run table: one row per task. Columns headed `avg` are means per measured trial (a score
 * from fewer than k trials says how many); those headed `Σ` are totals over the task's trials.
 */
export function formatSummary(results: readonly ResultFile[]): string {
  const header = [
    'task',
    'model',
    'pass^k',
    'avg score',
    'avg turns',
    'avg model+tools',
    'avg harness',
    'Σ tamper',
    'Σ hallucinated',
    'Σ text calls',
  ];
  const names = shortModelNames(results.map((r) => r.model));
  const rows = results.map((r) => {
    const ran = r.trials_run;
    const errors = r.trials.filter((t) => t.status === 'error').length;
    const passK = passCell(r, ran, errors);
    const measured = r.trials.filter((t) => t.status !== 'error');
    return [
      taskLabel(r.task_id, conditionOf(r)),
      names.get(r.model) ?? r.model,
      passK,
      ran === r.k ? r.score.toFixed(2) : `${r.score.toFixed(2)} (${trialBasis(r)})`,
      r.avg_turns.toFixed(1),
      ran === 0 ? '-' : `${(r.elapsed_sec / ran).toFixed(1)}s`,
      ran === 0 ? '-' : `${(sum(measured.map((t) => t.harness_sec)) / ran).toFixed(1)}s`,
      String(r.tamper_detected_count),
      String(r.invalid_tool_call_count),
      String(r.text_tool_calls),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    fmt(header),
    fmt(widths.map((w) => '-'.repeat(w))),
    ...rows.map(fmt),
    'avg: mean per measured trial (model+tools: model replies and commands; harness: setup, snapshots, checks) · Σ: total over the trials',
  ].join('\n');
}

/**
 * The run's last line: tasks, the trials this run ran (those resumed from an earlier run are not
 * counted: they took none of its time), its wall time, and the trials' own time summed.
 * `runStartedAt` (ISO) tells this run's trials from resumed ones.
 */
export function formatTotals(
  results: readonly ResultFile[],
  o: { runStartedAt: string; wallMs: number; parallel: number; peakRssBytes?: number },
): string {
  const trials = results.flatMap((r) => r.trials.filter((t) => t.started_at >= o.runStartedAt));
  const resumed = results.reduce((n, r) => n + r.trials.length, 0) - trials.length;
  const errors = trials.filter((t) => t.status === 'error').length;
  const parts = [
    `${results.length} task${results.length === 1 ? '' : 's'}`,
    `${trials.length} trial${trials.length === 1 ? '' : 's'}${errors > 0 ? ` (${errors} not measured)` : ''}${resumed > 0 ? ` + ${resumed} resumed` : ''}`,
    `wall ${formatDuration(o.wallMs)}${o.parallel > 1 ? ` (${o.parallel} at a time)` : ''}`,
    `model+tools ${formatDuration(sum(trials.map((t) => t.elapsed_sec)) * 1000)}`,
    `harness ${formatDuration(sum(trials.map((t) => t.harness_sec)) * 1000)}`,
  ];
  // The harness's own memory: it must stay bounded however many trials and files a run has.
  if (o.peakRssBytes !== undefined) parts.push(`peak memory ${Math.round(o.peakRssBytes / 2 ** 20)} MiB`);
  return `Total: ${parts.join(' · ')}`;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** pass^k as the table says it. A shard's file holds its share of the trials: pass^k is the merge's to say. */
function passCell(r: ResultFile, ran: number, errors: number): string {
  if (r.shard === undefined) return passKWords(r);
  const passed = r.trials.filter((t) => t.passed).length;
  const unmeasured = errors > 0 ? `, ${errors} not measured` : '';
  return `PART (${passed}/${ran} passed, shard ${r.shard.index}/${r.shard.count}: its ${r.shard.trials.length} of k=${r.k}${unmeasured})`;
}
