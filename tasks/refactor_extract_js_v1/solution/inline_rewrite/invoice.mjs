/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */

/** "Widget x3: $1,234.50" */
export function invoiceLine(item) {
  const cents = item.unitCents * item.qty;
  const amount = `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
  return `${item.name} x${item.qty}: ${amount}`;
}

/** "Total (3 items): $2,000.00"; the count is of lines, not units. */
export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const amount = `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
  const noun = items.length === 1 ? 'item' : 'items';
  return `Total (${items.length} ${noun}): ${amount}`;
}
