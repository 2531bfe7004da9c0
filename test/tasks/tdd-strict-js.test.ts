import { describe, expect, it } from 'vitest';
import { isDifferentialScript } from '../../src/kit/differential-run.js';
import { mutationScript } from '../../src/kit/mutation-run.js';
import type { ExecResult } from '../../src/sandbox/types.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import type { CheckContext } from '../../src/tasks/types.js';
import { auditTestFile, behavesLikeReference, MUTATION } from '../../tasks/tdd_strict_js_v1/flags.js';
import { shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, reachedTurns } from './crafted-trial.js';
import { folderInstance, judgeDifferential } from './differential-trial.js';
import { builtInTask, taskFolderFile, writtenFile } from './folder-files.js';
import { mutationResult } from './mutation-report.js';
import { nodeTestCall, tapCounts } from './node-trial.js';

const ID = 'tdd_strict_js_v1';
const task = builtInTask(ID);
const solution = (path: string): string => taskFolderFile(ID, `solution/${path}`);
const AGENT_TESTS = solution('pages.test.mjs');
const IMPLEMENTATION = solution('pages.mjs');
const variants = {
  // Suites of other styles, as the alternates write them (a heredoc, a python3 script).
  DESCRIBE_THROWS_TESTS: writtenFile(ID, 'solution/heredoc_describe_throws/tests.sh', 'pages.test.mjs'),
  TABLE_TESTS: writtenFile(ID, 'solution/python_table_tests/command.sh', 'pages.test.mjs'),
  DEAD_ASSERTION_TESTS: solution('dead_assertions/pages.test.mjs'),
  UNCALLED_HELPER_TESTS: solution('uncalled_helper/pages.test.mjs'),
  CONSTANT_ASSERTION_TESTS: solution('constant_assertions/pages.test.mjs'),
  SKIP_BY_OPTIONS_TESTS: solution('skip_by_options/pages.test.mjs'),
};

interface Harness {
  /** The TAP summary of the agent's own tests, or null for a run that printed none. */
  own: { pass: number; fail?: number; skipped?: number; todo?: number } | null;
  contract: boolean;
  /** The mutants the tests pass on in the mutation run (default none). */
  survived?: string[];
}

const GOOD: Harness = { own: { pass: 5 }, contract: true };

