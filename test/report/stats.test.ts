/** The estimators and intervals on known values. */
import { describe, expect, it } from 'vitest';
import { passHatK, wilsonInterval } from '../../src/stats/estimators.js';
import { pairedDifference } from '../../src/stats/paired.js';
import { seededRandom } from '../../src/stats/random.js';
import { bootstrapMean, meanOverTasks, meanOverTasksBootstrap } from '../../src/stats/task-estimate.js';

const near = (x: number | null, y: number, digits = 3) => expect(x).toBeCloseTo(y, digits);

describe('pass^k and Wilson on published values', () => {
  it.each([
    [3, 2, 1, 2 / 3],
    [3, 2, 2, 1 / 3],
    [3, 2, 3, 0],
    [5, 4, 3, 0.4],
    [8, 6, 3, 0.357],
  ])('n=%i c=%i k=%i is %f', (n, c, k, expected) => near(passHatK(n, c, k), expected));

  it.each([
    [3, 3, 0.439, 1],
    [3, 2, 0.208, 0.939],
    [3, 0, 0, 0.561],
    [18, 17, 0.742, 0.99],
    [18, 9, 0.29, 0.71],
    [54, 27, 0.371, 0.629],
  ])('Wilson c=%i of n=%i is [%f, %f]', (n, c, low, high) => {
    const i = wilsonInterval(c, n);
    near(i.low, low);
    near(i.high, high);
  });
});

describe('figures over tasks', () => {
  it('uses Wilson over tasks when every task is 0 or 1', () => {
    const e = meanOverTasks([1, 0, 1, null]);
    expect(e).toMatchObject({ n: 3, method: 'wilson' });
    near(e.value, 2 / 3);
    near(e.low, 0.208);
    near(e.high, 0.939);
  });

  it('uses a seeded bootstrap over tasks otherwise: reproducible, around the mean, inside the data', () => {
    const xs = [0.2, 0.4, 0.6, 0.8, 1 / 3, 2 / 3];
    const e = meanOverTasks(xs);
    expect(e.method).toBe('bootstrap');
    near(e.value, 0.5);
    expect(meanOverTasks(xs)).toEqual(e);
    expect(e.low).toBeGreaterThan(0.2);
    expect(e.high).toBeLessThan(0.8);
    expect(e.low as number).toBeLessThan(0.5);
    expect(e.high as number).toBeGreaterThan(0.5);
    // The bootstrap's spread is about the standard error: sd ≈ 0.216 / √6 ≈ 0.088, so ±0.17 at 95 %.
    near((e.high as number) - (e.low as number), 0.34, 1);
  });

  it('bounds a constant at itself, and a single task not at all', () => {
    expect(bootstrapMean([0.5, 0.5, 0.5])).toEqual({ low: 0.5, high: 0.5 });
    expect(meanOverTasksBootstrap([1234])).toMatchObject({ value: 1234, n: 1, low: null, high: null });
    expect(meanOverTasks([])).toMatchObject({ value: null, n: 0 });
  });

  it('draws the same numbers from the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('paired differences', () => {
  it('hold up when every task moves the same way', () => {
    const d = pairedDifference([0.2, 0.4, 0.6, 0.8].map((a) => ({ a, b: a - 0.5 })));
    expect(d).toMatchObject({ n: 4, holds: true });
    near(d.value, -0.5);
  });

  it('are noise when tasks move both ways', () => {
    const d = pairedDifference([
      { a: 1, b: 0 },
      { a: 0, b: 1 },
      { a: 1, b: 1 },
      { a: 0, b: 0 },
    ]);
    expect(d).toMatchObject({ value: 0, holds: false });
    expect(d.low as number).toBeLessThan(0);
    expect(d.high as number).toBeGreaterThan(0);
  });

  it('say nothing without pairs', () => {
    expect(pairedDifference([])).toMatchObject({ value: null, n: 0, holds: false });
  });
});
