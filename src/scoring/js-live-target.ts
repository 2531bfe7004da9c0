/**
 * What the liveness walk (js-live.ts) reports and how it names things: the targets of calls and
 * arguments (a binding and the properties read off it, through `const f = other` aliases).
 */
import type { CallExpression, Function as FunctionNode, Node, OptionalCallExpression } from '@babel/types';
import { unwrapTs } from './js-constant.js';
import type { Binding, Scope } from './js-scope.js';

/**
 * How an expression's value is used: called, passed on or stored (`value`), only read or tested
 * (`inspect`: an operand, a condition, a template part), or thrown away (`discard`).
 */
export type Use = 'call' | 'value' | 'inspect' | 'discard';

/** What a callee or argument names: a binding (null for a global) and the properties read off it. */
export interface Target {
  binding: Binding | null;
  root: string;
  path: string[];
}

type AnyCall = CallExpression | OptionalCallExpression;

export interface LiveCall {
  node: AnyCall;
  /** null for a computed callee (`a[0]()`, `f()()`). */
  target: Target | null;
  /** The call's value is used; false for `f();`, `void f()`, `a, f()`'s first part. */
  used: boolean;
  /** The scope the call is made in (a function passed to it is declared there). */
  scope: Scope;
}

/** A named value passed straight to a call: `assert.throws(fn)`. */
interface LiveArgument {
  target: Target;
  call: AnyCall;
}

export interface LiveCode {
  calls: LiveCall[];
  arguments: LiveArgument[];
  /** Functions whose bodies can run, each with the scope of its parameters. */
  functions: Map<Node, Scope>;
  /** Every node of live code that was walked. */
  nodes: Set<Node>;
}

/** The static name of a member's property: `a.b`, `a['b']`; null when computed. */
export function memberKey(e: Node): string | null {
  if (e.type !== 'MemberExpression' && e.type !== 'OptionalMemberExpression') return null;
  const p = e.property;
  if (!e.computed && p.type === 'Identifier') return p.name;
  return p.type === 'StringLiteral' ? p.value : null;
}

/** What expression e names in scope, through `const f = other` aliases. */
export function targetOf(e: Node, scope: Scope, depth = 0): Target | null {
  const n = unwrapTs(e);
  if (n.type === 'Identifier') {
    const b = scope.lookup(n.name);
    const alias = b?.kind === 'const' ? b.value : undefined;
    if (b !== null && alias !== undefined && depth < 8) {
      const a = unwrapTs(alias);
      if (a.type === 'Identifier' || a.type === 'MemberExpression') {
        const t = targetOf(a, b.scope, depth + 1);
        if (t !== null) return t;
      }
    }
    return { binding: b, root: n.name, path: [] };
  }
  if (n.type === 'ThisExpression') return { binding: null, root: 'this', path: [] };
  const key = memberKey(n);
  if (key === null || (n.type !== 'MemberExpression' && n.type !== 'OptionalMemberExpression')) return null;
  const t = targetOf(n.object, scope, depth);
  return t === null ? null : { ...t, path: [...t.path, key] };
}

export const isFunction = (n: Node): n is FunctionNode =>
  n.type === 'FunctionDeclaration' ||
  n.type === 'FunctionExpression' ||
  n.type === 'ArrowFunctionExpression' ||
  n.type === 'ObjectMethod' ||
  n.type === 'ClassMethod' ||
  n.type === 'ClassPrivateMethod';

export const runs = (use: Use): boolean => use === 'call' || use === 'value';
