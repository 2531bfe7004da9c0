import type { File, Node } from '@babel/types';
import { describe, expect, it } from 'vitest';
import { nodesOf, parseSource } from '../../src/scoring/js-ast.js';
import { cloneShape, clonesOf } from '../../src/scoring/js-clones.js';
import { alwaysLeaves, constantTruth, constantValue } from '../../src/scoring/js-constant.js';
import { liveCode, moduleScope, targetOf, topLevelRoot } from '../../src/scoring/js-live.js';

function js(code: string): File {
  const parsed = parseSource(code, { typescript: false });
  if (parsed === null || parsed.errors.length > 0) throw new Error(`does not parse: ${code}`);
  return parsed.ast;
}

const expression = (code: string): Node => {
  const s = js(`(${code});`).program.body[0];
  if (s?.type !== 'ExpressionStatement') throw new Error('not an expression');
  return s.expression;
};

/** The names called in live code, from the module or from a top-level function. */
function liveCallees(code: string, from?: string): string[] {
  const ast = js(code);
  const root = from === undefined ? undefined : topLevelRoot(ast, from);
  if (root === null) throw new Error(`no function ${from}`);
  const live = liveCode(ast, root === undefined ? undefined : [root]);
  return live.calls
    .map((c) => (c.target === null ? '?' : [c.target.root, ...c.target.path].join('.')))
    .sort();
}

