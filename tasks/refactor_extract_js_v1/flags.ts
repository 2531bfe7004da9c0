/**
 * refactor_extract_js_v1's checks. The syntax-tree side of the extraction. `extracted`: money.mjs
 * exports a function formatCents, and the formatting exists once: no piece of its implementation is
 * copied anywhere else (renamed, as an arrow, a local helper or an object method), the two former
 * copy modules hold no money formatting at all (live or dead: a duplicate is a duplicate), and
 * money.mjs holds no second formatter. `call_sites_use_it`: each former copy site imports
 * formatCents and calls it in live code (directly or through a live helper), using its result; a
 * call under `if (false)`, after a return, in a function nothing calls, or thrown away
 * (`formatCents(0);`) does not count, nor does a mere reference (`void formatCents`). Hidden tests
 * prove the helper plays the role of the copies and the behaviour is unchanged on their inputs;
 * `behavesLikeReference` on drawn ones (hidden/reference/ holds the refactored modules).
 */
import {
  type CheckContext,
  calleeName,
  clonesOf,
  constantValue,
  differential,
  exportedBindings,
  type File,
  type FlagOutcome,
  fc,
  greenAfterLastChange,
  groundTruthPasses,
  HIDDEN_DIR,
  harnessNodeTest,
  type LiveCall,
  liveCode,
  miss,
  type Node,
  nodesOf,
  parseSource,
  readBeforeChange,
  runBeforeFirstChange,
  sameEntry,
  type Target,
  topLevelRoot,
} from '../../src/kit/index.js';

const INVOICE_FILE = 'invoice.mjs';
const REFUND_FILE = 'refund.mjs';
const TESTS = 'billing.test.mjs';
const MONEY_FILE = 'money.mjs';
const SOURCES = [INVOICE_FILE, REFUND_FILE, MONEY_FILE];
const MONEY_RUN = harnessNodeTest(`${HIDDEN_DIR}/money.hidden.test.mjs`);
/** The hidden billing tests plus the (protected) visible suite. */
const BILLING_RUN = harnessNodeTest(`${HIDDEN_DIR}/billing.hidden.test.mjs ${TESTS}`);

const billingPasses = (ctx: CheckContext) => groundTruthPasses(ctx, BILLING_RUN);
const changed = (ctx: CheckContext, path: string) =>
  !sameEntry(ctx.setupSnapshot.get(path), ctx.finalSnapshot.get(path));

export function filesRead(ctx: CheckContext): FlagOutcome {
  const reads = [readBeforeChange(ctx, INVOICE_FILE), readBeforeChange(ctx, REFUND_FILE)];
  const turns = reads.flatMap((r) => (r.reached ? [r.turn ?? 0] : []));
  const missed = reads.find((r) => !r.reached);
  return missed === undefined ? { reached: true, turn: Math.max(...turns) } : missed;
}

export const baselineGreen = (ctx: CheckContext): FlagOutcome =>
  runBeforeFirstChange(ctx, SOURCES, 'test', (r) => r.exitCode === 0, [TESTS, INVOICE_FILE, REFUND_FILE]);

export async function extracted(ctx: CheckContext): Promise<FlagOutcome> {
  const verdict = await helperExported((p) => ctx.groundTruth.readFile(p));
  if (!verdict.ok) return miss(verdict.problem);
  if (!(await groundTruthPasses(ctx, MONEY_RUN))) return miss('formatCents fails the hidden tests');
  return { reached: true, turn: null };
}

export async function callSitesUseIt(ctx: CheckContext): Promise<FlagOutcome> {
  const verdict = await copySitesUseHelper((p) => ctx.groundTruth.readFile(p));
  return verdict.ok ? { reached: true, turn: null } : miss(verdict.problem);
}

export async function behaviourKept(ctx: CheckContext): Promise<FlagOutcome> {
  const untouched = [INVOICE_FILE, REFUND_FILE].filter((p) => !changed(ctx, p));
  if (untouched.length > 0) return miss(`not refactored: ${untouched.join(', ')}`);
  return (await billingPasses(ctx)) ? { reached: true, turn: null } : miss('the billing tests fail');
}

export const selfVerify = (ctx: CheckContext): Promise<FlagOutcome> =>
  greenAfterLastChange(ctx, SOURCES, 'test', () => billingPasses(ctx), [TESTS, ...SOURCES]);

/**
 * Integer cents of every size the code handles: small, a few digits either side of every
 * thousands separator, past 32 bits (where `| 0` truncates), up to the largest safe integer.
 */
