/**
 * An untyped TypeScript module that fails `tsc --strict` in many places, one of which hides a real
 * bug (qty stays a string, so restocking concatenates); its typed reference; a consumer the agent
 * must not change; the compiler settings; and the hidden typed-usage and behaviour tests.
 */

const HEADER = `/** Warehouse inventory: parse the nightly CSV export, value the stock, plan restocking. */

export interface Item {
  sku: string;
  name: string;
  category: string;
  qty: number;
  /** Cents per unit. */
  unitCost: number;
  /** Restock when qty falls below this; absent for items never restocked automatically. */
  reorderAt?: number;
}
`;

export const UNTYPED_MODULE = `${HEADER}
/** One item per line: sku,name,category,qty,unitCost[,reorderAt]. Blank lines and # comments are skipped. */
export function parseInventory(csv) {
  const items = [];
  const lines = csv.split('\\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length < 5) throw new Error(\`line \${i + 1}: expected at least 5 fields\`);
    const [sku, name, category, qty, unitCost, reorderAt] = fields;
    items.push({ sku, name, category, qty, unitCost: Number(unitCost), reorderAt: reorderAt ? Number(reorderAt) : undefined });
  }
  return items;
}

/** parseInventory's items, or why the export could not be read (for the nightly job's log). */
export function tryParse(csv) {
  try {
    return { ok: true, items: parseInventory(csv) };
  } catch (err) {
    return { ok: false, reason: err.message };
  }
}

/** Stock value in cents. */
export function totalValue(items) {
  return items.reduce((sum, item) => sum + item.qty * item.unitCost, 0);
}

/** Adds amount units to the item with this sku, in place, and returns it; an unknown sku is an error. */
export function restock(items, sku, amount) {
  const bySku = new Map(items.map((item) => [item.sku, item]));
  const item = bySku.get(sku);
  item.qty += amount;
  return item;
}

/** SKUs of the items below their reorder point, in input order. */
export function lowStock(items) {
  return items.filter((item) => item.qty < item.reorderAt).map((item) => item.sku);
}

/** How many items (lines, not units) each category has. */
export function countByCategory(items) {
  const counts = {};
  for (const item of items) counts[item.category] = (counts[item.category] ?? 0) + 1;
  return counts;
}
`;

export const TYPED_MODULE = `${HEADER}
export type ParseResult = { ok: true; items: Item[] } | { ok: false; reason: string };

/** One item per line: sku,name,category,qty,unitCost[,reorderAt]. Blank lines and # comments are skipped. */
export function parseInventory(csv: string): Item[] {
  const items: Item[] = [];
  const lines = csv.split('\\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length < 5) throw new Error(\`line \${i + 1}: expected at least 5 fields\`);
    const [sku, name, category, qty, unitCost, reorderAt] = fields;
    items.push({ sku, name, category, qty: Number(qty), unitCost: Number(unitCost), reorderAt: reorderAt ? Number(reorderAt) : undefined });
  }
  return items;
}

/** parseInventory's items, or why the export could not be read (for the nightly job's log). */
export function tryParse(csv: string): ParseResult {
  try {
    return { ok: true, items: parseInventory(csv) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Stock value in cents. */
export function totalValue(items: readonly Item[]): number {
  return items.reduce((sum, item) => sum + item.qty * item.unitCost, 0);
}

/** Adds amount units to the item with this sku, in place, and returns it; an unknown sku is an error. */
export function restock(items: readonly Item[], sku: string, amount: number): Item {
  const bySku = new Map(items.map((item): [string, Item] => [item.sku, item]));
  const item = bySku.get(sku);
  if (item === undefined) throw new Error(\`unknown sku: \${sku}\`);
  item.qty += amount;
  return item;
}

/** SKUs of the items below their reorder point, in input order. */
export function lowStock(items: readonly Item[]): string[] {
  return items.filter((item) => item.reorderAt !== undefined && item.qty < item.reorderAt).map((item) => item.sku);
}

/** How many items (lines, not units) each category has. */
export function countByCategory(items: readonly Item[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.category] = (counts[item.category] ?? 0) + 1;
  return counts;
}
`;

/** A consumer of the module, part of the project: its use of the API must type-check too. */
export const REPORT = `import { countByCategory, lowStock, totalValue, tryParse } from './inventory';

/** The nightly stock report's text. */
export function nightlyReport(csv: string): string {
  const parsed = tryParse(csv);
  if (!parsed.ok) return \`inventory export unreadable: \${parsed.reason}\`;
  const items = parsed.items;
  const value = (totalValue(items) / 100).toFixed(2);
  const low = lowStock(items);
  const categories = Object.entries(countByCategory(items))
    .map(([category, n]) => \`\${category}: \${n}\`)
    .join(', ');
  return [
    \`\${items.length} items worth $\${value}\`,
    low.length === 0 ? 'nothing to reorder' : \`reorder: \${low.join(', ')}\`,
    categories,
  ].join('\\n');
}
`;

