python3 - <<'PY'
import pathlib
pathlib.Path("pages.test.mjs").write_text(r'''import { deepEqual, throws } from 'node:assert/strict';
import test from 'node:test';
import * as subject from './pages.mjs';

const cases = [
  ['1-3,5', [1, 2, 3, 5]],
  [' 2 , 4 - 6 ', [2, 4, 5, 6]],
  ['12,1-3,2', [1, 2, 3, 12]],
];
for (const [spec, want] of cases) {
  test(`parsePages(${JSON.stringify(spec)})`, () => deepEqual(subject.parsePages(spec), want));
}

function blankSelectsNothing() {
  deepEqual(subject.parsePages(''), []);
  deepEqual(subject.parsePages('  '), []);
}
test('a blank spec selects nothing', { skip: false }, blankSelectsNothing);

test('malformed specs throw RangeError', () => {
  for (const bad of ['1,,2', '0', '3-1', 'x', '1-', '2.5']) throws(() => subject.parsePages(bad), RangeError, bad);
});
''')
PY