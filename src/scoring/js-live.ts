/**
 * The code of a JavaScript module that can run, read off its syntax tree: from the module's own
 * top level and exports (or from chosen functions), through every function that live code calls or
 * hands on (as an argument, a stored value, a return), with dead code left out: branches under a
 * constant condition (`if (false)`, `while (0)`, `false && f()`, `x && false`), statements after
 * an unconditional return/throw/break/continue, and functions nothing live calls or passes on.
 * A reference that cannot call a function (`void f`, `f;`, `typeof f`, `${f}`) keeps it dead.
 * Checks that demand something (a call, an assertion) count it only here; checks that forbid
 * something should look at the whole file, dead code included.
 */
import type { File, Function as FunctionNode } from '@babel/types';
import { unwrapTs } from './js-constant.js';
import { Walk } from './js-live-statements.js';
import { isFunction, type LiveCode } from './js-live-target.js';
import { declareBlock, Scope } from './js-scope.js';

export type { LiveCall, LiveCode, Target } from './js-live-target.js';
export { targetOf } from './js-live-target.js';

const scopes = new WeakMap<File, Scope>();

/** The module's own scope (imports, top-level declarations), the same object for every walk of ast. */
export function moduleScope(ast: File): Scope {
  let scope = scopes.get(ast);
  if (scope === undefined) {
    scope = new Scope(null);
    declareBlock(scope, ast.program.body, { hoist: true });
    scopes.set(ast, scope);
  }
  return scope;
}

/** A function to start from, and the scope it is declared in. */
export interface LiveRoot {
  fn: FunctionNode;
  scope: Scope;
}

/**
 * The live code of the module (its top level and its exports) or, given roots, of what running
 * those functions can run.
 */
export function liveCode(ast: File, roots?: readonly LiveRoot[]): LiveCode {
  const walk = new Walk();
  if (roots === undefined) walk.statements(ast.program.body, moduleScope(ast));
  else for (const r of roots) walk.enterFunction(r.fn, r.scope);
  return walk.out;
}

/** The function a top-level name is bound to, with its scope, for liveCode's roots. */
export function topLevelRoot(ast: File, name: string): LiveRoot | null {
  const scope = moduleScope(ast);
  const v = scope.bindings.get(name)?.value;
  const fn = v === undefined ? null : unwrapTs(v);
  return fn !== null && isFunction(fn) ? { fn, scope } : null;
}
