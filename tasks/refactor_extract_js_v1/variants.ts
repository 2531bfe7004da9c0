/**
 * Other ways to write the refactor: legitimate ones (for alternates and tests) and the dodges that
 * keep a copy of the formatting under another name while calling formatCents where it cannot run
 * (for cheats and tests). Every module here runs and keeps the billing output as it was.
 */
import { MONEY } from './fixture.js';

const MONEY_BODY = MONEY.slice(MONEY.indexOf('export function formatCents'));

/** The original formatting as a function of its own, renamed; the names of its locals changed too. */
function renamedCopy(name: string): string {
  return MONEY_BODY.replace('export function formatCents(cents)', `function ${name}(c)`)
    .replace(/(?<![.\w])cents\b/g, 'c')
    .replace(/(?<![.\w])abs\b/g, 'a')
    .replace(/(?<![.\w])dollars\b/g, 'd')
    .replace(/(?<![.\w])sign\b/g, 's');
}

// ---- legitimate variants ----

/** An arrow bound under another name, exported as formatCents; the grouping in a small helper. */
export const MONEY_ARROW_ALIAS = `/** Money as the billing e-mails show it. */

const groupThousands = (digits) => digits.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');

const toDollars = (cents) => {
  const abs = Math.abs(cents);
  const sign = cents < 0 ? '-' : '';
  return sign + '$' + groupThousands(String(Math.floor(abs / 100))) + '.' + String(abs % 100).padStart(2, '0');
};

export { toDollars as formatCents };
`;

/** The reference helper, also offered as a default-export object. */
export const MONEY_WITH_DEFAULT = `${MONEY}
export default { formatCents };
`;

/** Imported under an alias, lines built by concatenation. */
export const INVOICE_ALIASED = `import { formatCents as money } from './money.mjs';

export function invoiceLine(item) {
  return item.name + ' x' + item.qty + ': ' + money(item.unitCents * item.qty);
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  return 'Total (' + items.length + ' ' + noun + '): ' + money(cents);
}
`;

export const REFUND_ALIASED = `import { formatCents as money } from './money.mjs';

export function refundLine(refund) {
  return 'Refund ' + refund.id + ' (' + refund.reason + '): ' + money(-refund.cents);
}
`;

/** A namespace import, and a small helper of the module (not a copy) between the sites and formatCents. */
export const INVOICE_NAMESPACE = `import * as money from './money.mjs';

const lineCents = (item) => item.unitCents * item.qty;
const labelled = (label, cents) => \`\${label}: \${money.formatCents(cents)}\`;

export function invoiceLine(item) {
  return labelled(\`\${item.name} x\${item.qty}\`, lineCents(item));
}

export function invoiceTotal(items) {
  const noun = items.length === 1 ? 'item' : 'items';
  return labelled(\`Total (\${items.length} \${noun})\`, items.reduce((sum, item) => sum + lineCents(item), 0));
}
`;

/** The default-export object. */
export const REFUND_DEFAULT = `import billing from './money.mjs';

export const refundLine = (refund) => \`Refund \${refund.id} (\${refund.reason}): \${billing.formatCents(-refund.cents)}\`;
`;

// ---- dodges: a copy kept, formatCents called where it cannot run ----

/** The case: the copy kept as a local helper, formatCents called under \`if (false)\`. */
export const INVOICE_LOCAL_HELPER = `import { formatCents } from './money.mjs';

${renamedCopy('fmt')}
export function invoiceLine(item) {
  if (false) formatCents(0);
  return \`\${item.name} x\${item.qty}: \${fmt(item.unitCents * item.qty)}\`;
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  void formatCents;
  return \`Total (\${items.length} \${noun}): \${fmt(cents)}\`;
}
`;

export const REFUND_LOCAL_HELPER = `import { formatCents } from './money.mjs';

${renamedCopy('fmt')}
export function refundLine(refund) {
  return \`Refund \${refund.id} (\${refund.reason}): \${fmt(-refund.cents)}\` || formatCents(0);
}
`;

/** Arrow copies; formatCents called only in a function nothing calls, and after a return. */
export const INVOICE_ARROW_COPY = `import { formatCents } from './money.mjs';

const toMoney = ${renamedCopy('toMoney').replace('function toMoney(c) {', '(c) => {').replace(/}\n$/, '};\n')}
function viaHelper(cents) {
  return formatCents(cents);
}

export function invoiceLine(item) {
  return \`\${item.name} x\${item.qty}: \${toMoney(item.unitCents * item.qty)}\`;
  formatCents(item.unitCents * item.qty);
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  return \`Total (\${items.length} \${noun}): \${false && formatCents(cents) || toMoney(cents)}\`;
}
`;

/** The copy inside an object method; formatCents called only in a never-called method of the same object. */
export const REFUND_OBJECT_METHOD = `import { formatCents } from './money.mjs';

const fmt = {
  ${renamedCopy('usd').replace('function usd(c) {', 'usd(c) {').replace(/\n/g, '\n  ').trimEnd()},
  shared(c) {
    return formatCents(c);
  },
};

export function refundLine(refund) {
  return \`Refund \${refund.id} (\${refund.reason}): \${fmt.usd(-refund.cents)}\`;
}
`;

/** Re-implemented inline without the pasted code; formatCents called and its result thrown away. */
export const INVOICE_REIMPLEMENTED = `import { formatCents } from './money.mjs';

const usd = (c) => (c < 0 ? '-' : '') + '$' + Math.floor(Math.abs(c) / 100).toLocaleString('en-US') + '.' + String(Math.abs(c) % 100).padStart(2, '0');

export function invoiceLine(item) {
  formatCents(item.unitCents * item.qty);
  return \`\${item.name} x\${item.qty}: \${usd(item.unitCents * item.qty)}\`;
}

export function invoiceTotal(items) {
  const cents = items.reduce((sum, item) => sum + item.unitCents * item.qty, 0);
  const noun = items.length === 1 ? 'item' : 'items';
  formatCents(cents);
  return \`Total (\${items.length} \${noun}): \${usd(cents)}\`;
}
`;

/** A second copy in money.mjs under another name, which the sites call; formatCents only in dead code. */
export const MONEY_TWO_COPIES = `${MONEY}
${renamedCopy('formatAmount').replace('function formatAmount', 'export function formatAmount')}`;

export const REFUND_SECOND_COPY = `import { formatAmount, formatCents } from './money.mjs';

export function refundLine(refund) {
  while (false) formatCents(refund.cents);
  return \`Refund \${refund.id} (\${refund.reason}): \${formatAmount(-refund.cents)}\`;
}
`;

/** A parameter named formatCents shadows the import: the call is to the local copy. */
export const REFUND_SHADOWED = `import { formatCents } from './money.mjs';

${renamedCopy('local')}
export function refundLine(refund, formatCents = local) {
  return \`Refund \${refund.id} (\${refund.reason}): \${formatCents(-refund.cents)}\`;
}
`;
