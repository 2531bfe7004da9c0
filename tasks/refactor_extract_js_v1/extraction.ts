/**
 * The syntax-tree side of the extraction: money.mjs exports a function formatCents, and each former
 * copy site imports it, calls it (directly or through a helper of its module) and keeps no money
 * formatting of its own.
 */
import type { Node } from '@babel/types';
import {
  calleeName,
  exportedBindings,
  importedCallees,
  nodesOf,
  parseSource,
  reachableCallees,
  topLevelFunction,
} from '../../src/scoring/js-ast.js';

export const MONEY_FILE = 'money.mjs';
const HELPER = 'formatCents';
/** Where the copies were: module -> the functions that held one. */
const COPY_SITES: Readonly<Record<string, readonly string[]>> = {
  'invoice.mjs': ['invoiceLine', 'invoiceTotal'],
  'refund.mjs': ['refundLine'],
};

type Verdict = { ok: true } | { ok: false; problem: string };
type ReadFile = (path: string) => Promise<string | null>;

const isMoneyModule = (source: string): boolean => /^(\.\/|\/workspace\/)money\.mjs$/.test(source);
const FORMATTING_METHODS = new Set(['padStart', 'padEnd', 'toFixed', 'toLocaleString']);

/** The called method's own name, whatever it is called on: `(x / 100).toFixed(2)` -> "toFixed". */
function methodName(callee: Node): string | null {
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')
    return calleeName(callee);
  return callee.property.type === 'Identifier' ? callee.property.name : null;
}

/** Pieces of money formatting: a regex, padding, toFixed, toLocaleString, Intl.NumberFormat. */
function formattingIn(fn: Node): Node[] {
  return nodesOf(fn).filter((n) => {
    if (n.type === 'RegExpLiteral') return true;
    if (n.type !== 'CallExpression' && n.type !== 'OptionalCallExpression' && n.type !== 'NewExpression')
      return false;
    const method = methodName(n.callee) ?? '';
    return FORMATTING_METHODS.has(method) || method === 'NumberFormat';
  });
}

function parse(source: string | null) {
  const parsed = source === null ? null : parseSource(source, { typescript: false });
  return parsed === null || parsed.errors.length > 0 ? null : parsed.ast;
}

export async function helperExported(readFile: ReadFile): Promise<Verdict> {
  const ast = parse(await readFile(MONEY_FILE));
  if (ast === null) return { ok: false, problem: `${MONEY_FILE} is missing or does not parse` };
  const local = exportedBindings(ast).get(HELPER);
  if (local === undefined || topLevelFunction(ast, local) === null)
    return { ok: false, problem: `${MONEY_FILE} does not export a function ${HELPER}` };
  return { ok: true };
}

export async function copySitesUseHelper(readFile: ReadFile): Promise<Verdict> {
  for (const [file, functions] of Object.entries(COPY_SITES)) {
    const ast = parse(await readFile(file));
    if (ast === null) return { ok: false, problem: `${file} is missing or does not parse` };
    const callees = importedCallees(ast, isMoneyModule, HELPER);
    if (callees.length === 0)
      return { ok: false, problem: `${file} does not import ${HELPER} from ./money.mjs` };
    for (const name of functions) {
      const fn = topLevelFunction(ast, name);
      if (fn === null) return { ok: false, problem: `${name} is no longer a function of ${file}` };
      const reached = reachableCallees(ast, fn);
      if (!callees.some((c) => reached.has(c)))
        return { ok: false, problem: `${name} does not call ${HELPER}` };
      const left = formattingIn(fn)[0];
      if (left !== undefined)
        return { ok: false, problem: `${name} still formats money itself (line ${left.loc?.start.line})` };
    }
  }
  return { ok: true };
}
