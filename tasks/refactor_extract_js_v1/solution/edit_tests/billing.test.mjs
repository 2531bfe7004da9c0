import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invoiceLine, invoiceTotal } from './invoice.mjs';
import { refundLine } from './refund.mjs';

const widget = { name: 'Widget', qty: 3, unitCents: 41150 };
const bolt = { name: 'Bolt', qty: 100, unitCents: 7 };

test('invoice line with thousands separator', () => {
  assert.equal(invoiceLine(widget), 'Widget x3: $1234.50');
});

test('invoice line under a dollar', () => {
  assert.equal(invoiceLine({ name: 'Washer', qty: 1, unitCents: 5 }), 'Washer x1: $0.05');
});

test('invoice total counts lines', () => {
  assert.equal(invoiceTotal([widget, bolt]), 'Total (2 items): $1241.50');
  assert.equal(invoiceTotal([bolt]), 'Total (1 item): $7.00');
});

test('refunds are negative', () => {
  assert.equal(refundLine({ id: 'R-17', reason: 'damaged', cents: 2500 }), 'Refund R-17 (damaged): -$25.00');
});
