import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { pytestRuns, readRepeats } from '../../src/scoring/check-helpers.js';
import { afterChange, beforeChange, changedBefore, type StepRef } from '../../src/scoring/ordering.js';
import { readFile, shell, writeFile } from './call-fixtures.js';

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
    const quiet = ctxOf([[readFile('m.py'), shell('pytest')]]);
    expect(beforeChange(quiet, at(0), 'm.py', 1)).toBe(false);
    expect(afterChange(quiet, at(1), 'm.py', 1)).toBe(false);
    const self = ctxOf([[shell('sed -i s/a/b/ m.py; pytest')]]);
    expect(afterChange(self, at(0, 0), 'm.py', 1)).toBe(false);
    expect(afterChange(self, at(0, 1), 'm.py', 1)).toBe(true);
  });

  it('changedBefore compares both files’ writers', () => {
    const ctx = ctxOf([[writeFile('t.py', ''), writeFile('m.py', '')]]);
    expect(changedBefore(ctx, { path: 't.py', turn: 1 }, { path: 'm.py', turn: 1 })).toBe(true);
    expect(changedBefore(ctx, { path: 'm.py', turn: 1 }, { path: 't.py', turn: 1 })).toBe(false);
  });
});

describe('check helpers', () => {
  it('pytestRuns reports masked runs without an exit code', () => {
    const ctx = ctxOf([
      [
        shell('pytest', { exit: 1 }),
        shell('pytest || true', { exit: 0 }),
        shell('pytest', { exit: 1, timedOut: true }),
      ],
    ]);
    expect(pytestRuns(ctx).map((r) => [r.exitCode, r.masked])).toEqual([
      [1, false],
      [null, true],
      [null, true],
    ]);
  });

  it('readRepeats keys by resolved path and part shown', () => {
    const ctx = ctxOf([
      [
        readFile('a.py'),
        readFile('./a.py'),
        shell('cd /workspace/sub && cat ../a.py'),
        shell("sed -n '1,5p' a.py"),
      ],
    ]);
    expect(Object.fromEntries(readRepeats(ctx, []))).toEqual({
      '/workspace/a.py': 3,
      '/workspace/a.py [sed -n 1,5p]': 1,
    });
  });
});
