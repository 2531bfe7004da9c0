/**
 * Paired per-task differences between two runs of the same tasks (two models, two conditions): the
 * mean of b − a over the tasks both have, with a bootstrap interval over those tasks. A difference
 * holds up when its interval leaves out 0; otherwise it is within the noise.
 */
import { bootstrapMean, type Estimate, mean, NO_ESTIMATE } from './task-estimate.js';

export interface PairedDifference extends Estimate {
  /** The interval excludes 0: a difference beyond the noise. */
  holds: boolean;
}

export function pairedDifference(pairs: readonly { a: number; b: number }[]): PairedDifference {
  if (pairs.length === 0) return { ...NO_ESTIMATE, holds: false };
  const diffs = pairs.map((p) => p.b - p.a);
  const { low, high } = bootstrapMean(diffs);
  const holds = low !== null && high !== null && (low > 0 || high < 0);
  return { value: mean(diffs), n: diffs.length, low, high, method: 'bootstrap', holds };
}
