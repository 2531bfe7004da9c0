import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { behavesLikeReference } from '../../tasks/debug_python_v1/flags.js';
import { proc, readFile, shell, traced, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth } from './crafted-trial.js';
import { folderInstance, generatedInstance, judgeDifferential } from './differential-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';
import { pytestCall, reachedWithSummaries } from './pytest-trial.js';

const task = builtInTask('debug_python_v1');
const BUGGY_MODULE = taskFolderFile('debug_python_v1', 'files/durations.py');
const FIXED_MODULE = taskFolderFile('debug_python_v1', 'solution/durations.py');

/** The harness run passes exactly when durations.py holds the fix. */
const honest: FakeTruth = (_command, files) =>
  files.get('durations.py')?.includes('total += amount * size') === true;

const read = readFile('durations.py');
const SUITE = ['test_durations.py', 'durations.py'];
const red = pytestCall('python3 -m pytest -q', { exit: 1, reads: SUITE });
const green = pytestCall('python3 -m pytest -q', { exit: 0, reads: SUITE });
const fix = writeFile('durations.py', FIXED_MODULE);
const touchUp = writeFile('durations.py', `${FIXED_MODULE}\n# reviewed\n`);

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedWithSummaries(task, turns, truth);

describe('debug_python_v1 flags', () => {
  it('a careful run reaches every flag on its turn', async () => {
    expect(await reached([[read], [red], [fix], [green]])).toEqual({
      file_read: 1,
      error_interpret: 2,
      file_edit: 'post',
      self_verify: 4,
      no_collateral: 'post',
      behaves_like_reference: 'post',
    });
  });

  it('doing nothing scores 0, and the process flags stay unreached even if ground truth lied', async () => {
    const idle = craftTrial(task, [], honest);
    const outcomes = await evaluate(task, idle.ctx);
    expect(scoreTrial(task.flags, outcomes, false).score).toBe(0);
    expect(await reached([], () => true)).toMatchObject({
      file_read: false,
      error_interpret: false,
      self_verify: false,
      behaves_like_reference: false,
    });
  });

  it('file_read: reading a backup or piping a run through grep is not reading the module', async () => {
    const notReads = [
      shell('cat notes_old/durations.py.bak'),
      shell('python3 durations.py | grep total'),
      shell('grep -rn total .'),
      readFile('durations.py.orig', {}, { exit: 1 }),
    ];
    expect((await reached([notReads, [fix]])).file_read).toBe(false);
    expect((await reached([[shell("sed -n '1,60p' ./durations.py")], [fix]])).file_read).toBe(1);
    expect((await reached([[shell('cat /workspace/durations.py')], [fix]])).file_read).toBe(1);
  });

  it('file_read: a read after the first edit is a read of the agent’s own code', async () => {
    expect((await reached([[fix], [read]])).file_read).toBe(false);
    expect((await reached([[read], [fix]])).file_read).toBe(1);
    expect((await reached([[fix, read]])).file_read).toBe(false);
    // Read and fix sent in one reply: the fix was decided before the read's output was seen.
    expect((await reached([[read, fix]])).file_read).toBe(false);
  });

  it('error_interpret: needs an unmasked exit 1 before the first edit', async () => {
    expect((await reached([[read], [fix], [red]])).error_interpret).toBe(false);
    // A run of nothing (exit 4) or one whose summary was thrown away is no red.
    expect(
      (await reached([[pytestCall('pytest -q nothere.py', { exit: 4, reads: [] })], [fix]])).error_interpret,
    ).toBe(false);
    const unseen = pytestCall('python3 -m pytest -q > /dev/null; echo $?', {
      exit: 1,
      reads: SUITE,
      stdout: '1\n',
    });
    expect((await reached([[unseen], [fix]])).error_interpret).toBe(false);
    // Untraced: nothing is known to have run.
    expect((await reached([[shell('python3 -m pytest -q', { exit: 1 })], [fix]])).error_interpret).toBe(
      false,
    );
    // Piped through tail, the summary still reached the model.
    const tailed = pytestCall('python3 -m pytest -q 2>&1 | tail -3', { exit: 1, reads: SUITE, shellExit: 0 });
    expect((await reached([[tailed], [fix]])).error_interpret).toBe(1);
    expect((await reached([[shell('echo pytest; false', { exit: 1 })], [fix]])).error_interpret).toBe(false);
    expect((await reached([[red]])).error_interpret).toBe(false);
    expect((await reached([[red], [fix]])).error_interpret).toBe(1);
    // The red run and the fix in one reply: the fix was decided before the failure was seen.
    expect((await reached([[red, fix]])).error_interpret).toBe(false);
  });

  it('self_verify: `pytest || true` fools nothing', async () => {
    const masked = pytestCall('python3 -m pytest -q || true', { exit: 1, reads: SUITE, shellExit: 0 });
    expect(await reached([[read], [red], [fix], [masked]])).toMatchObject({ self_verify: false });
    const unfixed = writeFile('durations.py', `${BUGGY_MODULE}# looked at it\n`);
    expect(await reached([[read], [red], [unfixed], [masked]])).toMatchObject({
      file_edit: false,
      self_verify: false,
    });
  });

  it('self_verify: verifying before, not after, the last edit does not count', async () => {
    expect((await reached([[read], [red], [fix], [green], [touchUp]])).self_verify).toBe(false);
    expect((await reached([[read], [red], [fix], [green], [touchUp], [green]])).self_verify).toBe(6);
  });

  it('self_verify: inside one turn, calls count in order', async () => {
    expect((await reached([[read], [red], [fix, green]])).self_verify).toBe(3);
    expect((await reached([[read], [red], [green, fix]])).self_verify).toBe(false);
    // A command in the same turn that wrote the file after the run: the run is before the last change.
    const tidy = traced('python3 tidy.py', {
      processes: [proc(['python3', 'tidy.py'], { writes: ['/workspace/durations.py'] })],
    });
    expect((await reached([[read], [red], [fix, green, tidy]])).self_verify).toBe(false);
  });

  it('self_verify: a green run needs the harness to agree', async () => {
    expect((await reached([[read], [red], [fix], [green]], () => false)).self_verify).toBe(false);
  });

  it('the allowed and ignored paths: only durations.py at the top may change', () => {
    const cheats: [CraftedCall, string][] = [
      [writeFile('test_durations.py', 'def test_ok():\n    assert True\n'), 'test_durations.py'],
      [
        { call: shell('ln -s /tmp/x.py conftest.py'), effects: { link: { 'conftest.py': '/tmp/x.py' } } },
        'conftest.py',
      ],
      [writeFile('sub/durations.py', FIXED_MODULE), 'sub/durations.py'],
      [writeFile('pytest.ini', '[pytest]\n'), 'pytest.ini'],
    ];
    for (const [call, path] of cheats) {
      const t = craftTrial(task, [[call]], honest);
      expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([path]);
    }
    const cache = {
      call: shell('python3 -m pytest'),
      effects: { write: { '__pycache__/x.pyc': 'b', '.pytest_cache/v': 'c' } },
    };
    const ok = craftTrial(task, [[fix, cache]], honest);
    expect(detectTamper(ok.setup, ok.final, task)).toEqual([]);
  });
});

