/**
 * The syntax-tree side of the extraction. `extracted`: money.mjs exports a function formatCents,
 * and the formatting exists once: no piece of its implementation is copied anywhere else (renamed,
 * as an arrow, a local helper or an object method), the two former copy modules hold no money
 * formatting at all (live or dead: a duplicate is a duplicate), and money.mjs holds no second
 * formatter. `call_sites_use_it`: each former copy site imports formatCents and calls it in live
 * code (directly or through a live helper), using its result; a call under `if (false)`, after a
 * return, in a function nothing calls, or thrown away (`formatCents(0);`) does not count, nor does a
 * mere reference (`void formatCents`).
 */
import type { File, Node } from '@babel/types';
import { exportedBindings, nodesOf, parseSource } from '../../src/scoring/js-ast.js';
import { clonesOf } from '../../src/scoring/js-clones.js';
import { type LiveCall, liveCode, type Target, topLevelRoot } from '../../src/scoring/js-live.js';
import { formattingIn } from './formatting.js';

export const MONEY_FILE = 'money.mjs';
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
