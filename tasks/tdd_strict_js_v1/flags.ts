/**
 * tdd_strict_js_v1's checks: the test file appeared before the code, was seen failing on the
 * target in between, is a real suite (its syntax tree), and passes with the code and a hidden
 * contract.
 *
 * What makes the agent's test file a real test suite, read off its syntax tree: it imports
 * parsePages from ./pages.mjs; every node:test test that can run both calls parsePages and makes an
 * assertion that can fail, in code that runs (directly, through a helper the test calls, or in a
 * function it hands to `assert.throws`/`assert.rejects`); nothing is skipped, focused or left to do,
 * and no test sits where it never runs. Accepted assertions are node:assert's, however imported
 * (`assert.equal`, `assert(x)`, `deepEqual`, `assert.strict.equal`), and the test context's
 * `t.assert.*`. Dead code (`if (false)`, after a return, a helper nothing calls) asserts nothing;
 * an assertion of constants only (`assert.ok(true)`, `assert.equal(1, 1)`) cannot fail, so neither.
 * What the syntax tree cannot see (an assertion whose failure a try/catch swallows, one of
 * `parsePages(x)` against itself, a test that returns before it checks) the mutation run does: the
 * tests must also fail on each wrong parser in hidden/mutants/, and on pages.mjs missing.
 *
 * `behavesLikeReference`: the agent's parsePages against the reference (hidden/reference/pages.mjs)
 * on drawn specs, beyond the hidden contract's few.
 */
import {
  afterChange,
  beforeChange,
  type CheckContext,
  changedBefore,
  constantTruth,
  differential,
  type File,
  type FlagOutcome,
  type FunctionNode,
  fc,
  firstChangeTurn,
  groundTruthPasses,
  HIDDEN_DIR,
  harnessNodeTest,
  hiddenMutants,
  isNodeTargetRed,
  jsRuns,
  type LiveCall,
  type LiveRoot,
  liveCode,
  MODULE_MISSING,
  type MutationPlan,
  miss,
  mutantsKilled,
  type Node,
  nodeRedSurvives,
  nodesOf,
  parseSource,
  type Scope,
  type Target,
  tapSummary,
  testModifiers,
  unwrapTs,
  WORKSPACE_DIR,
} from '../../src/kit/index.js';

const IMPL = 'pages.mjs';
const TESTS = 'pages.test.mjs';
const CONTRACT = 'pages.contract.test.mjs';
const MIN_TESTS = 4;
const OWN_RUN = harnessNodeTest(TESTS);
const CONTRACT_RUN = harnessNodeTest(`${HIDDEN_DIR}/${CONTRACT}`);
/** The wrong parsers the agent's tests must fail on: each breaks one rule of the instruction. */
export const MUTATION: MutationPlan = {
  module: IMPL,
  subject: 'parsePages',
  tests: OWN_RUN,
  mutants: [
    MODULE_MISSING,
    ...hiddenMutants(IMPL, ['unsorted', 'range_end_excluded', 'descending_accepted', 'blank_rejected']),
  ],
};

export function testFirst(ctx: CheckContext): FlagOutcome {
  const tests = firstChangeTurn(ctx, TESTS);
  const impl = firstChangeTurn(ctx, IMPL);
  if (tests === null) return miss('pages.test.mjs was never written');
  if (impl === null) return miss('pages.mjs was never written');
  return changedBefore(ctx, { path: TESTS, turn: tests }, { path: IMPL, turn: impl })
    ? { reached: true, turn: tests }
    : miss('pages.mjs appeared before the tests');
}

export async function redObserved(ctx: CheckContext): Promise<FlagOutcome> {
  const tests = firstChangeTurn(ctx, TESTS);
  if (tests === null) return miss('pages.test.mjs was never written');
  const impl = firstChangeTurn(ctx, IMPL);
  const red = jsRuns(ctx).find(
    (r) =>
      r.kind === 'test' &&
      isNodeTargetRed(ctx, r, IMPL) &&
      r.read.has(`${WORKSPACE_DIR}/${TESTS}`) &&
      afterChange(ctx, r.at, TESTS, tests) &&
      (impl === null || beforeChange(ctx, r.at, IMPL, impl)),
  );
  if (red === undefined)
    return miss('no run of the tests seen failing on the target, between the tests and the code');
  // The tests that were red stay, and pass at the end (deleting the one that failed is no fix).
  const lost = await nodeRedSurvives(ctx, red, (await ctx.groundTruth.run(OWN_RUN.command)).stdout);
  return lost === null ? { reached: true, turn: red.turn } : miss(lost);
}

