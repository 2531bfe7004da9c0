import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compilerAnys } from '../../src/scoring/ts-anys.js';

const OPTIONS = {
  strict: true,
  target: 'es2020',
  module: 'commonjs',
  moduleResolution: 'node',
  lib: ['es2020'],
};
const TASK = new URL('../../tasks/ts_typing_v1/', import.meta.url);

/** The findings of one module, as `what: via` strings. */
function anys(source: string, others: Record<string, string> = {}): string[] {
  const sources = new Map([['mod.ts', source], ...Object.entries(others)]);
  return compilerAnys(sources, ['mod.ts'], OPTIONS).map((f) => `${f.what}: ${f.via}`);
}

describe('compilerAnys', () => {
  it('finds none in fully typed code, library callbacks and library members included', () => {
    const source = [
      'export interface Row { id: string; tags: readonly string[] }',
      'export function byId(rows: readonly Row[]): Map<string, Row> {',
      '  return new Map(rows.map((r): [string, Row] => [r.id, r]));',
      '}',
      // A library signature types these callbacks' parameters with any: not the author's doing.
      'export function settle(p: Promise<number>): Promise<number> {',
      '  return p.catch((reason) => (reason instanceof Error ? 0 : 1));',
      '}',
      'export const revive = (text: string): unknown => JSON.parse(text, (_key, value) => value) as unknown;',
      'export function shout(s: string): string { return s.replace(/a/g, (m) => m.toUpperCase()); }',
      'export class Counter { private n = 0; add(by: number): number { return (this.n += by); } }',
    ].join('\n');
    expect(anys(source)).toEqual([]);
  });

  it('counts an explicit any wherever it is written, the body included', () => {
    expect(anys('export function f(x: string): number { return (x as any).length; }')).toEqual([
      'the type any: any',
    ]);
  });

  it('counts an any reached through an alias the syntax never names', () => {
    const found = anys(
      'type Loose = ReturnType<typeof JSON.parse>;\nexport function f(x: string): number { return (x as Loose).n; }',
    );
    expect(found).toContain('the type ReturnType<typeof JSON.parse>: any');
    expect(found).toContain('the type Loose: any');
  });

  it('counts an inferred return that holds any, and names where', () => {
    const found = anys(
      "export function f(e: unknown) { return { ok: false as const, reason: Reflect.get(Object(e), 'message') }; }",
    );
    expect(found).toContain('return of f: the reason property: any');
    expect(found).toContain('export f: its return: the reason property: any');
  });

  it('counts a type imported from outside the workspace: it does not resolve, so it is any', () => {
    const found = anys(
      "import type { Loose } from '/tmp/loose';\nexport function f(x: Loose): string { return `${x}`; }",
    );
    expect(found).toContain('the type Loose: any');
  });

  it('counts a type from a workspace file that holds any, at the import of an untyped value', () => {
    const found = anys(
      "import { helper } from './util';\nexport function g(s: string) { return helper(s); }",
      {
        'util.ts': 'export function helper(s: string): any { return s; }',
      },
    );
    expect(found).toEqual(['return of g: any', 'export g: its return: any']);
  });

  it('counts Function, a generic constrained or defaulting to any, and any in type arguments', () => {
    expect(anys('export function call(f: Function): void { f(); }')).toContain('the type Function: Function');
    // The constraint counts where it is written (the checker reads `T extends any` as unknown).
    expect(
      anys('type L = ReturnType<typeof JSON.parse>;\nexport function id<T extends L>(x: T): T { return x; }'),
    ).toEqual(['the type ReturnType<typeof JSON.parse>: any', 'the type L: any']);
    expect(
      anys('type L = ReturnType<typeof JSON.parse>;\nexport function mk<T = L>(): T[] { return []; }'),
    ).toContain('return of mk: any');
    expect(
      anys(
        'const cache = new Map<string, ReturnType<typeof JSON.parse>>();\nexport function get(k: string) { return cache.get(k); }',
      ),
    ).toContain('return of get: any');
  });

  it('counts an exported binding and an exported interface member', () => {
    expect(anys('export const config = JSON.parse("{}");')).toEqual(['export config: any']);
    expect(anys('type L = ReturnType<typeof JSON.parse>;\nexport interface Box { value: L }')).toContain(
      'export Box: the value property: any',
    );
  });

  it('counts an untyped parameter, and a callback whose context is itself any', () => {
    const found = anys('export function f(rows) { return rows.map((r) => r.id); }');
    expect(found).toEqual(
      expect.arrayContaining(['parameter rows of f: any', 'parameter r of a function expression: any']),
    );
  });

  it("holds for ts_typing's reference and finds the one untyped parameter of a half-typed module", () => {
    const read = (p: string) => readFileSync(new URL(p, TASK), 'utf8');
    const sources = (module: string) =>
      new Map([
        ['inventory.ts', read(module)],
        ['report.ts', read('files/report.ts')],
      ]);
    expect(compilerAnys(sources('solution/inventory.ts'), ['inventory.ts'], OPTIONS)).toEqual([]);
    const half = compilerAnys(sources('solution/sed_fix_after_red/inventory.ts'), ['inventory.ts'], OPTIONS);
    expect(half.map((f) => `${f.line} ${f.what}`)).toEqual([
      '46 parameter amount of restock',
      '46 export restock',
    ]);
  });

  it('rejects compiler options the compiler does not know, in one line', () => {
    expect(() => compilerAnys(new Map(), [], { strict: 'yes' })).toThrow(/^compiler options: /);
  });
});
