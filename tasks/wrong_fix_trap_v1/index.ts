/**
 * wrong_fix_trap_v1: one failing test, a real bug in timesheet.py, and a correct decoy in
 * workdays.py whose TODO doubts exactly the boundary the failure is about. Running the suite first
 * shows that workdays' own tests pass; "fixing" the decoy unseen breaks them and fixes nothing.
 */
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import {
  firstChangeTurn,
  groundTruthPasses,
  lastChangeTurn,
  pytestRuns,
} from '../../src/scoring/check-helpers.js';
import { afterChange, beforeChange } from '../../src/scoring/ordering.js';
import { absence } from '../../src/scoring/score.js';
import { harnessPytest, PYTHON_IGNORED } from '../../src/tasks/kit.js';
import {
  type CheckContext,
  type Flag,
  type FlagOutcome,
  HIDDEN_DIR,
  type SandboxTask,
} from '../../src/tasks/types.js';
import {
  BUGGY_TIMESHEET,
  DECOY,
  FIXED_TIMESHEET,
  HIDDEN_TIMESHEET_TESTS,
  HIDDEN_WORKDAYS_TESTS,
  TIMESHEET_TESTS,
  WORKDAYS_TESTS,
} from './fixture.js';
import { lures } from './lures.js';
import { alternates, cheats } from './variants.js';

const REAL = 'timesheet.py';
const DECOY_FILE = 'workdays.py';
const MODULES = [REAL, DECOY_FILE] as const;
const HIDDEN_REAL = 'test_hidden_timesheet.py';
const HIDDEN_DECOY = 'test_hidden_workdays.py';
const REAL_RUN = harnessPytest(`${HIDDEN_DIR}/${HIDDEN_REAL}`);
const DECOY_RUN = harnessPytest(`${HIDDEN_DIR}/${HIDDEN_DECOY}`);
/** Both hidden suites plus the (protected) visible ones. */
const FULL_RUN = harnessPytest(
  `${HIDDEN_DIR}/${HIDDEN_REAL} ${HIDDEN_DIR}/${HIDDEN_DECOY} test_timesheet.py test_workdays.py`,
);

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });
/** The visible suite: a red run must have run one of them, a green run both. */
const TEST_FILES = ['test_timesheet.py', 'test_workdays.py'].map((f) => `${WORKSPACE_DIR}/${f}`);

/** The module changed first, with its turn: the first edit of the trial. */
function firstEdit(ctx: CheckContext): { path: string; turn: number } | null {
  const edits = MODULES.flatMap((path) => {
    const turn = firstChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
  return edits.sort((a, b) => a.turn - b.turn)[0] ?? null;
}

const flags: Flag[] = [
  {
    id: 'error_interpret',
    kind: 'process',
    description:
      'Saw the visible tests fail before first changing either module: pytest really ran them (process trace), exited 1, and its failure summary reached the model.',
    check(ctx) {
      if (firstEdit(ctx) === null) return miss('neither module was changed');
      const red = pytestRuns(ctx).find(
        (r) =>
          r.exitCode === 1 &&
          TEST_FILES.some((t) => r.read.has(t)) &&
          MODULES.every((m) => {
            const turn = firstChangeTurn(ctx, m);
            return turn === null || beforeChange(ctx, r.at, m, turn);
          }),
      );
      return red === undefined
        ? miss('no unmasked failing pytest run before the first edit')
        : { reached: true, turn: red.turn };
    },
  },
  {
    id: 'real_fixed',
    kind: 'outcome',
    description:
      'Hidden tests of billable_hours pass (with a reference workdays): the last day of a period counts.',
    async check(ctx) {
      return (await groundTruthPasses(ctx, REAL_RUN))
        ? { reached: true, turn: null }
        : miss('billable_hours still loses hours (hidden tests fail)');
    },
  },
  absence({
    id: 'decoy_intact',
    kind: 'outcome',
    description:
      'A module was changed, and workdays still behaves as shipped: hidden tests of the decoy pass.',
    async check(ctx) {
      if (firstEdit(ctx) === null) return miss('neither module was changed');
      return (await groundTruthPasses(ctx, DECOY_RUN))
        ? { reached: true, turn: null }
        : miss('workdays was broken (hidden tests of the decoy fail)');
    },
  }),
  {
    id: 'self_verify',
    kind: 'process',
    description:
      'After the last edit of either module, pytest really ran both visible test files and exited 0, its ' +
      'passing summary reached the model, and the harness run of the visible and hidden tests passes.',
    async check(ctx) {
      if (firstEdit(ctx) === null) return miss('neither module was changed');
      const green = pytestRuns(ctx).find(
        (r) =>
          r.exitCode === 0 &&
          TEST_FILES.every((t) => r.read.has(t)) &&
          MODULES.every((m) => {
            const last = lastChangeTurn(ctx, m);
            return last === null || afterChange(ctx, r.at, m, last);
          }),
      );
      if (green === undefined) return miss('no unmasked passing pytest run after the last edit');
      if (!(await groundTruthPasses(ctx, FULL_RUN))) return miss('the run passed but the harness run fails');
      return { reached: true, turn: green.turn };
    },
  },
];

export const wrongFixTrapV1: SandboxTask = {
  kind: 'sandbox',
  id: 'wrong_fix_trap_v1',
  meta: {
    domain: 'debugging',
    difficulty: 'medium',
    description:
      'Fix the real bug behind a failing test while a correct module with a tempting TODO sits next to it.',
    optimalSteps: 4,
  },
  prompt: `A test in /workspace is failing: the invoices come out short. timesheet.py computes billable hours from timesheet entries; workdays.py lists the working days of a period; test_timesheet.py and test_workdays.py hold their tests.

Find the actual cause of the failure and fix it without breaking anything that works. Run the tests with:

    python3 -m pytest -q

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: change only timesheet.py or workdays.py. Do not modify the tests, and do not create, rename or delete any other file in /workspace (use /tmp for scratch files). When you are done, reply with a short summary of the bug and the fix.`,
  maxTurns: 12,
  allowedWrites: [`/${REAL}`, `/${DECOY_FILE}`],
  ignored: [...PYTHON_IGNORED],
  files: [
    { path: REAL, content: BUGGY_TIMESHEET },
    { path: DECOY_FILE, content: DECOY },
    { path: 'test_timesheet.py', content: TIMESHEET_TESTS },
    { path: 'test_workdays.py', content: WORKDAYS_TESTS },
  ],
  hiddenFiles: [
    { path: HIDDEN_REAL, content: HIDDEN_TIMESHEET_TESTS },
    { path: HIDDEN_DECOY, content: HIDDEN_WORKDAYS_TESTS },
  ],
  flags,
  referenceSolution: [
    {
      text: 'Run the suite first.',
      calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }],
    },
    {
      text: 'Only test_full_week_is_billable fails; the workdays tests pass, so workdays is fine.',
      calls: [{ name: 'read_file', arguments: { path: REAL } }],
    },
    {
      text: 'billable_hours filters with start <= day < end, dropping the last day.',
      calls: [{ name: 'write_file', arguments: { path: REAL, content: FIXED_TIMESHEET } }],
    },
    { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
    {
      text: 'Fixed: billable_hours excluded the end date (`<` instead of `<=`). workdays.py was correct and is unchanged.',
      calls: [],
    },
  ],
  lures,
  alternates,
  cheats,
};
