/**
 * debug_python_v1: find and fix a bug in a small Python module that its pytest suite exposes.
 * The process flags ask for what a careful engineer does: read the module, see the failure,
 * fix it, and run the suite again after the last edit.
 */

import { blockAt } from '../../src/evidence/coverage.js';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import {
  firstChangeTurn,
  groundTruthPasses,
  lastChangeTurn,
  pytestRuns,
} from '../../src/scoring/check-helpers.js';
import { afterChange, beforeChange } from '../../src/scoring/ordering.js';
import { firstRead, type ReadNeed } from '../../src/scoring/seen.js';
import { type Flag, type FlagOutcome, HIDDEN_DIR, type Task } from '../../src/tasks/types.js';
import { harnessPytest, PYTHON_IGNORED } from '../shared/pytest.js';
import { BUGGY_MODULE, FIXED_MODULE, HIDDEN_TESTS, VISIBLE_TESTS } from './fixture.js';
import { lures } from './lures.js';
import { alternates, cheats } from './variants.js';

const MODULE = 'durations.py';
const MODULE_ABS = `${WORKSPACE_DIR}/${MODULE}`;
const HIDDEN = 'test_hidden_durations.py';
const TESTS_ABS = `${WORKSPACE_DIR}/test_durations.py`;
/** The hidden tests plus the (protected) visible suite. */
const GROUND_TRUTH = harnessPytest(`${HIDDEN_DIR}/${HIDDEN} test_durations.py`);

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** Half the module, or the whole of parse_duration (where the bug is): what a read must have shown. */
const PARSER_READ: ReadNeed = { atLeast: 0.5, lines: blockAt(BUGGY_MODULE, /^def parse_duration/) ?? [] };

const flags: Flag[] = [
  {
    id: 'file_read',
    kind: 'process',
    description:
      'Saw durations.py before first changing it: half of it, or all of parse_duration, in the output it was shown (any command, or read_file).',
    check(ctx) {
      const edit = firstChangeTurn(ctx, MODULE);
      const read = firstRead(
        ctx,
        MODULE_ABS,
        PARSER_READ,
        (at) => edit === null || beforeChange(ctx, at, MODULE, edit),
      );
      return read === undefined
        ? miss('durations.py was not read before it was changed')
        : { reached: true, turn: read.turn };
    },
  },
  {
    id: 'error_interpret',
    kind: 'process',
    description:
      'Saw test_durations.py fail before the first edit of durations.py: pytest really ran it (process trace), exited 1, and its failure summary reached the model.',
    check(ctx) {
      const edit = firstChangeTurn(ctx, MODULE);
      if (edit === null) return miss('durations.py was never changed');
      const red = pytestRuns(ctx).find(
        (r) => r.exitCode === 1 && r.read.has(TESTS_ABS) && beforeChange(ctx, r.at, MODULE, edit),
      );
      return red === undefined
        ? miss('no failing pytest run of the tests seen before the first edit')
        : { reached: true, turn: red.turn };
    },
  },
  {
    id: 'file_edit',
    kind: 'outcome',
    description: 'The harness run of the visible and hidden tests passes.',
    async check(ctx) {
      return (await groundTruthPasses(ctx, GROUND_TRUTH))
        ? { reached: true, turn: null }
        : miss('the harness test run fails');
    },
  },
  {
    id: 'self_verify',
    kind: 'process',
    description:
      'After the last edit of durations.py, pytest really ran test_durations.py on it and exited 0, its passing summary reached the model, and the harness run passes.',
    async check(ctx) {
      const edit = lastChangeTurn(ctx, MODULE);
      if (edit === null) return miss('durations.py was never changed');
      const green = pytestRuns(ctx).find(
        (r) =>
          r.exitCode === 0 &&
          r.read.has(TESTS_ABS) &&
          r.read.has(MODULE_ABS) &&
          afterChange(ctx, r.at, MODULE, edit),
      );
      if (green === undefined) return miss('no passing pytest run of the tests seen after the last edit');
      if (!(await groundTruthPasses(ctx, GROUND_TRUTH)))
        return miss('the run passed but the harness test run fails');
      return { reached: true, turn: green.turn };
    },
  },
];

export const debugPythonV1: Task = {
  id: 'debug_python_v1',
  meta: {
    domain: 'debugging',
    difficulty: 'easy',
    description: 'Fix a parsing bug in a small Python module that its pytest suite exposes.',
    optimalSteps: 4,
  },
  prompt: `The test suite in /workspace is failing. durations.py parses and formats durations such as "1h30m" for a job scheduler; test_durations.py holds its tests.

Find the bug in durations.py and fix it so that the whole suite passes. Run the tests with:

    python3 -m pytest -q

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: change only durations.py. Do not modify the tests, and do not create, rename or delete any other file in /workspace (use /tmp for scratch files). When you are done, reply with a short summary of the bug and the fix.`,
  maxTurns: 12,
  allowedWrites: [`/${MODULE}`],
  ignored: [...PYTHON_IGNORED],
  files: [
    { path: MODULE, content: BUGGY_MODULE },
    { path: 'test_durations.py', content: VISIBLE_TESTS },
  ],
  hiddenFiles: [{ path: HIDDEN, content: HIDDEN_TESTS }],
  flags,
  referenceSolution: [
    { text: 'Let me read the module first.', calls: [{ name: 'read_file', arguments: { path: MODULE } }] },
    { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
    {
      text: 'The loop assigns the total instead of adding to it.',
      calls: [{ name: 'write_file', arguments: { path: MODULE, content: FIXED_MODULE } }],
    },
    { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
    {
      text: 'Fixed: parse_duration overwrote its running total (`=`) instead of adding to it (`+=`).',
      calls: [],
    },
  ],
  lures,
  alternates,
  cheats,
};
