import { formatCents } from './money.mjs';

const usd = (c) => (c < 0 ? '-' : '') + '$' + Math.floor(Math.abs(c) / 100).toLocaleString('en-US') + '.' + String(Math.abs(c) % 100).padStart(2, '0');

export function invoiceLine(item) {
  formatCents(item.unitCents * item.qty);
  return `${item.name} x${item.qty}: ${usd(item.unitCents * item.qty)}`;
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  formatCents(cents);
  return `Total (${items.length} ${noun}): ${usd(cents)}`;
}
