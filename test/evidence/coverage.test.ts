import { describe, expect, it } from 'vitest';
import {
  blockAt,
  coverage,
  lineRanges,
  linesMatching,
  unionShown,
  wasShown,
} from '../../src/evidence/coverage.js';
import { shownLines } from '../../src/evidence/shown-lines.js';
import { InternalError } from '../../src/util/errors.js';
import { readFixture } from './read-fixture.js';

const DURATIONS = readFixture('python/durations.py');
const shownBy = (fixture: string) => shownLines(DURATIONS, readFixture(fixture));

describe('blockAt', () => {
  it('finds a Python function by indentation, without the blank lines after it', () => {
    expect(blockAt(DURATIONS, /^def parse_duration\b/)).toEqual({ from: 12, to: 36 });
    expect(blockAt(DURATIONS, /^def format_duration\b/)).toEqual({ from: 39, to: 50 });
    expect(blockAt(DURATIONS, /^def nothing_like_this\b/)).toBeNull();
  });

  it('includes the closing brace of a brace-language block and stops at the next one', () => {
    const js = 'function a(x) {\n  return x + 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
    expect(blockAt(js, /^function a\b/)).toEqual({ from: 1, to: 3 });
    expect(blockAt('  it("x", () => {\n    run();\n  });\n  it("y", () => {});\n', /it\("x"/)).toEqual({
      from: 1,
      to: 3,
    });
  });

  it('follows a multi-line signature into its body', () => {
    const py = 'def f(\n    a,\n    b,\n) -> int:\n    return a + b\n\n\ndef g():\n    pass\n';
    expect(blockAt(py, /^def f\(/)).toEqual({ from: 1, to: 5 });
  });
});

describe('linesMatching and lineRanges', () => {
  it('numbers the matching lines from 1, whatever the flags of the pattern', () => {
    expect(linesMatching(DURATIONS, /raise ValueError/g)).toEqual([20, 26, 30, 35, 42]);
    expect(linesMatching('a\r\nb\r\na\r\n', /^a$/)).toEqual([1, 3]);
  });

  it('folds ascending line numbers into runs', () => {
    expect(lineRanges([1, 2, 3, 7, 9, 10])).toEqual([
      { from: 1, to: 3 },
      { from: 7, to: 7 },
      { from: 9, to: 10 },
    ]);
    expect(lineRanges([])).toEqual([]);
  });
});

describe('coverage and wasShown', () => {
  it('measures on substantive lines only', () => {
    const all = shownBy('shown/cat-n.txt');
    // Blank lines (2) and a bare `"""` (4) are not substantive; `import re` (6) is.
    expect(all.fileLines).toBe(50);
    expect(all.substantive).not.toContain(2);
    expect(all.substantive).not.toContain(4);
    expect(all.substantive).toContain(6);
    expect(coverage(all)).toEqual({
      shown: all.substantive.length,
      asked: all.substantive.length,
      fraction: 1,
      missing: [],
    });
  });

  it('answers for a fraction of the file', () => {
    const head = shownBy('shown/head-20.txt');
    const c = coverage(head);
    const substantiveInHead = head.substantive.filter((n) => n <= 20).length;
    expect(c.shown).toBe(substantiveInHead);
    expect(c.fraction).toBeCloseTo(substantiveInHead / head.substantive.length, 10);
    expect(c.missing[0]).toBe(21);
    expect(wasShown(head, { atLeast: 0.3 })).toBe(true);
    expect(wasShown(head, { atLeast: 0.6 })).toBe(false);
    expect(wasShown(head)).toBe(false);
  });

  it('answers for a named function: grep -n of the def line is not reading it', () => {
    const parse = blockAt(DURATIONS, /^def parse_duration\b/);
    if (parse === null) throw new Error('fixture changed: parse_duration not found');
    expect(wasShown(shownBy('shown/grep-n-def.txt'), { lines: parse, atLeast: 0.5 })).toBe(false);
    expect(wasShown(shownBy('shown/sed-18-32.txt'), { lines: parse, atLeast: 0.5 })).toBe(true);
    expect(wasShown(shownBy('shown/sed-18-32.txt'), { lines: parse })).toBe(false);
    expect(wasShown(shownBy('shown/cat-n.txt'), { lines: parse })).toBe(true);
    // The bug line itself, by pattern.
    const bug = linesMatching(DURATIONS, /total = amount \* size/);
    expect(bug).toEqual([31]);
    expect(wasShown(shownBy('shown/sed-18-32.txt'), { lines: bug })).toBe(true);
    expect(wasShown(shownBy('shown/head-20.txt'), { lines: bug })).toBe(false);
  });

  it('asks nothing of trivial lines, so a region of only blanks is trivially shown', () => {
    const none = shownBy('shown/wc-c.txt');
    expect(coverage(none, [2, 5, 10, 11])).toEqual({ shown: 0, asked: 0, fraction: 1, missing: [] });
    expect(coverage(none, { from: 12, to: 13 })).toEqual({
      shown: 0,
      asked: 2,
      fraction: 0,
      missing: [12, 13],
    });
  });

  it('joins reads in parts of the same content, and refuses different contents', () => {
    const both = unionShown(shownBy('shown/head-20.txt'), shownBy('shown/tail-5.txt'));
    expect(lineRanges(both.lines)).toEqual([
      { from: 1, to: 20 },
      { from: 46, to: 50 },
    ]);
    const other = shownLines('def other():\n    return 1\n', 'def other():\n');
    expect(() => unionShown(both, other)).toThrow(InternalError);
  });
});
