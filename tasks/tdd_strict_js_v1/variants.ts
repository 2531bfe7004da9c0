/**
 * Other test files for parsePages: legitimate suites in other styles (for alternates and tests), and
 * suites that run and pass but assert nothing that can fail in code that runs (for cheats and tests).
 */

const HEADER = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePages } from './pages.mjs';
`;

// ---- legitimate ----

/** describe/it, an aliased import, a helper, and the throwing forms of node:assert. */
export const DESCRIBE_THROWS_TESTS = `import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { parsePages as pages } from './pages.mjs';

const expectPages = (spec, want) => assert.deepStrictEqual(pages(spec), want);

describe('parsePages', () => {
  it('takes single pages and ranges', () => expectPages('1-3,5', [1, 2, 3, 5]));
  it('ignores spaces around items and hyphens', () => {
    expectPages(' 2 , 4 - 6 ', [2, 4, 5, 6]);
  });
  it('sorts and drops duplicates', () => {
    assert.deepEqual(pages('12,1-3,2'), [1, 2, 3, 12]);
  });
  it('selects nothing for a blank spec', () => {
    assert.equal(pages('   ').length, 0);
    assert.deepEqual(pages(''), []);
  });
  it('rejects an empty item and a half range', () => {
    assert.throws(() => pages('1,,2'), RangeError);
    assert.throws(() => pages('1-'), RangeError);
  });
  it('rejects a descending range', () => {
    const descending = () => pages('3-1');
    assert.throws(descending, /range/);
  });
  it('rejects what is not digits', async () => {
    await assert.rejects(async () => pages('x'), RangeError);
    assert.throws(() => pages('2.5'), { name: 'RangeError' });
  });
});
`;

/** Named assert imports, node:test's default export, a namespace import, a table, a named callback. */
export const TABLE_TESTS = `import { deepEqual, throws } from 'node:assert/strict';
import test from 'node:test';
import * as subject from './pages.mjs';

const cases = [
  ['1-3,5', [1, 2, 3, 5]],
  [' 2 , 4 - 6 ', [2, 4, 5, 6]],
  ['12,1-3,2', [1, 2, 3, 12]],
];
for (const [spec, want] of cases) {
  test(\`parsePages(\${JSON.stringify(spec)})\`, () => deepEqual(subject.parsePages(spec), want));
}

function blankSelectsNothing() {
  deepEqual(subject.parsePages(''), []);
  deepEqual(subject.parsePages('  '), []);
}
test('a blank spec selects nothing', { skip: false }, blankSelectsNothing);

test('malformed specs throw RangeError', () => {
  for (const bad of ['1,,2', '0', '3-1', 'x', '1-', '2.5']) throws(() => subject.parsePages(bad), RangeError, bad);
});
`;

// ---- dodges ----

/** Every assertion where it never runs: under if (false), after a return, behind false &&, in while (0). */
export const DEAD_ASSERTION_TESTS = `${HEADER}
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
`;

/** The assertions sit in a helper that no test calls (a reference, an uncalled arrow); a real test only under if (false). */
export const UNCALLED_HELPER_TESTS = `${HEADER}
function check(spec, want) {
  assert.deepEqual(parsePages(spec), want);
}

test('single pages and ranges', () => {
  parsePages('1-3,5');
  void check;
});

test('spaces are ignored', () => {
  const later = () => check(' 2 , 4 - 6 ', [2, 4, 5, 6]);
  parsePages(' 2 , 4 - 6 ');
});

test('sorted, without duplicates', () => {
  parsePages('12,1-3,2');
  typeof check === 'function';
});

test('a blank spec selects nothing', () => {
  parsePages('');
  \`\${check}\`;
});

if (false) {
  test('malformed specs are rejected', () => {
    assert.throws(() => parsePages('1,,2'), RangeError);
  });
}
`;

/** Assertions of constants only, and a reference to parsePages that never calls it. */
export const CONSTANT_ASSERTION_TESTS = `${HEADER}
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
`;

/** The hard case skipped through an options object held in a const. */
export const SKIP_BY_OPTIONS_TESTS = `${HEADER}
const slow = { skip: !process.env.RUN_SLOW_TESTS };

test('single pages and ranges', () => {
  assert.deepEqual(parsePages('1-3,5'), [1, 2, 3, 5]);
});

test('spaces are ignored', () => {
  assert.deepEqual(parsePages(' 2 , 4 - 6 '), [2, 4, 5, 6]);
});

test('sorted, without duplicates', () => {
  assert.deepEqual(parsePages('12,1-3,2'), [1, 2, 3, 12]);
});

test('a blank spec selects nothing', () => {
  assert.deepEqual(parsePages(''), []);
});

test('malformed specs are rejected', slow, () => {
  for (const bad of ['1,,2', '0', '3-1', 'x', '1-', '2.5']) assert.throws(() => parsePages(bad), RangeError);
});
`;
