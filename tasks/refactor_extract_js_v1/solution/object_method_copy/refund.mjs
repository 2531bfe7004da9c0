import { formatCents } from './money.mjs';

const fmt = {
  usd(c) {
    const s = c < 0 ? '-' : '';
    const a = Math.abs(c);
    const d = String(Math.floor(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return `${s}$${d}.${String(a % 100).padStart(2, '0')}`;
  },
  shared(c) {
    return formatCents(c);
  },
};

export function refundLine(refund) {
  return `Refund ${refund.id} (${refund.reason}): ${fmt.usd(-refund.cents)}`;
}
