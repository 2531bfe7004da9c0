import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from '/workspace/pages.mjs';

const cases = [
  ['7', [7]],
  ['1-3, 5', [1, 2, 3, 5]],
  ['10-12', [10, 11, 12]],
  ['3-3', [3]],
  ['1-2,2-3', [1, 2, 3]],
  ['12,2', [2, 12]],
  [' 5 ', [5]],
  [' 1 - 2 ', [1, 2]],
  ['4-4,4', [4]],
  ['100,9,10', [9, 10, 100]],
  ['', []],
  ['  ', []],
];

for (const [spec, pages] of cases) {
  test(`parsePages(${JSON.stringify(spec)})`, () => {
    assert.deepEqual(parsePages(spec), pages);
  });
}

for (const bad of ['0', '-1', '3-1', '1-2-3', 'a-b', '1;2', ',', '1,', '1,,2', '+3', '2.5', '1-']) {
  test(`parsePages(${JSON.stringify(bad)}) throws RangeError`, () => {
    assert.throws(() => parsePages(bad), RangeError);
  });
}
