python3 - <<'PY'
import pathlib
pathlib.Path("invoice.mjs").write_text(r'''/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */
import * as money from './money.mjs';

const lineCents = (item) => item.unitCents * item.qty;
const labelled = (label, cents) => `${label}: ${money.formatCents(cents)}`;

export function invoiceLine(item) {
  return labelled(`${item.name} x${item.qty}`, lineCents(item));
}

export function invoiceTotal(items) {
  const noun = items.length === 1 ? 'item' : 'items';
  return labelled(`Total (${items.length} ${noun})`, items.reduce((sum, item) => sum + lineCents(item), 0));
}
''')
PY
python3 - <<'PY'
import pathlib
pathlib.Path("refund.mjs").write_text(r'''/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */
import billing from './money.mjs';

export const refundLine = (refund) => `Refund ${refund.id} (${refund.reason}): ${billing.formatCents(-refund.cents)}`;
''')
PY