import type { File } from '@babel/types';
import { describe, expect, it } from 'vitest';
import {
  anyTypes,
  exportedBindings,
  nodesOf,
  parseSource,
  shapeOf,
  testModifiers,
  tsSuppressions,
} from '../../src/scoring/js-ast.js';

function js(code: string): File {
  const parsed = parseSource(code, { typescript: false });
  if (parsed === null) throw new Error('does not parse');
  return parsed.ast;
}

function ts(code: string): File {
  const parsed = parseSource(code, { typescript: true });
  if (parsed === null) throw new Error('does not parse');
  return parsed.ast;
}

const lines = (nodes: readonly { loc?: { start: { line: number } } | null }[]) =>
  nodes.map((n) => n.loc?.start.line);

describe('parseSource', () => {
  it('parses modules and scripts, and TypeScript only when asked', () => {
    expect(parseSource('import x from "y"; export const a = 1;', { typescript: false })?.errors).toEqual([]);
    expect(parseSource('var a = 1;', { typescript: false })?.ast.program.sourceType).toBe('script');
    expect(parseSource('let a: number = 1;', { typescript: true })?.errors).toEqual([]);
    const asJs = parseSource('let a: number = 1;', { typescript: false });
    expect(asJs === null || asJs.errors.length > 0).toBe(true);
  });

  it('reports recovered errors, and null when recovery gives up', () => {
    expect(parseSource('let a = 1; let a = 2;', { typescript: false })?.errors.length).toBeGreaterThan(0);
    expect(parseSource('function (', { typescript: false })).toBeNull();
  });
});

describe('shapeOf', () => {
  const shape = (code: string) => shapeOf(js(code).program);

  it('ignores layout, comments, quotes and parentheses around nothing', () => {
    expect(shape("function f(a){return a+'x'}")).toBe(
      shape('/** doc */\nfunction f(a) {\n  // why\n  return a + "x";\n}\n'),
    );
  });

  it('sees any change to the syntax', () => {
    expect(shape('function f(a) { return a + 1; }')).not.toBe(shape('function f(a) { return a - 1; }'));
    expect(shape('function f(a) { return a; }')).not.toBe(shape('function f(b) { return b; }'));
    expect(shape('[1, 2].sort()')).not.toBe(shape('[1, 2].sort((a, b) => a - b)'));
  });
});

describe('exports', () => {
  const ast = js(`
import { formatCents as fc, other } from './money.mjs';
import * as money from '/workspace/money.mjs';
import assert from 'node:assert/strict';
function helper(x) { return fc(x); }
export function a() { return helper(1); }
export const b = (x) => money.formatCents(x);
const c = function () { return 1; };
export { c as renamed };
export default function () {}
function outer() { function inner() {} }
`);

  it('maps exported names to local bindings', () => {
    expect(Object.fromEntries(exportedBindings(ast))).toEqual({ a: 'a', b: 'b', renamed: 'c' });
  });
});

describe('escape hatches in TypeScript', () => {
  it('finds every explicit any, and nothing else', () => {
    const ast = ts(`let a: any;
const b = x as any;
const c = <any>y;
let d: any[] = [];
let e: Record<string, any> = {};
let f: unknown = 'any';
function g(h: number): string { return 'any'; }
`);
    expect(lines(anyTypes(ast))).toEqual([1, 2, 3, 4, 5]);
  });

  it('finds the comments that switch checking off, not @ts-check', () => {
    const ast = ts(`// @ts-nocheck
// @ts-check
const a = 1;
// @ts-ignore
const b: number = 'x';
/* @ts-expect-error: wrong on purpose */
const c: number = 'y';
`);
    expect(lines(tsSuppressions(ast))).toEqual([1, 4, 6]);
  });
});

describe('tests in a node:test file', () => {
  const ast = js(`import { test, describe, it } from 'node:test';
test('a', () => { check(); });
test.skip('b', () => {});
it.only('c', () => {});
describe.todo('d');
test('e', { skip: true }, () => {});
test('f', { only: false }, () => {});
test('g', (t) => { t.skip(); });
test('no callback');
it('h', function () {});
test('i', (t) => t.test('sub', { todo: true }, () => {}));
`);

  it('finds skipped, focused and to-do tests, by name or option', () => {
    expect(lines(testModifiers(ast, 'skip'))).toEqual([3, 6, 8]);
    expect(lines(testModifiers(ast, 'only'))).toEqual([4]);
    expect(lines(testModifiers(ast, 'todo'))).toEqual([5, 11]);
  });

  it('walks every node once, positions and comments aside', () => {
    const small = js('/* c */ f(1);');
    expect(nodesOf(small).map((n) => n.type)).toEqual([
      'File',
      'Program',
      'ExpressionStatement',
      'CallExpression',
      'Identifier',
      'NumericLiteral',
    ]);
  });
});
