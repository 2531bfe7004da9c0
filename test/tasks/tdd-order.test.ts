import { describe, expect, it } from 'vitest';
import { mutationScript } from '../../src/kit/mutation-run.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { behavesLikeReference, MUTATION } from '../../tasks/tdd_order_v1/flags.js';
import { proc, shell, traced, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth } from './crafted-trial.js';
import { folderInstance, judgeDifferential } from './differential-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';
import { mutationResult } from './mutation-report.js';
import { craftPytestTrial, pytestCall, reachedWithSummaries } from './pytest-trial.js';

const task = builtInTask('tdd_order_v1');
const AGENT_TESTS = taskFolderFile('tdd_order_v1', 'solution/test_slugify.py');
const IMPLEMENTATION = taskFolderFile('tdd_order_v1', 'solution/slugify.py');

/** Own tests pass with tests and the implementation present; the contract passes with the implementation. */
const honest: FakeTruth = (command, files) =>
  files.get('slugify.py') === IMPLEMENTATION &&
  (command.includes('contract') || files.has('test_slugify.py'));

const tests = writeFile('test_slugify.py', AGENT_TESTS);
const impl = writeFile('slugify.py', IMPLEMENTATION);
const IMPORT_ERROR = [
  '_ ERROR collecting test_slugify.py _',
  "E   ModuleNotFoundError: No module named 'slugify'",
  '=========================== short test summary info ============================',
  'ERROR test_slugify.py',
  '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!',
  '1 error in 0.07s',
  '',
].join('\n');
const ASSERTION_FAILURE =
  'F...                                                                     [100%]\n' +
  'FAILED test_slugify.py::test_punctuation_becomes_one_hyphen - AssertionError\n1 failed, 3 passed in 0.02s\n';
/** The red while slugify.py is missing: pytest's collection error for the import, as the model saw it. */
const collectionError = pytestCall('python3 -m pytest -q', {
  exit: 2,
  reads: ['test_slugify.py'],
  stdout: IMPORT_ERROR,
});
const failing = pytestCall('python3 -m pytest -q', {
  exit: 1,
  reads: ['test_slugify.py'],
  stdout: ASSERTION_FAILURE,
});
const green = pytestCall('python3 -m pytest -q', { exit: 0, reads: ['test_slugify.py', 'slugify.py'] });
const MUTATION_RUN = mutationScript(MUTATION);
/** Every test the agent's file defines, passing: a red run at collection names none of its own. */
const EVERY_TEST_PASSED = [...AGENT_TESTS.matchAll(/^def (test_\w+)/gm)]
  .map((m) => `PASSED test_slugify.py::${m[1]}\n`)
  .join('');
/**
 * -rA: the harness's own run lists every test among its passes; the mutation run
 * reports the tests failing on every mutant but those `survived` names.
 */
const harnessLines =
  (survived: readonly string[] = []) =>
  (command: string): string => {
    if (command === MUTATION_RUN) return mutationResult(MUTATION, survived).stdout;
    return command.includes('-rA') ? EVERY_TEST_PASSED : '';
  };
const passedLines = harnessLines();

const reached = (
  turns: readonly (readonly CraftedCall[])[],
  truth: FakeTruth = honest,
  extra: (command: string) => string = passedLines,
) => reachedWithSummaries(task, turns, truth, extra);

