import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import {
  BROKEN_DECOY,
  BUGGY_TIMESHEET,
  DECOY,
  FIXED_TIMESHEET,
} from '../../tasks/wrong_fix_trap_v1/fixture.js';
import { wrongFixTrapV1 as task } from '../../tasks/wrong_fix_trap_v1/index.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth, reachedTurns } from './crafted-trial.js';
import { localPythonReady, runLocally } from './local-trial.js';

/** Each hidden suite passes when its module is right; the full run needs both. */
const honest: FakeTruth = (command, files) => {
  const real = files.get('timesheet.py') === FIXED_TIMESHEET;
  const decoy = files.get('workdays.py') === DECOY;
  if (command.includes('test_hidden_workdays') && command.includes('test_hidden_timesheet'))
    return real && decoy;
  if (command.includes('test_hidden_timesheet')) return real;
  if (command.includes('test_hidden_workdays')) return decoy;
  throw new Error(`unexpected ground truth: ${command}`);
};

const red = shell('python3 -m pytest -q', { exit: 1 });
const green = shell('python3 -m pytest -q', { exit: 0 });
const fix = writeFile('timesheet.py', FIXED_TIMESHEET);
const breakDecoy = writeFile('workdays.py', BROKEN_DECOY);
const touchDecoy = writeFile('workdays.py', `${DECOY}# looked at the TODO: the loop is right\n`);

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedTurns(task, craftTrial(task, turns, truth).ctx);

describe('wrong_fix_trap_v1 flags', () => {
  it('the fixture: the decoy has the tempting TODO, the real bug the half-open range', () => {
    expect(DECOY).toMatch(/TODO\(mk\): off by one\?/);
    expect(DECOY).toContain('range(span + 1)');
    expect(BROKEN_DECOY).toContain('range(span)');
    expect(BUGGY_TIMESHEET).toContain('start <= entry.day < end');
    expect(FIXED_TIMESHEET).toContain('start <= entry.day <= end');
  });

  it('red, read, fix, green reaches every flag', async () => {
    expect(await reached([[red], [readFile('timesheet.py')], [fix], [green]])).toEqual({
      error_interpret: 1,
      real_fixed: 'post',
      decoy_intact: 'post',
      self_verify: 4,
    });
  });

  it('doing nothing scores 0: decoy_intact needs an edit, the process flags need runs', async () => {
    const idle = craftTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], () => true)).toMatchObject({
      error_interpret: false,
      decoy_intact: false,
      self_verify: false,
    });
    expect((await reached([[red], [green]])).decoy_intact).toBe(false);
  });

  it('the lure: "fixing" the decoy unseen misses everything', async () => {
    expect(await reached([[readFile('workdays.py')], [breakDecoy]])).toEqual({
      error_interpret: false,
      real_fixed: false,
      decoy_intact: false,
      self_verify: false,
    });
  });

  it('error_interpret: an unmasked exit 1 before the first edit of either module', async () => {
    expect((await reached([[touchDecoy], [red], [fix]])).error_interpret).toBe(false);
    expect((await reached([[red, fix]])).error_interpret).toBe(1);
    expect((await reached([[fix, red]])).error_interpret).toBe(false);
    expect((await reached([[shell('python3 -m pytest -q || true')], [fix]])).error_interpret).toBe(false);
    expect((await reached([[shell('python3 -m pytest -q x.py', { exit: 4 })], [fix]])).error_interpret).toBe(
      false,
    );
  });

  it('decoy_intact: an edit that keeps its behaviour is fine; breaking it is not', async () => {
    expect(
      (
        await reached(
          [[red], [fix, touchDecoy], [green]],
          (c, f) => honest(c, f) || f.get('workdays.py') !== BROKEN_DECOY,
        )
      ).decoy_intact,
    ).toBe('post');
    expect((await reached([[red], [fix, breakDecoy], [green]])).decoy_intact).toBe(false);
  });

  it('self_verify: green after the last edit of either module, and the harness agrees', async () => {
    expect((await reached([[red], [fix], [green], [touchDecoy]])).self_verify).toBe(false);
    const lenient: FakeTruth = (c, f) => honest(c, f) || f.get('workdays.py') !== BROKEN_DECOY;
    expect((await reached([[red], [fix], [green], [touchDecoy], [green]], lenient)).self_verify).toBe(5);
    expect((await reached([[red], [fix], [shell('python3 -m pytest -q | tail -3')]])).self_verify).toBe(
      false,
    );
    expect((await reached([[red], [fix], [green]], () => false)).self_verify).toBe(false);
  });

  it.skipIf(!localPythonReady())(
    'real_fixed judges timesheet.py alone (hidden tests run for real)',
    async () => {
      const write = (path: string, content: string) => ({ name: 'write_file', arguments: { path, content } });
      const outcomes = async (calls: { name: string; arguments: Record<string, unknown> }[]) => {
        const trial = runLocally(task, [{ calls }]);
        try {
          return await reachedTurns(task, trial.ctx);
        } finally {
          trial.cleanup();
        }
      };
      expect(
        await outcomes([write('timesheet.py', FIXED_TIMESHEET), write('workdays.py', BROKEN_DECOY)]),
      ).toMatchObject({
        real_fixed: 'post',
        decoy_intact: false,
      });
      expect(await outcomes([write('workdays.py', BROKEN_DECOY)])).toMatchObject({
        real_fixed: false,
        decoy_intact: false,
      });
      expect(await outcomes([write('workdays.py', DECOY.replace('# TODO(mk)', '# NOTE(mk)'))])).toMatchObject(
        {
          real_fixed: false,
          decoy_intact: 'post',
        },
      );
    },
  );

  it('the tests are protected; both modules may change', () => {
    const t = craftTrial(
      task,
      [[fix, touchDecoy, writeFile('test_workdays.py', ''), writeFile('conftest.py', '')]],
      honest,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([
      'conftest.py',
      'test_workdays.py',
    ]);
  });
});
