import { describe, expect, it } from 'vitest';
import { shownLines } from '../../src/evidence/shown-lines.js';
import { capHeadTail } from '../../src/util/text-cap.js';
import { readFixture } from './read-fixture.js';

const DURATIONS = readFixture('python/durations.py');
const TESTS = readFixture('python/tests/test_durations.py');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const shown = (output: string, file = DURATIONS) => shownLines(file, output).lines;

describe('shownLines on captured outputs of read commands (durations.py, 50 lines)', () => {
  it('cat -n and nl show every line, blank ones included', () => {
    expect(shown(readFixture('shown/cat-n.txt'))).toEqual(range(1, 50));
    // nl numbers only non-blank lines, so its numbers drift from the file's from line 2 on.
    expect(shown(readFixture('shown/nl.txt'))).toEqual(range(1, 50));
  });

  it('head, tail and sed -n show exactly their excerpt', () => {
    expect(shown(readFixture('shown/head-20.txt'))).toEqual(range(1, 20));
    expect(shown(readFixture('shown/tail-5.txt'))).toEqual(range(46, 50));
    expect(shown(readFixture('shown/sed-18-32.txt'))).toEqual(range(18, 32));
  });

  it('grep -n shows only the matching lines', () => {
    expect(shown(readFixture('shown/grep-n-def.txt'))).toEqual([12, 39]);
  });

  it('grep -rn -C1 shows matches and context, and its numbers tell identical lines apart', () => {
    // Lines 26 and 35 are the same `raise ValueError(f"invalid duration: ...")`.
    expect(shown(readFixture('shown/grep-rn-context.txt'))).toEqual([
      19, 20, 21, 25, 26, 27, 29, 30, 31, 34, 35, 36, 41, 42, 43,
    ]);
  });

  it('grep -rn over several files credits each file with its own lines', () => {
    const output = readFixture('shown/grep-rn-multi.txt');
    expect(shown(output)).toEqual([12, 40]);
    expect(shownLines(TESTS, output, { paths: ['tests/test_durations.py'] }).lines).toEqual([
      3, 7, 8, 12, 13, 17, 23, 34,
    ]);
  });

  it('shows nothing when the content never reached the model', () => {
    expect(readFixture('shown/wc-c.txt')).toBe('1610\n');
    expect(shown(readFixture('shown/wc-c.txt'))).toEqual([]);
    expect(readFixture('shown/redirect.txt')).toBe('');
    expect(shown(readFixture('shown/redirect.txt'))).toEqual([]);
  });

  it('finds the source lines of a pytest traceback, with and without its `>` marker', () => {
    const output = readFixture('pytest/quiet-failing.txt');
    expect(shown(output)).toEqual([]);
    // pytest prints each failing test up to the failing line, after a blank line: the def and
    // first assert of test_combined_units (11-12), test_round_trip with its decorator (32-34).
    expect(shown(output, TESTS)).toEqual([10, 11, 12, 31, 32, 33, 34]);
  });

  it("finds lines in tsc's pretty code frames (`2   let sum...`)", () => {
    const total =
      'export function total(xs: number[]): number {\n' +
      "  let sum: number = '0';\n" +
      '  for (const x of xs) sum += x;\n' +
      '  return sum;\n' +
      '}\n' +
      'export const label: string = total([1]);\n';
    expect(shown(readFixture('tsc/pretty-errors.txt'), total)).toEqual([2, 6]);
  });
});

