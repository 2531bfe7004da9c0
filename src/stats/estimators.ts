/**
 * Estimators over n trials with c passes. pass^k is the chance that k trials drawn without
 * replacement all pass, C(c,k)/C(n,k): the unbiased estimate of p^k (the plug-in (c/n)^k is biased
 * upward). pass@k is the chance at least one of k passes, 1 - C(n-c,k)/C(n,k).
 */
import { InternalError } from '../util/errors.js';

function checkCounts(n: number, c: number, k: number): void {
  const ok = [n, c, k].every(Number.isInteger) && n >= 0 && c >= 0 && c <= n && k >= 1;
  if (!ok)
    throw new InternalError(`bad trial counts: n=${n} c=${c} k=${k} (need integers, 0 <= c <= n, k >= 1)`);
}

/** C(a,k)/C(n,k) as a product of ratios, exact enough and without overflow. */
function binomialRatio(a: number, n: number, k: number): number {
  if (a < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r *= (a - i) / (n - i);
  return r;
}

/**
 * Unbiased pass^k. When fewer than k trials ran (an early stop, n < k), there is no estimate: a run
 * that stopped on a failure proves "not all k pass" (0); one that stopped with every trial passed
 * decides nothing (null).
 */
export function passHatK(n: number, c: number, k: number): number | null {
  checkCounts(n, c, k);
  if (n < k) return c < n ? 0 : null;
  return binomialRatio(c, n, k);
}

/**
 * Unbiased pass@k. With n < k: 1 when a pass was seen (some k trials would include it), else null
 * (no failure count proves that none of k would pass).
 */
export function passAtK(n: number, c: number, k: number): number | null {
  checkCounts(n, c, k);
  if (n < k) return c > 0 ? 1 : null;
  return 1 - binomialRatio(n - c, n, k);
}

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z_95 = 1.959963984540054;

/** Wilson score interval for c successes in n trials; [0, 1] when n is 0. */
export function wilsonInterval(c: number, n: number, z: number = Z_95): Interval {
  if (!Number.isInteger(n) || !Number.isInteger(c) || n < 0 || c < 0 || c > n || !(z > 0)) {
    throw new InternalError(`bad Wilson inputs: c=${c} n=${n} z=${z}`);
  }
  if (n === 0) return { low: 0, high: 1 };
  const p = c / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
