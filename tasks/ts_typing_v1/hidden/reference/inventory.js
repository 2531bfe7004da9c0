// hidden/tsconfig.build.json's build of solution/inventory.ts (by the sandbox's tsc): the behaviour
// behaves_like_reference compares against. The reference run proves the two still agree.
"use strict";
/** Warehouse inventory: parse the nightly CSV export, value the stock, plan restocking. */
Object.defineProperty(exports, "__esModule", { value: true });
exports.countByCategory = exports.lowStock = exports.restock = exports.totalValue = exports.tryParse = exports.parseInventory = void 0;
/** One item per line: sku,name,category,qty,unitCost[,reorderAt]. Blank lines and # comments are skipped. */
function parseInventory(csv) {
    const items = [];
    const lines = csv.split('\n');
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i].trim();
        if (line === '' || line.startsWith('#'))
            continue;
        const fields = line.split(',').map((f) => f.trim());
        if (fields.length < 5)
            throw new Error(`line ${i + 1}: expected at least 5 fields`);
        const [sku, name, category, qty, unitCost, reorderAt] = fields;
        items.push({ sku, name, category, qty: Number(qty), unitCost: Number(unitCost), reorderAt: reorderAt ? Number(reorderAt) : undefined });
    }
    return items;
}
exports.parseInventory = parseInventory;
/** parseInventory's items, or why the export could not be read (for the nightly job's log). */
function tryParse(csv) {
    try {
        return { ok: true, items: parseInventory(csv) };
    }
    catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
}
exports.tryParse = tryParse;
/** Stock value in cents. */
function totalValue(items) {
    return items.reduce((sum, item) => sum + item.qty * item.unitCost, 0);
}
exports.totalValue = totalValue;
/** Adds amount units to the item with this sku, in place, and returns it; an unknown sku is an error. */
function restock(items, sku, amount) {
    const bySku = new Map(items.map((item) => [item.sku, item]));
    const item = bySku.get(sku);
    if (item === undefined)
        throw new Error(`unknown sku: ${sku}`);
    item.qty += amount;
    return item;
}
exports.restock = restock;
/** SKUs of the items below their reorder point, in input order. */
function lowStock(items) {
    return items.filter((item) => item.reorderAt !== undefined && item.qty < item.reorderAt).map((item) => item.sku);
}
exports.lowStock = lowStock;
/** How many items (lines, not units) each category has. */
function countByCategory(items) {
    const counts = {};
    for (const item of items)
        counts[item.category] = (counts[item.category] ?? 0) + 1;
    return counts;
}
exports.countByCategory = countByCategory;