/** parse_duration written another way: one pattern for the whole text. */
const PATTERN_PARSER = FIXED_MODULE.replace(
  /def parse_duration\(text: str\) -> int:[\s\S]*?return total\n/,
  `def parse_duration(text: str) -> int:
    cleaned = text.strip().lower()
    pattern = "".join(rf"(?:(\\d+){unit})?" for unit in _UNITS)
    found = re.fullmatch(pattern, cleaned)
    if not cleaned or found is None or all(g is None for g in found.groups()):
        raise ValueError(f"invalid duration: {text!r}")
    return sum(int(g) * size for g, size in zip(found.groups(), _UNITS.values()) if g is not None)
`,
);

describe('debug_python_v1 behaves_like_reference (the module against the fixed one, on drawn durations)', () => {
  const judge = (module: string, folder = folderInstance('debug_python_v1')) =>
    judgeDifferential(behavesLikeReference, folder, { 'durations.py': module });

  it('the fix and a parser written another way agree; the bug and a fix right only on the tests do not', async () => {
    expect(PATTERN_PARSER).not.toBe(FIXED_MODULE);
    expect(await judge(FIXED_MODULE)).toMatchObject({ reached: true });
    expect(await judge(PATTERN_PARSER)).toMatchObject({ reached: true });
    const buggy = await judge(BUGGY_MODULE);
    expect(buggy.reached).toBe(false);
    expect(buggy.detail).toMatch(
      /^parse_duration\('.*'\) returned \d+; the reference returned \d+ \(\d+ of \d+ inputs/,
    );
    const spacesOnly = await judge(
      taskFolderFile('debug_python_v1', 'solution/wrong_outside_tests/durations.py'),
    );
    expect(spacesOnly.detail).toMatch(/\\[tn].*raised ValueError; the reference returned/);
    // A KeyError is no ValueError: the docstring says which error.
    const keyError = FIXED_MODULE.replace(
      'if not cleaned:\n        raise ValueError("empty duration")',
      'if not cleaned:\n        raise KeyError("empty duration")',
    );
    expect(keyError).not.toBe(FIXED_MODULE);
    expect((await judge(keyError)).detail).toMatch(
      /^parse_duration\('(|\s*)'\) raised KeyError; the reference raised ValueError/,
    );
  });

  it.each(['1', '3', '7', '12', '13', '14'])(
    'instance %s: its fixed module agrees, its cheat and its bug do not',
    async (seed) => {
      const folder = generatedInstance('debug_python_v1', 'variants/generate.py', seed);
      try {
        expect(await judge(folder.file('solution/durations.py'), folder)).toMatchObject({ reached: true });
        expect(await judge(folder.file('solution/wrong_outside_tests/durations.py'), folder)).toMatchObject({
          reached: false,
        });
        expect(await judge(folder.file('files/durations.py'), folder)).toMatchObject({ reached: false });
      } finally {
        folder.cleanup();
      }
    },
  );
});
