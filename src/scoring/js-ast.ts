/**
 * JavaScript and TypeScript sources as syntax trees (@babel/parser), for checks about what the code
 * is rather than what it printed: a function exists and is called, a test is skipped, `any` was
 * added. Positions, comments and quoting are never part of a comparison.
 */
import { parse } from '@babel/parser';
import type { CallExpression, Comment, File, Function as FunctionNode, Node } from '@babel/types';

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

export interface Call {
  node: CallExpression | Extract<Node, { type: 'OptionalCallExpression' }>;
  /** calleeName of the callee; null for computed callees. */
  callee: string | null;
  line: number | null;
}

function callsIn(root: Node): Call[] {
  return nodesOf(root).flatMap((node) =>
    node.type === 'CallExpression' || node.type === 'OptionalCallExpression'
      ? [{ node, callee: calleeName(node.callee), line: node.loc?.start.line ?? null }]
      : [],
  );
}

export function callsTo(root: Node, callee: string): Call[] {
  return callsIn(root).filter((c) => c.callee === callee);
}

/** The function a top-level declaration binds to `name` (`function f`, `const f = () => …`), exported or not. */
export function topLevelFunction(ast: File, name: string): FunctionNode | null {
  for (const statement of ast.program.body) {
    const decl =
      statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration'
        ? statement.declaration
        : statement;
    if (decl === null || decl === undefined) continue;
    if (decl.type === 'FunctionDeclaration' && decl.id?.name === name) return decl;
    if (decl.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations) {
      const init = d.init;
      if (d.id.type !== 'Identifier' || d.id.name !== name || init === null || init === undefined) continue;
      if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') return init;
    }
  }
  return null;
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

export interface ImportBinding {
  source: string;
  /** The imported name; 'default' for a default import, '*' for a namespace import. */
  imported: string;
  local: string;
}

/** Value imports of the module (type-only imports left out). */
export function importsOf(ast: File): ImportBinding[] {
  const out: ImportBinding[] = [];
  for (const s of ast.program.body) {
    if (s.type !== 'ImportDeclaration' || s.importKind === 'type') continue;
    for (const spec of s.specifiers) {
      let imported = '*';
      if (spec.type === 'ImportDefaultSpecifier') imported = 'default';
      if (spec.type === 'ImportSpecifier') {
        if (spec.importKind === 'type') continue;
        imported = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
      }
      out.push({ source: s.source.value, imported, local: spec.local.name });
    }
  }
  return out;
}

/** The callee names that call `name` exported by a module whose specifier passes `from`. */
export function importedCallees(ast: File, from: (source: string) => boolean, name: string): string[] {
  return importsOf(ast)
    .filter((b) => from(b.source))
    .flatMap((b) => (b.imported === name ? [b.local] : b.imported === '*' ? [`${b.local}.${name}`] : []));
}

/**
 * Callee names reachable from root: its own calls, and those of the top-level functions it calls
 * (transitively), so a helper shared by several tests counts for each of them.
 */
export function reachableCallees(ast: File, root: Node): Set<string> {
  const seen = new Set<string>();
  const queue: Node[] = [root];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    for (const { callee } of callsIn(node)) {
      if (callee === null || seen.has(callee)) continue;
      seen.add(callee);
      const local = topLevelFunction(ast, callee);
      if (local !== null) queue.push(local);
    }
  }
  return seen;
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
    if (node.type !== 'CallExpression' || !TEST_APIS.has(calleeName(node.callee)?.split('.')[0] ?? ''))
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

export interface TestCase {
  line: number | null;
  /** The test's callback (its last function argument). */
  body: FunctionNode;
}

/** Calls of `test(…)` and `it(…)` that pass a callback; modified forms (`test.skip`) are not cases. */
export function testCases(ast: File): TestCase[] {
  return callsIn(ast).flatMap((c) => {
    if (c.callee !== 'test' && c.callee !== 'it') return [];
    const body = c.node.arguments.findLast(
      (a): a is Extract<typeof a, FunctionNode> =>
        a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression',
    );
    return body === undefined ? [] : [{ line: c.line, body }];
  });
}
