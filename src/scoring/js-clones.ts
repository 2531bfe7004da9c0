/**
 * Structural copies in JavaScript: the same code under other names. Two pieces of syntax are copies
 * when they are equal once layout, comments, quoting and the names of variables, parameters and
 * functions are set aside (property names and well-known globals such as Math or String are kept),
 * so a pasted block survives renaming `cents` to `c`, or moving it into an arrow, a local helper or
 * an object method.
 */
import type { Node } from '@babel/types';
import { nodesOf } from './js-ast.js';

/** Names whose meaning is fixed, so renaming them changes the code. */
const GLOBALS = new Set([
  'Math',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Intl',
  'JSON',
  'Object',
  'Array',
  'Date',
  'RegExp',
  'Symbol',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'undefined',
  'NaN',
  'Infinity',
  'console',
  'Error',
  'TypeError',
  'RangeError',
]);

const NOT_SYNTAX = new Set([
  'loc',
  'start',
  'end',
  'range',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'tokens',
  'errors',
  'raw',
]);

/** Keys under which an Identifier is a property name, not a variable. */
function isPropertyName(parent: Node, key: string): boolean {
  if (
    (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') &&
    key === 'property'
  )
    return !parent.computed;
  if (
    (parent.type === 'ObjectProperty' ||
      parent.type === 'ObjectMethod' ||
      parent.type === 'ClassMethod' ||
      parent.type === 'ClassProperty') &&
    key === 'key'
  )
    return !parent.computed;
  return false;
}

/**
 * The node's syntax with local names numbered in order of appearance: equal for copies that differ
 * only in naming, layout, comments or quotes.
 */
export function cloneShape(root: Node): string {
  const names = new Map<string, number>();
  const walk = (value: unknown, parent: Node | null, key: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, parent, key));
    if (typeof value !== 'object' || value === null) return value;
    const node = value as Node;
    if (
      node.type === 'Identifier' &&
      !(parent !== null && isPropertyName(parent, key)) &&
      !GLOBALS.has(node.name)
    ) {
      let n = names.get(node.name);
      if (n === undefined) {
        n = names.size;
        names.set(node.name, n);
      }
      return { type: 'Identifier', local: n };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (!NOT_SYNTAX.has(k)) out[k] = walk(v, node, k);
    return out;
  };
  return JSON.stringify(walk(root, null, ''));
}

/** How many syntax nodes the subtree holds. */
function sizeOf(node: Node): number {
  return nodesOf(node).length;
}

/** Node kinds that make a piece of logic (not a bare name, literal or piece of a larger form). */
const LOGIC = /(Expression|Statement|Declaration|Literal)$/;

export interface Clone {
  /** The piece of the original. */
  original: Node;
  /** Where it appears again. */
  copy: Node;
}

/**
 * Pieces of `original` (statements and expressions of at least minSize nodes) that appear again,
 * as a copy, in `elsewhere` (nodes in `exclude` aside). Each copy is reported once, at its largest:
 * the pieces inside it are not.
 */
export function clonesOf(
  original: readonly Node[],
  elsewhere: readonly Node[],
  minSize: number,
  exclude: ReadonlySet<Node> = new Set(),
): Clone[] {
  const pieces = new Map<string, Node>();
  for (const root of original)
    for (const n of nodesOf(root))
      if (LOGIC.test(n.type) && sizeOf(n) >= minSize) {
        const shape = cloneShape(n);
        if (!pieces.has(shape)) pieces.set(shape, n);
      }
  const out: Clone[] = [];
  const covered = new Set<Node>();
  for (const root of elsewhere)
    for (const n of nodesOf(root)) {
      if (covered.has(n) || exclude.has(n) || !LOGIC.test(n.type) || sizeOf(n) < minSize) continue;
      const found = pieces.get(cloneShape(n));
      if (found === undefined) continue;
      out.push({ original: found, copy: n });
      for (const inner of nodesOf(n)) covered.add(inner);
    }
  return out;
}