const cents = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
);
/** Any text: names and reasons are shown as they are. */
const label = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }));
const item = fc.record({
  name: label,
  qty: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: -5, max: 0 })),
  unitCents: fc.integer({ min: -1e9, max: 1e9 }),
});
const CENTS_EDGES = [
  0,
  1,
  -1,
  5,
  99,
  -99,
  100,
  -100,
  101,
  99_999,
  100_000,
  2 ** 31 - 1,
  2 ** 31,
  214_748_364_800,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
];

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  return differential(ctx, {
    seed: 'refactor_extract_js_v1',
    reference: 'reference',
    functions: [
      { module: MONEY_FILE, name: HELPER, args: fc.tuple(cents), edges: CENTS_EDGES.map((c) => [c]) },
      {
        module: INVOICE_FILE,
        name: 'invoiceLine',
        args: fc.tuple(item),
        edges: [[{ name: '', qty: 0, unitCents: 5 }], [{ name: 'Crate', qty: 1, unitCents: 2 ** 31 }]],
      },
      {
        module: INVOICE_FILE,
        name: 'invoiceTotal',
        args: fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: fc.array(item, { maxLength: 6 }) },
            fc.array(item, { minLength: 20, maxLength: 40 }),
          ),
        ),
        edges: [[[]], [[{ name: 'A', qty: 1, unitCents: -1 }]]],
      },
      {
        module: REFUND_FILE,
        name: 'refundLine',
        args: fc.tuple(fc.record({ id: label, reason: label, cents })),
        edges: [[{ id: 'R-0', reason: '', cents: 0 }], [{ id: 'R-1', reason: 'x', cents: -(2 ** 31) }]],
      },
    ],
  });
}

const HELPER = 'formatCents';
/** Where the copies were: module -> the functions that held one. */
const COPY_SITES: Readonly<Record<string, readonly string[]>> = {
  'invoice.mjs': ['invoiceLine', 'invoiceTotal'],
  'refund.mjs': ['refundLine'],
};
/**
 * The smallest piece of the implementation (in syntax nodes) whose reappearance is a copy: a line
 * such as `String(Math.floor(abs / 100)).replace(/…/g, ',')` is 17, while `item.unitCents *
 * item.qty`, which the billing code may well repeat, is 7.
 */
const CLONE_MIN_NODES = 12;

type Verdict = { ok: true } | { ok: false; problem: string };
type ReadFile = (path: string) => Promise<string | null>;

const isMoneyModule = (source: string): boolean => /^(\.\/|\/workspace\/)money\.mjs$/.test(source);
const lineOf = (n: Node): string => `line ${n.loc?.start.line ?? '?'}`;

function parse(source: string | null): File | null {
  const parsed = source === null ? null : parseSource(source, { typescript: false });
  return parsed === null || parsed.errors.length > 0 ? null : parsed.ast;
}

/** The functions of money.mjs that running formatCents can run; null when it exports no function formatCents. */
function implementation(money: File): Set<Node> | null {
  const local = exportedBindings(money).get(HELPER);
  const root = local === undefined ? null : topLevelRoot(money, local);
  return root === null ? null : new Set(liveCode(money, [root]).functions.keys());
}

/** A second function of money.mjs that formats money in more than one way on its own. */
function secondFormatter(money: File, inside: ReadonlySet<Node>): Node | null {
  for (const n of nodesOf(money.program)) {
    const isFn =
      n.type.endsWith('FunctionExpression') || n.type === 'FunctionDeclaration' || n.type === 'ObjectMethod';
    if (!isFn || inside.has(n)) continue;
    if (new Set(formattingIn(n).map((p) => p.kind)).size >= 2) return n;
  }
  return null;
}

export async function helperExported(readFile: ReadFile): Promise<Verdict> {
  const fail = (problem: string): Verdict => ({ ok: false, problem });
  const money = parse(await readFile(MONEY_FILE));
  if (money === null) return fail(`${MONEY_FILE} is missing or does not parse`);
  const impl = implementation(money);
  if (impl === null) return fail(`${MONEY_FILE} does not export a function ${HELPER}`);
  const inside = new Set([...impl].flatMap((fn) => nodesOf(fn)));
  const sites: [string, File][] = [];
  for (const file of Object.keys(COPY_SITES)) {
    const ast = parse(await readFile(file));
    if (ast === null) return fail(`${file} is missing or does not parse`);
    sites.push([file, ast]);
  }
  const copyIn = (file: string, root: Node, exclude?: ReadonlySet<Node>) =>
    clonesOf([...impl], [root], CLONE_MIN_NODES, exclude).map((c) => `${file} ${lineOf(c.copy)}`);
  const copies = [
    ...copyIn(MONEY_FILE, money.program, inside),
    ...sites.flatMap(([file, ast]) => copyIn(file, ast.program)),
  ];
  if (copies.length > 0) return fail(`the formatting of ${HELPER} is copied at ${copies.join(', ')}`);
  for (const [file, ast] of sites) {
    const piece = formattingIn(ast.program)[0];
    if (piece !== undefined)
      return fail(`${file} still formats money (${piece.kind}, ${lineOf(piece.node)})`);
  }
  const second = secondFormatter(money, inside);
  if (second !== null) return fail(`${MONEY_FILE} holds a second money formatter (${lineOf(second)})`);
  return { ok: true };
}

