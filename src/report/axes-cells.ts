/** One result as the axes see it: its task, its measured trials' facts, its k, and whether it stopped early. */
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
}

/** null for a result with no measured trial: a task not run is no failure. */
export function perTask(r: ResultFile): TaskCell | null {
  const all = r.trials.map((t) => trialFacts(t, r.optimal_steps ?? null));
  const trials = all.filter((t) => t.measured);
  if (trials.length === 0) return null;
  const first = all.find((t) => t.index === 0);
  return {
    task: r.task_id,
    k: r.k,
    earlyStopped: r.early_stopped,
    trials,
    first: first === undefined || !first.measured ? null : first.passed ? 1 : 0,
  };
}
