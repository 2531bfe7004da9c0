/**
 * What a JavaScript syntax tree decides without running: the value of constant expressions
 * (`0`, `!1`, `'a' === 'b'`, `void 0`), the truthiness of conditions (`false && x`, `x && false`,
 * `[]`), and statements that always leave their block (`return`, `throw`, `break`, `continue`, or an
 * `if` whose live branches all do). The liveness walk (js-live.ts) prunes dead code with these.
 */
import type { Expression, Node, Statement } from '@babel/types';

type Primitive = string | number | boolean | null | undefined | bigint;
type Constant = { value: Primitive } | null;

/** TypeScript wrappers that change the type, never the value. */
export function unwrapTs(node: Node): Node {
  let n = node;
  while (
    n.type === 'TSAsExpression' ||
    n.type === 'TSSatisfiesExpression' ||
    n.type === 'TSNonNullExpression' ||
    n.type === 'TSTypeAssertion' ||
    n.type === 'ParenthesizedExpression'
  )
    n = n.expression;
  return n;
}

const GLOBAL_CONSTANTS: Readonly<Record<string, Primitive>> = {
  undefined: undefined,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
};

/** Operators on two primitives, evaluated here as JavaScript would (primitives only, so nothing runs). */
function binary(op: string, l: Primitive, r: Primitive): Constant {
  // biome-ignore lint/suspicious/noExplicitAny: operands are primitives; JS semantics are the point
  const [a, b] = [l as any, r as any];
  const ops: Record<string, () => Primitive> = {
    '===': () => a === b,
    '!==': () => a !== b,
    // biome-ignore lint/suspicious/noDoubleEquals: loose equality is the operator being folded
    '==': () => a == b,
    // biome-ignore lint/suspicious/noDoubleEquals: loose equality is the operator being folded
    '!=': () => a != b,
    '<': () => a < b,
    '>': () => a > b,
    '<=': () => a <= b,
    '>=': () => a >= b,
    '+': () => a + b,
    '-': () => a - b,
    '*': () => a * b,
    '/': () => a / b,
    '%': () => a % b,
  };
  const f = ops[op];
  if (f === undefined) return null;
  try {
    return { value: f() };
  } catch {
    return null;
  }
}

/** The value of an expression made only of literals and operators; null when it depends on anything else. */
export function constantValue(node: Node, shadowed: (name: string) => boolean = () => false): Constant {
  const n = unwrapTs(node);
  const sub = (x: Node) => constantValue(x, shadowed);
  switch (n.type) {
    case 'BooleanLiteral':
    case 'NumericLiteral':
    case 'StringLiteral':
      return { value: n.value };
    case 'NullLiteral':
      return { value: null };
    case 'BigIntLiteral':
      return { value: BigInt(n.value) };
    case 'Identifier':
      return n.name in GLOBAL_CONSTANTS && !shadowed(n.name) ? { value: GLOBAL_CONSTANTS[n.name] } : null;
    case 'TemplateLiteral':
      return n.expressions.length === 0 ? { value: n.quasis[0]?.value.cooked ?? '' } : null;
    case 'UnaryExpression': {
      if (n.operator === 'void') return { value: undefined };
      const v = sub(n.argument);
      if (v === null) return null;
      if (n.operator === '!') return { value: !v.value };
      if (n.operator === '-' && typeof v.value === 'number') return { value: -v.value };
      if (n.operator === '+' && typeof v.value === 'number') return { value: v.value };
      if (n.operator === 'typeof') return { value: v.value === null ? 'object' : typeof v.value };
      return null;
    }
    case 'BinaryExpression': {
      const [l, r] = [n.left.type === 'PrivateName' ? null : sub(n.left), sub(n.right)];
      return l === null || r === null ? null : binary(n.operator, l.value, r.value);
    }
    case 'LogicalExpression': {
      const [l, r] = [sub(n.left), sub(n.right)];
      if (l === null) return null;
      if (n.operator === '&&') return l.value ? r : l;
      if (n.operator === '||') return l.value ? l : r;
      return l.value === null || l.value === undefined ? r : l;
    }
    case 'SequenceExpression': {
      const last = n.expressions.at(-1);
      return last === undefined ? null : sub(last);
    }
    case 'ConditionalExpression': {
      const t = sub(n.test);
      return t === null ? null : sub(t.value ? n.consequent : n.alternate);
    }
    default:
      return null;
  }
}

