import assert from 'node:assert/strict';
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
].join('\n');

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
  const bad = inventory.tryParse('A1,Bolt,hardware,1,2\nX9,Oops');
  assert.equal(bad.ok, false);
  assert.match(bad.reason, /line 2/);
});
