import { describe, expect, it } from 'vitest';
import {
  clusterBootstrapDifference,
  smallestDetectableDrop,
  type TaskTrials,
  trialTest,
} from '../../src/stats/trial-test.js';

const task = (a: [number, number], b: [number, number]): TaskTrials => ({
  a: { passed: a[0], n: a[1] },
  b: { passed: b[0], n: b[1] },
});

describe('trialTest: an exact test on trials within tasks', () => {
  it("is Fisher's exact test on one task: 5/5 → 0/5 is p = 2/252", () => {
    const t = trialTest([task([5, 5], [0, 5])]);
    expect(t.value).toBe(-1);
    expect(t.p).toBeCloseTo(2 / 252, 10);
    expect(t.trials).toEqual({ a: 5, b: 5 });
  });

  it('finds nothing between equal sides', () => {
    expect(trialTest([task([5, 5], [5, 5])]).p).toBe(1);
    expect(trialTest([task([3, 5], [3, 5]), task([1, 4], [1, 4])]).p).toBe(1);
  });

  it('5/5 → 2/5 is within the noise (p = 0.17), 5/5 → 1/5 is not (p ≈ 0.048)', () => {
    // 7 passes pooled: B holds at least 2 of them; P(X = 2) = C(5,2)C(5,5)/C(10,7) = 10/120.
    expect(trialTest([task([5, 5], [2, 5])]).p).toBeCloseTo((2 * 10) / 120, 10);
    // B's passes X given 6 pooled: P(X <= 1) = C(5,1)C(5,5)/C(10,6) = 5/210.
    expect(trialTest([task([5, 5], [1, 5])]).p).toBeCloseTo((2 * 5) / 210, 10);
  });

  it('weighs every task the same, and pools the evidence of several', () => {
    // One trial per task: a single flip proves nothing, ten flips do.
    expect(trialTest([task([1, 1], [0, 1])]).p).toBe(1);
    const ten = Array.from({ length: 10 }, () => task([1, 1], [0, 1]));
    expect(trialTest(ten).p).toBeLessThan(0.01);
    // A task B gained does not cancel the weight of the many it lost.
    expect(trialTest([...ten, task([0, 1], [1, 1])]).value).toBeCloseTo(-9 / 11, 10);
  });

  it('agrees in both directions', () => {
    expect(trialTest([task([0, 5], [5, 5])]).p).toBeCloseTo(2 / 252, 10);
  });
});

describe('clusterBootstrapDifference', () => {
  it('resamples trials within one task: 5/5 → 0/5 is −1 on both bounds, 3/5 → 3/5 spans 0', () => {
    expect(clusterBootstrapDifference([task([5, 5], [0, 5])])).toEqual({ low: -1, high: -1 });
    const same = clusterBootstrapDifference([task([3, 5], [3, 5])]);
    expect(same.low).toBeLessThan(0);
    expect(same.high).toBeGreaterThan(0);
  });

  it('has no interval with a single trial a side', () => {
    expect(clusterBootstrapDifference([task([1, 1], [0, 1])])).toEqual({ low: null, high: null });
  });
});

describe('smallestDetectableDrop', () => {
  it('is 0.8 with 5 trials a side on one task that always passed, and smaller with more trials', () => {
    expect(smallestDetectableDrop([task([5, 5], [5, 5])])).toBeCloseTo(0.8, 10);
    const twenty = smallestDetectableDrop([task([20, 20], [20, 20])]);
    expect(twenty).not.toBeNull();
    expect(twenty as number).toBeLessThan(0.4);
  });

  it('is null when no drop could be flagged (one trial a side) or there is none to see', () => {
    expect(smallestDetectableDrop([task([1, 1], [1, 1])])).toBeNull();
    expect(smallestDetectableDrop([task([0, 5], [0, 5])])).toBeNull();
  });
});
