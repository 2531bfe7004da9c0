/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */
import { formatCents } from './money.mjs';

/** "Refund R-17 (damaged): -$25.00" */
export function refundLine(refund) {
  return `Refund ${refund.id} (${refund.reason}): ${formatCents(-refund.cents)}`;
}
