/**
 * What a result's numbers come from, and what they may be compared with. k and early stop are not
 * non-default settings (non_comparable_reasons): every k is legitimate. But pass^k at k=1 is not
 * pass^k at k=5, and an early-stopped run's rates come only from the trials up to its first failure,
 * so results are compared only with results of the same comparison key.
 */
import type { ResultFile } from './result-file.js';

/** "3 of k=3 trials", "2 of k=5 trials, early-stopped": the trials a score or a reach rate comes from. */
export function trialBasis(r: Pick<ResultFile, 'k' | 'trials_run' | 'early_stopped'>): string {
  return `${r.trials_run} of k=${r.k} trials${r.early_stopped ? ', early-stopped' : ''}`;
}

/** The settings a result is compared under: "k=5", or "k=5, early stop" for a run with --early-stop. */
export function comparisonKey(r: Pick<ResultFile, 'k' | 'settings'>): string {
  return `k=${r.k}${r.settings.early_stop ? ', early stop' : ''}`;
}