export async function testsGenuine(ctx: CheckContext): Promise<FlagOutcome> {
  const audit = auditTestFile(await ctx.groundTruth.readFile(TESTS));
  return audit.ok ? mutantsKilled(ctx, MUTATION) : miss(audit.problem);
}

export async function testsPass(ctx: CheckContext): Promise<FlagOutcome> {
  const own = await ctx.groundTruth.run(OWN_RUN.command);
  const summary = tapSummary(own.stdout);
  if (own.exitCode !== 0 || own.timedOut || summary === null)
    return miss("the agent's tests fail (or there are none)");
  if (summary.pass < MIN_TESTS)
    return miss(`${summary.pass} tests pass; at least ${MIN_TESTS} are asked for`);
  if (summary.skipped + summary.todo + summary.cancelled > 0)
    return miss('some tests are skipped, cancelled or todo');
  if (!(await groundTruthPasses(ctx, CONTRACT_RUN))) return miss('pages.mjs fails the hidden contract');
  return { reached: true, turn: null };
}

/**
 * Page selections as the instruction defines them, with ASCII spaces only (what else `trim()` and
 * `\s` take is no rule of it) and no leading zeros (whether "01" is a page it does not say).
 */
const page = fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 999 }));
const spaces = fc.constantFrom('', '', ' ', '  ');
const item = fc.oneof(
  fc.tuple(spaces, page, spaces).map(([a, n, b]) => `${a}${n}${b}`),
  fc
    .tuple(spaces, page, spaces, fc.integer({ min: 0, max: 40 }), spaces)
    .map(([a, n, b, span, c]) => `${a}${n}${b}-${b}${n + span}${c}`),
);
const spec = fc.array(item, { minLength: 1, maxLength: 8 }).map((items) => items.join(','));
/** What breaks a spec inside it: a space in a number, an empty item, a sign, a decimal, a letter. */
const breaking = fc.constantFrom(' ', ',', ',,', '-', '+', '.', 'x', 'é', ';', '½');
const brokenSpec = fc.tuple(spec, fc.nat(), breaking).map(([s, at, ch]) => {
  const i = at % (s.length + 1);
  return `${s.slice(0, i)}${ch}${s.slice(i)}`;
});
const reversedRange = fc.tuple(page, fc.integer({ min: 1, max: 40 })).map(([n, span]) => `${n + span}-${n}`);
/**
 * Anything short of the marks a spec is made of: no number longer than three digits (no range of
 * millions), none with a leading zero.
 */
const anySpec = fc
  .string({ unit: fc.constantFrom(...'0129 ,-x.'), maxLength: 10 })
  .filter((s) => !/\d{4}/.test(s) && !/(^|\D)0\d/.test(s));

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  return differential(ctx, {
    seed: 'tdd_strict_js_v1',
    reference: 'reference',
    functions: [
      {
        module: IMPL,
        name: SUBJECT,
        count: 300,
        args: fc.tuple(
          fc.oneof(
            { weight: 3, arbitrary: spec },
            { weight: 3, arbitrary: brokenSpec },
            { weight: 1, arbitrary: reversedRange },
            { weight: 1, arbitrary: anySpec },
          ),
        ),
        edges: [
          ...['', ' ', '   ', '7', '1-3,5', ' 2 , 4 - 6 ', '12,1-3,2', '3-3', '1 - 2', '100,9,10', '4-4,4'],
          ...[
            '1 2',
            '1,,2',
            ',',
            '1,',
            ',1',
            '0',
            '0-3',
            '3-1',
            '1-',
            '-1',
            'x',
            '2.5',
            '+3',
            '1-2-3',
            '1;2',
          ],
        ].map((s) => [s]),
      },
    ],
  });
}

