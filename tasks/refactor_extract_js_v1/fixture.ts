/**
 * Billing text with the same money formatting pasted into three functions across two modules, the
 * extracted helper and the refactored modules (the reference), and the tests. Amounts are integer
 * cents; "-$1,234.50" is the format.
 */

export const INVOICE = `/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */

/** "Widget x3: $1,234.50" */
export function invoiceLine(item) {
  const cents = item.unitCents * item.qty;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
  const amount = \`\${sign}$\${dollars}.\${String(abs % 100).padStart(2, '0')}\`;
  return \`\${item.name} x\${item.qty}: \${amount}\`;
}

/** "Total (3 items): $2,000.00"; the count is of lines, not units. */
export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
  const noun = items.length === 1 ? 'item' : 'items';
  return \`Total (\${items.length} \${noun}): \${sign}$\${dollars}.\${String(abs % 100).padStart(2, '0')}\`;
}
`;

export const REFUND = `/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */

/** "Refund R-17 (damaged): -$25.00" */
export function refundLine(refund) {
  const cents = -refund.cents;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
  const amount = \`\${sign}$\${dollars}.\${String(abs % 100).padStart(2, '0')}\`;
  return \`Refund \${refund.id} (\${refund.reason}): \${amount}\`;
}
`;

export const MONEY = `/** Money as the billing e-mails show it. */

/** Integer cents as dollars with thousands separators: -123450 -> "-$1,234.50". */
export function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
  return \`\${sign}$\${dollars}.\${String(abs % 100).padStart(2, '0')}\`;
}
`;

export const INVOICE_REFACTORED = `/** Invoice lines and totals for the billing e-mails. Amounts are integer cents. */
import { formatCents } from './money.mjs';

/** "Widget x3: $1,234.50" */
export function invoiceLine(item) {
  return \`\${item.name} x\${item.qty}: \${formatCents(item.unitCents * item.qty)}\`;
}

/** "Total (3 items): $2,000.00"; the count is of lines, not units. */
export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  return \`Total (\${items.length} \${noun}): \${formatCents(cents)}\`;
}
`;

export const REFUND_REFACTORED = `/** Refund notices for the billing e-mails. A refund is shown as a negative amount. */
import { formatCents } from './money.mjs';

/** "Refund R-17 (damaged): -$25.00" */
export function refundLine(refund) {
  return \`Refund \${refund.id} (\${refund.reason}): \${formatCents(-refund.cents)}\`;
}
`;

export const VISIBLE_TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invoiceLine, invoiceTotal } from './invoice.mjs';
import { refundLine } from './refund.mjs';

const widget = { name: 'Widget', qty: 3, unitCents: 41150 };
const bolt = { name: 'Bolt', qty: 100, unitCents: 7 };

test('invoice line with thousands separator', () => {
  assert.equal(invoiceLine(widget), 'Widget x3: $1,234.50');
});

test('invoice line under a dollar', () => {
  assert.equal(invoiceLine({ name: 'Washer', qty: 1, unitCents: 5 }), 'Washer x1: $0.05');
});

test('invoice total counts lines', () => {
  assert.equal(invoiceTotal([widget, bolt]), 'Total (2 items): $1,241.50');
  assert.equal(invoiceTotal([bolt]), 'Total (1 item): $7.00');
});

test('refunds are negative', () => {
  assert.equal(refundLine({ id: 'R-17', reason: 'damaged', cents: 2500 }), 'Refund R-17 (damaged): -$25.00');
});
`;

/** The three functions on values the visible tests do not use. */
export const HIDDEN_BILLING_TESTS = `import assert from 'node:assert/strict';
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
`;

/** The extracted function on its own: the role the duplicated code played. */
export const HIDDEN_MONEY_TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents } from '/workspace/money.mjs';

test('formatCents', () => {
  const cases = [
    [0, '$0.00'],
    [5, '$0.05'],
    [99, '$0.99'],
    [1000, '$10.00'],
    [123456, '$1,234.56'],
    [-123456, '-$1,234.56'],
    [-5, '-$0.05'],
    [100000000, '$1,000,000.00'],
  ];
  for (const [cents, text] of cases) assert.equal(formatCents(cents), text, String(cents));
});
`;