/** Objects, arrays, functions, classes and regexes are truthy whatever they hold. */
const ALWAYS_TRUTHY = new Set([
  'ObjectExpression',
  'ArrayExpression',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassExpression',
  'RegExpLiteral',
  'NewExpression',
]);

/** A string that cannot be empty: `'a'`, `` `a${x}` ``, `'a' + x`. */
function nonEmptyString(n: Node): boolean {
  if (n.type === 'StringLiteral') return n.value !== '';
  if (n.type === 'TemplateLiteral') return n.quasis.some((q) => (q.value.cooked ?? q.value.raw) !== '');
  if (n.type === 'BinaryExpression' && n.operator === '+')
    return (
      (n.left.type !== 'PrivateName' && nonEmptyString(unwrapTs(n.left))) || nonEmptyString(unwrapTs(n.right))
    );
  return false;
}

/** true or false when the condition's truthiness is fixed (`0`, `x && false`, `true || x`, `[]`); null otherwise. */
export function constantTruth(node: Node, shadowed: (name: string) => boolean = () => false): boolean | null {
  const n = unwrapTs(node);
  if (ALWAYS_TRUTHY.has(n.type) || nonEmptyString(n)) return true;
  const v = constantValue(n, shadowed);
  if (v !== null) return Boolean(v.value);
  const truth = (x: Node) => constantTruth(x, shadowed);
  if (n.type === 'UnaryExpression' && n.operator === '!') {
    const t = truth(n.argument);
    return t === null ? null : !t;
  }
  if (n.type === 'LogicalExpression') {
    const [l, r] = [truth(n.left), truth(n.right)];
    if (n.operator === '&&') return l === false || r === false ? false : l === true ? r : null;
    if (n.operator === '||') return l === true || r === true ? true : l === false ? r : null;
  }
  if (n.type === 'SequenceExpression') {
    const last = n.expressions.at(-1);
    return last === undefined ? null : truth(last);
  }
  if (n.type === 'ConditionalExpression') {
    const t = truth(n.test);
    if (t !== null) return truth(t ? n.consequent : n.alternate);
    const [c, a] = [truth(n.consequent), truth(n.alternate)];
    return c !== null && c === a ? c : null;
  }
  return null;
}

/** Whether `left ?? right` never evaluates right: left is a constant other than null and undefined. */
export function nonNullishConstant(node: Expression, shadowed: (name: string) => boolean): boolean {
  const n = unwrapTs(node);
  if (ALWAYS_TRUTHY.has(n.type) || n.type === 'TemplateLiteral' || nonEmptyString(n)) return true;
  const v = constantValue(node, shadowed);
  return v !== null && v.value !== null && v.value !== undefined;
}

/**
 * Whether running the statement never reaches the next one of its block: it returns, throws,
 * breaks or continues on every path the syntax allows (constant conditions included).
 */
export function alwaysLeaves(s: Statement, shadowed: (name: string) => boolean = () => false): boolean {
  const leaves = (x: Statement | null | undefined) =>
    x !== null && x !== undefined && alwaysLeaves(x, shadowed);
  switch (s.type) {
    case 'ReturnStatement':
    case 'ThrowStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return true;
    case 'BlockStatement':
      return s.body.some((x) => leaves(x));
    case 'IfStatement': {
      const t = constantTruth(s.test, shadowed);
      if (t === true) return leaves(s.consequent);
      if (t === false) return leaves(s.alternate);
      return leaves(s.consequent) && leaves(s.alternate);
    }
    case 'TryStatement':
      return leaves(s.finalizer) || (leaves(s.block) && (!s.handler || leaves(s.handler.body)));
    default:
      return false;
  }
}
