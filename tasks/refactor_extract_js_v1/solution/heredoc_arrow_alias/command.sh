cat > money.mjs <<'EOF'
/** Money as the billing e-mails show it. */

const groupThousands = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const toDollars = (cents) => {
  const abs = Math.abs(cents);
  const sign = cents < 0 ? '-' : '';
  return sign + '$' + groupThousands(String(Math.floor(abs / 100))) + '.' + String(abs % 100).padStart(2, '0');
};

export { toDollars as formatCents };
EOF
cat > invoice.mjs <<'EOF'
/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */
import { formatCents as money } from './money.mjs';

export function invoiceLine(item) {
  return item.name + ' x' + item.qty + ': ' + money(item.unitCents * item.qty);
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  return 'Total (' + items.length + ' ' + noun + '): ' + money(cents);
}
EOF
cat > refund.mjs <<'EOF'
/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */
import { formatCents as money } from './money.mjs';

export function refundLine(refund) {
  return 'Refund ' + refund.id + ' (' + refund.reason + '): ' + money(-refund.cents);
}
EOF