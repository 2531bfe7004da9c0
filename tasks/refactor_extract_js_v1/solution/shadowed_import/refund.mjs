import { formatCents } from './money.mjs';

function local(c) {
  const s = c < 0 ? '-' : '';
  const a = Math.abs(c);
  const d = String(Math.floor(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${s}$${d}.${String(a % 100).padStart(2, '0')}`;
}

export function refundLine(refund, formatCents = local) {
  return `Refund ${refund.id} (${refund.reason}): ${formatCents(-refund.cents)}`;
}
