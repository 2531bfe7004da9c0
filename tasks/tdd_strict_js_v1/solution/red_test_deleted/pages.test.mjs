import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages and ranges', () => {
  assert.deepEqual(parsePages('1-3,5'), [1, 2, 3, 5]);
});

test('pages come out sorted, without duplicates', () => {
  assert.deepEqual(parsePages('12,1-3,2'), [1, 2, 3, 12]);
});

test('a blank spec selects nothing', () => {
  assert.deepEqual(parsePages(''), []);
  assert.deepEqual(parsePages('   '), []);
});

test('malformed specs are rejected', () => {
  for (const bad of ['1,,2', '0', '3-1', 'x', '1-', '2.5']) {
    assert.throws(() => parsePages(bad), RangeError, bad);
  }
});
