import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { behavesLikeReference } from '../../tasks/wrong_fix_trap_v1/flags.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth, reachedTurns } from './crafted-trial.js';
import { folderInstance, judgeDifferential } from './differential-trial.js';
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
      behaves_like_reference: 'post',
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
      behaves_like_reference: false,
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
      behaves_like_reference: false,
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

/** The module each alternate leaves: a sed or python edit of the line, or a whole file written. */
const ALTERNATE_MODULES = {
  edited: BUGGY_TIMESHEET.replace('start <= entry.day < end', 'start <= entry.day <= end'),
  heredoc: `${/<<'PYEOF'\n([\s\S]*)PYEOF/.exec(file('solution/python_and_heredoc/turn3.sh'))?.[1] ?? ''}`,
  written: FIXED_TIMESHEET,
};

/**
 * billable_hours written other ways: in minutes, every duration parsed first (a broken one is drawn
 * only where it counts), the working days asked lazily (a period is drawn only in order).
 */
const REWRITES = {
  minutes: `    minutes = 0
    for entry in entries:
        if entry.day in set(workdays(start, end)):
            hours, _, mins = entry.duration.strip().partition(":")
            parse_hhmm(entry.duration)
            minutes += int(hours) * 60 + int(mins)
    return round(minutes / 60, 2)
`,
  parsedFirst: `    parsed = [(e.day, parse_hhmm(e.duration)) for e in entries]
    open_days = set(workdays(start, end))
    return round(sum(hours for day, hours in parsed if start <= day <= end and day in open_days), 2)
`,
  lazy: `    return round(sum(parse_hhmm(e.duration) for e in entries if start <= e.day <= end and e.day in workdays(start, end)), 2)
`,
};
const withBody = (body: string): string =>
  FIXED_TIMESHEET.replace(
    /( {4}open_days = set\(workdays\(start, end\)\)\n)[\s\S]*?return round\(total, 2\)\n/,
    body,
  );

describe('wrong_fix_trap_v1 behaves_like_reference (both modules against the fixed ones, on drawn timesheets)', () => {
  const folder = folderInstance('wrong_fix_trap_v1');
  const judge = (timesheet: string, workdays = DECOY) =>
    judgeDifferential(behavesLikeReference, folder, { 'timesheet.py': timesheet, 'workdays.py': workdays });

  it('the reference mirrors the workspace: the fixed timesheet.py beside the shipped workdays.py', () => {
    expect(folder.hidden['reference/timesheet.py']).toBe(FIXED_TIMESHEET);
    expect(folder.hidden['reference/workdays.py']).toBe(DECOY);
  });

  it('the fix as every alternate leaves it, and fixes written other ways, agree', async () => {
    for (const [name, module] of Object.entries(ALTERNATE_MODULES)) {
      expect(module, name).toContain('start <= entry.day <= end');
      expect(await judge(module), name).toMatchObject({ reached: true });
    }
    for (const [name, body] of Object.entries(REWRITES)) {
      const module = withBody(body);
      expect(module, name).not.toBe(FIXED_TIMESHEET);
      const verdict = await judge(module);
      expect(verdict, `${name}: ${verdict.detail}`).toMatchObject({ reached: true });
    }
  });

  it('the bug, the broken decoy and the cheat right only on the tests do not; the miss names the input', async () => {
    // The shortest call that disagrees is shown, cut at the verdict's width (…).
    const buggy = await judge(BUGGY_TIMESHEET);
    expect(buggy.detail).toMatch(
      /^billable_hours\(\[Entry\(datetime\.date\(2026, 3, 6\), '7:30', 'atlas'\)\], datetime\.date\(2026, 3, 2\), .* returned 0; the reference returned 7\.5 \(\d+ of \d+ inputs/,
    );
    const decoy = await judge(FIXED_TIMESHEET, BROKEN_DECOY);
    expect(decoy.detail).toMatch(
      /^workdays\(datetime\.date\(2026, 4, 1\), datetime\.date\(2026, 4, 1\)\) returned \[\]; the reference returned \[datetime\.date\(2026, 4, 1\)\]/,
    );
    // Right on every test, wrong on two entries of one day.
    const cheat = await judge(file('solution/wrong_outside_tests/timesheet.py'));
    expect(cheat.detail).toMatch(
      /^billable_hours\(\[Entry\(datetime\.date\((\d+, \d+, \d+)\), '4:00', 'atlas'\), Entry\(datetime\.date\(\1\), '3:30', 'atlas'\)\], .* returned 3\.5; the reference returned 7\.5 \(\d+ of \d+ inputs/,
    );
  });

  it('an error of another class than the reference’s ValueError disagrees', async () => {
    const keyError = FIXED_TIMESHEET.replace(
      'raise ValueError(f"minutes out of range in {text!r}")',
      'raise KeyError(f"minutes out of range in {text!r}")',
    );
    expect(keyError).not.toBe(FIXED_TIMESHEET);
    expect((await judge(keyError)).detail).toMatch(
      /^parse_hhmm\('.*'\) raised KeyError; the reference raised ValueError/,
    );
  });
});
