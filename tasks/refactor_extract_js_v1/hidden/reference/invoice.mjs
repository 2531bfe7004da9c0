/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */
import { formatCents } from './money.mjs';

/** "Widget x3: $1,234.50" */
export function invoiceLine(item) {
  return `${item.name} x${item.qty}: ${formatCents(item.unitCents * item.qty)}`;
}

/** "Total (3 items): $2,000.00"; the count is of lines, not units. */
export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  return `Total (${items.length} ${noun}): ${formatCents(cents)}`;
}
