import { formatCents } from './money.mjs';

const toMoney = (c) => {
  const s = c < 0 ? '-' : '';
  const a = Math.abs(c);
  const d = String(Math.floor(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${s}$${d}.${String(a % 100).padStart(2, '0')}`;
};

function viaHelper(cents) {
  return formatCents(cents);
}

export function invoiceLine(item) {
  return `${item.name} x${item.qty}: ${toMoney(item.unitCents * item.qty)}`;
  formatCents(item.unitCents * item.qty);
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  return `Total (${items.length} ${noun}): ${false && formatCents(cents) || toMoney(cents)}`;
}
