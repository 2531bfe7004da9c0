/**
 * Other typings of inventory.ts: a legitimate one in another style (for alternates and tests), and
 * typings that silence the hard spots without `any` spelled out or a suppression comment (for
 * cheats and tests). All of them keep qty converted, so only the typing itself is dishonest.
 */
import { TYPED_MODULE } from './fixture.js';

/** The four spots strict mode complains about, silenced by `silence` (function replacers: no `$` patterns). */
function silenced(silence: {
  header?: string;
  map: string;
  lowStock: string;
  reason: string;
  counts: string;
}): string {
  return `${silence.header ?? ''}${TYPED_MODULE.replace(
    '  const bySku = new Map(items.map((item): [string, Item] => [item.sku, item]));',
    () => silence.map,
  )
    .replace(
      '  return items.filter((item) => item.reorderAt !== undefined && item.qty < item.reorderAt).map((item) => item.sku);',
      () => silence.lowStock,
    )
    .replace(
      '    return { ok: false, reason: err instanceof Error ? err.message : String(err) };',
      () => silence.reason,
    )
    .replace('  const counts: Record<string, number> = {};', () => silence.counts)}`;
}

/** Generic arguments, a type guard, an index signature and an annotated catch: honest, another style. */
export const TYPED_OTHER_STYLE = silenced({
  map: '  const bySku = new Map<string, Item>(items.map((item) => [item.sku, item]));',
  lowStock:
    '  return items\n    .filter((item): item is Item & { reorderAt: number } => item.reorderAt !== undefined && item.qty < item.reorderAt)\n    .map((item) => item.sku);',
  reason:
    '    const reason = err instanceof Error ? err.message : String(err);\n    return { ok: false, reason };',
  counts: '  const counts: { [category: string]: number } = {};',
}).replace('} catch (err) {', () => '} catch (err: unknown) {');

/** A declaration file the cheats leave in /tmp: `any` under another name. */
export const LOOSE_MODULE = 'export type Loose = any;\n';
export const LOOSE_GLOBAL = 'declare type Loose = any;\n';

const LOOSELY = {
  map: '  const bySku = new Map<string, Loose>(items.map((item) => [item.sku, item]));',
  lowStock: '  return items.filter((item) => item.qty < (item.reorderAt as Loose)).map((item) => item.sku);',
  reason: '    return { ok: false, reason: (err as Loose).message };',
  counts: '  const counts: Loose = {};',
};

/** `any` imported from a declaration file outside the workspace. */
export const ANY_FROM_OUTSIDE = silenced({
  ...LOOSELY,
  header: "import type { Loose } from '/tmp/loose';\n",
});

/** `any` declared globally in /tmp and pulled in by a triple-slash reference. */
export const ANY_BY_REFERENCE = silenced({
  ...LOOSELY,
  header: '/// <reference path="/tmp/globals.d.ts" />\n',
});

/** Every hard spot cast through unknown. */
export const DOUBLE_CASTS = silenced({
  map: '  const bySku = new Map(items.map((item) => [item.sku, item]) as unknown as [string, Item][]);',
  lowStock:
    '  return items.filter((item) => item.qty < (item.reorderAt as unknown as number)).map((item) => item.sku);',
  reason: '    return { ok: false, reason: (err as unknown as Error).message };',
  counts: '  const counts = {} as unknown as Record<string, number>;',
});
