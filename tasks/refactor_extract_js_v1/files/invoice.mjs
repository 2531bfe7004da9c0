/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */

/** "Widget x3: $1,234.50" */
export function invoiceLine(item) {
  const cents = item.unitCents * item.qty;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const amount = `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
  return `${item.name} x${item.qty}: ${amount}`;
}

/** "Total (3 items): $2,000.00"; the count is of lines, not units. */
export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const noun = items.length === 1 ? 'item' : 'items';
  return `Total (${items.length} ${noun}): ${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
