/**
 * A regex the harness did not write is matched with a hard time bound: a catastrophic pattern on
 * the text that sets it off is interrupted mid-match (V8 terminates the `vm` script around it), and
 * the error names the pattern, so the check ends as an error instead of hanging the run.
 */
import { describe, expect, it } from 'vitest';
import {
  BoundedRegExp,
  REGEX_TIME_BOUND_MS,
  RegexTimeoutError,
  withRegexTimeBound,
} from '../../src/util/bounded-regex.js';

// Without the bound this match takes longer than the universe is old (2^40 ways to split the a's).
const CATASTROPHIC = '^(a+)+$';
const TRIGGER = `${'a'.repeat(40)}b`;

describe('a bounded regular expression', () => {
  it('matches as the RegExp does, whatever was matched before (no lastIndex state)', () => {
    const re = new BoundedRegExp(/report\.sh\s+--title/i);
    expect(re.test('sh REPORT.sh  --title x')).toBe(true);
    expect(re.test('sh report.sh')).toBe(false);
    expect(re.test('sh report.sh --title x')).toBe(true);
    const global = new BoundedRegExp(/x/g);
    expect([global.test('x'), global.test('x')]).toEqual([true, true]);
    expect(re.source).toBe('report\\.sh\\s+--title');
    expect(re.flags).toBe('i');
  });

  it('interrupts a catastrophic match and names the pattern as its author wrote it', () => {
    const re = new BoundedRegExp(new RegExp(CATASTROPHIC), `(?i)${CATASTROPHIC}`);
    let caught: unknown;
    try {
      re.test(TRIGGER);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RegexTimeoutError);
    expect((caught as RegexTimeoutError).message).toBe(
      `check regex timed out after ${REGEX_TIME_BOUND_MS} ms: (?i)${CATASTROPHIC}`,
    );
    expect((caught as RegexTimeoutError).pattern).toBe(`(?i)${CATASTROPHIC}`);
    // The shared context is still usable.
    expect(re.test('aaaa')).toBe(true);
  });

  it('bounds many matches at once, and blames the one that was running', () => {
    const fine = new BoundedRegExp(/a+b/, 'fine');
    const bad = new BoundedRegExp(new RegExp(CATASTROPHIC), 'bad');
    const hits = withRegexTimeBound(() => ['ab', 'aab', 'b'].map((t) => fine.test(t)));
    expect(hits).toEqual([true, true, false]);
    expect(() => withRegexTimeBound(() => [fine.test(TRIGGER), bad.test(TRIGGER)])).toThrow(
      expect.objectContaining({ pattern: 'bad' }),
    );
  });

  it('lets other errors through unchanged', () => {
    expect(() =>
      withRegexTimeBound(() => {
        throw new TypeError('not a regex problem');
      }),
    ).toThrow(TypeError);
  });
});
