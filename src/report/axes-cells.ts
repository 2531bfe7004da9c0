/** One result as the axes see it: its task, its measured trials' facts, its k, and whether it stopped early. */
import { conditionKey, conditionOf, type RunCondition } from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import { type TrialFacts, trialFacts } from './axes-trials.js';

export interface TaskCell {
  task: string;
  k: number;
  earlyStopped: boolean;
  /** The measured trials (error trials are not measured: counted nowhere). */
  trials: TrialFacts[];
  /** pass^1 from the first trial, which always runs (early stop never skips it): 1, 0, or null when it was not measured. */
  first: number | null;
  /** A variant task's distinct instances over the measured trials; null for a task of one instance. */
  instances: number | null;
}

/** null for a result with no measured trial: a task not run is no failure. */
export function perTask(r: ResultFile): TaskCell | null {
  const all = r.trials.map((t) => trialFacts(t, r.optimal_steps ?? null));
  const trials = all.filter((t) => t.measured);
  if (trials.length === 0) return null;
  const first = all.find((t) => t.index === 0);
  const drawn = r.trials.filter((t, i) => all[i]?.measured === true && t.variant !== undefined);
  return {
    task: r.task_id,
    k: r.k,
    earlyStopped: r.early_stopped,
    trials,
    first: first === undefined || !first.measured ? null : first.passed ? 1 : 0,
    instances: drawn.length === 0 ? null : new Set(drawn.map((t) => t.variant)).size,
  };
}

/**
 * The results of one axes condition: a run condition, and the tool-call channel when not both
 * (`run --tool-calls`), which changes what is measured as a condition does. Keyed `clean`,
 * `noisy@0.2`, `clean tool-calls=text`.
 */
export interface AxesCondition {
  key: string;
  condition: RunCondition;
  results: ResultFile[];
}

export function axesConditions(results: readonly ResultFile[]): Map<string, AxesCondition> {
  const out = new Map<string, AxesCondition>();
  for (const r of results) {
    const condition = conditionOf(r);
    const key = axesConditionKey(r);
    const group = out.get(key) ?? { key, condition, results: [] };
    group.results.push(r);
    out.set(key, group);
  }
  return out;
}

/** `clean`, `noisy@0.2`, `clean tool-calls=text`: the axes condition a result belongs to. */
export function axesConditionKey(r: ResultFile): string {
  const mode = r.settings.tool_calls;
  return `${conditionKey(conditionOf(r))}${mode === undefined ? '' : ` tool-calls=${mode}`}`;
}
