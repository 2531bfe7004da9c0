import assert from 'node:assert/strict';
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

test('nearest rank just past a whole rank, of 201 samples', () => {
  // 50% of 201 samples is rank 100.5, so the 101st: a divisor off by one shows only past 100.
  assert.equal(percentile(Array.from({ length: 201 }, (_, i) => 201 - i), 50), 101);
});
