/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */

/** "Refund R-17 (damaged): -$25.00" */
export function refundLine(refund) {
  const cents = -refund.cents;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const amount = `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
  return `Refund ${refund.id} (${refund.reason}): ${amount}`;
}
