/** Exact one-sided binomial bounds against values known in closed form or from tables. */
import { describe, expect, it } from 'vitest';
import { binomialCdf, clopperPearson } from '../../src/stats/clopper-pearson.js';

describe('clopperPearson', () => {
  it('bounds all-passed and none-passed in closed form', () => {
    // n of n: P(all pass | p) = p^n = 1 - C, so lower = (1 - C)^(1/n).
    expect(clopperPearson(11, 11, 0.9).lower).toBeCloseTo(0.1 ** (1 / 11), 10);
    expect(clopperPearson(11, 11, 0.9).lower).toBeCloseTo(0.811, 3);
    expect(clopperPearson(11, 11, 0.9).upper).toBe(1);
    // 0 of n: P(none pass | p) = (1 - p)^n = 1 - C.
    expect(clopperPearson(0, 2, 0.9).upper).toBeCloseTo(1 - 0.1 ** 0.5, 10);
    expect(clopperPearson(0, 2, 0.9).lower).toBe(0);
  });

  it('matches the tabled exact interval for 5 of 10 (90 % two-sided = two 95 % one-sided bounds)', () => {
    const { lower, upper } = clopperPearson(5, 10, 0.95);
    expect(lower).toBeCloseTo(0.2224, 4);
    expect(upper).toBeCloseTo(0.7776, 4);
  });

  it('has nothing to say about no trials', () => {
    expect(clopperPearson(0, 0, 0.9)).toEqual({ lower: 0, upper: 1 });
  });

  it('holds on large counts (no underflow of the first terms)', () => {
    const { lower, upper } = clopperPearson(900, 1000, 0.9);
    expect(lower).toBeGreaterThan(0.88);
    expect(lower).toBeLessThan(0.9);
    expect(upper).toBeGreaterThan(0.9);
    expect(upper).toBeLessThan(0.92);
  });

  it('refuses what is not a count or a confidence', () => {
    expect(() => clopperPearson(3, 2, 0.9)).toThrow(RangeError);
    expect(() => clopperPearson(1, 2, 1)).toThrow(RangeError);
  });
});

describe('binomialCdf', () => {
  it('sums the binomial terms', () => {
    expect(binomialCdf(1, 3, 0.5)).toBeCloseTo(0.5, 12);
    expect(binomialCdf(0, 4, 0.25)).toBeCloseTo(0.75 ** 4, 12);
    expect(binomialCdf(3, 3, 0.7)).toBe(1);
  });
});
