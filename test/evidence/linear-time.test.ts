/**
 * The evidence readers' regular expressions run on the model's command output, so each family gets
 * ~100 KB lines built to make a backtracking form rescan the line from every position. The readers
 * must return (and still read what they should); the forms these replaced took 0.6–14 s per line
 * here. The per-test timeout is no speed target, only what turns such a regression into a failure.
 */
import { describe, expect, it } from 'vitest';
import { readingsOf } from '../../src/evidence/line-prefixes.js';
import { readRunnerSummary } from '../../src/evidence/runner-summary.js';

const N = 100_000;
const RETURNS = { timeout: 10_000 };
/** A character `.` does not match without the `s` flag, placed where it made `$` fail. */
const LS = '\u2028';

describe('line prefixes on adversarial lines', () => {
  it('numbered and pytest-source gutters', RETURNS, () => {
    const spaces = `1${' '.repeat(N)}${LS}x`;
    expect(readingsOf(spaces, {}).some((r) => r.lineNumber === 1)).toBe(true);
    const tabs = `>${'\t'.repeat(N)}x${LS}y`;
    expect(readingsOf(tabs, {}).length).toBeGreaterThan(1);
    expect(readingsOf(`12:${':12:'.repeat(N / 4)}`, { paths: ['a.py'] }).length).toBeGreaterThan(0);
  });
});

describe('runner summaries on adversarial lines', () => {
  it('pytest: a progress line of many `::`, a count line with a long number', RETURNS, () => {
    expect(readRunnerSummary('pytest', `a${'::'.repeat(N / 2)} PASSED`)).toBeNull();
    expect(readRunnerSummary('pytest', `t.py::${'a::'.repeat(N / 3)}x FAILED [ 50%]`)?.failedTests).toEqual([
      `t.py::${'a::'.repeat(N / 3)}x`,
    ]);
    // The duration's decimals are a digit run with no ` word` after it, read from each digit before.
    expect(readRunnerSummary('pytest', `1 passed in 0.${'0'.repeat(N)}s`)).toMatchObject({
      verdict: 'passed',
      counts: { passed: 1 },
    });
  });

  it('node:test: TAP and spec failures with many ` # SKIP` and ` (0s)`', RETURNS, () => {
    const tap = `not ok 1 - ${' # SKIP D'.repeat(N / 9)}${LS}`;
    const spec = `✖ ${' (0s) # TODO('.repeat(N / 14)}${LS}`;
    expect(() => readRunnerSummary('node:test', `${tap}\n${spec}\n# tests 1\n# fail 1`)).not.toThrow();
  });

  it('tsc: a diagnostic line of many `(1,1): error TS1: `', RETURNS, () => {
    const plain = `a${'(0,0): error TS0: '.repeat(N / 18)}${LS}`;
    const pretty = `a${':0:0 - error TS0: '.repeat(N / 18)}${LS}`;
    const summary = readRunnerSummary('tsc', `${plain}\n${pretty}\nFound 2 errors.`);
    expect(summary?.diagnostics.length).toBe(2);
  });
});