describe('shownLines: what counts as a line shown', () => {
  it("finds a file's lines embedded in other output", () => {
    const output = `exit_code: 0\nstdout:\n== start ==\nnoise line one\n${DURATIONS}== end ==\nmore noise\n`;
    expect(shown(output)).toEqual(range(1, 50));
  });

  it('never counts a line that is part of a longer line', () => {
    const output = [
      'echo "        total = amount * size"',
      '        total = amount * size  # the bug',
      'x = 1; last_size = size',
      '# def parse_duration(text: str) -> int:',
    ].join('\n');
    expect(shown(output)).toEqual([]);
  });

  it('tolerates indentation, trailing spaces and CRLF on either side', () => {
    const file = 'def parse(text):\r\n    return int(text)\r\n';
    expect(shownLines(file, 'def parse(text):   \nreturn int(text)\n').lines).toEqual([1, 2]);
    expect(shownLines('def parse(text):\n', '\tdef parse(text):\r\n').lines).toEqual([1]);
  });

  it('counts blank and trivial lines only next to a substantive line of the same run', () => {
    const file = 'def f(items):\n    for x in items:\n        pass\n    else:\n        return\n\n}\n';
    expect(shownLines(file, '}\n\npass\nelse:\nreturn\n').lines).toEqual([]);
    expect(shownLines(file, 'pass\nelse:\nreturn\n\n}\n').lines).toEqual([]);
    expect(shownLines(file, '    for x in items:\n        pass\n    else:\n').lines).toEqual([2, 3, 4]);
    expect(shownLines(file, 'pass\ndef f(items):\n').lines).toEqual([1]);
  });

  it('credits one copy of a duplicated line: the one that continues the run around it', () => {
    const file = [
      'def first(a):',
      '    total = a * 2',
      '    return total',
      '',
      'def second(b):',
      '    total = b * 3',
      '    return total',
    ].join('\n');
    expect(shownLines(file, 'def second(b):\n    total = b * 3\n    return total\n').lines).toEqual([
      5, 6, 7,
    ]);
    expect(shownLines(file, '    total = b * 3\n    return total\n').lines).toEqual([6, 7]);
    // The run may also be anchored after the duplicate.
    const three = 'def first(a):\n    return total\ndef second(b):\n    return total\ndef third(c):\n';
    expect(shownLines(three, '    return total\ndef third(c):\n').lines).toEqual([4, 5]);
    // Alone, it goes to the first copy, never to both.
    expect(shownLines(file, 'return total\n').lines).toEqual([3]);
    // A line number says which copy was shown.
    expect(shownLines(file, '7:    return total\n').lines).toEqual([7]);
    expect(shownLines(file, 'f.py:7:    return total\n').lines).toEqual([7]);
  });

  it('keeps a duplicated line at its distance from the run before it when lines between differ', () => {
    const file = 'start_here()\nreturn total\nmiddle_line()\nreturn total\n';
    // Output of a version whose lines 2-3 were rewritten: its `return total` is line 4.
    expect(shownLines(file, 'start_here()\nreturn subtotal\nmiddle_changed()\nreturn total\n').lines).toEqual(
      [1, 4],
    );
  });

  it('reads the common numbered and grep prefixes', () => {
    const file = 'alpha = compute(1)\nbeta = compute(2)\n\ngamma = compute(3)\n';
    for (const output of [
      '     1\talpha = compute(1)\n     2\tbeta = compute(2)\n     3\t\n     4\tgamma = compute(3)\n',
      '1: alpha = compute(1)\n2: beta = compute(2)\n3: \n4: gamma = compute(3)\n',
      '   1 │ alpha = compute(1)\n   2 │ beta = compute(2)\n   3 │\n   4 │ gamma = compute(3)\n',
      'src/m.py:1:alpha = compute(1)\nsrc/m.py-2-beta = compute(2)\nsrc/m.py-3-\nsrc/m.py:4:gamma = compute(3)\n',
      '1:alpha = compute(1)\n2-beta = compute(2)\n3-\n4:gamma = compute(3)\n',
    ]) {
      expect(shownLines(file, output).lines, output).toEqual([1, 2, 3, 4]);
    }
  });

  it('does not join grep -n matches into a run across the lines between them', () => {
    const file = 'def a():\n    total = 1\n}\nmore = 2\n}\n';
    // `5:}` is line 5, not the `}` after line 2; alone it is not evidence of anything.
    expect(shownLines(file, '2:    total = 1\n5:}\n').lines).toEqual([2]);
    expect(shownLines(file, '2:    total = 1\n3:}\n').lines).toEqual([2, 3]);
  });

  it('with paths given, ignores grep lines of other files', () => {
    const file = 'def parse(text):\n    return int(text)\n';
    const output = 'other.py:1:def parse(text):\nlib/util.py:9:    return int(text)\n';
    expect(shownLines(file, output).lines).toEqual([1, 2]);
    expect(shownLines(file, output, { paths: ['src/parse.py'] }).lines).toEqual([]);
    expect(shownLines(file, output, { paths: ['/workspace/lib/util.py'] }).lines).toEqual([2]);
    // grep -r without -n prints `path:line`; only known paths are taken off.
    expect(shownLines(file, './src/parse.py:def parse(text):\n', { paths: ['src/parse.py'] }).lines).toEqual([
      1,
    ]);
    expect(shownLines(file, './src/parse.py:def parse(text):\n').lines).toEqual([]);
  });
});

