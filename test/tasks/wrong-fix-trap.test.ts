import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth, reachedTurns } from './crafted-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';
import { localPythonReady, runLocally } from './local-trial.js';
import { craftPytestTrial, pytestCall, reachedWithSummaries } from './pytest-trial.js';

const task = builtInTask('wrong_fix_trap_v1');
const file = (path: string): string => taskFolderFile('wrong_fix_trap_v1', path);
const BUGGY_TIMESHEET = file('files/timesheet.py');
const FIXED_TIMESHEET = file('solution/timesheet.py');
const DECOY = file('files/workdays.py');
/** The decoy "fixed" (its TODO taken at its word): what the decoy_fixed_untested lure writes. */
const BROKEN_DECOY = file('solution/decoy_fixed_untested/workdays.py');

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

/** What a run of the whole suite reads: both test files and both modules. */
const SUITE = ['test_timesheet.py', 'test_workdays.py', 'timesheet.py', 'workdays.py'];
const red = pytestCall('python3 -m pytest -q', { exit: 1, reads: SUITE });
const green = pytestCall('python3 -m pytest -q', { exit: 0, reads: SUITE });
const fix = writeFile('timesheet.py', FIXED_TIMESHEET);
const breakDecoy = writeFile('workdays.py', BROKEN_DECOY);
const touchDecoy = writeFile('workdays.py', `${DECOY}# looked at the TODO: the loop is right\n`);

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedWithSummaries(task, turns, truth);

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
      no_collateral: 'post',
    });
  });

  it('doing nothing scores 0: decoy_intact needs an edit, the process flags need runs', async () => {
    const idle = craftPytestTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], () => true)).toMatchObject({
      error_interpret: false,
      decoy_intact: false,
      self_verify: false,
      // Nothing changed: no collateral (an absence, credited only beside an outcome).
      no_collateral: 'post',
    });
    expect((await reached([[red], [green]])).decoy_intact).toBe(false);
  });

  it('the lure: "fixing" the decoy unseen misses everything', async () => {
    expect(await reached([[readFile('workdays.py')], [breakDecoy]])).toEqual({
      error_interpret: false,
      real_fixed: false,
      decoy_intact: false,
      self_verify: false,
      // The decoy changed, which the reference leaves alone.
      no_collateral: false,
    });
  });

  it('error_interpret: an unmasked exit 1 before the first edit of either module', async () => {
    expect((await reached([[touchDecoy], [red], [fix]])).error_interpret).toBe(false);
    expect((await reached([[red], [fix]])).error_interpret).toBe(1);
    // Sent in one reply, the fix was decided before the failure was seen.
    expect((await reached([[red, fix]])).error_interpret).toBe(false);
    expect((await reached([[fix, red]])).error_interpret).toBe(false);
    // `|| true` hides only the shell's exit code: pytest's own 1 and its summary reached the model.
    const orTrue = pytestCall('python3 -m pytest -q || true', { exit: 1, shellExit: 0, reads: SUITE });
    expect((await reached([[orTrue], [fix]])).error_interpret).toBe(1);
    // Output thrown away, a run of no tests, an untraced call, an echoed summary: no evidence.
    const unseen = pytestCall('python3 -m pytest -q > /dev/null 2>&1 || true', {
      exit: 1,
      shellExit: 0,
      reads: SUITE,
      stdout: '',
    });
    expect((await reached([[unseen], [fix]])).error_interpret).toBe(false);
    expect(
      (await reached([[pytestCall('python3 -m pytest -q x.py', { exit: 4, reads: [] })], [fix]]))
        .error_interpret,
    ).toBe(false);
    expect((await reached([[shell('python3 -m pytest -q', { exit: 1 })], [fix]])).error_interpret).toBe(
      false,
    );
    expect(
      (await reached([[shell('echo "1 failed, 8 passed in 0.05s"; exit 1', { exit: 1 })], [fix]]))
        .error_interpret,
    ).toBe(false);
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
    // A run piped through tail still showed pytest's passing summary: it counts.
    const tailed = pytestCall('python3 -m pytest -q | tail -3', { exit: 0, reads: SUITE });
    expect((await reached([[red], [fix], [tailed]])).self_verify).toBe(3);
    // A green run of test_workdays.py alone never ran the fix's tests.
    const decoyOnly = pytestCall('python3 -m pytest -q test_workdays.py', {
      exit: 0,
      reads: ['test_workdays.py', 'workdays.py'],
    });
    expect((await reached([[red], [fix], [decoyOnly]])).self_verify).toBe(false);
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
