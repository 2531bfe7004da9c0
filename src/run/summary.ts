import { trialBasis } from '../results/comparison.js';
import type { ResultFile } from '../results/result-file.js';

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

/** The end-of-run table: one row per task. A score from fewer than k trials says how many. */
export function formatSummary(results: readonly ResultFile[]): string {
  const header = [
    'task',
    'model',
    'pass^k',
    'score',
    'avg turns',
    'avg time',
    'tamper',
    'hallucinated',
    'text calls',
  ];
  const rows = results.map((r) => {
    const ran = r.trials_run;
    const errors = r.trials.filter((t) => t.status === 'error').length;
    const passK = r.pass_all_k
      ? `PASS (k=${r.k})`
      : `FAIL (${r.trials.filter((t) => t.passed).length}/${ran} passed of k=${r.k}${r.early_stopped ? ', early-stopped' : ''}${errors > 0 ? `, ${errors} not measured` : ''})`;
    return [
      r.task_id,
      r.model,
      r.status === 'complete' ? passK : `${r.status.toUpperCase()} ${passK}`,
      ran === r.k ? r.score.toFixed(2) : `${r.score.toFixed(2)} (${trialBasis(r)})`,
      r.avg_turns.toFixed(1),
      ran === 0 ? '-' : `${(r.elapsed_sec / ran).toFixed(1)}s`,
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
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n');
}
