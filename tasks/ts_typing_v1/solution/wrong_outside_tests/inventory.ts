/** Warehouse inventory: parse the nightly CSV export, value the stock, plan restocking. */

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

export type ParseResult = { ok: true; items: Item[] } | { ok: false; reason: string };

/** One item per line: sku,name,category,qty,unitCost[,reorderAt]. Blank lines and # comments are skipped. */
export function parseInventory(csv: string): Item[] {
  const lines = csv
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return lines.map((line, i): Item => {
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length < 5) throw new Error(`line ${i + 1}: expected at least 5 fields`);
    const [sku, name, category, qty, unitCost, reorderAt] = fields;
    return { sku, name, category, qty: Number(qty), unitCost: Number(unitCost), reorderAt: reorderAt ? Number(reorderAt) : undefined };
  });
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
  if (item === undefined) throw new Error(`unknown sku: ${sku}`);
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
