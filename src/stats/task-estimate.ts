/**
 * Figures over tasks, each with its n and a 95 % interval. The task is the unit: trials of one task
 * are correlated, so an interval over all trials would be too narrow. A figure whose per-task values
 * are all 0 or 1 gets a Wilson interval over the tasks; any other a percentile bootstrap over tasks
 * (resampling tasks with replacement, seeded, so the same data always gives the same interval).
 */
import { wilsonInterval } from './estimators.js';
import { seededRandom } from './random.js';

/** cluster-bootstrap: tasks, then trials within them (trial-test.ts). */
type IntervalMethod = 'wilson' | 'bootstrap' | 'cluster-bootstrap';

/** A figure: null value when no task has one; null bounds when n is too small to bound it. */
export interface Estimate {
  value: number | null;
  /** Tasks it is computed over. */
  n: number;
  low: number | null;
  high: number | null;
  method: IntervalMethod | null;
}

export const BOOTSTRAP_RESAMPLES = 4000;
export const BOOTSTRAP_SEED = 20240601;

export const NO_ESTIMATE: Estimate = { value: null, n: 0, low: null, high: null, method: null };

/** The mean of per-task values (nulls are tasks without the figure, left out). */
export function meanOverTasks(values: readonly (number | null)[]): Estimate {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (xs.length === 0) return NO_ESTIMATE;
  const value = mean(xs);
  if (xs.every((x) => x === 0 || x === 1)) {
    const { low, high } = wilsonInterval(xs.filter((x) => x === 1).length, xs.length);
    return { value, n: xs.length, low, high, method: 'wilson' };
  }
  return { value, n: xs.length, ...bootstrapMean(xs), method: 'bootstrap' };
}

/** The mean of per-task values of any size (tokens, seconds): always a bootstrap. */
export function meanOverTasksBootstrap(values: readonly (number | null)[]): Estimate {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (xs.length === 0) return NO_ESTIMATE;
  return { value: mean(xs), n: xs.length, ...bootstrapMean(xs), method: 'bootstrap' };
}

/** 2.5 % and 97.5 % percentiles of the resampled means; null bounds for fewer than two tasks. */
export function bootstrapMean(
  xs: readonly number[],
  o: { resamples?: number; seed?: number } = {},
): { low: number | null; high: number | null } {
  if (xs.length < 2) return { low: null, high: null };
  const random = seededRandom(o.seed ?? BOOTSTRAP_SEED);
  const resamples = o.resamples ?? BOOTSTRAP_RESAMPLES;
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let total = 0;
    for (let i = 0; i < xs.length; i++) total += xs[Math.floor(random() * xs.length)] as number;
    means[r] = total / xs.length;
  }
  return percentileInterval(means);
}

/** The 95 % percentile interval of resampled statistics (sorts them in place). */
export function percentileInterval(stats: Float64Array): { low: number; high: number } {
  stats.sort();
  return { low: percentile(stats, 0.025), high: percentile(stats, 0.975) };
}

/** Linear interpolation between the order statistics around q. */
function percentile(sorted: Float64Array, q: number): number {
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
