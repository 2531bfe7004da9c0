/** parsePages: the function the agent test-drives, its reference implementation, tests and hidden contract. */

export const IMPLEMENTATION = `/** Page selections as typed in a print dialog: "1-3, 5" -> [1, 2, 3, 5]. */

const ITEM = /^(\\d+)(?:\\s*-\\s*(\\d+))?$/;

export function parsePages(spec) {
  if (spec.trim() === '') return [];
  const pages = new Set();
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    const match = ITEM.exec(item);
    if (match === null) throw new RangeError(\`not a page or range: "\${item}"\`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < first) throw new RangeError(\`invalid range: "\${item}"\`);
    for (let page = first; page <= last; page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
`;

export const AGENT_TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';

test('single pages and ranges', () => {
  assert.deepEqual(parsePages('1-3,5'), [1, 2, 3, 5]);
});

test('spaces around items and hyphens are ignored', () => {
  assert.deepEqual(parsePages(' 2 , 4 - 6 '), [2, 4, 5, 6]);
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
`;

/** Checks the implementation against the rules in the prompt, so weak agent tests cannot carry the flag. */
export const CONTRACT_TESTS = `import assert from 'node:assert/strict';
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
  test(\`parsePages(\${JSON.stringify(spec)})\`, () => {
    assert.deepEqual(parsePages(spec), pages);
  });
}

for (const bad of ['0', '-1', '3-1', '1-2-3', 'a-b', '1;2', ',', '1,', '1,,2', '+3', '2.5', '1-']) {
  test(\`parsePages(\${JSON.stringify(bad)}) throws RangeError\`, () => {
    assert.throws(() => parsePages(bad), RangeError);
  });
}
`;
