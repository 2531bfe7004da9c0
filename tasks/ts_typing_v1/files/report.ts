import { countByCategory, lowStock, totalValue, tryParse } from './inventory';

/** The nightly stock report's text. */
export function nightlyReport(csv: string): string {
  const parsed = tryParse(csv);
  if (!parsed.ok) return `inventory export unreadable: ${parsed.reason}`;
  const items = parsed.items;
  const value = (totalValue(items) / 100).toFixed(2);
  const low = lowStock(items);
  const categories = Object.entries(countByCategory(items))
    .map(([category, n]) => `${category}: ${n}`)
    .join(', ');
  return [
    `${items.length} items worth $${value}`,
    low.length === 0 ? 'nothing to reorder' : `reorder: ${low.join(', ')}`,
    categories,
  ].join('\n');
}