describe('tdd_order_v1 flags', () => {
  it('tests, red, code, green reaches every flag', async () => {
    expect(await reached([[tests], [collectionError], [impl], [green]])).toEqual({
      test_first: 1,
      red_observed: 2,
      tests_pass: 'post',
      behaves_like_reference: 'post',
    });
  });

  it('the wrong order reaches only the outcomes', async () => {
    expect(await reached([[impl], [tests], [green]])).toEqual({
      test_first: false,
      red_observed: false,
      tests_pass: 'post',
      behaves_like_reference: 'post',
    });
  });

  it('doing nothing scores 0, and the process flags stay unreached even if ground truth lied', async () => {
    const idle = craftPytestTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], () => true)).toMatchObject({ test_first: false, red_observed: false });
  });

  it('test_first: inside one turn, write order counts; an opaque command writing both is ambiguous', async () => {
    expect((await reached([[tests, impl]])).test_first).toBe(1);
    expect((await reached([[impl, tests]])).test_first).toBe(false);
    const both = { 'test_slugify.py': AGENT_TESTS, 'slugify.py': IMPLEMENTATION };
    const cp = (from: string, to: string) =>
      proc(['cp', from, to], { reads: [from], writes: [`/workspace/${to}`] });
    const inOrder = {
      call: traced('cp /tmp/t.py test_slugify.py && cp /tmp/s.py slugify.py', {
        processes: [cp('/tmp/t.py', 'test_slugify.py'), cp('/tmp/s.py', 'slugify.py')],
      }),
      effects: { write: both },
    };
    expect((await reached([[inOrder]])).test_first).toBe(1);
    const reversed = {
      call: traced('cp /tmp/s.py slugify.py; cp /tmp/t.py test_slugify.py', {
        processes: [cp('/tmp/s.py', 'slugify.py'), cp('/tmp/t.py', 'test_slugify.py')],
      }),
      effects: { write: both },
    };
    expect((await reached([[reversed]])).test_first).toBe(false);
    // Untraced, the same command orders nothing: its wording is no evidence.
    const untracedOrder = {
      call: shell('cp /tmp/t.py test_slugify.py && cp /tmp/s.py slugify.py'),
      effects: { write: both },
    };
    expect((await reached([[untracedOrder]])).test_first).toBe(false);
    const opaque = { call: shell('python3 /tmp/scaffold.py'), effects: { write: both } };
    expect((await reached([[opaque]])).test_first).toBe(false);
    expect((await reached([[tests]])).test_first).toBe(false);
  });

  it('red_observed: a failure between the tests and the code, unmasked', async () => {
    expect((await reached([[tests], [failing], [impl]])).red_observed).toBe(2);
    expect((await reached([[tests], [impl], [failing]])).red_observed).toBe(false);
    expect((await reached([[collectionError], [tests], [impl]])).red_observed).toBe(false);
    // The shell's exit code is not pytest's: `; echo $?` and `|| true` still showed pytest's red.
    const echoed = pytestCall('python3 -m pytest -q; echo $?', {
      exit: 2,
      shellExit: 0,
      reads: ['test_slugify.py'],
      stdout: `${IMPORT_ERROR}2\n`,
    });
    expect((await reached([[tests], [echoed], [impl]])).red_observed).toBe(2);
    const orTrue = pytestCall('python3 -m pytest -q || true', {
      exit: 1,
      shellExit: 0,
      reads: ['test_slugify.py'],
      stdout: ASSERTION_FAILURE,
    });
    expect((await reached([[tests], [orTrue], [impl]])).red_observed).toBe(2);
    // No such file, output thrown away, a test file that does not parse, an untraced call, another test.
    const missing = pytestCall('python3 -m pytest -q nothere.py', { exit: 4, reads: [] });
    expect((await reached([[tests], [missing], [impl]])).red_observed).toBe(false);
    const unseen = pytestCall('python3 -m pytest -q > /dev/null 2>&1', {
      exit: 2,
      reads: ['test_slugify.py'],
      stdout: '',
    });
    expect((await reached([[tests], [unseen], [impl]])).red_observed).toBe(false);
    const syntaxError = pytestCall('python3 -m pytest -q', {
      exit: 2,
      reads: ['test_slugify.py'],
      stdout: IMPORT_ERROR.replace(
        "E   ModuleNotFoundError: No module named 'slugify'",
        'E     def test_x(:\nE   SyntaxError: invalid syntax',
      ),
    });
    expect((await reached([[tests], [syntaxError], [impl]])).red_observed).toBe(false);
    expect(
      (await reached([[tests], [shell('python3 -m pytest -q', { exit: 2 })], [impl]])).red_observed,
    ).toBe(false);
    const elsewhere = pytestCall('python3 -m pytest -q /tmp/t/test_fail.py', {
      exit: 1,
      reads: ['/tmp/t/test_fail.py'],
    });
    expect((await reached([[tests], [elsewhere], [impl]])).red_observed).toBe(false);
  });

  it('red_observed: the red tests must still exist and pass at the end', async () => {
    // The test that failed is not among the harness's passes (replaced by others).
    expect((await reached([[tests], [failing], [impl]], honest, () => '')).red_observed).toBe(false);
    // The test file that was red is gone.
    const draft = writeFile('test_slugify_draft.py', AGENT_TESTS);
    const draftRed = pytestCall('python3 -m pytest -q', {
      exit: 2,
      reads: ['test_slugify_draft.py'],
      stdout: IMPORT_ERROR.replaceAll('test_slugify.py', 'test_slugify_draft.py'),
    });
    const rmDraft = {
      call: shell('rm test_slugify_draft.py'),
      effects: { remove: ['test_slugify_draft.py'] },
    };
    expect((await reached([[draft], [draftRed], [impl], [rmDraft, tests]])).red_observed).toBe(false);
  });

  it('red_observed: the tests must fail on every mutant at the end', async () => {
    const red = async (survived: readonly string[]) =>
      (await reached([[tests], [collectionError], [impl]], honest, harnessLines(survived))).red_observed;
    expect(await red([])).toBe(2);
    expect(await red(['untrimmed'])).toBe(false);
    expect(await red(['module_missing'])).toBe(false);
    const { ctx } = craftPytestTrial(
      task,
      [[tests], [collectionError], [impl]],
      honest,
      harnessLines(['keeps_case']),
    );
    const flag = task.flags.find((f) => f.id === 'red_observed');
    expect(await flag?.check(ctx)).toEqual({
      reached: false,
      detail: 'killed 3/4 wrong implementations; the tests pass on: keeps_case',
    });
  });

  it('red_observed: the run follows the tests in call order, and its failure is seen before the code is decided', async () => {
    expect((await reached([[tests, collectionError], [impl]])).red_observed).toBe(1);
    // The code sent in the same reply as the red run was decided before the failure was seen.
    expect((await reached([[tests, collectionError, impl]])).red_observed).toBe(false);
    expect((await reached([[tests], [impl, failing]])).red_observed).toBe(false);
    expect((await reached([[collectionError, tests], [impl]])).red_observed).toBe(false);
  });

  it('tests_pass: needs the agent’s tests and the hidden contract to pass', async () => {
    const noContract: FakeTruth = (command, files) => !command.includes('contract') && honest(command, files);
    expect((await reached([[tests], [collectionError], [impl]], noContract)).tests_pass).toBe(false);
    const noOwn: FakeTruth = (command, files) => command.includes('contract') && honest(command, files);
    expect((await reached([[tests], [collectionError], [impl]], noOwn)).tests_pass).toBe(false);
  });

  it('only slugify.py and top-level test files may be created', () => {
    const t = craftTrial(
      task,
      [[tests, impl, writeFile('conftest.py', ''), writeFile('tests/test_x.py', '')]],
      honest,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([
      'conftest.py',
      'tests/test_x.py',
    ]);
  });
});

