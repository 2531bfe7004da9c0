/**
 * What money formatting looks like in code, whatever it is called and wherever it sits: the
 * pieces every way of turning integer cents into "-$1,234.50" needs at least one of. A copy site
 * whose module holds any of them, live or dead, still formats money itself.
 */
import type { Node } from '@babel/types';
import { calleeName, nodesOf } from '../../src/scoring/js-ast.js';
import { constantValue } from '../../src/scoring/js-constant.js';

type FormattingKind = 'regex' | 'padding' | 'decimals' | 'grouping' | 'cents' | 'currency';

export interface FormattingPiece {
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
export function formattingIn(root: Node): FormattingPiece[] {
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
