import { describe, expect, it } from 'vitest';
import { readRunnerSummary, type TscSummary } from '../../../src/evidence/runner-summary.js';
import { capHeadTail } from '../../../src/util/text-cap.js';
import { readFixture } from '../read-fixture.js';

const read = (text: string) => readRunnerSummary('tsc', text);
const fixture = (name: string) => read(readFixture(`tsc/${name}`));
const DIAGNOSTICS = [
  {
    file: 'src/total.ts',
    line: 2,
    column: 7,
    code: 'TS2322',
    message: "Type 'string' is not assignable to type 'number'.",
  },
  {
    file: 'src/total.ts',
    line: 6,
    column: 14,
    code: 'TS2322',
    message: "Type 'number' is not assignable to type 'string'.",
  },
  {
    file: 'src/use.ts',
    line: 2,
    column: 25,
    code: 'TS2322',
    message: "Type 'string' is not assignable to type 'number'.",
  },
];
const nothingSeen: TscSummary = {
  runner: 'tsc',
  verdict: 'unknown',
  cut: false,
  errors: 0,
  reportedErrors: null,
  diagnostics: [],
  seenSuccess: false,
};

describe('tsc summaries in captured runs', () => {
  it('reads plain diagnostics (the format when piped), which carry no count line', () => {
    expect(fixture('plain-errors.txt')).toEqual({
      ...nothingSeen,
      verdict: 'failed',
      errors: 3,
      diagnostics: DIAGNOSTICS,
    });
  });

  it('reads pretty diagnostics and their `Found N errors` line', () => {
    expect(fixture('pretty-errors.txt')).toEqual({
      ...nothingSeen,
      verdict: 'failed',
      errors: 3,
      reportedErrors: 3,
      diagnostics: DIAGNOSTICS,
    });
    expect(fixture('pretty-one-file.txt')).toMatchObject({ errors: 2, reportedErrors: 2, verdict: 'failed' });
  });

  it('reads a diagnostic about the configuration, which has no file', () => {
    expect(fixture('missing-project.txt')?.diagnostics).toEqual([
      {
        file: null,
        line: null,
        column: null,
        code: 'TS5058',
        message: "The specified path does not exist: 'nothere'.",
      },
    ]);
  });

  it('cannot see success in the silence of a passing run', () => {
    expect(readFixture('tsc/success.txt')).toBe('');
    expect(fixture('success.txt')).toEqual(nothingSeen);
    expect(read('some unrelated output\n')).toEqual(nothingSeen);
  });
});

describe('tsc summaries: edge cases', () => {
  it('sees success where tsc says so, and takes the last compilation of watch mode', () => {
    const watch = [
      '[9:00:00 AM] Starting compilation in watch mode...',
      '',
      "src/a.ts:1:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
      '',
      '[9:00:01 AM] Found 1 error. Watching for file changes.',
      '[9:00:05 AM] File change detected. Starting incremental compilation...',
      '',
      '[9:00:06 AM] Found 0 errors. Watching for file changes.',
    ].join('\n');
    expect(read(watch)).toEqual({ ...nothingSeen, verdict: 'passed', reportedErrors: 0, seenSuccess: true });
    const worse = `${watch}\n${readFixture('tsc/plain-errors.txt')}`;
    expect(read(worse)).toMatchObject({
      verdict: 'failed',
      errors: 3,
      reportedErrors: null,
      seenSuccess: false,
    });
  });

  it('trusts the reported count when a cut hid some diagnostics', () => {
    const many = Array.from(
      { length: 40 },
      (_, i) => `src/m.ts(${i + 1},1): error TS2304: Cannot find name 'x${i}'.`,
    ).join('\n');
    const capped = capHeadTail(
      `${many}\n\nFound 40 errors in the same file, starting at: src/m.ts:1\n`,
      1200,
    ).text;
    const s = read(capped);
    expect(s?.errors).toBe(40);
    expect(s?.diagnostics.length).toBeLessThan(40);
    expect(s?.cut).toBe(true);
  });

  it('does not take a mention of an error for a diagnostic', () => {
    expect(read('the build printed error TS2322 somewhere')).toEqual(nothingSeen);
    expect(read('Found 3 errorsome things')).toEqual(nothingSeen);
  });
});
