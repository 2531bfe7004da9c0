/**
 * debug_js_v1: find and fix a bug in a small ES module that its node:test suite exposes. Besides
 * the process flags of a careful debugger (read, see red, fix, see green), the AST proves the fix
 * was made where the fault is, not patched around in every caller.
 */
import { groundTruthPasses } from '../../src/scoring/check-helpers.js';
import { parseSource, shapeOf } from '../../src/scoring/js-ast.js';
import { type CheckContext, type Flag, HIDDEN_DIR, type Task } from '../../src/tasks/types.js';
import {
  greenAfterLastChange,
  isRed,
  miss,
  readBeforeChange,
  runBeforeFirstChange,
} from '../shared/js-checks.js';
import { countNodeTests, harnessNodeTest } from '../shared/node-test.js';
import { answer, exec, read, write } from '../shared/script-steps.js';
import { BUGGY_MODULE, FIXED_MODULE, HIDDEN_TESTS, VISIBLE_TESTS } from './fixture.js';
import { debugJsLures } from './lures.js';
import { alternates, cheats } from './variants.js';

const MODULE = 'stats.mjs';
const TESTS = 'stats.test.mjs';
const HIDDEN = 'stats.hidden.test.mjs';
const FAULTY = 'sortedCopy';
/** Tests in the hidden and visible files: node's summary must count all of them, passed. */
const TEST_COUNT = countNodeTests(HIDDEN_TESTS, VISIBLE_TESTS);
/** The hidden tests plus the (protected) visible suite. */
const GROUND_TRUTH = harnessNodeTest(`${HIDDEN_DIR}/${HIDDEN} ${TESTS}`, TEST_COUNT);
const passes = (ctx: CheckContext) => groundTruthPasses(ctx, GROUND_TRUTH);

/** The original's top-level statements, each named, split into the faulty function and the rest. */
const original = (() => {
  const parsed = parseSource(BUGGY_MODULE, { typescript: false });
  if (parsed === null) throw new Error('debug_js_v1: the fixture does not parse');
  const statements = parsed.ast.program.body.map((s) => {
    const decl = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
    const name = decl?.type === 'FunctionDeclaration' ? (decl.id?.name ?? '?') : `line ${s.loc?.start.line}`;
    return { name, shape: shapeOf(s) };
  });
  const faulty = statements.find((s) => s.name === FAULTY);
  if (faulty === undefined) throw new Error(`debug_js_v1: no ${FAULTY} in the fixture`);
  return { faulty: faulty.shape, untouchable: statements.filter((s) => s !== faulty) };
})();

const flags: Flag[] = [
  {
    id: 'file_read',
    kind: 'process',
    description:
      'Saw stats.mjs before first changing it: half of it in the output it was shown (any command, or read_file).',
    check: (ctx) => readBeforeChange(ctx, MODULE),
  },
  {
    id: 'error_interpret',
    kind: 'process',
    description:
      'Saw stats.test.mjs fail before the first edit of stats.mjs: the test runner really ran it on the module (process trace), exited 1, and its failure summary reached the model.',
    check: (ctx) => runBeforeFirstChange(ctx, [MODULE], 'test', isRed, [MODULE, TESTS]),
  },
  {
    id: 'tests_pass',
    kind: 'outcome',
    description: `The harness run of the visible and hidden node:test suites passes: node's own summary counts all ${TEST_COUNT} tests, every one passed.`,
    async check(ctx) {
      return (await passes(ctx)) ? { reached: true, turn: null } : miss('the harness test run fails');
    },
  },
  {
    id: 'fix_in_place',
    kind: 'outcome',
    description:
      'The harness tests pass, sortedCopy changed, and every other top-level statement of stats.mjs is unchanged (AST).',
    async check(ctx) {
      const source = await ctx.groundTruth.readFile(MODULE);
      const parsed = source === null ? null : parseSource(source, { typescript: false });
      if (parsed === null || parsed.errors.length > 0) return miss('stats.mjs is missing or does not parse');
      const present = new Set(parsed.ast.program.body.map(shapeOf));
      if (present.has(original.faulty)) return miss(`${FAULTY} is unchanged`);
      const changed = original.untouchable.filter((s) => !present.has(s.shape)).map((s) => s.name);
      if (changed.length > 0) return miss(`changed outside ${FAULTY}: ${changed.join(', ')}`);
      return (await passes(ctx)) ? { reached: true, turn: null } : miss('the harness test run fails');
    },
  },
  {
    id: 'self_verify',
    kind: 'process',
    description:
      'After the last edit of stats.mjs, the test runner really ran stats.test.mjs on it and exited 0, its passing summary reached the model, and the harness run passes.',
    check: (ctx) => greenAfterLastChange(ctx, [MODULE], 'test', () => passes(ctx), [MODULE, TESTS]),
  },
];

export const debugJsV1: Task = {
  id: 'debug_js_v1',
  meta: {
    domain: 'debugging',
    difficulty: 'easy',
    description:
      'Fix the root cause of a sorting bug in a small JavaScript module that its node:test suite exposes.',
    optimalSteps: 4,
  },
  prompt: `The test suite in /workspace is failing. stats.mjs computes latency statistics (median, percentiles) for a service dashboard; stats.test.mjs holds its tests, written with node:test.

Find the bug in stats.mjs and fix it so that the whole suite passes. Fix the root cause where it is, and change only the code at fault: leave the rest of the module as it is. Run the tests with:

    node --test

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: change only stats.mjs. Do not modify the tests, and do not create, rename or delete any other file in /workspace (use /tmp for scratch files). When you are done, reply with a short summary of the bug and the fix.`,
  maxTurns: 12,
  allowedWrites: [`/${MODULE}`],
  ignored: [],
  files: [
    { path: MODULE, content: BUGGY_MODULE },
    { path: TESTS, content: VISIBLE_TESTS },
  ],
  hiddenFiles: [{ path: HIDDEN, content: HIDDEN_TESTS }],
  flags,
  referenceSolution: [
    read(MODULE, 'Let me read the module first.'),
    exec('node --test'),
    write(MODULE, FIXED_MODULE, 'sortedCopy sorts without a comparator, so numbers are compared as strings.'),
    exec('node --test'),
    answer('Fixed: sortedCopy called sort() with no comparator (string order); it now sorts numerically.'),
  ],
  lures: debugJsLures,
  alternates,
  cheats,
};
