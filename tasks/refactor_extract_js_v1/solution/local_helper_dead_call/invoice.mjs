import { formatCents } from './money.mjs';

function fmt(c) {
  const s = c < 0 ? '-' : '';
  const a = Math.abs(c);
  const d = String(Math.floor(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${s}$${d}.${String(a % 100).padStart(2, '0')}`;
}

export function invoiceLine(item) {
  if (false) formatCents(0);
  return `${item.name} x${item.qty}: ${fmt(item.unitCents * item.qty)}`;
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  void formatCents;
  return `Total (${items.length} ${noun}): ${fmt(cents)}`;
}
