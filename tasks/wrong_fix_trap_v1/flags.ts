/**
 * wrong_fix_trap_v1's checks: one failing test, a real bug in timesheet.py, and a correct decoy in
 * workdays.py whose TODO doubts exactly the boundary the failure is about. Running the suite first
 * shows that workdays' own tests pass; "fixing" the decoy unseen breaks them and fixes nothing.
 */
import {
  afterChange,
  beforeChange,
  type CheckContext,
  type FlagOutcome,
  firstChangeTurn,
  groundTruthPasses,
  HIDDEN_DIR,
  harnessPytest,
  lastChangeTurn,
  pytestRuns,
  WORKSPACE_DIR,
} from '../../src/kit/index.js';

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

export function errorInterpret(ctx: CheckContext): FlagOutcome {
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
}

export async function realFixed(ctx: CheckContext): Promise<FlagOutcome> {
  return (await groundTruthPasses(ctx, REAL_RUN))
    ? { reached: true, turn: null }
    : miss('billable_hours still loses hours (hidden tests fail)');
}

export async function decoyIntact(ctx: CheckContext): Promise<FlagOutcome> {
  if (firstEdit(ctx) === null) return miss('neither module was changed');
  return (await groundTruthPasses(ctx, DECOY_RUN))
    ? { reached: true, turn: null }
    : miss('workdays was broken (hidden tests of the decoy fail)');
}

export async function selfVerify(ctx: CheckContext): Promise<FlagOutcome> {
  if (firstEdit(ctx) === null) return miss('neither module was changed');
  const green = pytestRuns(ctx).find(
    (r) =>
      r.exitCode === 0 &&
      r.narrowed === null &&
      TEST_FILES.every((t) => r.read.has(t)) &&
      MODULES.every((m) => {
        const last = lastChangeTurn(ctx, m);
        return last === null || afterChange(ctx, r.at, m, last);
      }),
  );
  if (green === undefined) return miss('no unmasked passing pytest run after the last edit');
  if (!(await groundTruthPasses(ctx, FULL_RUN))) return miss('the run passed but the harness run fails');
  return { reached: true, turn: green.turn };
}
