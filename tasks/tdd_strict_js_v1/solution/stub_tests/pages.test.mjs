import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages', () => {
  assert.ok(true);
});

test('ranges', () => {});

test('sorting', () => {
  assert.ok(parsePages);
});

test('bad input', () => {
  assert.ok(true);
});
