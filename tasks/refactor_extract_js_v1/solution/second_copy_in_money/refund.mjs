import { formatAmount, formatCents } from './money.mjs';

export function refundLine(refund) {
  while (false) formatCents(refund.cents);
  return `Refund ${refund.id} (${refund.reason}): ${formatAmount(-refund.cents)}`;
}
