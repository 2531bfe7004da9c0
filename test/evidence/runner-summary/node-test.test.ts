import { describe, expect, it } from 'vitest';
import { type NodeTestSummary, readRunnerSummary } from '../../../src/evidence/runner-summary.js';
import { capHeadTail } from '../../../src/util/text-cap.js';
import { readFixture } from '../read-fixture.js';

const read = (text: string) => readRunnerSummary('node:test', text);
const fixture = (name: string) => read(readFixture(`node-test/${name}`));
const COUNTS = { tests: 6, suites: 1, passed: 2, failed: 2, cancelled: 0, skipped: 1, todo: 1 };
/** The failing leaves; their suite `edge cases` is reported failed too but is not a test. */
const FAILED = ['sorts numbers, not strings', 'sorts negatives'];
const tapFailing: NodeTestSummary = {
  runner: 'node:test',
  reporter: 'tap',
  verdict: 'failed',
  cut: false,
  counts: COUNTS,
  failedTests: FAILED,
};
const passing = (reporter: 'tap' | 'spec'): NodeTestSummary => ({
  runner: 'node:test',
  reporter,
  verdict: 'passed',
  cut: false,
  counts: { tests: 2, suites: 0, passed: 2, failed: 0, cancelled: 0, skipped: 0, todo: 0 },
  failedTests: [],
});

describe('node:test summaries in captured runs (node 20)', () => {
  it('reads the TAP reporter (the default when piped)', () => {
    expect(fixture('tap-failing.txt')).toEqual(tapFailing);
    expect(fixture('tap-passing.txt')).toEqual(passing('tap'));
  });

  it('reads the spec reporter, whose failures are listed again after the counts', () => {
    expect(fixture('spec-failing.txt')).toEqual({ ...tapFailing, reporter: 'spec' });
    expect(fixture('spec-passing.txt')).toEqual(passing('spec'));
  });

  it('reads the spec reporter on a terminal: colours and CRLF', () => {
    expect(fixture('tty-failing.txt')).toEqual({ ...tapFailing, reporter: 'spec' });
  });

  it('passes through the lines npm test adds', () => {
    expect(readFixture('node-test/npm-test-failing.txt')).toContain('> sortlib@1.0.0 test');
    expect(fixture('npm-test-failing.txt')).toEqual(tapFailing);
  });
});

describe('node:test summaries: edge cases', () => {
  it('keeps the counts of output cut in the middle, and says so', () => {
    const capped = capHeadTail(readFixture('node-test/tap-failing.txt'), 1000);
    expect(capped.cutChars).toBeGreaterThan(0);
    const s = read(capped.text);
    expect(s?.counts).toEqual(COUNTS);
    expect(s?.cut).toBe(true);
    expect(s?.verdict).toBe('failed');
  });

  it('returns the last of several runs, and does not carry over its failing-tests section', () => {
    const spec = `${readFixture('node-test/spec-failing.txt')}${readFixture('node-test/spec-passing.txt')}`;
    expect(read(spec)).toEqual(passing('spec'));
    const tap = `${readFixture('node-test/tap-failing.txt')}${readFixture('node-test/tap-passing.txt')}`;
    expect(read(tap)).toEqual(passing('tap'));
    const back = `${readFixture('node-test/spec-passing.txt')}${readFixture('node-test/spec-failing.txt')}`;
    expect(read(back)).toEqual({ ...tapFailing, reporter: 'spec' });
  });

  it('sees failures in output piped through grep "not ok", with no counts', () => {
    const grepped = readFixture('node-test/tap-failing.txt')
      .split('\n')
      .filter((l) => l.includes('not ok'))
      .join('\n');
    // Without the plan lines, the failed suite cannot be told from a test.
    expect(read(grepped)).toMatchObject({
      verdict: 'failed',
      counts: null,
      failedTests: [...FAILED, 'edge cases'],
    });
  });

  it('counts cancelled tests as a failure, and a run of only skipped tests as no tests', () => {
    const cancelled = '# tests 1\n# suites 0\n# pass 0\n# fail 0\n# cancelled 1\n# skipped 0\n# todo 0\n';
    expect(read(cancelled)?.verdict).toBe('failed');
    expect(read('ℹ tests 1\nℹ pass 0\nℹ fail 0\nℹ skipped 1\n')).toMatchObject({
      verdict: 'no-tests',
      counts: { tests: 1, passed: 0, failed: 0, skipped: 1, suites: null, cancelled: null, todo: null },
    });
  });

  it('ignores a failing todo and unescapes TAP names', () => {
    const tap = 'not ok 1 - later # TODO\nnot ok 2 - a \\# b\n# tests 2\n# pass 0\n# fail 1\n';
    expect(read(tap)?.failedTests).toEqual(['a # b']);
  });

  it('finds nothing without the counts or a failing test', () => {
    expect(read('')).toBeNull();
    expect(read('# tests 5\n')).toBeNull();
    expect(read('we ran # tests 5 # pass 5 # fail 0')).toBeNull();
    expect(read('ok 1 - fine\n✔ fine (1ms)\n')).toBeNull();
  });
});
