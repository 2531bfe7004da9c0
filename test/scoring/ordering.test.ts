import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { pytestRuns } from '../../src/scoring/check-helpers.js';
import { afterChange, beforeChange, changedBefore, type StepRef } from '../../src/scoring/ordering.js';
import { proc, readFile, shell, traced, writeFile } from './call-fixtures.js';

const ctxOf = (turns: ToolCallLog[][]) => ({
  calls: turns.flatMap((calls, i) => calls.map((c) => ({ ...c, turn: i + 1 }))),
});
const at = (call: number, step = 0): StepRef => ({ call, step });

describe('ordering events against a change seen in a turn', () => {
  it('other turns order by turn number', () => {
    const ctx = ctxOf([[readFile('m.py')], [writeFile('m.py', 'x')], [shell('pytest')]]);
    expect(beforeChange(ctx, at(0), 'm.py', 2)).toBe(true);
    expect(afterChange(ctx, at(2), 'm.py', 2)).toBe(true);
    expect(afterChange(ctx, at(0), 'm.py', 2)).toBe(false);
  });

  it('within the turn, by the steps that may have written the file', () => {
    const ctx = ctxOf([
      [readFile('m.py'), writeFile('m.py', 'x'), writeFile('other.py', 'y'), shell('cat m.py && pytest')],
    ]);
    expect(beforeChange(ctx, at(0), 'm.py', 1)).toBe(true);
    expect(afterChange(ctx, at(3, 1), 'm.py', 1)).toBe(true);
    expect(afterChange(ctx, at(0), 'm.py', 1)).toBe(false);
  });

  it('neither, when no step of the turn could have written it, or the event is itself a writer', () => {
    const pytest = proc(['python3', '-m', 'pytest'], { reads: ['/workspace/m.py'] });
    const quiet = ctxOf([[readFile('m.py'), traced('pytest', { processes: [pytest] })]]);
    expect(beforeChange(quiet, at(0), 'm.py', 1)).toBe(false);
    expect(afterChange(quiet, at(1), 'm.py', 1)).toBe(false);
    const sed = proc(['sed', '-i', 's/a/b/', 'm.py'], {
      reads: ['/workspace/m.py'],
      writes: ['/workspace/m.py'],
    });
    const self = ctxOf([[traced('sed -i s/a/b/ m.py; pytest', { processes: [sed, pytest] })]]);
    expect(afterChange(self, at(0, 1), 'm.py', 1)).toBe(false);
    expect(afterChange(self, at(0, 2), 'm.py', 1)).toBe(true);
  });

  it('an untraced command may have written anything: nothing in its turn is ordered against it', () => {
    // By its wording it only reads; without a trace that proves nothing.
    const ctx = ctxOf([[readFile('m.py'), shell('cat m.py'), writeFile('m.py', 'x')]]);
    expect(beforeChange(ctx, at(0), 'm.py', 1)).toBe(true);
    expect(afterChange(ctx, at(1), 'm.py', 1)).toBe(false);
    expect(beforeChange(ctx, at(1), 'm.py', 1)).toBe(false);
  });

  it('changedBefore compares both files’ writers', () => {
    const ctx = ctxOf([[writeFile('t.py', ''), writeFile('m.py', '')]]);
    expect(changedBefore(ctx, { path: 't.py', turn: 1 }, { path: 'm.py', turn: 1 })).toBe(true);
    expect(changedBefore(ctx, { path: 'm.py', turn: 1 }, { path: 't.py', turn: 1 })).toBe(false);
  });
});

describe('check helpers', () => {
  it('pytestRuns: the runner’s exit code when its verdict reached the model; untraced calls run nothing', () => {
    const pytest = (exit: number | null, signal?: string) =>
      proc(['python3', '-m', 'pytest', '-q'], {
        exit,
        ...(signal === undefined ? {} : { signal }),
        reads: ['/workspace/test_a.py'],
      });
    const ctx = ctxOf([
      [
        traced('pytest', { exit: 1, stdout: '1 failed, 2 passed in 0.01s\n', processes: [pytest(1)] }),
        traced('pytest || true', {
          exit: 0,
          stdout: '1 failed, 2 passed in 0.01s\n',
          processes: [pytest(1)],
        }),
        traced('pytest -q | wc -l', { exit: 0, stdout: '7\n', processes: [pytest(1)] }),
        traced('pytest', { exit: null, stdout: '', processes: [pytest(null, 'SIGKILL')] }),
        shell('pytest', { exit: 1 }),
      ],
    ]);
    expect(pytestRuns(ctx).map((r) => [r.exitCode, r.masked])).toEqual([
      [1, false],
      [1, false],
      [null, true],
      [null, true],
    ]);
  });
});
