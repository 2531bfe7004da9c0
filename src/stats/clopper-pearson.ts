/**
 * Exact (Clopper–Pearson) one-sided bounds on a binomial proportion: the beta quantiles, found by
 * bisection on the binomial CDF (the two are the same equation), so no special-function library.
 */

export interface ProportionBounds {
  /** P(rate ≥ lower) at the confidence asked: 0 when nothing passed. */
  lower: number;
  /** P(rate ≤ upper) at the confidence asked: 1 when everything passed. */
  upper: number;
}

/**
 * One-sided bounds at `confidence` on the rate behind `successes` of `n`: each holds on its own with
 * that confidence (a two-sided interval from both would hold at 2·confidence − 1).
 */
export function clopperPearson(successes: number, n: number, confidence: number): ProportionBounds {
  if (!(Number.isInteger(n) && n >= 0 && Number.isInteger(successes) && successes >= 0 && successes <= n))
    throw new RangeError(`clopperPearson: ${successes} of ${n} is not a count`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`clopperPearson: confidence ${confidence}`);
  const alpha = 1 - confidence;
  // lower: the rate at which seeing `successes` or more is just as unlikely as alpha.
  const lower = successes === 0 ? 0 : solveMonotone((p) => 1 - binomialCdf(successes - 1, n, p), alpha, true);
  // upper: the rate at which seeing `successes` or fewer is just as unlikely as alpha.
  const upper = successes === n ? 1 : solveMonotone((p) => binomialCdf(successes, n, p), alpha, false);
  return { lower, upper };
}

/** P(X ≤ x) for X ~ Binomial(n, p), summed in log space so large n does not underflow the first terms. */
export function binomialCdf(x: number, n: number, p: number): number {
  if (x < 0) return 0;
  if (x >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  const logRatio = Math.log(p) - Math.log1p(-p);
  let logTerm = n * Math.log1p(-p);
  let sum = Math.exp(logTerm);
  for (let k = 0; k < x; k++) {
    logTerm += Math.log((n - k) / (k + 1)) + logRatio;
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/**
 * The p in (0, 1) where f(p) = target, f monotone: increasing in p when `increasing`, else decreasing.
 * 60 halvings take the interval below 1e-18, past double precision.
 */
function solveMonotone(f: (p: number) => number, target: number, increasing: boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    const below = f(mid) < target;
    if (below === increasing) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
