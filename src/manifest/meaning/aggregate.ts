/**
 * A `derived_from` value's formula: `count`, or `sum`, `mean`, `min` or `max` of an arithmetic
 * expression over a row's columns (`sum(units * price)`, `mean(minutes / 60)`): numbers, column
 * names (`units`, or `` `unit price` `` for a name with other characters), `+ - * /` and brackets.
 * Parsed once, when the manifest loads; applied to the rows of the fresh input.
 */
import type { Row } from './table-input.js';

type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'column'; name: string }
  | { kind: 'negate'; of: Expr }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr };

export interface Aggregate {
  fn: 'count' | 'sum' | 'mean' | 'min' | 'max';
  /** null for count. */
  expr: Expr | null;
  /** The formula as written, to name it in details. */
  source: string;
}

const FUNCTIONS = new Set(['sum', 'mean', 'min', 'max']);
const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|`([^`]+)`|([-+*/()]))/y;

/** The formula parsed, or why it cannot be. */
export function parseAggregate(source: string): Aggregate | string {
  const tokens = tokenize(source);
  if (typeof tokens === 'string') return tokens;
  const [head, open] = tokens;
  if (
    head?.name === 'count' &&
    (tokens.length === 1 || (open?.op === '(' && tokens[2]?.op === ')' && tokens.length === 3))
  )
    return { fn: 'count', expr: null, source };
  if (head?.name === undefined || !FUNCTIONS.has(head.name) || open?.op !== '(' || tokens.at(-1)?.op !== ')')
    return `${JSON.stringify(source)}: write count, or sum, mean, min or max of an expression: sum(units * price)`;
  const p = { tokens: tokens.slice(2, -1), at: 0 };
  const expr = parseSum(p);
  if (typeof expr === 'string') return `${JSON.stringify(source)}: ${expr}`;
  if (p.at !== p.tokens.length) return `${JSON.stringify(source)}: unexpected ${describe(p.tokens[p.at])}`;
  return { fn: head.name as Aggregate['fn'], expr, source };
}

interface Token {
  number?: number;
  name?: string;
  op?: string;
}

function tokenize(source: string): Token[] | string {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (source.slice(at).trim() !== '') {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(source);
    if (m === null)
      return `${JSON.stringify(source)}: cannot read ${JSON.stringify(source.slice(at).trim())}`;
    at = TOKEN.lastIndex;
    if (m[1] !== undefined) out.push({ number: Number(m[1]) });
    else if (m[4] !== undefined) out.push({ op: m[4] });
    else out.push({ name: m[2] ?? m[3] ?? '' });
  }
  return out;
}

interface Parse {
  tokens: Token[];
  at: number;
}

function parseSum(p: Parse): Expr | string {
  return parseLeft(p, ['+', '-'], parseProduct);
}

function parseProduct(p: Parse): Expr | string {
  return parseLeft(p, ['*', '/'], parseFactor);
}

function parseLeft(p: Parse, ops: string[], next: (p: Parse) => Expr | string): Expr | string {
  let left = next(p);
  for (
    let t = p.tokens[p.at];
    typeof left !== 'string' && t?.op !== undefined && ops.includes(t.op);
    t = p.tokens[p.at]
  ) {
    p.at++;
    const right = next(p);
    if (typeof right === 'string') return right;
    left = { kind: 'binary', op: t.op as '+' | '-' | '*' | '/', left, right };
  }
  return left;
}

function parseFactor(p: Parse): Expr | string {
  const t = p.tokens[p.at++];
  if (t?.number !== undefined) return { kind: 'number', value: t.number };
  if (t?.name !== undefined) return { kind: 'column', name: t.name };
  if (t?.op === '-') {
    const of = parseFactor(p);
    return typeof of === 'string' ? of : { kind: 'negate', of };
  }
  if (t?.op === '(') {
    const inner = parseSum(p);
    if (typeof inner === 'string') return inner;
    if (p.tokens[p.at++]?.op !== ')') return 'a bracket is never closed';
    return inner;
  }
  return `unexpected ${describe(t)}`;
}

function describe(t: Token | undefined): string {
  if (t === undefined) return 'end';
  return JSON.stringify(t.name ?? t.op ?? String(t.number));
}

/** The columns the formula reads. */
export function columnsOf(a: Aggregate): string[] {
  const out = new Set<string>();
  const pending: Expr[] = a.expr === null ? [] : [a.expr];
  for (let e = pending.pop(); e !== undefined; e = pending.pop()) {
    if (e.kind === 'column') out.add(e.name);
    else if (e.kind === 'negate') pending.push(e.of);
    else if (e.kind === 'binary') pending.push(e.left, e.right);
  }
  return [...out];
}

/** The formula over the rows, or why it has no value (a cell that is no number, no rows to average). */
export function applyAggregate(a: Aggregate, rows: readonly Row[]): number | string {
  if (a.expr === null) return rows.length;
  const expr = a.expr;
  const values: number[] = [];
  for (const row of rows) {
    const v = evaluate(expr, row);
    if (typeof v === 'string') return v;
    values.push(v);
  }
  if (a.fn === 'sum') return values.reduce((s, v) => s + v, 0);
  if (values.length === 0) return `no rows to take the ${a.fn} of`;
  if (a.fn === 'mean') return values.reduce((s, v) => s + v, 0) / values.length;
  return values.reduce((m, v) => (a.fn === 'min' ? Math.min(m, v) : Math.max(m, v)));
}

function evaluate(e: Expr, row: Row): number | string {
  if (e.kind === 'number') return e.value;
  if (e.kind === 'column') {
    const cell = (row[e.name] ?? '').trim();
    const n = cell === '' ? Number.NaN : Number(cell);
    return Number.isFinite(n) ? n : `${e.name} is ${JSON.stringify(cell)} in a row, which is no number`;
  }
  if (e.kind === 'negate') {
    const v = evaluate(e.of, row);
    return typeof v === 'string' ? v : -v;
  }
  const l = evaluate(e.left, row);
  const r = evaluate(e.right, row);
  if (typeof l === 'string') return l;
  if (typeof r === 'string') return r;
  const v = e.op === '+' ? l + r : e.op === '-' ? l - r : e.op === '*' ? l * r : l / r;
  return Number.isFinite(v) ? v : `${e.op === '/' ? 'a division by zero' : 'an overflow'} in a row`;
}
