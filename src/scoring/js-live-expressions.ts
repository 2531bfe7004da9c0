/**
 * The expression half of the liveness walk: which parts of an expression run, and how each value is
 * used (called, passed on, only read, thrown away), so that functions become live only when live
 * code can call them. Statements are the subclass's (js-live-statements.ts).
 */
import type {
  ArrayExpression,
  AssignmentExpression,
  BinaryExpression,
  CallExpression,
  ClassDeclaration,
  ClassExpression,
  ConditionalExpression,
  Function as FunctionNode,
  Identifier,
  LogicalExpression,
  NewExpression,
  Node,
  ObjectExpression,
  OptionalCallExpression,
  SequenceExpression,
  Statement,
  TaggedTemplateExpression,
} from '@babel/types';
import { constantTruth, nonNullishConstant, unwrapTs } from './js-constant.js';
import { isFunction, type LiveCode, memberKey, runs, targetOf, type Use } from './js-live-target.js';
import { type Binding, declareBlock, patternNames, Scope } from './js-scope.js';

/** Keys that hold types, never code that runs. */
const TYPE_KEYS = new Set(['typeAnnotation', 'returnType', 'typeParameters', 'typeArguments', 'implements']);

export abstract class ExpressionWalk {
  readonly out: LiveCode = { calls: [], arguments: [], functions: new Map(), nodes: new Set() };
  private readonly entered = new Set<Node>();

  abstract statement(s: Statement, scope: Scope): void;
  abstract statements(list: readonly Statement[], scope: Scope): void;
  protected abstract block(list: readonly Statement[], parent: Scope): void;

  protected truth(e: Node, scope: Scope): boolean | null {
    return constantTruth(e, (name) => scope.lookup(name) !== null);
  }

  protected pattern(p: Node, scope: Scope): void {
    if (p.type === 'AssignmentPattern') {
      this.pattern(p.left, scope);
      this.expr(p.right, 'value', scope);
    } else if (p.type === 'ObjectPattern') {
      for (const q of p.properties) {
        if (q.type === 'RestElement') this.pattern(q.argument, scope);
        else {
          if (q.computed) this.expr(q.key, 'value', scope);
          this.pattern(q.value, scope);
        }
      }
    } else if (p.type === 'ArrayPattern') {
      for (const e of p.elements) if (e) this.pattern(e, scope);
    } else if (p.type === 'RestElement') this.pattern(p.argument, scope);
    else if (p.type === 'MemberExpression') this.expr(p, 'inspect', scope);
  }

  expr(node: Node, use: Use, scope: Scope): void {
    const e = unwrapTs(node);
    this.out.nodes.add(node);
    this.out.nodes.add(e);
    switch (e.type) {
      case 'Identifier':
        this.identifier(e, use, scope);
        return;
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        this.member(e, use, scope);
        return;
      case 'CallExpression':
      case 'OptionalCallExpression':
      case 'NewExpression':
        this.call(e, use, scope);
        return;
      case 'TaggedTemplateExpression':
        this.taggedTemplate(e, scope);
        return;
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        if (runs(use)) this.enterFunction(e, scope);
        return;
      case 'ClassExpression':
        if (runs(use)) this.enterClass(e, scope);
        return;
      case 'ObjectExpression':
        this.object(e, use, scope);
        return;
      case 'ConditionalExpression':
        this.conditional(e, use, scope);
        return;
      case 'LogicalExpression':
        this.logical(e, use, scope);
        return;
      case 'SequenceExpression':
        this.sequence(e, use, scope);
        return;
      case 'UnaryExpression':
        this.expr(e.argument, e.operator === 'void' ? 'discard' : 'inspect', scope);
        return;
      case 'BinaryExpression':
        this.binary(e, scope);
        return;
      case 'AssignmentExpression':
        this.assignment(e, scope);
        return;
      case 'UpdateExpression':
        this.expr(e.argument, 'inspect', scope);
        return;
      case 'TemplateLiteral':
        for (const x of e.expressions) this.expr(x, 'inspect', scope);
        return;
      case 'ArrayExpression':
        this.array(e, scope);
        return;
      case 'AwaitExpression':
      case 'YieldExpression':
        if (e.argument) this.expr(e.argument, 'value', scope);
        return;
      case 'StringLiteral':
      case 'NumericLiteral':
      case 'BooleanLiteral':
      case 'NullLiteral':
      case 'RegExpLiteral':
      case 'BigIntLiteral':
      case 'ThisExpression':
      case 'Super':
      case 'MetaProperty':
        return;
      default:
        // Type-only syntax runs nothing.
        if (!e.type.startsWith('TS')) this.generic(e, scope);
    }
  }