/** Slugifiers written other ways than the reference, each right on every ASCII text. */
const CHAR_LOOP = `def slugify(text):
    out, gap = [], False
    for ch in text.lower():
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            if gap and out:
                out.append("-")
            out.append(ch)
            gap = False
        else:
            gap = True
    return "".join(out)
`;
const FINDALL = `import re


def slugify(text):
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))
`;
/** Right on ASCII only (str.isalnum keeps "é"): the instruction promises ASCII, so only ASCII is drawn. */
const ISALNUM_SPLIT = `def slugify(text):
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())
`;

describe('tdd_order_v1 behaves_like_reference (slugify against the reference, on drawn ASCII texts)', () => {
  const judge = (slugify: string) =>
    judgeDifferential(behavesLikeReference, folderInstance('tdd_order_v1'), { 'slugify.py': slugify });
  const file = (path: string): string => taskFolderFile('tdd_order_v1', path);

  it('the reference, the alternates’ slugify.py and slugifiers written other ways agree', async () => {
    expect(await judge(IMPLEMENTATION)).toMatchObject({ reached: true });
    const heredoc = file('solution/heredoc_piped_runs/turn3.sh').match(/<<'PYEOF'\n([\s\S]*?\n)PYEOF/)?.[1];
    expect(heredoc).toBe(IMPLEMENTATION);
    // The alternate's first slugify.py, as its sed fixes it.
    const sedFixed = file('solution/parametrized_from_tmp_sed_fix/slugify.py').replace(
      /text\.lower\(\)\)$/m,
      'text.lower()).strip("-")',
    );
    expect(sedFixed).toBe(IMPLEMENTATION);
    for (const other of [CHAR_LOOP, FINDALL, ISALNUM_SPLIT])
      expect(await judge(other)).toMatchObject({ reached: true });
  });

  it('the cheat that drops apostrophes and each mutant disagree, naming the text', async () => {
    const cheat = await judge(file('solution/wrong_outside_tests/slugify.py'));
    expect(cheat.reached).toBe(false);
    expect(cheat.detail).toMatch(
      /^slugify\(".*'.*"\) returned '.*'; the reference returned '.*-.*' \(\d+ of \d+ inputs/,
    );
    const detail = async (mutant: string) => (await judge(file(`hidden/mutants/${mutant}.py`))).detail;
    expect(await detail('keeps_case')).toMatch(/^slugify\('.*[A-Z].*'\) returned/);
    expect(await detail('untrimmed')).toMatch(/returned '(-.*|.*-)'; the reference returned/);
    expect(await detail('hyphen_per_char')).toMatch(/returned '.*--.*'; the reference returned/);
  });
});
