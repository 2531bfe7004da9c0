/**
 * The statement half of the liveness walk: branches under a constant condition are skipped,
 * statements after one that always leaves its block are dead, and declarations bind names whose
 * functions run only when live code uses them.
 */
import type {
  DoWhileStatement,
  ExportDefaultDeclaration,
  ExportNamedDeclaration,
  ForInStatement,
  ForOfStatement,
  ForStatement,
  IfStatement,
  Node,
  Statement,
  SwitchStatement,
  TryStatement,
  VariableDeclaration,
  WhileStatement,
} from '@babel/types';
import { alwaysLeaves, unwrapTs } from './js-constant.js';
import { ExpressionWalk } from './js-live-expressions.js';
import { isFunction } from './js-live-target.js';
import { declareBlock, patternNames, Scope } from './js-scope.js';

export class Walk extends ExpressionWalk {
  statements(list: readonly Statement[], scope: Scope): void {
    const shadowed = (name: string) => scope.lookup(name) !== null;
    for (const s of list) {
      this.statement(s, scope);
      // What follows never runs; function declarations there are hoisted and live only if referenced.
      if (alwaysLeaves(s, shadowed)) return;
    }
  }

  protected block(list: readonly Statement[], parent: Scope): void {
    const scope = new Scope(parent);
    declareBlock(scope, list, { hoist: false });
    this.statements(list, scope);
  }

  statement(s: Statement, scope: Scope): void {
    this.out.nodes.add(s);
    switch (s.type) {
      case 'ExpressionStatement':
        this.expr(s.expression, 'discard', scope);
        return;
      case 'VariableDeclaration':
        this.variables(s, scope);
        return;
      case 'FunctionDeclaration':
      case 'ClassDeclaration':
      case 'ImportDeclaration':
      case 'EmptyStatement':
      case 'DebuggerStatement':
      case 'BreakStatement':
      case 'ContinueStatement':
        return;
      case 'ReturnStatement':
      case 'ThrowStatement':
        if (s.argument) this.expr(s.argument, 'value', scope);
        return;
      case 'IfStatement':
        this.ifStatement(s, scope);
        return;
      case 'BlockStatement':
        this.block(s.body, scope);
        return;
      case 'ForStatement':
        this.forStatement(s, scope);
        return;
      case 'WhileStatement':
        this.whileStatement(s, scope);
        return;
      case 'DoWhileStatement':
        this.doWhileStatement(s, scope);
        return;
      case 'ForInStatement':
      case 'ForOfStatement':
        this.forInOf(s, scope);
        return;
      case 'TryStatement':
        this.tryStatement(s, scope);
        return;
      case 'SwitchStatement':
        this.switchStatement(s, scope);
        return;
      case 'LabeledStatement':
        this.branch(s.body, scope);
        return;
      case 'ExportNamedDeclaration':
        this.exportNamed(s, scope);
        return;
      case 'ExportDefaultDeclaration':
        this.exportDefault(s, scope);
        return;
      default:
        // Types and ambient declarations run nothing.
        if (!s.type.startsWith('TS') && !s.type.startsWith('Declare')) this.generic(s, scope);
    }
  }

  private variables(s: VariableDeclaration, scope: Scope): void {
    for (const d of s.declarations) {
      this.pattern(d.id, scope);
      if (d.init === null || d.init === undefined) continue;
      const init = unwrapTs(d.init);
      // A function, class or object literal bound to a name runs only when the name is used.
      if (d.id.type === 'Identifier' && (isFunction(init) || init.type === 'ClassExpression')) continue;
      if (d.id.type === 'Identifier' && init.type === 'ObjectExpression') this.objectEager(init, scope);
      else this.expr(d.init, 'value', scope);
    }
  }

  private ifStatement(s: IfStatement, scope: Scope): void {
    this.expr(s.test, 'inspect', scope);
    const t = this.truth(s.test, scope);
    if (t !== false) this.branch(s.consequent, scope);
    if (t !== true && s.alternate) this.branch(s.alternate, scope);
  }

  private forStatement(s: ForStatement, scope: Scope): void {
    const inner = new Scope(scope);
    if (s.init?.type === 'VariableDeclaration') {
      declareBlock(inner, [s.init], { hoist: false });
      this.statement(s.init, inner);
    } else if (s.init) this.expr(s.init, 'discard', inner);
    if (s.test) this.expr(s.test, 'inspect', inner);
    if (s.test && this.truth(s.test, inner) === false) return;
    this.branch(s.body, inner);
    if (s.update) this.expr(s.update, 'discard', inner);
  }

  private whileStatement(s: WhileStatement, scope: Scope): void {
    this.expr(s.test, 'inspect', scope);
    if (this.truth(s.test, scope) !== false) this.branch(s.body, scope);
  }

  private doWhileStatement(s: DoWhileStatement, scope: Scope): void {
    this.branch(s.body, scope);
    this.expr(s.test, 'inspect', scope);
  }

  private forInOf(s: ForInStatement | ForOfStatement, scope: Scope): void {
    const inner = new Scope(scope);
    this.expr(s.right, 'value', scope);
    if (s.left.type === 'VariableDeclaration') {
      for (const d of s.left.declarations)
        for (const name of patternNames(d.id)) inner.declare(name, s.left.kind === 'const' ? 'const' : 'let');
    } else this.pattern(s.left, scope);
    this.branch(s.body, inner);
  }

  private tryStatement(s: TryStatement, scope: Scope): void {
    this.block(s.block.body, scope);
    if (s.handler) {
      const inner = new Scope(scope);
      if (s.handler.param) for (const name of patternNames(s.handler.param)) inner.declare(name, 'catch');
      this.block(s.handler.body.body, inner);
    }
    if (s.finalizer) this.block(s.finalizer.body, scope);
  }

  private switchStatement(s: SwitchStatement, scope: Scope): void {
    this.expr(s.discriminant, 'inspect', scope);
    const inner = new Scope(scope);
    declareBlock(
      inner,
      s.cases.flatMap((c) => c.consequent),
      { hoist: false },
    );
    for (const c of s.cases) {
      if (c.test) this.expr(c.test, 'inspect', inner);
      this.statements(c.consequent, inner);
    }
  }

  private exportNamed(s: ExportNamedDeclaration, scope: Scope): void {
    if (s.declaration) this.exported(s.declaration, scope);
    if (s.source === null || s.source === undefined)
      for (const spec of s.specifiers)
        if (spec.type === 'ExportSpecifier') this.expr(spec.local, 'value', scope);
  }

  private exportDefault(s: ExportDefaultDeclaration, scope: Scope): void {
    const d = s.declaration;
    if (d.type === 'FunctionDeclaration') this.enterFunction(d, scope);
    else if (d.type === 'ClassDeclaration') this.enterClass(d, scope);
    else if (d.type !== 'TSDeclareFunction') this.expr(d, 'value', scope);
  }

  private exported(d: Node, scope: Scope): void {
    if (d.type === 'FunctionDeclaration') {
      this.enterFunction(d, scope);
      return;
    }
    if (d.type === 'ClassDeclaration') {
      this.enterClass(d, scope);
      return;
    }
    if (d.type !== 'VariableDeclaration') return;
    this.statement(d, scope);
    for (const v of d.declarations) if (v.id.type === 'Identifier') this.expr(v.id, 'value', scope);
  }

  private branch(s: Statement, scope: Scope): void {
    this.statement(s, scope);
  }
}