/** The literal names of a test file's test(...) calls. */
const testNames = (source: string): string[] =>
  [...source.matchAll(/\btest\(\s*(['"])(.*?)\1/g)].map((m) => m[2] as string);

/** A crafted trial whose harness prints a TAP summary, as node --test does. */
function trial(turns: readonly (readonly CraftedCall[])[], harness: Harness = GOOD): CheckContext {
  const { ctx } = craftTrial(task, turns, () => false);
  const result = (exitCode: number, stdout: string): ExecResult => ({
    exitCode,
    stdout,
    stderr: '',
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut: false,
    elapsedMs: 0,
  });
  const run = async (command: string): Promise<ExecResult> => {
    if (isDifferentialScript(command)) return ctx.groundTruth.run(command);
    if (command === mutationScript(MUTATION)) return mutationResult(MUTATION, harness.survived);
    if (command.includes('contract'))
      return result(harness.contract ? 0 : 1, `TAP version 13\n${tapCounts(3, harness.contract ? 3 : 2)}`);
    const own = harness.own;
    if (own === null) return result(1, '');
    const [fail, skipped, todo] = [own.fail ?? 0, own.skipped ?? 0, own.todo ?? 0];
    const total = own.pass + fail + skipped + todo;
    const summary = `1..${total}\n# tests ${total}\n# suites 0\n# pass ${own.pass}\n# fail ${fail}\n# cancelled 0\n# skipped ${skipped}\n# todo ${todo}\n# duration_ms 5\n`;
    // A passing run lists each test of the file as it is now, as TAP does.
    const names = fail > 0 ? [] : testNames((await ctx.groundTruth.readFile('pages.test.mjs')) ?? '');
    return result(fail > 0 ? 1 : 0, `${names.map((n, i) => `ok ${i + 1} - ${n}\n`).join('')}${summary}`);
  };
  return { ...ctx, groundTruth: { ...ctx.groundTruth, run } };
}

/** Node 18's TAP and spec output (stderr of a test file that failed to load comes as `# ` lines). */
const fileFailure = (diagnostics: string): string =>
  `TAP version 13\n${diagnostics
    .split('\n')
    .map((l) => `# ${l}`)
    .join(
      '\n',
    )}\n# Node.js v18.20.4\n# Subtest: /workspace/pages.test.mjs\nnot ok 1 - /workspace/pages.test.mjs\n  ---\n  duration_ms: 303.7\n  location: '/workspace/pages.test.mjs:1:1'\n  failureType: 'testCodeFailure'\n  exitCode: 1\n  error: 'test failed'\n  code: 'ERR_TEST_FAILURE'\n  ...\n${tapCounts(1, 0)}`;
const MISSING_TARGET = fileFailure(
  "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/workspace/pages.mjs' imported from /workspace/pages.test.mjs\n    at new NodeError (node:internal/errors:405:5)\n  url: 'file:///workspace/pages.mjs',\n  code: 'ERR_MODULE_NOT_FOUND'",
);
const MISSING_HELPER = fileFailure(
  "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/workspace/helper.mjs' imported from /workspace/pages.test.mjs",
);
const TEST_SYNTAX = fileFailure(
  'file:///workspace/pages.test.mjs:7\ntest("c", () => { assert.equal(1 });\n                               ^\nSyntaxError: missing ) after argument list',
);
const TOP_LEVEL_THROW = fileFailure('Error: boom\n    at file:///workspace/pages.test.mjs:4:7');
const MISSING_EXPORT = fileFailure(
  "file:///workspace/pages.test.mjs:3\nimport { parsePages } from './pages.mjs';\n         ^^^^^^^^^^\nSyntaxError: The requested module './pages.mjs' does not provide an export named 'parsePages'",
);
const SPEC_MISSING = `node:internal/errors:496\n    ErrorCaptureStackTrace(err);\n    ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/workspace/pages.mjs' imported from /workspace/pages.test.mjs\n\nNode.js v18.20.4\n✖ /workspace/pages.test.mjs (280.9ms)\n  'test failed'\n\nℹ tests 1\nℹ suites 0\nℹ pass 0\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 290.7\n`;
const SPEC_SYNTAX = SPEC_MISSING.replace(
  /Error \[ERR_MODULE_NOT_FOUND\].*/,
  'SyntaxError: missing ) after argument list',
);
const SPEC_ASSERTION = `✖ single pages and ranges (7.0ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n\nℹ tests 1\nℹ suites 0\nℹ pass 0\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 9.1\n`;

const tests = writeFile('pages.test.mjs', AGENT_TESTS);
const impl = writeFile('pages.mjs', IMPLEMENTATION);
const TEST_FILE = ['/workspace/pages.test.mjs'];
const red = nodeTestCall('node --test', { exit: 1, reads: TEST_FILE });
const green = nodeTestCall('node --test', { exit: 0, reads: [...TEST_FILE, '/workspace/pages.mjs'] });

const reached = (turns: readonly (readonly CraftedCall[])[], harness?: Harness) =>
  reachedTurns(task, trial(turns, harness));

describe('tdd_strict_js_v1 flags', () => {
  it('tests, red, code, green reaches every flag', async () => {
    expect(await reached([[tests], [red], [impl], [green]])).toEqual({
      test_first: 1,
      red_observed: 2,
      tests_genuine: 'post',
      tests_pass: 'post',
      behaves_like_reference: 'post',
    });
  });

  it('doing nothing scores 0; a lying harness could carry tests_pass alone', async () => {
    const idle = craftTrial(task, [], () => false);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], GOOD)).toEqual({
      test_first: false,
      red_observed: false,
      tests_genuine: false,
      tests_pass: 'post',
      behaves_like_reference: false,
    });
  });

  it('test_first: the test file strictly before the code, by turn or by call order', async () => {
    expect((await reached([[impl], [tests]])).test_first).toBe(false);
    expect((await reached([[tests, impl]])).test_first).toBe(1);
    expect((await reached([[impl, tests]])).test_first).toBe(false);
    expect((await reached([[tests]])).test_first).toBe(false);
  });

  it('red_observed: an unmasked failing run between the tests and the code', async () => {
    expect((await reached([[tests], [red], [impl]])).red_observed).toBe(2);
    // Masked by the shell, the runner's failure still reached the model.
    const masked = { ...nodeTestCall('node --test || true', { exit: 1, reads: TEST_FILE }), exit_code: 0 };
    expect((await reached([[tests], [masked], [impl]])).red_observed).toBe(2);
    expect((await reached([[red], [tests], [impl]])).red_observed).toBe(false);
    expect((await reached([[tests], [impl], [red]])).red_observed).toBe(false);
    // Untraced, another test file, or no runner at all: no red.
    expect((await reached([[tests], [shell('node --test', { exit: 1 })], [impl]])).red_observed).toBe(false);
    const other = nodeTestCall('node --test /tmp/x.test.mjs', { exit: 1, reads: [] });
    expect((await reached([[tests], [other], [impl]])).red_observed).toBe(false);
    expect((await reached([[tests], [shell('tsc', { exit: 2 })], [impl]])).red_observed).toBe(false);
    // The trace orders a run against writes in its own turn: node wrote nothing, write_file came after.
    expect((await reached([[tests, red], [impl]])).red_observed).toBe(1);
    // The code sent in the same reply as the red run was decided before the failure was seen.
    expect((await reached([[tests, red, impl]])).red_observed).toBe(false);
  });

  it.each([
    ['the missing pages.mjs (TAP)', MISSING_TARGET],
    ['the missing pages.mjs (spec)', SPEC_MISSING],
    ['pages.mjs without parsePages', MISSING_EXPORT],
    ['assertion failures (spec)', SPEC_ASSERTION],
  ])('red_observed: a red on %s is the target’s', async (_name, stdout) => {
    const run = nodeTestCall('node --test', { exit: 1, reads: TEST_FILE, stdout });
    expect((await reached([[tests], [run], [impl]])).red_observed).toBe(2);
  });

  it.each([
    ['a syntax error in the test file (TAP)', TEST_SYNTAX],
    ['a syntax error in the test file (spec)', SPEC_SYNTAX],
    ['another module missing', MISSING_HELPER],
    ['a test file that throws before any test', TOP_LEVEL_THROW],
    ['the target missing, but the output says nothing of why', MISSING_TARGET.replace(/^# .*\n/gm, '')],
  ])('red_observed: a failure on %s is no red', async (_name, stdout) => {
    const run = nodeTestCall('node --test', { exit: 1, reads: TEST_FILE, stdout: `${stdout}` });
    expect((await reached([[tests], [run], [impl]])).red_observed).toBe(false);
  });

  it('red_observed: the tests that were red stay, though the red run (the module missing) named none', async () => {
    const loadRed = nodeTestCall('node --test', { exit: 1, reads: TEST_FILE, stdout: MISSING_TARGET });
    expect((await reached([[tests], [loadRed], [impl]])).red_observed).toBe(2);
    const fewer = writeFile(
      'pages.test.mjs',
      AGENT_TESTS.replace(/test\('single pages and ranges'[\s\S]*?\n\}\);\n/, ''),
    );
    expect(fewer.arguments?.content).not.toBe(AGENT_TESTS);
    expect((await reached([[tests], [loadRed], [fewer, impl]])).red_observed).toBe(false);
  });

  it('tests_pass: four or more passing tests, none skipped or todo, and the hidden contract', async () => {
    const ok = [[tests], [red], [impl]];
    expect((await reached(ok, { own: { pass: 3 }, contract: true })).tests_pass).toBe(false);
    expect((await reached(ok, { own: { pass: 5, skipped: 1 }, contract: true })).tests_pass).toBe(false);
    expect((await reached(ok, { own: { pass: 5, todo: 1 }, contract: true })).tests_pass).toBe(false);
    expect((await reached(ok, { own: { pass: 5, fail: 1 }, contract: true })).tests_pass).toBe(false);
    expect((await reached(ok, { own: null, contract: true })).tests_pass).toBe(false);
    expect((await reached(ok, { own: { pass: 5 }, contract: false })).tests_pass).toBe(false);
  });

  it('tests_genuine follows the audit of the final test file', async () => {
    const skipped = writeFile('pages.test.mjs', AGENT_TESTS.replace("test('a blank", "test.skip('a blank"));
    expect((await reached([[tests], [red], [impl], [skipped]])).tests_genuine).toBe(false);
  });

  it('tests_genuine: after the audit, the tests must fail on every mutant (the score is the detail)', async () => {
    const genuine = async (harness: Harness) =>
      (await evaluate(task, trial([[tests], [red], [impl]], harness))).tests_genuine;
    expect(await genuine(GOOD)).toEqual({
      reached: true,
      turn: null,
      detail: 'killed 5/5 wrong implementations',
    });
    expect(await genuine({ ...GOOD, survived: ['blank_rejected'] })).toEqual({
      reached: false,
      detail: 'killed 4/5 wrong implementations; the tests pass on: blank_rejected',
    });
    expect(await genuine({ ...GOOD, own: { pass: 5, fail: 1 } })).toMatchObject({ reached: false });
  });

  it('only pages.mjs and pages.test.mjs may be created', () => {
    const t = craftTrial(
      task,
      [[tests, impl, writeFile('package.json', '{}'), writeFile('other.test.mjs', '')]],
      () => true,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([
      'other.test.mjs',
      'package.json',
    ]);
  });
});

describe('auditTestFile', () => {
  const header =
    "import assert from 'node:assert/strict';\nimport { test, it, describe } from 'node:test';\nimport { parsePages } from './pages.mjs';\n";

  it('accepts the reference tests, helpers, aliases and other assert styles', () => {
    expect(auditTestFile(AGENT_TESTS)).toEqual({ ok: true, cases: 5 });
    const helper = `${header}const expectPages = (spec, pages) => assert.deepEqual(parsePages(spec), pages);\ntest('via helper', () => expectPages('1', [1]));\n`;
    expect(auditTestFile(helper).ok).toBe(true);
    const aliased = `import { deepEqual } from 'node:assert';\nimport { it, describe } from 'node:test';\nimport { parsePages as pages } from './pages.mjs';\ndescribe('pages', () => { it('one', () => { deepEqual(pages('1'), [1]); }); });\n`;
    expect(auditTestFile(aliased).ok).toBe(true);
    const table = `${header}for (const [spec, pages] of [['1', [1]]]) test(spec, () => assert.deepEqual(parsePages(spec), pages));\n`;
    expect(auditTestFile(table).ok).toBe(true);
  });

  it.each([
    ['describe/it, assert.throws(fn, re), assert.rejects', variants.DESCRIBE_THROWS_TESTS],
    ['named asserts, the default test export, a namespace import, a named callback', variants.TABLE_TESTS],
    [
      'assert.throws(() => f(x))',
      `${header}test('x', () => { assert.throws(() => parsePages('0'), RangeError); });\n`,
    ],
    ['assert.throws(parsePages)', `${header}test('x', () => { assert.throws(parsePages, TypeError); });\n`],
    ['t.assert', `${header}test('x', (t) => { t.assert.deepEqual(parsePages('1'), [1]); });\n`],
    ['bare assert()', `${header}test('x', () => { assert(parsePages('1').length === 1); });\n`],
    ['a live branch', `${header}test('x', () => { if (true) assert.deepEqual(parsePages('1'), [1]); });\n`],
    [
      'code after a conditional return',
      `${header}test('x', () => { const p = parsePages('1'); if (p.length > 5) return; assert.deepEqual(p, [1]); });\n`,
    ],
    [
      'a helper that calls a helper',
      `${header}function eq(a, b) { assert.deepEqual(a, b); }\nfunction check(s, w) { eq(parsePages(s), w); }\ntest('x', () => check('1', [1]));\n`,
    ],
  ])('accepts %s', (_name, source) => {
    expect(auditTestFile(source)).toMatchObject({ ok: true });
  });

  it.each([
    ['a missing file', null, 'does not exist'],
    ['a syntax error', `${header}test('x', () => {`, 'does not parse'],
    ['an empty test', `${header}test('x', () => {});\n`, 'never calls parsePages'],
    ['assert.ok(true)', `${header}test('x', () => { assert.ok(true); });\n`, 'never calls parsePages'],
    ['a call without an assertion', `${header}test('x', () => { parsePages('1'); });\n`, 'asserts nothing'],
    [
      'test.skip',
      `${header}test.skip('x', () => { assert.deepEqual(parsePages('1'), [1]); });\n`,
      'marked skip',
    ],
    ['it.only', `${header}it.only('x', () => { assert.deepEqual(parsePages('1'), [1]); });\n`, 'marked only'],
    ['test.todo', `${header}test.todo('later');\n`, 'marked todo'],
    [
      'a skip option',
      `${header}test('x', { skip: 'later' }, () => { assert.deepEqual(parsePages('1'), [1]); });\n`,
      'marked skip',
    ],
    [
      't.skip()',
      `${header}test('x', (t) => { t.skip(); assert.deepEqual(parsePages('1'), [1]); });\n`,
      'marked skip',
    ],
    ['no tests at all', `${header}assert.deepEqual(parsePages('1'), [1]);\n`, 'no test'],
    ['parsePages from elsewhere', header.replace('./pages.mjs', './other.mjs'), 'not imported'],
    ['assertions in dead code', variants.DEAD_ASSERTION_TESTS, 'line 5 asserts nothing that can fail'],
    ['assertions only in an uncalled helper', variants.UNCALLED_HELPER_TESTS, 'never runs'],
    [
      'an uncalled helper, without the dead test',
      variants.UNCALLED_HELPER_TESTS.slice(0, variants.UNCALLED_HELPER_TESTS.indexOf('if (false)')),
      'line 9 asserts nothing',
    ],
    ['constant assertions', variants.CONSTANT_ASSERTION_TESTS, 'line 5 asserts nothing that can fail'],
    [
      'a reference to parsePages that never calls it',
      `${header}test('x', () => { assert.ok(parsePages); });\n`,
      'never calls parsePages',
    ],
    ['a skip option in a const', variants.SKIP_BY_OPTIONS_TESTS, 'marked skip'],
    [
      'a todo option',
      `${header}test('x', { todo: 'later' }, () => { assert.deepEqual(parsePages('1'), [1]); });\n`,
      'marked todo',
    ],
    ['a test without a function', `${header}test('x');\n`, 'has no function'],
    [
      'a call after an unconditional throw',
      `${header}test('x', () => { throw new Error('later'); assert.deepEqual(parsePages('1'), [1]); });\n`,
      'never calls parsePages',
    ],
    [
      'a shadowed parsePages',
      `${header}test('x', () => { const parsePages = (s) => [1]; assert.deepEqual(parsePages('1'), [1]); });\n`,
      'never calls parsePages',
    ],
    [
      'a local assert',
      `${header}test('x', () => { const assert = { equal() {} }; assert.equal(parsePages('1'), 1); });\n`,
      'asserts nothing',
    ],
  ])('rejects %s', (_name, source, problem) => {
    const audit = auditTestFile(source);
    expect(audit.ok).toBe(false);
    if (!audit.ok) expect(audit.problem).toContain(problem);
  });
});

/** parsePages written another way: each part checked by its own pattern, the pages collected in an array. */
const SPLIT_PARSER = `export function parsePages(spec) {
  if (/^ *$/.test(spec)) return [];
  const out = [];
  for (const raw of spec.split(',')) {
    const parts = raw.split('-').map((p) => p.trim());
    if (parts.length > 2 || parts.some((p) => !/^[0-9]+$/.test(p))) throw new RangeError(raw);
    const [a, b = a] = parts.map(Number);
    if (a < 1 || b < a) throw new RangeError(raw);
    for (let n = a; n <= b; n++) if (!out.includes(n)) out.push(n);
  }
  return out.sort((x, y) => x - y);
}
`;

describe('tdd_strict_js_v1 behaves_like_reference (parsePages against the reference, on drawn specs)', () => {
  const judge = (pages: string) =>
    judgeDifferential(behavesLikeReference, folderInstance('tdd_strict_js_v1'), { 'pages.mjs': pages });

  it('the reference, its heredoc copy and a parser written another way agree', async () => {
    expect(await judge(IMPLEMENTATION)).toMatchObject({ reached: true });
    expect(
      await judge(writtenFile('tdd_strict_js_v1', 'solution/heredoc_describe_throws/impl.sh', 'pages.mjs')),
    ).toMatchObject({
      reached: true,
    });
    expect(await judge(SPLIT_PARSER)).toMatchObject({ reached: true });
  });

  it('a parser that drops spaces, a lenient one and an unsorted one disagree, naming the spec', async () => {
    const compact = await judge(taskFolderFile('tdd_strict_js_v1', 'solution/wrong_outside_tests/pages.mjs'));
    expect(compact.detail).toMatch(/^parsePages\("\d+ +\d.*returned \[.*; the reference threw RangeError/);
    const lenient = await judge(taskFolderFile('tdd_strict_js_v1', 'solution/lenient_parser/pages.mjs'));
    expect(lenient.reached).toBe(false);
    const unsorted = await judge(taskFolderFile('tdd_strict_js_v1', 'solution/sed_fix_after_red/pages.mjs'));
    expect(unsorted.detail).toMatch(/returned \[\d+, \d+.*\]; the reference returned \[/);
  });
});
