import { test } from 'node:test';
import assert from 'node:assert/strict';

test('fails', () => {
  assert.equal(1, 2);
});
