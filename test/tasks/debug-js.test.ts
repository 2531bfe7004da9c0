import { describe, expect, it } from 'vitest';
import { isDifferentialScript } from '../../src/kit/differential-run.js';
import { countNodeTests } from '../../src/kit/index.js';
import type { ToolCallLog } from '../../src/results/trial.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import type { CheckContext } from '../../src/tasks/types.js';
import { behavesLikeReference } from '../../tasks/debug_js_v1/flags.js';
import { proc, readFile, shell, traced, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth, reachedTurns } from './crafted-trial.js';
import { folderInstance, generatedInstance, judgeDifferential } from './differential-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';

const task = builtInTask('debug_js_v1');
const BUGGY_MODULE = taskFolderFile('debug_js_v1', 'files/stats.mjs');
const FIXED_MODULE = taskFolderFile('debug_js_v1', 'solution/stats.mjs');
const VISIBLE_TESTS = taskFolderFile('debug_js_v1', 'files/stats.test.mjs');
const HIDDEN_TESTS = taskFolderFile('debug_js_v1', 'hidden/stats.hidden.test.mjs');

/** The harness run passes when nothing sorts without a comparator and the visible tests are intact. */
const honest: FakeTruth = (_command, files) =>
  files.get('stats.mjs')?.includes('.sort()') === false && files.get('stats.test.mjs') === VISIBLE_TESTS;

/** The counts node prints at the end of a TAP run. */
const tapCounts = (tests: number, pass: number): string =>
  `1..${tests}\n# tests ${tests}\n# suites 0\n# pass ${pass}\n# fail ${tests - pass}\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 41.2\n`;
const RED_TAP = `TAP version 13\n# Subtest: median of an even count is the mean of the middle two\nnot ok 2 - median of an even count is the mean of the middle two\n  ---\n  error: |-\n    100 !== 97.5\n  ...\n${tapCounts(7, 5)}`;
const GREEN_TAP = `TAP version 13\n# Subtest: summary row\nok 6 - summary row\n${tapCounts(7, 7)}`;
const TASK_FILES = ['/workspace/stats.test.mjs', '/workspace/stats.mjs'];

/**
 * A traced call in which node's test runner ran (its own exit code, the files it read) and the model
 * was shown `stdout`; `shellExit` is what the whole command line exited with.
 */
function nodeRun(
  command: string,
  o: { exit: number; stdout: string; shellExit?: number; reads?: string[]; argv?: string[] },
): ToolCallLog {
  return traced(command, {
    exit: o.shellExit ?? o.exit,
    stdout: o.stdout,
    processes: [proc(o.argv ?? ['node', '--test'], { exit: o.exit, reads: o.reads ?? TASK_FILES })],
  });
}

/**
 * Ground truth as the harness sees it: node's own TAP summary, all tests counted and passed when the
 * fake says the run passes (the harness requires the summary, not only exit 0).
 */
const ALL_TESTS = countNodeTests(VISIBLE_TESTS, HIDDEN_TESTS);
function withTap(ctx: CheckContext, counts: { tests: number; pass: number } | null = null): CheckContext {
  const inner = ctx.groundTruth;
  return {
    ...ctx,
    groundTruth: {
      ...inner,
      async run(command) {
        const r = await inner.run(command);
        if (isDifferentialScript(command)) return r;
        const c = counts ?? { tests: ALL_TESTS, pass: r.exitCode === 0 ? ALL_TESTS : ALL_TESTS - 1 };
        return { ...r, stdout: `TAP version 13\n${tapCounts(c.tests, c.pass)}` };
      },
    },
  };
}

const read = readFile('stats.mjs');
const red = nodeRun('node --test', { exit: 1, stdout: RED_TAP });
const green = nodeRun('node --test', { exit: 0, stdout: GREEN_TAP });
const fix = writeFile('stats.mjs', FIXED_MODULE);

/** Every caller sorts for itself; the helper keeps its bug. */
const symptomFix = BUGGY_MODULE.replaceAll(
  'const sorted = sortedCopy(samples);',
  'const sorted = [...samples].sort((a, b) => a - b);',
).replace('[...samples].sort();', '[...samples];');

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedTurns(task, withTap(craftTrial(task, turns, truth).ctx));

