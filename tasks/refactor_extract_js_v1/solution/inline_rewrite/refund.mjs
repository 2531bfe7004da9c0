/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */

/** "Refund R-17 (damaged): -$25.00" */
export function refundLine(refund) {
  const cents = -refund.cents;
  const amount = `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
  return `Refund ${refund.id} (${refund.reason}): ${amount}`;
}
