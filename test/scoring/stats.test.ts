import { describe, expect, it } from 'vitest';
import { passAtK, passHatK, wilsonInterval } from '../../src/scoring/stats.js';
import { InternalError } from '../../src/util/errors.js';

function choose(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('passHatK = C(c,k)/C(n,k)', () => {
  it.each<[number, number, number, number]>([
    [3, 2, 1, 2 / 3],
    [3, 2, 2, 1 / 3],
    [3, 2, 3, 0],
    [5, 4, 3, 0.4],
    [8, 6, 3, 20 / 56],
    [3, 3, 3, 1],
    [3, 0, 1, 0],
    [1, 1, 1, 1],
  ])('n=%i c=%i k=%i -> %f', (n, c, k, expected) => {
    expect(passHatK(n, c, k)).toBeCloseTo(expected, 12);
  });

  it('matches the binomial definition for every small case', () => {
    for (let n = 1; n <= 12; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          expect(passHatK(n, c, k)).toBeCloseTo(choose(c, k) / choose(n, k), 12);
          expect(passAtK(n, c, k)).toBeCloseTo(1 - (n - c < k ? 0 : choose(n - c, k)) / choose(n, k), 12);
        }
      }
    }
  });

  it('is 0 when c < k and 1 when every trial passed', () => {
    expect(passHatK(10, 2, 3)).toBe(0);
    expect(passHatK(10, 10, 7)).toBe(1);
  });

  it('early stop (n < k): 0 after a failure, null when nothing failed yet', () => {
    expect(passHatK(2, 1, 3)).toBe(0);
    expect(passHatK(1, 0, 3)).toBe(0);
    expect(passHatK(2, 2, 3)).toBeNull();
    expect(passHatK(0, 0, 3)).toBeNull();
  });

  it('rejects impossible counts', () => {
    for (const [n, c, k] of [
      [3, 4, 1],
      [3, -1, 1],
      [3, 1, 0],
      [2.5, 1, 1],
      [3, 1, Number.NaN],
    ] as const) {
      expect(() => passHatK(n, c, k)).toThrow(InternalError);
    }
  });
});

describe('passAtK', () => {
  it('is 1 - C(n-c,k)/C(n,k)', () => {
    expect(passAtK(3, 1, 2)).toBeCloseTo(2 / 3, 12);
    expect(passAtK(5, 0, 2)).toBe(0);
    expect(passAtK(5, 4, 2)).toBe(1);
  });

  it('with n < k: 1 once a pass was seen, else null', () => {
    expect(passAtK(1, 1, 3)).toBe(1);
    expect(passAtK(2, 0, 3)).toBeNull();
  });
});

describe('wilsonInterval', () => {
  it.each<[number, number, number, number]>([
    [3, 3, 0.439, 1],
    [2, 3, 0.208, 0.939],
    [0, 3, 0, 0.561],
    [5, 5, 0.566, 1],
    [10, 10, 0.722, 1],
    [17, 18, 0.742, 0.99],
    [9, 18, 0.29, 0.71],
    [27, 54, 0.371, 0.629],
  ])('%i of %i -> %f..%f', (c, n, low, high) => {
    const r = wilsonInterval(c, n);
    expect(r.low).toBeCloseTo(low, 3);
    expect(r.high).toBeCloseTo(high, 3);
  });

  it('stays inside [0, 1], widens with z, and says nothing with no trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    const narrow = wilsonInterval(5, 10, 1);
    const wide = wilsonInterval(5, 10);
    expect(narrow.low).toBeGreaterThan(wide.low);
    expect(narrow.high).toBeLessThan(wide.high);
    expect(() => wilsonInterval(4, 3)).toThrow(InternalError);
  });
});
