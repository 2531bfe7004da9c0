python3 - <<'PY'
import pathlib
pathlib.Path("invoice.mjs").write_text(r'''import * as money from './money.mjs';

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
pathlib.Path("refund.mjs").write_text(r'''import billing from './money.mjs';

export const refundLine = (refund) => `Refund ${refund.id} (${refund.reason}): ${billing.formatCents(-refund.cents)}`;
''')
PY