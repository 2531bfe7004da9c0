import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages and ranges', () => {
  parsePages('1-3,5');
  assert.ok(true);
});

test('spaces are ignored', () => {
  parsePages(' 2 , 4 - 6 ');
  assert.equal(1, 1);
});

test('sorted, without duplicates', () => {
  parsePages('12,1-3,2');
  assert.deepEqual([1, 2], [1, 2]);
});

test('parsePages exists', () => {
  assert.ok(parsePages);
  assert.equal(typeof parsePages, 'function');
});

test('malformed specs are rejected', () => {
  assert.throws(() => {
    throw new RangeError('bad');
  }, RangeError);
});
