/**
 * JavaScript and TypeScript sources as syntax trees (@babel/parser), for checks about what the code
 * is rather than what it printed: a test is skipped, `any` was added, a function is exported.
 * Positions, comments and quoting are never part of a comparison. These look at the whole file,
 * dead code included (right for what a check forbids); whether code can run, and what it calls
 * when it does, is js-live.ts's.
 */
import { parse } from '@babel/parser';
import type { Comment, File, Node } from '@babel/types';

export interface ParsedSource {
  ast: File;
  /** Syntax errors babel recovered from; a check should treat any as "does not parse". */
  errors: string[];
}

/** Null when the source cannot be parsed even with error recovery. */
export function parseSource(code: string, options: { typescript: boolean }): ParsedSource | null {
  try {
    const ast = parse(code, {
      sourceType: 'unambiguous',
      errorRecovery: true,
      plugins: options.typescript ? ['typescript'] : [],
    });
    return { ast, errors: (ast.errors ?? []).map((e) => e.message) };
  } catch {
    return null;
  }
}

/** Keys that hold positions, comments or formatting, never syntax. */
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
]);

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function childNodes(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node) as [string, unknown][]) {
    if (NOT_SYNTAX.has(key)) continue;
    if (Array.isArray(value)) for (const v of value) if (isNode(v)) out.push(v);
    if (isNode(value)) out.push(value);
  }
  return out;
}

/** Every node under root (root included), in source order. */
export function nodesOf(root: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    out.push(node);
    stack.push(...childNodes(node).reverse());
  }
  return out;
}

/** The node's syntax as a string: equal for code that differs only in layout, comments or quotes. */
export function shapeOf(node: Node): string {
  return JSON.stringify(node, (key, value: unknown) => (NOT_SYNTAX.has(key) ? undefined : value));
}

/** `f` → "f", `assert.strict.equal` → "assert.strict.equal", `a[0]()` → null. */
export function calleeName(node: Node): string | null {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return null;
  const object = calleeName(node.object);
  const p = node.property;
  const property =
    !node.computed && p.type === 'Identifier' ? p.name : p.type === 'StringLiteral' ? p.value : null;
  return object === null || property === null ? null : `${object}.${property}`;
}

/** Exported name → local binding, for `export function f`, `export const f`, `export { g as f }`. */
export function exportedBindings(ast: File): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of ast.program.body) {
    if (s.type !== 'ExportNamedDeclaration' || s.exportKind === 'type') continue;
    const d = s.declaration;
    if (d?.type === 'FunctionDeclaration' && d.id !== null && d.id !== undefined)
      out.set(d.id.name, d.id.name);
    if (d?.type === 'VariableDeclaration')
      for (const v of d.declarations) if (v.id.type === 'Identifier') out.set(v.id.name, v.id.name);
    if (s.source !== null && s.source !== undefined) continue;
    for (const spec of s.specifiers) {
      if (spec.type !== 'ExportSpecifier' || spec.exportKind === 'type') continue;
      const exported = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
      out.set(exported, spec.local.name);
    }
  }
  return out;
}

/** Every explicit `any` type: `: any`, `as any`, `<any>x`, `any[]`, `Record<string, any>`. */
export function anyTypes(ast: File): Node[] {
  return nodesOf(ast).filter((n) => n.type === 'TSAnyKeyword');
}

/** Comments that switch type checking off: `@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`. */
export function tsSuppressions(ast: File): Comment[] {
  return (ast.comments ?? []).filter((c) => /@ts-(ignore|expect-error|nocheck)\b/.test(c.value));
}

const TEST_APIS = new Set(['test', 'it', 'describe', 'suite']);

/**
 * Where a test or suite is skipped, focused or left to do: `test.skip(…)`, `it.only`, `t.todo()`,
 * and options objects such as `test('x', { skip: true }, fn)` (an explicit `false` does nothing).
 */
export function testModifiers(ast: File, modifier: 'skip' | 'only' | 'todo'): Node[] {
  const out: Node[] = [];
  for (const node of nodesOf(ast)) {
    if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') {
      const name = calleeName(node);
      if (name?.endsWith(`.${modifier}`)) out.push(node);
    }
    const api = calleeName(node.type === 'CallExpression' ? node.callee : node)?.split('.') ?? [];
    // `test(…)`, `describe.each(…)(…)` aside, `t.test(…)` for a subtest.
    if (node.type !== 'CallExpression' || !(TEST_APIS.has(api[0] ?? '') || TEST_APIS.has(api.at(-1) ?? '')))
      continue;
    for (const arg of node.arguments) {
      if (arg.type !== 'ObjectExpression') continue;
      for (const p of arg.properties) {
        if (p.type !== 'ObjectProperty' || (p.value.type === 'BooleanLiteral' && !p.value.value)) continue;
        const key =
          p.key.type === 'Identifier' ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : null;
        if (key === modifier) out.push(p);
      }
    }
  }
  return out;
}