describe('shownLines on output cut by the harness', () => {
  // Every line the same length, so where the cut falls is known.
  const file = range(1, 100)
    .map((n) => `const value_${String(n).padStart(3, '0')} = compute(${String(n).padStart(3, '0')});`)
    .join('\n')
    .concat('\n');
  const lineLength = 'const value_001 = compute(001);'.length + 1;

  it('credits the whole lines before and after the marker, not the cut ones', () => {
    const capped = capHeadTail(file, 1000);
    expect(capped.cutChars).toBeGreaterThan(0);
    const headChars = Math.ceil(1000 * 0.6);
    const tailChars = 1000 - headChars;
    const wholeHead = Math.floor(headChars / lineLength);
    const wholeTail = Math.floor(tailChars / lineLength);
    // Neither cut falls on a line boundary here, so both neighbours of the marker are partial.
    expect(headChars % lineLength).not.toBe(0);
    expect(tailChars % lineLength).not.toBe(0);
    expect(shown(capped.text, file)).toEqual([...range(1, wholeHead), ...range(101 - wholeTail, 100)]);
  });

  it('credits a line next to the marker when it is whole and continues the run', () => {
    const lines = file.split('\n');
    const text = `${lines.slice(0, 10).join('\n')}\n\n[... 5000 characters cut from the middle of this output ...]\n${lines.slice(90).join('\n')}`;
    expect(shown(text, file)).toEqual([...range(1, 10), ...range(91, 100)]);
  });

  it('does not take the end of a cut line for another line it happens to equal', () => {
    const file =
      'total = compute(values)\nprint(total)\n\ngrand_total = compute(values)\nreport(grand_total)\n';
    // The cut fell inside `grand_total = ...`, leaving what looks like line 1.
    const output =
      'header of the output\n[... 900 bytes cut from the middle of this output ...]\ntotal = compute(values)\nreport(grand_total)\n';
    expect(shown(output, file)).toEqual([5]);
  });

  it('credits a partial read_file reply up to its last whole line', () => {
    const offset = file.indexOf('value_010') + 3;
    const end = file.indexOf('value_020') + 5;
    const reply = `${file.slice(offset, end)}\n[read_file: showing bytes ${offset}-${end} of ${file.length}. Call read_file with {"path": "v.js", "offset": ${end}} to read more.]`;
    expect(shown(reply, file)).toEqual(range(11, 19));
  });
});

describe('shownLines on a large read', () => {
  // Its speed is a figure of scripts/bench.mjs (timing has no place in a unit test on a shared machine).
  it('finds a 30 KB file shown, numbered, between 60 KB of other output', () => {
    const file = Array.from(
      { length: 1000 },
      (_, i) => `    result_${i} = transform(items[${i}], factor=${i % 7})  # step ${i}`,
    )
      .join('\n')
      .slice(0, 30_000);
    const noise = Array.from(
      { length: 400 },
      (_, i) => `noise ${i}: nothing to see in this line ${i * 31}`,
    ).join('\n');
    const numbered = file
      .split('\n')
      .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
      .join('\n');
    const output = `${noise}\n${numbered}\n${noise}\n`.slice(0, 60_000);
    expect(file.length).toBeGreaterThanOrEqual(29_000);
    expect(output.length).toBeGreaterThanOrEqual(59_000);
    expect(shownLines(file, output).lines.length).toBeGreaterThan(400);
  });
});
