import { describe, expect, it } from 'vitest';
import { type PytestSummary, readRunnerSummary } from '../../../src/evidence/runner-summary.js';
import { capHeadTail } from '../../../src/util/text-cap.js';
import { readFixture } from '../read-fixture.js';

const read = (text: string) => readRunnerSummary('pytest', text);
const fixture = (name: string) => read(readFixture(`pytest/${name}`));
const ZERO = {
  passed: 0,
  failed: 0,
  errors: 0,
  skipped: 0,
  xfailed: 0,
  xpassed: 0,
  deselected: 0,
  warnings: 0,
};
const THREE_FAILED = [
  'tests/test_durations.py::test_combined_units',
  'tests/test_durations.py::test_round_trip[5400]',
  'tests/test_durations.py::test_round_trip[93784]',
];
const failingRun: PytestSummary = {
  runner: 'pytest',
  verdict: 'failed',
  cut: false,
  counts: { ...ZERO, failed: 3, passed: 13 },
  failedTests: THREE_FAILED,
  erroredTests: [],
  collectionErrors: [],
  interrupted: false,
};

describe('pytest summaries in captured runs', () => {
  it('reads every kind of count, and names failures, setup errors and collection errors', () => {
    expect(fixture('default-full.txt')).toEqual({
      ...failingRun,
      counts: {
        passed: 14,
        failed: 3,
        errors: 2,
        skipped: 1,
        xfailed: 1,
        xpassed: 1,
        deselected: 0,
        warnings: 1,
      },
      erroredTests: ['tests/test_variety.py::test_needs_fixture'],
      collectionErrors: ['broken/test_broken.py'],
    });
  });

  it('reads the default, -q, colour, -v and `| tail -20` forms of one failing run alike', () => {
    for (const name of [
      'quiet-failing.txt',
      'color-failing.txt',
      'verbose-failing.txt',
      'quiet-tail-20.txt',
    ]) {
      expect(fixture(name), name).toEqual(failingRun);
    }
  });

  it('reads an interrupted collection, in both forms', () => {
    const interrupted: PytestSummary = {
      ...failingRun,
      counts: { ...ZERO, errors: 1 },
      failedTests: [],
      collectionErrors: ['broken/test_broken.py'],
      interrupted: true,
    };
    expect(fixture('default-collection-error.txt')).toEqual(interrupted);
    expect(fixture('quiet-collection-error.txt')).toEqual(interrupted);
  });

  it('reads a run stopped by -x', () => {
    expect(fixture('exitfirst.txt')).toEqual({
      ...failingRun,
      counts: { ...ZERO, failed: 1, passed: 1 },
      failedTests: ['tests/test_durations.py::test_combined_units'],
    });
  });

  it('reads passing runs, with deselected tests', () => {
    const passing = {
      ...failingRun,
      verdict: 'passed',
      counts: { ...ZERO, passed: 3, deselected: 13 },
      failedTests: [],
    };
    expect(fixture('passing-deselected.txt')).toEqual(passing);
    expect(fixture('quiet-passing.txt')).toEqual(passing);
  });

  it('reads "no tests ran"', () => {
    expect(fixture('no-tests.txt')).toMatchObject({ verdict: 'no-tests', counts: ZERO, failedTests: [] });
  });

  it('sees failures in output piped through grep FAILED, with no count line', () => {
    expect(fixture('grep-failed.txt')).toEqual({ ...failingRun, counts: null });
  });
});

describe('pytest summaries: edge cases', () => {
  it('keeps the count line of output cut in the middle, and says the lists may be incomplete', () => {
    const full = readFixture('pytest/verbose-failing.txt');
    const capped = capHeadTail(full, 1500);
    expect(capped.cutChars).toBeGreaterThan(0);
    const s = read(capped.text);
    expect(s?.counts).toEqual({ ...ZERO, failed: 3, passed: 13 });
    expect(s?.cut).toBe(true);
    expect(s?.verdict).toBe('failed');
    expect(read(full)?.cut).toBe(false);
  });

  it('returns the last of several runs, with only its own names', () => {
    const text = `${readFixture('pytest/quiet-failing.txt')}${readFixture('pytest/quiet-passing.txt')}`;
    expect(read(text)).toMatchObject({
      verdict: 'passed',
      counts: { passed: 3, failed: 0 },
      failedTests: [],
    });
    const again = `${readFixture('pytest/quiet-passing.txt')}${readFixture('pytest/quiet-failing.txt')}`;
    expect(read(again)).toEqual(failingRun);
  });

  it('takes failures printed after the last count line as a later run without one', () => {
    const text = `${readFixture('pytest/quiet-passing.txt')}${readFixture('pytest/grep-failed.txt')}`;
    expect(read(text)).toMatchObject({ verdict: 'failed', counts: null, failedTests: THREE_FAILED });
  });

  it('reads older and longer timings, and node ids with spaces in their parameters', () => {
    expect(read('3 passed in 0.12 seconds')?.counts).toEqual({ ...ZERO, passed: 3 });
    expect(read('===== 1 failed, 2 passed in 61.20s (0:01:01) =====')?.counts).toEqual({
      ...ZERO,
      failed: 1,
      passed: 2,
    });
    const s = read('FAILED t.py::test_p[1h 30m - x] - AssertionError: no\n1 failed in 0.01s\n');
    expect(s?.failedTests).toEqual(['t.py::test_p[1h 30m - x]']);
  });

  it('finds nothing in text that only resembles a summary', () => {
    expect(read('')).toBeNull();
    expect(read('result: 3 failed, 2 passed in 0.12s')).toBeNull();
    expect(read('echo "3 failed, 2 passed in 0.12s"')).toBeNull();
    expect(read('3 failed')).toBeNull();
    expect(read('3 failures, 2 passed in 0.1s')).toBeNull();
    // Captured log lines pad the level name; pytest's usage errors have a colon.
    expect(read('ERROR    root:app.py:12 boom\nERROR: file or directory not found: x\n')).toBeNull();
  });

  it('reads the output of `echo "3 failed, 2 passed in 0.12s"` as a run: only the trace can tell', () => {
    expect(read('3 failed, 2 passed in 0.12s\n')).toMatchObject({
      verdict: 'failed',
      counts: { failed: 3, passed: 2 },
    });
  });

  it('passes through the lines of a wrapper such as npm test', () => {
    const text = `\n> durations@1.0.0 test\n> pytest -q\n\n${readFixture('pytest/quiet-failing.txt')}npm error Test failed.\n`;
    expect(read(text)).toEqual(failingRun);
  });
});