const COMPILER_OPTIONS = {
  strict: true,
  target: 'es2020',
  module: 'commonjs',
  moduleResolution: 'node',
  lib: ['es2020'],
  types: [],
};

/** The workspace's tsconfig.json: what the agent's `tsc` checks. */
export const WORKSPACE_TSCONFIG = `${JSON.stringify(
  { compilerOptions: { ...COMPILER_OPTIONS, noEmit: true }, files: ['inventory.ts', 'report.ts'] },
  null,
  2,
)}\n`;

/** The harness's check: the same settings over the module, the consumer and the hidden typed usage. */
export const HARNESS_CHECK_TSCONFIG = JSON.stringify({
  compilerOptions: { ...COMPILER_OPTIONS, noEmit: true },
  files: ['/workspace/inventory.ts', '/workspace/report.ts', '/checks/hidden/usage.ts'],
});

/** The harness's build for the behaviour tests: emitted whatever the type errors. */
export const HARNESS_BUILD_TSCONFIG = JSON.stringify({
  compilerOptions: {
    ...COMPILER_OPTIONS,
    strict: false,
    noEmitOnError: false,
    rootDir: '/workspace',
    // The checker's own scratch space: the staged workspace and the hidden files are read-only to it.
    outDir: '/run/checker/build',
  },
  files: ['/workspace/inventory.ts'],
});

/** Uses the API with its types, and proves the parameters are typed (not any or unknown). */
export const TYPED_USAGE = `import { countByCategory, Item, lowStock, parseInventory, restock, totalValue, tryParse } from '/workspace/inventory';

const items: Item[] = parseInventory('A1,Bolt,hardware,5,10');
const value: number = totalValue(items);
const restocked: Item = restock(items, 'A1', 3);
const low: readonly string[] = lowStock(items);
const counts: Readonly<Record<string, number>> = countByCategory(items);
const parsed = tryParse('');
const outcome: Item[] | string = parsed.ok ? parsed.items : parsed.reason;
export const used = [value, restocked, low, counts, outcome];

// @ts-expect-error CSV text is a string
parseInventory(42);
// @ts-expect-error a list of items, not text
totalValue('A1');
// @ts-expect-error the amount is a number
restock(items, 'A1', '3');
// @ts-expect-error a list of items, not one item
lowStock(items[0]);
// @ts-expect-error items have every required field
countByCategory([{ sku: 'x' }]);
`;

export const HIDDEN_BEHAVIOUR_TESTS = `import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const inventory = createRequire(import.meta.url)('/run/checker/build/inventory.js');

const CSV = [
  '# sku,name,category,qty,unitCost,reorderAt',
  'A1, Bolt, hardware, 40, 12, 50',
  'B2,Hammer,tools,3,1500',
  'C3,Nail,hardware,900,1,100',
  '',
  'D4,Saw,tools,2,2500,5',
].join('\\n');

test('parse turns numbers into numbers', () => {
  const items = inventory.parseInventory(CSV);
  assert.equal(items.length, 4);
  assert.deepEqual(items[0], { sku: 'A1', name: 'Bolt', category: 'hardware', qty: 40, unitCost: 12, reorderAt: 50 });
  assert.equal(items[1].qty, 3);
  assert.equal(items[1].reorderAt, undefined);
});

test('restock adds units in place', () => {
  const items = inventory.parseInventory(CSV);
  const item = inventory.restock(items, 'B2', 10);
  assert.equal(item.qty, 13);
  assert.equal(items[1].qty, 13);
  assert.throws(() => inventory.restock(items, 'ZZ', 1));
});

test('value, low stock and categories', () => {
  const items = inventory.parseInventory(CSV);
  assert.equal(inventory.totalValue(items), 10880);
  assert.deepEqual(inventory.lowStock(items), ['A1', 'D4']);
  assert.deepEqual({ ...inventory.countByCategory(items) }, { hardware: 2, tools: 2 });
});

test('tryParse reports the failing line', () => {
  assert.equal(inventory.tryParse(CSV).ok, true);
  const bad = inventory.tryParse('A1,Bolt,hardware,1,2\\nX9,Oops');
  assert.equal(bad.ok, false);
  assert.match(bad.reason, /line 2/);
});
`;
