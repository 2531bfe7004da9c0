/**
 * Every trial of every result as one CSV line (agent-bench stats), with the per-trial facts the axes
 * are computed from (axes-trials.ts), so anyone can recompute them in their own tools. Also checks
 * each file's summary fields against its raw trials: a summary that disagrees is reported.
 */
import { conditionOf } from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import { passHatK } from '../stats/estimators.js';
import { trialFacts } from './axes-trials.js';
import { csvField } from './csv-field.js';

const COLUMNS = [
  'file',
  'run_id',
  'task_id',
  'task_version',
  'model',
  'condition',
  'failure_rate',
  'k',
  'early_stopped',
  'trial',
  'status',
  'passed',
  'score',
  'turns',
  'tool_calls',
  'duplicate_calls',
  'faults',
  'retried_faults',
  'optimal_steps',
  'efficiency',
  'call_efficiency',
  'end_reason',
  'prompt_tokens',
  'completion_tokens',
  'elapsed_sec',
  'harness_sec',
  'timed_prompt_tokens',
  'timed_prompt_ms',
  'timed_predicted_tokens',
  'timed_predicted_ms',
  'model_latency_ms',
  'injection_class',
  'exposures',
  'complied',
  'exfiltrated',
  'reported',
  'started_at',
] as const;

export function trialsCsv(results: readonly { file: string; result: ResultFile }[]): string {
  const lines = results.flatMap(({ file, result: r }) => {
    const c = conditionOf(r);
    return r.trials.map((t) => {
      const f = trialFacts(t, r.optimal_steps ?? null);
      const row: Record<(typeof COLUMNS)[number], string | number | boolean | null> = {
        file,
        run_id: r.run_id,
        task_id: r.task_id,
        task_version: r.task_version,
        model: r.model,
        condition: c.name,
        failure_rate: c.name === 'noisy' ? c.failure_rate : null,
        k: r.k,
        early_stopped: r.early_stopped,
        trial: t.index,
        status: t.status,
        passed: t.passed,
        score: t.score,
        turns: t.turns,
        tool_calls: f.tool_calls,
        duplicate_calls: f.duplicate_calls,
        faults: f.faults,
        retried_faults: f.retried_faults,
        optimal_steps: r.optimal_steps ?? null,
        efficiency: f.efficiency,
        call_efficiency: f.call_efficiency,
        end_reason: f.end_reason,
        prompt_tokens: f.prompt_tokens,
        completion_tokens: f.completion_tokens,
        elapsed_sec: f.elapsed_sec,
        harness_sec: t.harness_sec,
        timed_prompt_tokens: f.timed.replies === 0 ? null : f.timed.prompt_tokens,
        timed_prompt_ms: f.timed.replies === 0 ? null : f.timed.prompt_ms,
        timed_predicted_tokens: f.timed.replies === 0 ? null : f.timed.predicted_tokens,
        timed_predicted_ms: f.timed.replies === 0 ? null : f.timed.predicted_ms,
        model_latency_ms: f.model_latency_ms,
        injection_class: f.safety?.injection_class ?? null,
        exposures: f.safety?.exposures ?? null,
        complied: f.safety?.complied ?? null,
        exfiltrated: f.safety?.exfiltrated ?? null,
        reported: f.safety?.reported ?? null,
        started_at: t.started_at,
      };
      return COLUMNS.map((col) => csvField(row[col])).join(',');
    });
  });
  return `${[COLUMNS.join(','), ...lines].join('\n')}\n`;
}

/** The summary fields of a result recomputed from its trials; one line per field that disagrees. */
export function summaryMismatches(file: string, r: ResultFile): string[] {
  const measured = r.trials.filter((t) => t.status !== 'error');
  const n = measured.length;
  const c = measured.filter((t) => t.passed).length;
  const score = n === 0 ? 0 : measured.reduce((a, t) => a + t.score, 0) / n;
  const expected: [string, number | boolean | null, number | boolean | null][] = [
    ['trials_run', r.trials_run, n],
    ['pass_all_k', r.pass_all_k, n === r.k && c === r.k],
    ['pass_hat_k', r.pass_hat_k, passHatK(n, c, r.k)],
    ['score', r.score, score],
  ];
  return expected
    .filter(([, stored, recomputed]) => !same(stored, recomputed))
    .map(
      ([name, stored, recomputed]) =>
        `${file}: ${name} is ${stored} in the file, ${recomputed} from its trials`,
    );
}

function same(a: number | boolean | null, b: number | boolean | null): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-4;
  return a === b;
}
