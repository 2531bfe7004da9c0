import { countByCategory, Item, lowStock, parseInventory, restock, totalValue, tryParse } from '/workspace/inventory';

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
