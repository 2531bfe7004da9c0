import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invoiceLine, invoiceTotal } from '/workspace/invoice.mjs';
import { refundLine } from '/workspace/refund.mjs';

test('invoice lines', () => {
  assert.equal(invoiceLine({ name: 'Crate', qty: 2, unitCents: 50000050 }), 'Crate x2: $1,000,001.00');
  assert.equal(invoiceLine({ name: 'Credit', qty: 1, unitCents: -1999 }), 'Credit x1: -$19.99');
  assert.equal(invoiceLine({ name: 'Free', qty: 4, unitCents: 0 }), 'Free x4: $0.00');
});

test('invoice totals', () => {
  assert.equal(invoiceTotal([]), 'Total (0 items): $0.00');
  assert.equal(invoiceTotal([{ name: 'A', qty: 10, unitCents: 9999 }]), 'Total (1 item): $999.90');
});

test('refund lines', () => {
  assert.equal(refundLine({ id: 'R-1', reason: 'late', cents: 123456789 }), 'Refund R-1 (late): -$1,234,567.89');
  assert.equal(refundLine({ id: 'R-2', reason: 'goodwill', cents: 1 }), 'Refund R-2 (goodwill): -$0.01');
});
