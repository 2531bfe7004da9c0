import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { pytestRuns } from '../../src/scoring/check-helpers.js';
import {
  afterChange,
  beforeChange,
  changedBefore,
  decisionTurn,
  type StepRef,
} from '../../src/scoring/ordering.js';
import { proc, readFile, shell, traced, WRITES_ANYWHERE, writeFile } from './call-fixtures.js';

const ctxOf = (turns: ToolCallLog[][]) => ({
  calls: turns.flatMap((calls, i) => calls.map((c) => ({ ...c, turn: i + 1 }))),
  declaredWrites: WRITES_ANYWHERE,
});
const at = (call: number, step = 0): StepRef => ({ call, step });

describe('ordering events against a change seen in a turn', () => {
  it('other turns order by turn number', () => {
    const ctx = ctxOf([[readFile('m.py')], [writeFile('m.py', 'x')], [shell('pytest')]]);
    expect(beforeChange(ctx, at(0), 'm.py', 2)).toBe(true);
    expect(afterChange(ctx, at(2), 'm.py', 2)).toBe(true);
    expect(afterChange(ctx, at(0), 'm.py', 2)).toBe(false);
  });

  it('within the turn, a run sees the change by the steps that may have written the file', () => {
    const ctx = ctxOf([
      [readFile('m.py'), writeFile('m.py', 'x'), writeFile('other.py', 'y'), shell('cat m.py && pytest')],
    ]);
    expect(afterChange(ctx, at(3, 1), 'm.py', 1)).toBe(true);
    expect(afterChange(ctx, at(0), 'm.py', 1)).toBe(false);
  });

  it('evidence of the change’s own turn was not seen when the change was decided', () => {
    // A read and a write sent in one reply: the read's output reached the model after both ran.
    const sameReply = ctxOf([[readFile('m.py'), writeFile('m.py', 'x')]]);
    expect(beforeChange(sameReply, at(0), 'm.py', 1)).toBe(false);
    // `cat m.py; sed -i … m.py` in one command: the same.
    const cat = proc(['cat', 'm.py'], { reads: ['/workspace/m.py'] });
    const sed = proc(['sed', '-i', 's/a/b/', 'm.py'], {
      reads: ['/workspace/m.py'],
      writes: ['/workspace/m.py'],
    });
    const oneCommand = ctxOf([[traced('cat m.py; sed -i s/a/b/ m.py', { processes: [cat, sed] })]]);
    expect(beforeChange(oneCommand, at(0, 1), 'm.py', 1)).toBe(false);
    // The same read a turn earlier counts.
    const earlier = ctxOf([[readFile('m.py')], [writeFile('m.py', 'x')]]);
    expect(beforeChange(earlier, at(0), 'm.py', 2)).toBe(true);
  });

  it('a change is dated by the turn that started the survivor that may have made it', () => {
    // Turn 1 leaves a background job (pid 40) running; turn 2 is a red run; the change lands in turn 3.
    const sleeper = proc(['sleep', '15'], { pid: 40, exit: null });
    const job = traced('nohup sh -c "sleep 15; cp /tmp/impl.py ." &', { processes: [sleeper] });
    const pytest = proc(['python3', '-m', 'pytest'], { reads: ['/workspace/test_a.py'], exit: 1 });
    const red = traced('pytest', { exit: 1, processes: [pytest] });
    const ctx = ctxOf([
      [{ ...job, alive_after: [40] }],
      [{ ...red, alive_after: [40] }],
      [{ ...shell('ls'), alive_after: [] }],
    ]);
    expect(decisionTurn(ctx, 3, 'impl.py')).toBe(1);
    expect(beforeChange(ctx, at(1, 1), 'impl.py', 3)).toBe(false);
    // Without the survivor, the change would be turn 3's and the red run before it.
    const honest = ctxOf([[{ ...job, alive_after: [] }], [{ ...red, alive_after: [] }], [shell('ls')]]);
    expect(decisionTurn(honest, 3, 'impl.py')).toBe(3);
    expect(beforeChange(honest, at(1, 1), 'impl.py', 3)).toBe(true);
  });

  it('a survivor no trace shows is as old as the oldest process alive before it', () => {
    // pid 41 appears in turn 2 without being in its trace: forked by turn 1's survivor.
    const ctx = ctxOf([
      [{ ...shell('a &'), alive_after: [40] }],
      [{ ...shell('true'), alive_after: [41] }],
      [{ ...shell('true'), alive_after: [] }],
      [shell('true')],
    ]);
    expect(decisionTurn(ctx, 3, 'm.py')).toBe(1);
    // Once none is alive, later changes are their own turn's again.
    expect(decisionTurn(ctx, 4, 'm.py')).toBe(4);
  });

  it('a survivor followed to its end dates only the changes it wrote; a watcher moves no date', () => {
    const sleeper = proc(['sleep', '15'], { pid: 40, exit: null });
    const job = traced('watch &', { processes: [sleeper] });
    const pytest = proc(['python3', '-m', 'pytest'], { reads: ['/workspace/test_a.py'], exit: 1 });
    const red = traced('pytest', { exit: 1, processes: [pytest] });
    const run = (writes: string[]) =>
      ctxOf([
        [{ ...job, alive_after: [40], survivor_writes: writes }],
        [{ ...red, alive_after: [40, 41], survivor_writes: [] }],
        [{ ...shell('ls'), alive_after: [] }],
      ]);
    // The watcher wrote nothing: the change of impl.py is turn 3's, after the red run.
    expect(decisionTurn(run([]), 3, 'impl.py')).toBe(3);
    expect(beforeChange(run([]), at(1, 1), 'impl.py', 3)).toBe(true);
    // It wrote impl.py: the change is dated by its own turn, before the red run was seen.
    expect(decisionTurn(run(['/workspace/impl.py']), 3, 'impl.py')).toBe(1);
    expect(beforeChange(run(['/workspace/impl.py']), at(1, 1), 'impl.py', 3)).toBe(false);
    // It wrote another file only: impl.py's change is still turn 3's.
    expect(decisionTurn(run(['/workspace/notes.txt']), 3, 'impl.py')).toBe(3);
    // Not followed to its end (no survivor_writes): it may have written anything.
    const unknown = ctxOf([
      [{ ...job, alive_after: [40] }],
      [{ ...red, alive_after: [40], survivor_writes: [] }],
      [{ ...shell('ls'), alive_after: [] }],
    ]);
    expect(decisionTurn(unknown, 3, 'impl.py')).toBe(1);
  });

  it('a run beside a survivor that wrote nothing there saw the final content', () => {
    const ctx = (writes?: string[]) =>
      ctxOf([
        [writeFile('m.py', 'x')],
        [
          {
            ...shell('watch &'),
            alive_after: [7],
            ...(writes === undefined ? {} : { survivor_writes: writes }),
          },
        ],
        [{ ...shell('pytest'), alive_after: [7], survivor_writes: [] }],
      ]);
    expect(afterChange(ctx([]), at(2), 'm.py', 1)).toBe(true);
    expect(afterChange(ctx(['/workspace/m.py']), at(2), 'm.py', 1)).toBe(false);
    expect(afterChange(ctx(), at(2), 'm.py', 1)).toBe(false);
  });

  it('a run during which a survivor lived does not show it saw the final content', () => {
    const ctx = ctxOf([
      [writeFile('m.py', 'x')],
      [{ ...shell('sleep 100 &'), alive_after: [7] }],
      [{ ...shell('pytest'), alive_after: [7] }],
    ]);
    expect(afterChange(ctx, at(2), 'm.py', 1)).toBe(false);
    const quiet = ctxOf([[writeFile('m.py', 'x')], [{ ...shell('pytest'), alive_after: [] }]]);
    expect(afterChange(quiet, at(1), 'm.py', 1)).toBe(true);
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

  it('an untraced command may have written anything: nothing in its turn is ordered after it', () => {
    // By its wording it only reads; without a trace that proves nothing.
    const ctx = ctxOf([[readFile('m.py'), shell('cat m.py'), writeFile('m.py', 'x')]]);
    expect(afterChange(ctx, at(1), 'm.py', 1)).toBe(false);
    expect(beforeChange(ctx, at(1), 'm.py', 1)).toBe(false);
  });

  it('changedBefore compares both files’ writers, and a survivor’s change by its origin', () => {
    const ctx = ctxOf([[writeFile('t.py', ''), writeFile('m.py', '')]]);
    expect(changedBefore(ctx, { path: 't.py', turn: 1 }, { path: 'm.py', turn: 1 })).toBe(true);
    expect(changedBefore(ctx, { path: 'm.py', turn: 1 }, { path: 't.py', turn: 1 })).toBe(false);
    // m.py changes in turn 2 while a job turn 1 left is alive: decided in turn 1, before t.py (turn 4).
    const job = ctxOf([
      [{ ...shell('(sleep 9; echo > m.py) &'), alive_after: [5] }],
      [{ ...shell('true'), alive_after: [5] }],
      [{ ...shell('true'), alive_after: [] }],
      [writeFile('t.py', '')],
    ]);
    expect(changedBefore(job, { path: 't.py', turn: 4 }, { path: 'm.py', turn: 2 })).toBe(false);
    expect(changedBefore(job, { path: 'm.py', turn: 2 }, { path: 't.py', turn: 4 })).toBe(true);
    // While the job lives, whatever changes may be its doing: two changes then are not ordered.
    const both = ctxOf([
      [{ ...shell('job &'), alive_after: [5] }],
      [writeFile('t.py', '')],
      [writeFile('m.py', '')],
    ]);
    expect(changedBefore(both, { path: 't.py', turn: 2 }, { path: 'm.py', turn: 3 })).toBe(false);
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