const ASSERT_MODULES = new Set(['node:assert', 'assert', 'node:assert/strict', 'assert/strict']);
const TEST_MODULES = new Set(['node:test', 'test']);
const isPagesModule = (source: string): boolean => /^(\.\/|\/workspace\/)pages\.mjs$/.test(source);
const SUBJECT = 'parsePages';
const CASES = new Set(['test', 'it']);
const OPTIONS = ['skip', 'only', 'todo'] as const;
/** Assertions that call the function they are given. */
const INVOKING = new Set(['throws', 'doesNotThrow', 'rejects', 'doesNotReject']);

export type TestAudit = { ok: true; cases: number } | { ok: false; problem: string };

const lineOf = (n: Node): string => `line ${n.loc?.start.line ?? '?'}`;

/** The import a target names, with the properties read off it (`.call`/`.apply`/`.bind` dropped). */
function imported(t: Target | null): { source: string; names: string[] } | null {
  const from = t?.binding?.from;
  if (t === null || from === undefined) return null;
  const path = t.path.filter((p, i) => !(i === t.path.length - 1 && ['call', 'apply', 'bind'].includes(p)));
  return { source: from.source, names: [from.imported, ...path] };
}

/** `test(…)` or `it(…)` from node:test: named, default (node:test's default export is test), namespace. */
function isTestCall(t: Target | null): boolean {
  const i = imported(t);
  if (i === null || !TEST_MODULES.has(i.source)) return false;
  const names = i.names[0] === '*' || i.names[0] === 'default' ? i.names.slice(1) : i.names;
  if (i.names[0] === 'default' && names.length === 0) return true;
  return names.length === 1 && CASES.has(names[0] ?? '');
}

function isSubject(t: Target | null): boolean {
  const i = imported(t);
  if (i === null || !isPagesModule(i.source)) return false;
  const [first, ...rest] = i.names;
  if (first === SUBJECT) return rest.length === 0;
  return (first === '*' || first === 'default') && rest.length === 1 && rest[0] === SUBJECT;
}

/** An expression made of literals only: an assertion of nothing but these cannot fail on the code. */
function inert(n: Node): boolean {
  const e = unwrapTs(n);
  switch (e.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
    case 'RegExpLiteral':
      return true;
    case 'Identifier':
      return ['undefined', 'NaN', 'Infinity'].includes(e.name);
    case 'TemplateLiteral':
      return e.expressions.every((x) => inert(x));
    case 'ArrayExpression':
      return e.elements.every((x) => x === null || (x.type !== 'SpreadElement' && inert(x)));
    case 'ObjectExpression':
      return e.properties.every((p) => p.type === 'ObjectProperty' && !p.computed && inert(p.value));
    case 'UnaryExpression':
      return inert(e.argument);
    case 'BinaryExpression':
      return e.left.type !== 'PrivateName' && inert(e.left) && inert(e.right);
    case 'LogicalExpression':
      return inert(e.left) && inert(e.right);
    default:
      return false;
  }
}

/** The test's function: an inline callback, or a function it names. */
function callbackOf(call: LiveCall): LiveRoot | null {
  for (const a of [...call.node.arguments].reverse()) {
    const arg = unwrapTs(a);
    if (arg.type === 'ArrowFunctionExpression' || arg.type === 'FunctionExpression')
      return { fn: arg, scope: call.scope };
    if (arg.type !== 'Identifier') continue;
    const b = call.scope.lookup(arg.name);
    const v = b?.value === undefined ? undefined : unwrapTs(b.value);
    if (
      b !== null &&
      v !== undefined &&
      (v.type.endsWith('FunctionExpression') || v.type === 'FunctionDeclaration')
    )
      return { fn: v as FunctionNode, scope: b.scope };
  }
  return null;
}

