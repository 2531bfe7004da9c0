/**
 * Two sides' pass/fail trials, task by task, as evidence of a difference in pass rate: an exact
 * stratified permutation test, and the two-stage (cluster) bootstrap interval of the difference.
 *
 * The statistic is the mean over tasks of (B's pass rate − A's pass rate): every task weighs the same,
 * whatever its trial counts, as in every other figure over tasks. Under "no difference", a task's
 * trials are exchangeable between the two sides: given its pooled passes, B's passes follow a
 * hypergeometric law, independently per task. The statistic's null law is the convolution of those,
 * computed exactly (no sampling), so one task is Fisher's exact test (5/5 → 0/5: p = 0.008), and many
 * tasks with one trial each is a sign-like test over tasks. The test conditions on these tasks: it
 * says whether the difference is beyond trial noise here, not what another set of tasks would show;
 * the interval is what speaks of tasks as a sample (it resamples them when there are several).
 */
import { seededRandom } from './random.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, percentileInterval } from './task-estimate.js';

/** One task's trials on each side: how many ran, how many passed. */
export interface TaskTrials {
  a: { n: number; passed: number };
  b: { n: number; passed: number };
}

export interface TrialTest {
  /** Mean over tasks of B's pass rate − A's. */
  value: number;
  /** Two-sided exact p-value under "the same pass rate within each task". */
  p: number;
  tasks: number;
  /** Trials on each side, all tasks together. */
  trials: { a: number; b: number };
}

/** Two-sided significance level the gate and the comparison use. */
export const ALPHA = 0.05;

/** Values of the statistic closer than this are one point of its law (sums of fractions, rounded). */
const GRID = 1e-9;

export function trialTest(tasks: readonly TaskTrials[]): TrialTest {
  const usable = tasks.filter((t) => t.a.n > 0 && t.b.n > 0);
  const m = usable.length;
  const value = m === 0 ? 0 : usable.reduce((s, t) => s + t.b.passed / t.b.n - t.a.passed / t.a.n, 0) / m;
  const trials = {
    a: usable.reduce((s, t) => s + t.a.n, 0),
    b: usable.reduce((s, t) => s + t.b.n, 0),
  };
  if (m === 0) return { value, p: 1, tasks: 0, trials };
  const law = nullLaw(usable);
  let below = 0;
  let above = 0;
  for (const [x, prob] of law) {
    if (x <= value + GRID) below += prob;
    if (x >= value - GRID) above += prob;
  }
  return { value, p: Math.min(1, 2 * Math.min(below, above)), tasks: m, trials };
}

/** The law of the statistic when the two sides do not differ: value → probability. */
function nullLaw(tasks: readonly TaskTrials[]): Map<number, number> {
  let law = new Map<number, number>([[0, 1]]);
  for (const t of tasks) {
    const next = new Map<number, number>();
    for (const [x, px] of law)
      for (const [d, pd] of taskLaw(t)) {
        const key = Math.round((x + d / tasks.length) / GRID) * GRID;
        next.set(key, (next.get(key) ?? 0) + px * pd);
      }
    law = next;
  }
  return law;
}

/** One task: B's rate − A's rate for each split of the pooled passes, with its hypergeometric weight. */
function taskLaw(t: TaskTrials): [number, number][] {
  const total = t.a.n + t.b.n;
  const passes = t.a.passed + t.b.passed;
  const out: [number, number][] = [];
  const lo = Math.max(0, passes - t.a.n);
  const hi = Math.min(t.b.n, passes);
  const denominator = logChoose(total, passes);
  for (let x = lo; x <= hi; x++) {
    const weight = Math.exp(logChoose(t.b.n, x) + logChoose(t.a.n, passes - x) - denominator);
    out.push([x / t.b.n - (passes - x) / t.a.n, weight]);
  }
  return out;
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}

/**
 * The 95 % two-stage bootstrap interval of the difference: tasks resampled with replacement (when
 * there are several), then each side's trials within every drawn task. Null bounds when either side
 * has a single trial in all (nothing to resample).
 */
export function clusterBootstrapDifference(
  tasks: readonly TaskTrials[],
  o: { resamples?: number; seed?: number } = {},
): { low: number | null; high: number | null } {
  const usable = tasks.filter((t) => t.a.n > 0 && t.b.n > 0);
  const totalA = usable.reduce((s, t) => s + t.a.n, 0);
  const totalB = usable.reduce((s, t) => s + t.b.n, 0);
  if (usable.length === 0 || totalA < 2 || totalB < 2) return { low: null, high: null };
  const random = seededRandom(o.seed ?? BOOTSTRAP_SEED);
  const rate = (n: number, passed: number): number => {
    let hits = 0;
    for (let i = 0; i < n; i++) if (random() * n < passed) hits++;
    return hits / n;
  };
  const resamples = o.resamples ?? BOOTSTRAP_RESAMPLES;
  const stats = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let total = 0;
    for (let i = 0; i < usable.length; i++) {
      const t =
        usable.length === 1
          ? (usable[0] as TaskTrials)
          : (usable[Math.floor(random() * usable.length)] as TaskTrials);
      total += rate(t.b.n, t.b.passed) - rate(t.a.n, t.a.passed);
    }
    stats[r] = total / usable.length;
  }
  return percentileInterval(stats);
}

/**
 * The smallest drop in pass rate this test could have flagged with these trial counts, from A's
 * observed rates: B's passes lowered by the same share of its trials in every task, in steps of
 * 0.01, until the test's p falls under ALPHA. null when even B failing every trial would not be
 * flagged (too few trials: raise k), or when A passed nothing (there is no drop to see).
 */
export function smallestDetectableDrop(tasks: readonly TaskTrials[]): number | null {
  const usable = tasks.filter((t) => t.a.n > 0 && t.b.n > 0);
  if (usable.length === 0 || usable.every((t) => t.a.passed === 0)) return null;
  for (let step = 1; step <= 100; step++) {
    const drop = step / 100;
    const shifted = usable.map((t) => {
      const rate = Math.max(0, t.a.passed / t.a.n - drop);
      return { a: t.a, b: { n: t.b.n, passed: Math.round(rate * t.b.n) } };
    });
    const test = trialTest(shifted);
    if (test.value < 0 && test.p < ALPHA) return -test.value;
  }
  return null;
}