describe('debug_js_v1 flags', () => {
  it('a careful run reaches every flag on its turn', async () => {
    expect(await reached([[read], [red], [fix], [green]])).toEqual({
      file_read: 1,
      error_interpret: 2,
      tests_pass: 'post',
      fix_in_place: 'post',
      self_verify: 4,
      no_collateral: 'post',
      behaves_like_reference: 'post',
    });
  });

  it('doing nothing scores 0, and only tests_pass could be lied into reach', async () => {
    const idle = craftTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, withTap(idle.ctx)), false).score).toBe(0);
    expect(await reached([], () => true)).toEqual({
      file_read: false,
      error_interpret: false,
      tests_pass: 'post',
      fix_in_place: false,
      self_verify: false,
      no_collateral: 'post',
      behaves_like_reference: false,
    });
  });

  it('file_read: half the module shown, before the first edit; a recursive grep is not a read', async () => {
    expect((await reached([[shell('cat stats.mjs')], [fix]])).file_read).toBe(1);
    expect((await reached([[shell("sed -n '1,200p' /workspace/stats.mjs")], [fix]])).file_read).toBe(1);
    expect((await reached([[shell('grep -rn sort .')], [fix]])).file_read).toBe(false);
    expect((await reached([[shell('cat stats.mjs | wc -l')], [fix]])).file_read).toBe(false);
    expect((await reached([[shell('cat stats.mjs > /tmp/copy.mjs')], [fix]])).file_read).toBe(false);
    expect((await reached([[fix], [read]])).file_read).toBe(false);
  });

  it("error_interpret: node really ran the task's tests, exited 1, and the model saw the failures", async () => {
    expect((await reached([[red], [fix]])).error_interpret).toBe(1);
    // Any command form counts when node's own exit is 1 and its summary reached the model.
    for (const command of ['node --test || true', 'node --test 2>&1 | tail -n 15', 'node --test; echo $?'])
      expect(
        (await reached([[nodeRun(command, { exit: 1, shellExit: 0, stdout: RED_TAP })], [fix]]))
          .error_interpret,
      ).toBe(1);
    // The summary never reached the model: thrown away, or cut off by a short tail.
    for (const [command, stdout] of [
      ['node --test > /dev/null 2>&1 || true', ''],
      ['node --test | wc -l', '      58\n'],
      ['node --test 2>&1 | tail -n 3', '# skipped 0\n# todo 0\n# duration_ms 41.2\n'],
    ] as const)
      expect(
        (await reached([[nodeRun(command, { exit: 1, shellExit: 0, stdout })], [fix]])).error_interpret,
      ).toBe(false);
    // No runner in the trace: node missing (127), an echoed summary, a module run as a script.
    expect((await reached([[traced('node --test', { exit: 127 })], [fix]])).error_interpret).toBe(false);
    expect(
      (
        await reached([
          [
            traced("printf '# tests 7\\n# pass 5\\n# fail 2\\n'; exit 1", {
              exit: 1,
              stdout: tapCounts(7, 5),
            }),
          ],
          [fix],
        ])
      ).error_interpret,
    ).toBe(false);
    expect(
      (
        await reached([
          [nodeRun('node stats.mjs', { exit: 1, stdout: RED_TAP, argv: ['node', 'stats.mjs'] })],
          [fix],
        ])
      ).error_interpret,
    ).toBe(false);
    // A red run of other tests (or of a missing file) read none of the task's files.
    expect(
      (
        await reached([
          [nodeRun('node --test /tmp/missing.test.mjs', { exit: 1, stdout: RED_TAP, reads: [] })],
          [fix],
        ])
      ).error_interpret,
    ).toBe(false);
    expect((await reached([[fix], [red]])).error_interpret).toBe(false);
    // The trace says what node wrote (nothing), so a red run before write_file in one turn is before it.
    expect((await reached([[red], [fix]])).error_interpret).toBe(1);
    // Sent in one reply, the fix was decided before the failure was seen.
    expect((await reached([[red, fix]])).error_interpret).toBe(false);
    expect((await reached([[fix, red]])).error_interpret).toBe(false);
  });

  it('fix_in_place: the helper changed and nothing else, layout and comments aside', async () => {
    expect((await reached([[writeFile('stats.mjs', symptomFix)]])).fix_in_place).toBe(false);
    const reformatted = FIXED_MODULE.replaceAll("'", '"').replace(
      'function median',
      '// reviewed\nfunction median',
    );
    expect((await reached([[writeFile('stats.mjs', reformatted)]])).fix_in_place).toBe('post');
    const withHelper = FIXED_MODULE.replace(
      'function sortedCopy(samples) {\n  return [...samples].sort((a, b) => a - b);',
      'const ascending = (a, b) => a - b;\n\nfunction sortedCopy(samples) {\n  return [...samples].sort(ascending);',
    );
    expect(withHelper).not.toBe(FIXED_MODULE);
    expect((await reached([[writeFile('stats.mjs', withHelper)]])).fix_in_place).toBe('post');
    const extraGuard = FIXED_MODULE.replace(
      'export function summarize(samples) {',
      'export function summarize(samples = []) {',
    );
    expect((await reached([[writeFile('stats.mjs', extraGuard)]])).fix_in_place).toBe(false);
    expect((await reached([[writeFile('stats.mjs', 'export function median(')]])).fix_in_place).toBe(false);
    expect((await reached([[fix]], () => false)).fix_in_place).toBe(false);
  });

  it('self_verify: a green run seen after the last edit, which the harness confirms', async () => {
    expect((await reached([[read], [red], [fix], [green]])).self_verify).toBe(4);
    const tail3 = nodeRun('node --test | tail -n 3', {
      exit: 0,
      stdout: '# skipped 0\n# todo 0\n# duration_ms 41.2\n',
    });
    expect((await reached([[fix], [tail3]])).self_verify).toBe(false);
    expect((await reached([[green], [fix]])).self_verify).toBe(false);
    expect((await reached([[fix], [green], [writeFile('stats.mjs', `${FIXED_MODULE}\n`)]])).self_verify).toBe(
      false,
    );
    expect((await reached([[fix], [green]], () => false)).self_verify).toBe(false);
    // Ordered by the trace inside one turn.
    expect((await reached([[fix, green]])).self_verify).toBe(1);
    expect((await reached([[green, fix]])).self_verify).toBe(false);
  });

  it('the harness counts the tests: a process.exit(0) that ends each file early passes nothing', async () => {
    expect(ALL_TESTS).toBe(11);
    const exitEarly = BUGGY_MODULE.replace(
      'function sortedCopy(samples) {\n',
      'function sortedCopy(samples) {\n  process.exit(0);\n',
    );
    const turns = [[read], [red], [writeFile('stats.mjs', exitEarly)], [green]];
    // node 18 reports each file whose process exited 0 as one passing test: 2 of 11.
    const ctx = withTap(craftTrial(task, turns, () => true).ctx, { tests: 2, pass: 2 });
    expect(await reachedTurns(task, ctx)).toMatchObject({
      tests_pass: false,
      fix_in_place: false,
      self_verify: false,
    });
    const whole = withTap(craftTrial(task, [[read], [red], [fix], [green]], honest).ctx);
    expect(await reachedTurns(task, whole)).toMatchObject({ tests_pass: 'post', self_verify: 4 });
  });

  it('only stats.mjs may change', () => {
    const t = craftTrial(task, [[fix, writeFile('stats.test.mjs', ''), writeFile('extra.mjs', '')]], honest);
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual(['extra.mjs', 'stats.test.mjs']);
  });
});

