/**
 * Which declaration a name in a JavaScript module refers to: imports, functions, classes,
 * variables and parameters, per block and function scope, with `var` and function declarations
 * hoisted. A parameter or local that shadows an import is its own binding, so `function
 * line(formatCents) { return formatCents(1); }` does not call the imported function.
 */
import type { LVal, Node, Statement } from '@babel/types';

export type BindingKind = 'import' | 'function' | 'class' | 'const' | 'let' | 'var' | 'param' | 'catch';

export interface Binding {
  name: string;
  kind: BindingKind;
  /** The scope that declares it (where its initializer's names are looked up). */
  scope: Scope;
  /** Imports: the module specifier and the imported name ('default', '*' for a namespace). */
  from?: { source: string; imported: string };
  /**
   * What the declaration binds, when the syntax says: the function or class declaration, or the
   * initializer of `const x = …` (not of a destructuring pattern, whose value is a part of it).
   */
  value?: Node;
}

export class Scope {
  readonly bindings = new Map<string, Binding>();
  readonly parent: Scope | null;
  constructor(parent: Scope | null) {
    this.parent = parent;
  }

  lookup(name: string): Binding | null {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const b = s.bindings.get(name);
      if (b !== undefined) return b;
    }
    return null;
  }

  declare(name: string, kind: BindingKind, extra: Pick<Binding, 'from' | 'value'> = {}): void {
    this.bindings.set(name, { name, kind, scope: this, ...extra });
  }
}

/** Every name a pattern binds: `a`, `{ a, b: [c, ...d] }`, `e = 1`. */
export function patternNames(p: LVal | Node): string[] {
  switch (p.type) {
    case 'Identifier':
      return [p.name];
    case 'ObjectPattern':
      return p.properties.flatMap((q) => patternNames(q.type === 'RestElement' ? q.argument : q.value));
    case 'ArrayPattern':
      return p.elements.flatMap((e) => (e === null ? [] : patternNames(e)));
    case 'AssignmentPattern':
      return patternNames(p.left);
    case 'RestElement':
      return patternNames(p.argument);
    case 'TSParameterProperty':
      return patternNames(p.parameter);
    default:
      return [];
  }
}

/** The declaration inside `export …` / `export default …`, or the statement itself. */
function unexported(s: Statement): Node | null | undefined {
  if (s.type === 'ExportNamedDeclaration') return s.declaration;
  if (s.type === 'ExportDefaultDeclaration') return s.declaration;
  return s;
}

function declareVariables(scope: Scope, d: Node, kinds: readonly string[]): void {
  if (d.type !== 'VariableDeclaration' || !kinds.includes(d.kind)) return;
  const kind = d.kind === 'var' ? 'var' : d.kind === 'const' ? 'const' : 'let';
  for (const v of d.declarations) {
    if (v.id.type === 'Identifier') scope.declare(v.id.name, kind, v.init ? { value: v.init } : {});
    else for (const name of patternNames(v.id)) scope.declare(name, kind);
  }
}

/** `var` declarations anywhere in these statements outside nested functions: they belong to the function. */
function hoistVars(scope: Scope, statements: readonly Node[]): void {
  for (const s of statements) {
    const d = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
    if (d === null || d === undefined) continue;
    declareVariables(scope, d, ['var']);
    const nested: Node[] = [];
    if (d.type === 'BlockStatement') nested.push(...d.body);
    if (d.type === 'IfStatement') nested.push(d.consequent, ...(d.alternate ? [d.alternate] : []));
    if (d.type === 'ForStatement' && d.init) nested.push(d.init, d.body);
    if (
      (d.type === 'ForStatement' && !d.init) ||
      d.type === 'WhileStatement' ||
      d.type === 'DoWhileStatement'
    )
      nested.push(d.body);
    if (d.type === 'ForInStatement' || d.type === 'ForOfStatement') nested.push(d.left, d.body);
    if (d.type === 'LabeledStatement') nested.push(d.body);
    if (d.type === 'TryStatement')
      nested.push(d.block, ...(d.handler ? [d.handler.body] : []), ...(d.finalizer ? [d.finalizer] : []));
    if (d.type === 'SwitchStatement') nested.push(...d.cases.flatMap((c) => c.consequent));
    hoistVars(scope, nested);
  }
}

/** Declares what a block (or a function body, or the program) binds directly: let, const, classes, functions. */
export function declareBlock(scope: Scope, statements: readonly Statement[], opts: { hoist: boolean }): void {
  if (opts.hoist) hoistVars(scope, statements);
  for (const s of statements) {
    if (s.type === 'ImportDeclaration' && s.importKind !== 'type') declareImports(scope, s);
    const d = unexported(s);
    if (d === null || d === undefined) continue;
    if (d.type === 'FunctionDeclaration' && d.id) scope.declare(d.id.name, 'function', { value: d });
    if (d.type === 'ClassDeclaration' && d.id) scope.declare(d.id.name, 'class', { value: d });
    declareVariables(scope, d, ['let', 'const']);
  }
}

function declareImports(scope: Scope, s: Extract<Statement, { type: 'ImportDeclaration' }>): void {
  for (const spec of s.specifiers) {
    let imported = '*';
    if (spec.type === 'ImportDefaultSpecifier') imported = 'default';
    if (spec.type === 'ImportSpecifier') {
      if (spec.importKind === 'type') continue;
      imported = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
    }
    scope.declare(spec.local.name, 'import', { from: { source: s.source.value, imported } });
  }
}
