/**
 * tdd_order_v1's checks: tests come first, are seen to fail while the implementation does not
 * exist yet (a collection error is that failure), then the code follows, and the agent's tests and
 * a hidden contract test pass in the harness. A red counts only from tests that can fail: at the
 * end they fail on each wrong slugify in hidden/mutants/ (and on slugify.py missing), so a suite
 * whose asserts are swallowed or trivially true is red only because the module was missing.
 *
 * `behavesLikeReference`: the agent's slugify against the reference (hidden/reference/slugify.py)
 * on drawn ASCII texts, beyond the contract's few.
 */
import {
  afterChange,
  beforeChange,
  type CheckContext,
  differential,
  type FlagOutcome,
  fc,
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

/** Every ASCII character slugify does not keep, the controls and DEL among them. */
const SEPARATORS = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).filter(
  (c) => !/[A-Za-z0-9]/.test(c),
);
const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const word = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 1, maxLength: 9 });
/** A run of separators: mostly the common ones (a space, a hyphen, an apostrophe), any of them at times. */
const run = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(' ', '-', "'", '_', '.', ',', '!', '?', '/', '\t', '\n') },
    { weight: 1, arbitrary: fc.constantFrom(...SEPARATORS) },
  ),
  minLength: 1,
  maxLength: 4,
});
/** A title: words joined by runs of separators, maybe with runs before and after. */
const title = fc
  .tuple(fc.option(run), fc.array(fc.tuple(word, run), { minLength: 1, maxLength: 8 }), word, fc.option(run))
  .map(
    ([before, pairs, last, after]) =>
      `${before ?? ''}${pairs.map(([w, r]) => w + r).join('')}${last}${after ?? ''}`,
  );
/** Words with an apostrophe inside (a contraction, a name): a separator too, so "Don't" is "don-t". */
const apostrophes = fc
  .array(fc.tuple(word, fc.constantFrom("'", "'", "''", "'s", ' '), word), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.map(([a, mark, b]) => `${a}${mark}${b}`).join(' '));
/** Any ASCII at all, controls included (the instruction promises ASCII input, nothing more). */
const anyAscii = fc.string({ unit: 'binary-ascii', maxLength: 40 });
const longText = fc.string({
  unit: fc.constantFrom('a', 'Z', '7', ' ', '-', '--', "'", '_', '. '),
  minLength: 300,
  maxLength: 1500,
});

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  return differential(ctx, {
    seed: 'tdd_order_v1',
    reference: 'reference',
    functions: [
      {
        module: IMPL,
        name: 'slugify',
        count: 300,
        args: fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: title },
            { weight: 2, arbitrary: apostrophes },
            { weight: 2, arbitrary: anyAscii },
            { weight: 1, arbitrary: longText },
          ),
        ),
        edges: [
          ...['', ' ', '-', '---', "'", 'a', 'Z', '0', '-a-', ' x ', 'A-B', 'a_b', 'a--b', '9to5'],
          ...['Hello, World!', '  Python 3.11 released  ', 'already-a-slug', '--Ready?? Set... GO!--', '!!!'],
          ...["Don't Stop", "O'Brien's", "it's", "rock 'n' roll", '\x00a\x7fb\x1f', 'tabs\tand\nnewlines'],
          ...['x'.repeat(3000), '-'.repeat(3000), 'Ab-'.repeat(1000)],
        ].map((t) => [t]),
      },
    ],
  });
}