/** `{ skip: …, todo: … }` passed to a test, inline or through a const, unless the value is plainly false. */
function optionSet(call: LiveCall): string | null {
  for (const a of call.node.arguments) {
    let arg: Node = unwrapTs(a);
    if (arg.type === 'Identifier') {
      const v = call.scope.lookup(arg.name)?.value;
      if (v !== undefined) arg = unwrapTs(v);
    }
    if (arg.type !== 'ObjectExpression') continue;
    for (const p of arg.properties) {
      if (p.type !== 'ObjectProperty') continue;
      const key =
        p.key.type === 'Identifier' ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : '';
      if ((OPTIONS as readonly string[]).includes(key) && constantTruth(p.value) !== false) return key;
    }
  }
  return null;
}

/** Where the test case's function makes a real assertion and calls parsePages, in code that runs. */
function auditCase(ast: File, root: LiveRoot): 'no-call' | 'no-assert' | null {
  const live = liveCode(ast, [root]);
  const scope: Scope | undefined = live.functions.get(root.fn);
  const first = root.fn.params[0];
  const context = first?.type === 'Identifier' ? scope?.bindings.get(first.name) : undefined;
  const isAssert = (t: Target | null): boolean => {
    if (t === null) return false;
    if (context !== undefined && t.binding === context) return t.path[0] === 'assert' && t.path.length >= 2;
    const i = imported(t);
    return i !== null && ASSERT_MODULES.has(i.source);
  };
  const asserts = live.calls.filter(
    (c) => isAssert(c.target) && c.node.arguments.length > 0 && !c.node.arguments.every((a) => inert(a)),
  );
  // `assert.throws(parsePages, RangeError)` calls it; `assert.ok(parsePages)` does not.
  const invoking = asserts.filter((c) =>
    INVOKING.has(imported(c.target)?.names.at(-1) ?? c.target?.path.at(-1) ?? ''),
  );
  const calls =
    live.calls.some((c) => isSubject(c.target)) ||
    live.arguments.some((a) => isSubject(a.target) && invoking.some((c) => c.node === a.call));
  if (!calls) return 'no-call';
  return asserts.length === 0 ? 'no-assert' : null;
}

export function auditTestFile(source: string | null): TestAudit {
  const fail = (problem: string): TestAudit => ({ ok: false, problem });
  if (source === null) return fail('pages.test.mjs does not exist');
  const parsed = parseSource(source, { typescript: false });
  if (parsed === null || parsed.errors.length > 0) return fail('pages.test.mjs does not parse');
  const { ast } = parsed;
  for (const modifier of OPTIONS) {
    const found = testModifiers(ast, modifier)[0];
    if (found !== undefined) return fail(`a test is marked ${modifier} (${lineOf(found)})`);
  }
  const subjectImported = ast.program.body.some(
    (s) => s.type === 'ImportDeclaration' && isPagesModule(s.source.value) && s.importKind !== 'type',
  );
  if (!subjectImported) return fail('parsePages is not imported from ./pages.mjs');
  const module = liveCode(ast);
  const cases = module.calls.filter((c) => isTestCall(c.target));
  const live = new Set(cases.map((c) => c.node));
  // A test written where nothing runs it is a test that never fails.
  const dead = nodesOf(ast.program).find(
    (n) =>
      n.type === 'CallExpression' &&
      n.callee.type === 'Identifier' &&
      CASES.has(n.callee.name) &&
      !live.has(n) &&
      !module.nodes.has(n),
  );
  if (dead !== undefined) return fail(`the test at ${lineOf(dead)} never runs`);
  if (cases.length === 0) return fail('no test(…) or it(…) from node:test with a callback');
  for (const c of cases) {
    const option = optionSet(c);
    if (option !== null) return fail(`a test is marked ${option} (${lineOf(c.node)})`);
    const root = callbackOf(c);
    if (root === null) return fail(`the test at ${lineOf(c.node)} has no function`);
    const verdict = auditCase(ast, root);
    if (verdict === 'no-call')
      return fail(`the test at ${lineOf(c.node)} never calls parsePages in code that runs`);
    if (verdict === 'no-assert')
      return fail(`the test at ${lineOf(c.node)} asserts nothing that can fail, in code that runs`);
  }
  return { ok: true, cases: cases.length };
}