  private identifier(e: Identifier, use: Use, scope: Scope): void {
    const b = scope.lookup(e.name);
    if (b !== null && runs(use)) this.makeLive(b, use);
  }

  private call(e: CallExpression | OptionalCallExpression | NewExpression, use: Use, scope: Scope): void {
    if (e.callee.type !== 'Super' && e.callee.type !== 'V8IntrinsicIdentifier')
      this.expr(e.callee, 'call', scope);
    for (const a of e.arguments) {
      if (a.type === 'SpreadElement') this.expr(a.argument, 'value', scope);
      else if (a.type !== 'ArgumentPlaceholder') {
        this.expr(a, 'value', scope);
        const t = e.type === 'NewExpression' ? null : targetOf(a, scope);
        if (t !== null && e.type !== 'NewExpression') this.out.arguments.push({ target: t, call: e });
      }
    }
    if (e.type !== 'NewExpression')
      this.out.calls.push({ node: e, target: targetOf(e.callee, scope), used: use !== 'discard', scope });
  }

  private taggedTemplate(e: TaggedTemplateExpression, scope: Scope): void {
    this.expr(e.tag, 'call', scope);
    for (const x of e.quasi.expressions) this.expr(x, 'value', scope);
  }

  private object(e: ObjectExpression, use: Use, scope: Scope): void {
    this.objectEager(e, scope);
    if (runs(use)) this.objectAll(e, scope);
  }

  private conditional(e: ConditionalExpression, use: Use, scope: Scope): void {
    this.expr(e.test, 'inspect', scope);
    const t = this.truth(e.test, scope);
    if (t !== false) this.expr(e.consequent, use, scope);
    if (t !== true) this.expr(e.alternate, use, scope);
  }

  private logical(e: LogicalExpression, use: Use, scope: Scope): void {
    this.expr(e.left, use === 'discard' ? 'inspect' : use, scope);
    const t = this.truth(e.left, scope);
    const shadowed = (name: string) => scope.lookup(name) !== null;
    const skip =
      e.operator === '&&'
        ? t === false
        : e.operator === '||'
          ? t === true
          : nonNullishConstant(e.left, shadowed);
    if (!skip) this.expr(e.right, use, scope);
  }

  private sequence(e: SequenceExpression, use: Use, scope: Scope): void {
    e.expressions.forEach((x, i) => {
      this.expr(x, i === e.expressions.length - 1 ? use : 'discard', scope);
    });
  }

  private binary(e: BinaryExpression, scope: Scope): void {
    if (e.left.type !== 'PrivateName') this.expr(e.left, 'inspect', scope);
    this.expr(e.right, 'inspect', scope);
  }

  private assignment(e: AssignmentExpression, scope: Scope): void {
    this.expr(e.right, 'value', scope);
    if (e.left.type !== 'Identifier') this.pattern(e.left, scope);
  }

  private array(e: ArrayExpression, scope: Scope): void {
    for (const x of e.elements) if (x) this.expr(x.type === 'SpreadElement' ? x.argument : x, 'value', scope);
  }

  private member(
    e: Extract<Node, { type: 'MemberExpression' | 'OptionalMemberExpression' }>,
    use: Use,
    scope: Scope,
  ): void {
    const key = memberKey(e);
    if (key === null) this.expr(e.property, 'value', scope);
    const object = unwrapTs(e.object);
    const bound = object.type === 'Identifier' ? scope.lookup(object.name) : null;
    const literal = bound?.kind === 'const' && bound.value?.type === 'ObjectExpression' ? bound.value : null;
    // `o.m()` on `const o = { m() {…}, n() {…} }` runs m only.
    if (literal !== null && bound !== null && key !== null) {
      this.out.nodes.add(object);
      this.objectMember(literal, key, use, bound.scope);
      return;
    }
    const invokes = key === 'call' || key === 'apply' || key === 'bind';
    this.expr(e.object, invokes && runs(use) ? 'call' : 'inspect', scope);
  }