/** formatCents as imported from money.mjs: `formatCents`, an alias, `money.formatCents`, `.call`/`.apply` of it. */
function callsHelper(t: Target | null): boolean {
  const from = t?.binding?.from;
  if (t === null || from === undefined || !isMoneyModule(from.source)) return false;
  const path = ['call', 'apply'].includes(t.path.at(-1) ?? '') ? t.path.slice(0, -1) : t.path;
  if (from.imported === HELPER) return path.length === 0;
  return (from.imported === '*' || from.imported === 'default') && path.length === 1 && path[0] === HELPER;
}

export async function copySitesUseHelper(readFile: ReadFile): Promise<Verdict> {
  const fail = (problem: string): Verdict => ({ ok: false, problem });
  for (const [file, functions] of Object.entries(COPY_SITES)) {
    const ast = parse(await readFile(file));
    if (ast === null) return fail(`${file} is missing or does not parse`);
    const imported = ast.program.body.some(
      (s) => s.type === 'ImportDeclaration' && isMoneyModule(s.source.value) && s.importKind !== 'type',
    );
    if (!imported) return fail(`${file} does not import ${HELPER} from ./money.mjs`);
    for (const name of functions) {
      const root = topLevelRoot(ast, name);
      if (root === null) return fail(`${name} is no longer a function of ${file}`);
      const calls: LiveCall[] = liveCode(ast, [root]).calls.filter((c) => callsHelper(c.target));
      if (!calls.some((c) => c.used))
        return fail(
          calls.length > 0
            ? `${name} throws the result of ${HELPER} away`
            : `${name} does not call ${HELPER} in code that runs`,
        );
    }
    const piece = formattingIn(ast.program)[0];
    if (piece !== undefined)
      return fail(`${file} still formats money itself (${piece.kind}, ${lineOf(piece.node)})`);
  }
  return { ok: true };
}

// What money formatting looks like in code, whatever it is called and wherever it sits: the
// pieces every way of turning integer cents into "-$1,234.50" needs at least one of. A copy site
// whose module holds any of them, live or dead, still formats money itself.

type FormattingKind = 'regex' | 'padding' | 'decimals' | 'grouping' | 'cents' | 'currency';

interface FormattingPiece {
  kind: FormattingKind;
  node: Node;
}

const METHODS: ReadonlyMap<string, FormattingKind> = new Map([
  ['padStart', 'padding'],
  ['padEnd', 'padding'],
  ['toFixed', 'decimals'],
  ['toPrecision', 'decimals'],
  ['toLocaleString', 'grouping'],
  ['NumberFormat', 'grouping'],
  ['RegExp', 'regex'],
]);

/** The called method's own name, whatever it is called on: `(x / 100).toFixed(2)` -> "toFixed". */
function methodName(callee: Node): string | null {
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')
    return calleeName(callee);
  if (!callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return callee.property.type === 'StringLiteral' ? callee.property.value : null;
}

const isNumber = (n: Node, value: number): boolean => constantValue(n)?.value === value;

/** `x / 100`, `x % 100`, `x * 0.01`: cents to dollars. */
function centsArithmetic(n: Node): boolean {
  if (n.type !== 'BinaryExpression' && n.type !== 'AssignmentExpression') return false;
  const op = n.operator.replace(/=$/, '');
  if (op === '/' || op === '%') return isNumber(n.right, 100);
  if (op === '*') return isNumber(n.right, 0.01) || (n.left.type !== 'PrivateName' && isNumber(n.left, 0.01));
  return false;
}

/** A dollar sign in text: a string literal or a template's text. */
function currencyText(n: Node): boolean {
  if (n.type === 'StringLiteral') return n.value.includes('$');
  if (n.type === 'TemplateElement') return (n.value.cooked ?? n.value.raw).includes('$');
  return false;
}

/** Every piece of money formatting under root, in source order. */
function formattingIn(root: Node): FormattingPiece[] {
  const out: FormattingPiece[] = [];
  for (const n of nodesOf(root)) {
    if (n.type === 'RegExpLiteral') out.push({ kind: 'regex', node: n });
    else if (
      n.type === 'CallExpression' ||
      n.type === 'OptionalCallExpression' ||
      n.type === 'NewExpression'
    ) {
      const method = methodName(n.callee) ?? '';
      const kind = METHODS.get(method);
      if (kind !== undefined) out.push({ kind, node: n });
      // `s.slice(0, -2)`: the dollars of a digit string, cut by hand.
      if (method === 'slice' && n.arguments.some((a) => isNumber(a, -2)))
        out.push({ kind: 'cents', node: n });
    } else if (centsArithmetic(n)) out.push({ kind: 'cents', node: n });
    else if (currencyText(n)) out.push({ kind: 'currency', node: n });
  }
  return out;
}
