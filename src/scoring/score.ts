/** A trial's score: the weighted share of flags reached; a tampered trial scores 0 and fails. */
import type { Flag } from '../tasks/types.js';
import { InternalError } from '../util/errors.js';

export interface TrialScore {
  /** Every flag reached and no tamper. */
  passed: boolean;
  /** Weighted fraction of flags reached, in [0, 1]. */
  score: number;
}

export function scoreTrial(
  flags: readonly Pick<Flag, 'id' | 'weight'>[],
  outcomes: Readonly<Record<string, { readonly reached: boolean } | undefined>>,
  tamper: boolean,
): TrialScore {
  let total = 0;
  let reached = 0;
  let all = true;
  for (const flag of flags) {
    const weight = flag.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) {
      throw new InternalError(`flag "${flag.id}" has weight ${weight}; weights are finite and >= 0`);
    }
    total += weight;
    if (outcomes[flag.id]?.reached === true) reached += weight;
    else all = false;
  }
  if (tamper || flags.length === 0) return { passed: false, score: 0 };
  // Only zero weights: the score is all-or-nothing.
  return { passed: all, score: total === 0 ? Number(all) : reached / total };
}
