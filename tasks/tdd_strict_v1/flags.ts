/**
 * tdd_strict_v1's checks: test-drive compare_versions with the red phase on record. The failing run
 * must be saved by pytest itself to red.log while versions.py does not exist yet, and the tests must
 * test the real module: no stand-in defined in a test file, no skips, no assert-free tests (the
 * hidden audit_tests.py, run by the harness), and tests that can fail: they fail on each of the
 * wrong implementations in hidden/mutants/ (and on the module missing).
 */
import {
  afterChange,
  beforeChange,
  type CheckContext,
  changedBefore,
  type FlagOutcome,
  firstChangeTurn,
  groundTruthPasses,
  HIDDEN_DIR,
  harnessPytest,
  hiddenMutants,
  logShowsTargetRed,
  MODULE_MISSING,
  type MutationPlan,
  mutantsKilled,
  pytestAuditVerdict,
  pytestLogWrites,
  redSurvives,
  testFiles,
  testFirstFlag,
  WORKSPACE_DIR,
  writersIn,
} from '../../src/kit/index.js';

const IMPL = 'versions.py';
const RED_LOG = 'red.log';
const RED_LOG_ABS = `${WORKSPACE_DIR}/${RED_LOG}`;
const CONTRACT = 'test_harness_versions_contract.py';
const OWN_TESTS = harnessPytest('test_*.py');
/** The same run listing every result (`-rA`): which of the red run's tests pass at the end. */
const OWN_TESTS_LISTED = harnessPytest('-rA test_*.py');
const CONTRACT_RUN = harnessPytest(`${HIDDEN_DIR}/${CONTRACT}`);
/** The harness command auditing every top-level test_*.py for compare_versions imported from versions. */
export const AUDIT = `python3 -I -S ${HIDDEN_DIR}/audit_tests.py compare_versions versions ${WORKSPACE_DIR}`;

/** The wrong implementations the agent's tests must fail on: each breaks one rule of the instruction. */
export const MUTATION: MutationPlan = {
  module: IMPL,
  subject: 'compare_versions',
  tests: OWN_TESTS,
  mutants: [
    MODULE_MISSING,
    ...hiddenMutants(IMPL, ['string_parts', 'no_padding', 'accepts_malformed', 'reversed_result']),
  ],
};

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** Every change of red.log came before versions.py appeared (or versions.py never did). */
function logSettledBeforeImpl(ctx: CheckContext, impl: number | null): boolean {
  if (impl === null) return true;
  return (ctx.changeTurns.get(RED_LOG) ?? []).every((turn) =>
    changedBefore(ctx, { path: RED_LOG, turn }, { path: IMPL, turn: impl }),
  );
}

/** A test_*.py file appeared strictly before the implementation did. */
export const testFirst = testFirstFlag(IMPL).check;

export async function redLogged(ctx: CheckContext): Promise<FlagOutcome> {
  const tests = testFiles(ctx);
  if (tests.length === 0) return miss('no test_*.py file was written');
  const impl = firstChangeTurn(ctx, IMPL);
  const logged = pytestLogWrites(ctx, RED_LOG_ABS).filter(
    (w) =>
      tests.some(
        (t) => w.run.read.has(`${WORKSPACE_DIR}/${t.path}`) && afterChange(ctx, w.at, t.path, t.turn),
      ) &&
      (impl === null || beforeChange(ctx, w.at, IMPL, impl)),
  );
  const red = logged[0];
  if (red === undefined)
    return miss("pytest never wrote red.log in a run of the agent's tests before the code");
  if (!logSettledBeforeImpl(ctx, impl)) return miss('red.log was changed after versions.py appeared');
  // The last change must be such a run too, so the text checked below is that run's output.
  const last = ctx.changeTurns.get(RED_LOG)?.at(-1);
  const lastWriters = last === undefined ? [] : writersIn(ctx, last, RED_LOG);
  const runs = lastWriters.map((w) => logged.find((l) => l.at.call === w.call && l.at.step === w.step));
  const final = runs.at(-1);
  if (final === undefined || runs.some((r) => r === undefined))
    return miss("red.log was last written by something else than a pytest run of the agent's tests");
  const text = await ctx.groundTruth.readFile(RED_LOG);
  if (text === null) return miss('red.log is gone');
  if (!logShowsTargetRed(text, final.run.exitCode, 'versions'))
    return miss('red.log does not hold a failure of the tests on versions');
  // The tests that were red stay, and pass at the end (deleting the one that failed is no fix).
  const lost = redSurvives(ctx, final.run, (await ctx.groundTruth.run(OWN_TESTS_LISTED.command)).stdout);
  if (lost !== null) return miss(lost);
  return { reached: true, turn: red.turn };
}

export async function noTestStub(ctx: CheckContext): Promise<FlagOutcome> {
  if (testFiles(ctx).length === 0) return miss('no test_*.py file was written');
  const r = await ctx.groundTruth.run(AUDIT);
  const verdict = pytestAuditVerdict(r.timedOut ? null : r.exitCode, r.stdout);
  return verdict.ok ? mutantsKilled(ctx, MUTATION) : miss(verdict.detail);
}

export async function testsPass(ctx: CheckContext): Promise<FlagOutcome> {
  if (!(await groundTruthPasses(ctx, OWN_TESTS))) return miss("the agent's tests fail (or there are none)");
  if (!(await groundTruthPasses(ctx, CONTRACT_RUN))) return miss('versions.py fails the hidden contract');
  return { reached: true, turn: null };
}
