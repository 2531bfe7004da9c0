import assert from 'node:assert/strict';
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
