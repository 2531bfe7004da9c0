/**
 * The module under repair: latency statistics whose shared sort helper calls `sort()` without a
 * comparator, so numbers sort as strings. Samples of equal digit count come out right; mixed ones
 * ([120, 80, 95, 100]) do not.
 */

const stats = (sortCall: string): string => `/**
 * Latency statistics for the service dashboard. Samples are response times in milliseconds.
 */

/** The samples in ascending order, as a new array: the caller's array is left as it is. */
function sortedCopy(samples) {
  return [...samples].${sortCall};
}

/** The middle sample, or the mean of the two middle ones for an even count. */
export function median(samples) {
  if (samples.length === 0) throw new RangeError('median of no samples');
  const sorted = sortedCopy(samples);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The p-th percentile (0 < p <= 100) by the nearest-rank method. */
export function percentile(samples, p) {
  if (samples.length === 0) throw new RangeError('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new RangeError(\`percentile out of range: \${p}\`);
  const sorted = sortedCopy(samples);
  return sorted[Math.ceil((p * sorted.length) / 100) - 1];
}

/** Count, extremes, median and 95th percentile, for the dashboard's summary row. */
export function summarize(samples) {
  const sorted = sortedCopy(samples);
  return {
    count: sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    median: median(samples),
    p95: percentile(samples, 95),
  };
}
`;

export const BUGGY_MODULE = stats('sort()');
export const FIXED_MODULE = stats('sort((a, b) => a - b)');

export const VISIBLE_TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median, percentile, summarize } from './stats.mjs';

test('median of an odd count is the middle sample', () => {
  assert.equal(median([3, 1, 2]), 2);
});

test('median of an even count is the mean of the middle two', () => {
  assert.equal(median([120, 80, 95, 100]), 97.5);
});

test('median leaves the samples as they were', () => {
  const samples = [5, 3, 4];
  median(samples);
  assert.deepEqual(samples, [5, 3, 4]);
});

test('percentile by nearest rank', () => {
  assert.equal(percentile([15, 20, 35, 40, 50], 30), 20);
  assert.equal(percentile([250, 40, 9, 1200, 70], 80), 250);
});

test('percentile rejects p outside (0, 100]', () => {
  assert.throws(() => percentile([1], 0), RangeError);
  assert.throws(() => percentile([1], 101), RangeError);
});

test('summary row', () => {
  assert.deepEqual(summarize([300, 45, 1000, 8, 60]), { count: 5, min: 8, max: 1000, median: 60, p95: 1000 });
});

test('no samples is an error', () => {
  assert.throws(() => median([]), RangeError);
  assert.throws(() => percentile([], 50), RangeError);
});
`;

/** Values the visible tests do not use, so special-casing them fails here. */
export const HIDDEN_TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median, percentile, summarize } from '/workspace/stats.mjs';

const hundred = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) + 1);

test('median across digit counts', () => {
  assert.equal(median([2, 10, 1]), 2);
  assert.equal(median([9, 100, 11, 1000]), 55.5);
  assert.equal(median([0.5, 12.25, 3]), 3);
});

test('percentiles of 1..100 in any order', () => {
  assert.equal(percentile(hundred, 95), 95);
  assert.equal(percentile(hundred, 50), 50);
  assert.equal(percentile(hundred, 1), 1);
  assert.equal(percentile(hundred, 100), 100);
});

test('summary of mixed magnitudes, input untouched', () => {
  const samples = [9, 10, 11, 100, 1000, 5];
  assert.deepEqual(summarize(samples), { count: 6, min: 5, max: 1000, median: 10.5, p95: 1000 });
  assert.deepEqual(samples, [9, 10, 11, 100, 1000, 5]);
});
`;
