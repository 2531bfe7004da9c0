/**
 * tdd_strict_v1's checks: test-drive compare_versions with the red phase on record. The failing run
 * must be saved by pytest itself to red.log while versions.py does not exist yet, and the tests must
 * test the real module: no stand-in defined in a test file, no skips, no assert-free tests (the
 * hidden audit_tests.py, run by the harness), and tests that can fail: they fail on each of the
 * wrong implementations in hidden/mutants/ (and on the module missing).
 *
 * `behavesLikeReference`: the agent's compare_versions against the reference
 * (hidden/reference/versions.py) on drawn pairs of versions, well formed or not, beyond the
 * contract's few.
 */
import {
  afterChange,
  beforeChange,
  type CheckContext,
  changedBefore,
  differential,
  type FlagOutcome,
  fc,
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

/**
 * A part as the instruction defines it: ASCII digits (whether another script's digits make an
 * integer it does not say), leading zeros included ("1.02" equals "1.2"), at most some 30 digits
 * (Python's int() refuses a text of over 4300, which no rule here asks for).
 */
const part = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 12 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 99_999 }).map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('0', '00', '000'), fc.nat(99)).map(([z, n]) => `${z}${n}`),
  },
);
const parts = fc.array(part, { minLength: 1, maxLength: 6 });
const version = parts.map((ps) => ps.join('.'));

/** A second version near the first: the same, padded with zeros, a part with a zero more, bumped, cut, extended. */
function near(ps: readonly string[], at: number, how: number, k: number): string {
  const i = at % ps.length;
  const p = ps[i] ?? '0';
  const out = [...ps];
  switch (how % 7) {
    case 0:
      break;
    case 1:
      out.push(...Array<string>(1 + (k % 3)).fill('0'));
      break;
    case 2:
      out[i] = `0${p}`;
      break;
    case 3:
      out[i] = String(BigInt(p) + 1n);
      break;
    case 4:
      out[i] = String(BigInt(p) === 0n ? 0n : BigInt(p) - 1n);
      break;
    case 5:
      out.splice(Math.max(1, i));
      break;
    default:
      out.push(String(1 + (k % 20)));
  }
  return out.join('.');
}
const nearPair = fc
  .tuple(parts, fc.nat(), fc.nat(), fc.nat(), fc.boolean())
  .map(([ps, at, how, k, swap]): [string, string] => {
    const a = ps.join('.');
    const b = near(ps, at, how, k);
    return swap ? [b, a] : [a, b];
  });
/** Versions of many parts, the same but for their last. */
const longPair = fc
  .tuple(fc.array(fc.nat(9), { minLength: 40, maxLength: 400 }), fc.nat(2))
  .map(([ns, last]): [string, string] => [ns.join('.'), [...ns.slice(0, -1), last].join('.')]);

/** What breaks a version inside it or at an edge: whitespace (non-ASCII too), a sign, an underscore, a letter. */
const breaker = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r',
  '\x0b',
  '\x0c',
  '\u00a0',
  '\u2003',
  '\u200b',
  '-',
  '+',
  '_',
  '.',
  ',',
  ':',
  'a',
  'v',
  'x',
  'e',
  'é',
  '中',
  '😀',
  '\x00',
);
const brokenVersion = fc.oneof(
  fc.tuple(version, fc.nat(), breaker).map(([v, at, ch]) => {
    const i = at % (v.length + 1);
    return `${v.slice(0, i)}${ch}${v.slice(i)}`;
  }),
  // Whitespace around a well-formed version, a final newline above all.
  fc
    .tuple(version, fc.constantFrom(' ', '\t', '\n', '\n', '\r\n', '  '), fc.nat(2))
    .map(([v, ws, where]) => (where === 0 ? `${ws}${v}` : where === 1 ? `${v}${ws}` : `${ws}${v}${ws}`)),
);
const brokenPair = fc
  .tuple(brokenVersion, version, fc.boolean())
  .map(([bad, good, swap]): [string, string] => (swap ? [good, bad] : [bad, good]));
/** Anything short of the marks a version is made of. */
const anyText = fc.string({ unit: fc.constantFrom(...'0019.. -+a'), maxLength: 8 });

const LONG = Array.from({ length: 1000 }, (_, i) => String(i % 10)).join('.');

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  return differential(ctx, {
    seed: 'tdd_strict_v1',
    reference: 'reference',
    // The instruction names the error: ValueError.
    errors: 'type',
    functions: [
      {
        module: IMPL,
        name: 'compare_versions',
        count: 300,
        args: fc.oneof(
          { weight: 3, arbitrary: nearPair },
          { weight: 2, arbitrary: fc.tuple(version, version) },
          { weight: 3, arbitrary: brokenPair },
          { weight: 1, arbitrary: longPair },
          { weight: 1, arbitrary: fc.tuple(anyText, anyText) },
        ),
        edges: [
          ...[
            ['1.10', '1.9'],
            ['1.9', '1.10'],
            ['1.2', '1.2.0'],
            ['1.2.0.0', '1.2'],
            ['2', '2.0.1'],
            ['0', '0'],
            ['0', '0.0.0'],
            ['0.0.1', '0'],
            ['1.02', '1.2'],
            ['007', '7'],
            ['10.0', '9.99.99'],
            ['18446744073709551616', '18446744073709551615'],
            [LONG, `${LONG}.0`],
            [LONG, `${LONG}.1`],
          ],
          ...['', '.', '1..2', '1.', '.1', '1.a', 'v1', '-1', '+1', ' 1', '1 ', '1 .2', '1. 2', '1,2']
            .concat(['1.2\n', '1\t', '\n1', '1_0', '1e3', '0x1', '\u00a01', '1\u200b'])
            .flatMap((bad) => [
              [bad, '1.0'],
              ['1.0', bad],
            ]),
        ],
      },
    ],
  });
}