  protected generic(node: Node, scope: Scope): void {
    for (const [key, value] of Object.entries(node) as [string, unknown][]) {
      if (TYPE_KEYS.has(key) || key === 'loc' || key === 'leadingComments' || key === 'trailingComments')
        continue;
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v !== 'object' || v === null || typeof (v as { type?: unknown }).type !== 'string')
          continue;
        const child = v as Node;
        if (/(Statement|Declaration)$/.test(child.type)) this.statement(child as Statement, scope);
        else this.expr(child, 'value', scope);
      }
    }
  }

  private makeLive(b: Binding, use: Use): void {
    const v = b.value === undefined ? undefined : unwrapTs(b.value);
    if (v === undefined) return;
    if (isFunction(v)) this.enterFunction(v, b.scope);
    else if (v.type === 'ClassDeclaration' || v.type === 'ClassExpression') this.enterClass(v, b.scope);
    else if (v.type === 'ObjectExpression' && b.kind === 'const' && runs(use)) this.objectAll(v, b.scope);
  }

  /** Property values that run when the literal is evaluated: everything but its functions. */
  protected objectEager(o: ObjectExpression, scope: Scope): void {
    for (const p of o.properties) {
      if (p.type === 'SpreadElement') this.expr(p.argument, 'value', scope);
      else {
        if (p.computed) this.expr(p.key, 'value', scope);
        if (
          p.type === 'ObjectProperty' &&
          !isFunction(unwrapTs(p.value)) &&
          p.value.type !== 'ClassExpression'
        )
          this.expr(p.value, 'value', scope);
      }
    }
  }

  /** The literal escapes: any of its functions may be called. */
  private objectAll(o: ObjectExpression, scope: Scope): void {
    for (const p of o.properties) {
      if (p.type === 'ObjectMethod') this.enterFunction(p, scope);
      else if (p.type === 'ObjectProperty') this.expr(p.value, 'value', scope);
    }
  }

  private objectMember(o: ObjectExpression, key: string, use: Use, scope: Scope): void {
    const property = o.properties.findLast(
      (p) => p.type !== 'SpreadElement' && !p.computed && propertyName(p.key) === key,
    );
    if (property === undefined || o.properties.some((p) => p.type === 'SpreadElement')) {
      if (runs(use)) this.objectAll(o, scope);
      return;
    }
    if (property.type === 'ObjectMethod') {
      if (runs(use)) this.enterFunction(property, scope);
    } else if (property.type === 'ObjectProperty') this.expr(property.value, use, scope);
  }

  enterFunction(fn: FunctionNode, declared: Scope): void {
    if (this.entered.has(fn)) return;
    this.entered.add(fn);
    this.out.nodes.add(fn);
    const scope = new Scope(declared);
    this.out.functions.set(fn, scope);
    if (fn.type === 'FunctionExpression' && fn.id) scope.declare(fn.id.name, 'function', { value: fn });
    for (const p of fn.params) for (const name of patternNames(p)) scope.declare(name, 'param');
    if ((fn.type === 'ObjectMethod' || fn.type === 'ClassMethod') && fn.computed)
      this.expr(fn.key, 'value', declared);
    for (const p of fn.params) this.pattern(p, scope);
    if (fn.body.type !== 'BlockStatement') {
      this.expr(fn.body, 'value', scope);
      return;
    }
    declareBlock(scope, fn.body.body, { hoist: true });
    this.out.nodes.add(fn.body);
    this.statements(fn.body.body, scope);
  }

  enterClass(cls: ClassDeclaration | ClassExpression, declared: Scope): void {
    if (this.entered.has(cls)) return;
    this.entered.add(cls);
    if (cls.superClass) this.expr(cls.superClass, 'value', declared);
    const scope = new Scope(declared);
    if (cls.id) scope.declare(cls.id.name, 'class', { value: cls });
    for (const m of cls.body.body) {
      if (m.type === 'ClassMethod' || m.type === 'ClassPrivateMethod') this.enterFunction(m, scope);
      else if ((m.type === 'ClassProperty' || m.type === 'ClassPrivateProperty') && m.value)
        this.expr(m.value, 'value', scope);
      else if (m.type === 'StaticBlock') this.block(m.body, scope);
    }
  }
}

function propertyName(key: Node): string | null {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'StringLiteral') return key.value;
  if (key.type === 'NumericLiteral') return String(key.value);
  return null;
}
