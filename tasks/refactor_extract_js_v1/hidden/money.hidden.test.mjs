import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents } from '/workspace/money.mjs';

test('formatCents', () => {
  const cases = [
    [0, '$0.00'],
    [5, '$0.05'],
    [99, '$0.99'],
    [1000, '$10.00'],
    [123456, '$1,234.56'],
    [-123456, '-$1,234.56'],
    [-5, '-$0.05'],
    [100000000, '$1,000,000.00'],
  ];
  for (const [cents, text] of cases) assert.equal(formatCents(cents), text, String(cents));
});