describe('debug_js_v1 behaves_like_reference (the module against the fixed one, on drawn samples)', () => {
  const judge = (module: string, folder = folderInstance('debug_js_v1')) =>
    judgeDifferential(behavesLikeReference, folder, { 'stats.mjs': module });

  it('the fix and other correct fixes agree; the bug and a fix right only on the tests do not, naming the input', async () => {
    expect(await judge(FIXED_MODULE)).toMatchObject({ reached: true });
    for (const other of [
      '[...samples].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))',
      'Array.from(Float64Array.from(samples).sort())',
      'samples.slice().sort((x, y) => x - y)',
    ])
      expect(await judge(FIXED_MODULE.replace('[...samples].sort((a, b) => a - b)', other))).toMatchObject({
        reached: true,
      });
    const buggy = await judge(BUGGY_MODULE);
    expect(buggy).toMatchObject({ reached: false });
    expect(buggy.detail).toMatch(
      /^median\(\[2, 10, 1\]\) returned 10; the reference returned 2 \(\d+ of \d+ inputs/,
    );
    const padded = await judge(taskFolderFile('debug_js_v1', 'solution/wrong_outside_tests/stats.mjs'));
    expect(padded.reached).toBe(false);
    // The tests' samples are whole and positive: it goes wrong on negative or fractional ones.
    expect(padded.detail).toMatch(/(-|\.)\d/);
    // In place: the caller's array changes, which the reference never does.
    const inPlace = await judge(
      FIXED_MODULE.replace('[...samples].sort((a, b) => a - b)', 'samples.sort((a, b) => a - b)'),
    );
    expect(inPlace.detail).toMatch(/changed its arguments to/);
  });

  it.each(['1', '2', '3', '5'])(
    'instance %s: its fixed module agrees, its cheat and its bug do not',
    async (seed) => {
      const folder = generatedInstance('debug_js_v1', 'variants/generate.mjs', seed);
      try {
        expect(await judge(folder.file('solution/stats.mjs'), folder)).toMatchObject({ reached: true });
        expect(await judge(folder.file('solution/symptom_fix/stats.mjs'), folder)).toMatchObject({
          reached: true,
        });
        expect(await judge(folder.file('solution/wrong_outside_tests/stats.mjs'), folder)).toMatchObject({
          reached: false,
        });
        expect(await judge(folder.file('files/stats.mjs'), folder)).toMatchObject({ reached: false });
      } finally {
        folder.cleanup();
      }
    },
  );
});