describe('constant conditions', () => {
  it.each([
    ['false', false],
    ['0', false],
    ["''", false],
    ['null', false],
    ['undefined', false],
    ['void 0', false],
    ['!1', false],
    ['1 === 2', false],
    ["'a' !== 'a'", false],
    ['x && false', false],
    ['false && x', false],
    ['0 || null', false],
    ['true', true],
    ['[]', true],
    ['({})', true],
    ['() => 0', true],
    ['`a${x}`', true],
    ["'a' + x", true],
    ['x || 1', true],
    ['x', null],
    ['x && true', null],
    ['`${x}`', null],
  ])('%s is %s', (code, truth) => {
    expect(constantTruth(expression(code))).toBe(truth);
  });

  it('folds literal arithmetic and leaves names alone', () => {
    expect(constantValue(expression('2 * 50'))).toEqual({ value: 100 });
    expect(constantValue(expression('-2'))).toEqual({ value: -2 });
    expect(constantValue(expression('x * 50'))).toBeNull();
    expect(constantTruth(expression('undefined'), (name) => name === 'undefined')).toBeNull();
  });

  it('knows which statements always leave their block', () => {
    const leaves = (code: string) => {
      const s = js(`function f() { for (;;) { ${code} } }`).program.body[0];
      if (s?.type !== 'FunctionDeclaration') throw new Error('no function');
      const loop = s.body.body[0];
      if (loop?.type !== 'ForStatement' || loop.body.type !== 'BlockStatement') throw new Error('no loop');
      const first = loop.body.body[0];
      if (first === undefined) throw new Error('no statement');
      return alwaysLeaves(first);
    };
    expect(['return;', 'throw e;', 'break;', 'continue;', '{ f(); return; }'].map(leaves)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(leaves('if (c) return; else throw e;')).toBe(true);
    expect(leaves('if (true) return;')).toBe(true);
    expect(leaves('if (c) return;')).toBe(false);
    expect(leaves('try { return; } catch { f(); }')).toBe(false);
    expect(leaves('try { f(); } finally { return; }')).toBe(true);
  });
});

describe('live code', () => {
  it('leaves out dead branches, code after leaving, and dead operands', () => {
    const code = `
      if (false) a();
      if (0) { b(); } else c();
      while (false) d();
      for (; false; ) e();
      false && f();
      g() || (true || h());
      const v = false ? i() : j();
      null ?? k();
      'x' ?? l();
      function m() { n(); return; o(); }
      m();
      do { p(); } while (false);
    `;
    expect(liveCallees(code)).toEqual(['c', 'g', 'j', 'k', 'm', 'n', 'p']);
  });

  it('runs a function only when live code calls or hands it on', () => {
    const code = `
      function called() { a(); }
      function passed() { b(); }
      function stored() { c(); }
      function referenced() { d(); }
      function never() { e(); }
      const arrow = () => f();
      export function exported() { g(); }
      const handler = { on() { h(); }, off() { i(); } };
      called();
      [1].map(passed);
      const keep = stored;
      void referenced; referenced; typeof referenced; \`\${referenced}\`;
      handler.on();
      if (false) arrow();
    `;
    expect(liveCallees(code)).toEqual(['?', 'a', 'b', 'c', 'called', 'g', 'h', 'handler.on']);
  });

  it('from a root: what running that function can run, through helpers', () => {
    const code = `
      function helper(x) { return inner(x); }
      function inner(x) { return fmt(x); }
      function unrelated() { other(); }
      export function site(x) {
        const local = () => viaLocal(x);
        function neverCalled() { nope(); }
        return helper(x) + local();
      }
    `;
    expect(liveCallees(code, 'site')).toEqual(['fmt', 'helper', 'inner', 'local', 'viaLocal']);
  });

  it('resolves names through scopes: a parameter or local shadows an import', () => {
    const ast = js(`
      import { formatCents } from './money.mjs';
      import * as money from './money.mjs';
      const alias = formatCents;
      export function a(formatCents) { return formatCents(1); }
      export function b() { const formatCents = () => 0; return formatCents(1); }
      export function c() { return alias(1) + money.formatCents(2); }
    `);
    const from = (name: string) => {
      const root = topLevelRoot(ast, name);
      if (root === null) throw new Error(`no ${name}`);
      return liveCode(ast, [root]).calls.map(
        (call) => call.target?.binding?.from ?? call.target?.binding?.kind,
      );
    };
    expect(from('a')).toEqual(['param']);
    expect(from('b')).toEqual(['const']);
    expect(from('c')).toEqual([
      { source: './money.mjs', imported: 'formatCents' },
      { source: './money.mjs', imported: '*' },
    ]);
    expect(targetOf(expression('money.formatCents'), moduleScope(ast))?.path).toEqual(['formatCents']);
  });

  it('tells a used result from a thrown-away one', () => {
    const ast = js('export function f() { g(); void h(); const x = i(); return `${j()}` + (k(), l()); }');
    const root = topLevelRoot(ast, 'f');
    if (root === null) throw new Error('no f');
    const used = Object.fromEntries(liveCode(ast, [root]).calls.map((c) => [c.target?.root, c.used]));
    expect(used).toEqual({ g: false, h: false, i: true, j: true, k: false, l: true });
  });
});

describe('structural copies', () => {
  const body = (code: string): Node => {
    const s = js(code).program.body[0];
    if (s?.type !== 'FunctionDeclaration') throw new Error('no function');
    return s.body;
  };

  it('are equal under renaming, layout and quotes, not under other globals or properties', () => {
    const a = "function f(cents) { const abs = Math.abs(cents); return String(abs % 100).padStart(2, '0'); }";
    const b =
      'function g(c) {\n  const a = Math.abs(c); // why\n  return String(a % 100).padStart(2, "0");\n}';
    expect(cloneShape(body(a))).toBe(cloneShape(body(b)));
    expect(cloneShape(body(a))).not.toBe(cloneShape(body(a.replace('Math.abs', 'Math.floor'))));
    expect(cloneShape(body(a))).not.toBe(cloneShape(body(a.replace('padStart', 'padEnd'))));
  });

  it('finds the pieces of an original that reappear elsewhere, each at its largest', () => {
    const original = body(
      "function f(c) { const d = String(Math.floor(c / 100)).replace(/x/g, ','); return d + '!'; }",
    );
    const elsewhere = js(`
      const h = { m(v) { const w = String(Math.floor(v / 100)).replace(/x/g, ','); return w; } };
      const small = (q) => q / 100;
    `);
    const clones = clonesOf([original], [elsewhere.program], 12);
    expect(clones).toHaveLength(1);
    expect(clones[0]?.copy.type).toBe('VariableDeclaration');
    expect(clonesOf([original], [elsewhere.program], 12, new Set(nodesOf(elsewhere.program)))).toEqual([]);
  });
});
