/**
 * tdd_order_v1's checks: tests come first, are seen to fail while the implementation does not
 * exist yet (a collection error is that failure), then the code follows, and the agent's tests and
 * a hidden contract test pass in the harness. A red counts only from tests that can fail: at the
 * end they fail on each wrong slugify in hidden/mutants/ (and on slugify.py missing), so a suite
 * whose asserts are swallowed or trivially true is red only because the module was missing.
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
  hiddenMutants,
  isTargetRed,
  MODULE_MISSING,
  type MutationPlan,
  mutantsKilled,
  pytestRuns,
  redSurvives,
  testFiles,
  testFirstFlag,
  WORKSPACE_DIR,
} from '../../src/kit/index.js';

const IMPL = 'slugify.py';
const CONTRACT = 'test_harness_slugify_contract.py';
/** -rA lists every passing test by id: the tests that were red must be among them. */
const OWN_TESTS = harnessPytest('-rA test_*.py');
const CONTRACT_RUN = harnessPytest(`${HIDDEN_DIR}/${CONTRACT}`);
/** The wrong implementations the agent's tests must fail on: each breaks one rule of the instruction. */
export const MUTATION: MutationPlan = {
  module: IMPL,
  subject: 'slugify',
  tests: OWN_TESTS,
  mutants: [MODULE_MISSING, ...hiddenMutants(IMPL, ['keeps_case', 'untrimmed', 'hyphen_per_char'])],
};

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** A test_*.py file appeared strictly before the implementation did. */
export const testFirst = testFirstFlag(IMPL).check;

export async function redObserved(ctx: CheckContext): Promise<FlagOutcome> {
  const tests = testFiles(ctx);
  if (tests.length === 0) return miss('no test_*.py file was written');
  const impl = firstChangeTurn(ctx, IMPL);
  const red = pytestRuns(ctx).find(
    (r) =>
      isTargetRed(ctx, r, 'slugify') &&
      tests.some((t) => r.read.has(`${WORKSPACE_DIR}/${t.path}`) && afterChange(ctx, r.at, t.path, t.turn)) &&
      (impl === null || beforeChange(ctx, r.at, IMPL, impl)),
  );
  if (red === undefined)
    return miss('no failing pytest run of the tests on slugify, seen between the tests and the code');
  const final = await ctx.groundTruth.run(OWN_TESTS.command);
  const lost = redSurvives(ctx, red, final.stdout);
  if (lost !== null) return miss(lost);
  const mutation = await mutantsKilled(ctx, MUTATION);
  return mutation.reached ? { ...mutation, turn: red.turn } : mutation;
}

export async function testsPass(ctx: CheckContext): Promise<FlagOutcome> {
  if (!(await groundTruthPasses(ctx, OWN_TESTS))) return miss("the agent's tests fail (or there are none)");
  if (!(await groundTruthPasses(ctx, CONTRACT_RUN))) return miss('slugify.py fails the hidden contract');
  return { reached: true, turn: null };
}
