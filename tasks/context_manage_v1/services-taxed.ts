/**
 * The seven service modules that charge sales tax. Four carry a stale copy of the rate, each hidden
 * a different way (a module constant, a renamed copy, a private constant after the dataclass, a
 * default argument), so a search for one name finds only some of them.
 */
import type { Field, ServiceSpec, TaxSpec, TaxStyle } from './spec.js';

const f = (name: string, type: Field['type']): Field => ({ name, type });

/** Module name -> how its tax function gets the rate, for the stale modules (the others use config). */
export const STALE: Readonly<Record<string, TaxStyle>> = {
  invoicing: 'module-constant',
  quotes: 'named-copy',
  subscriptions: 'private-constant',
  refunds: 'default-arg',
};

const tax = (module: string, fn: string, what: string): TaxSpec => ({
  fn,
  what,
  style: STALE[module] ?? 'config',
});

export const TAXED_SERVICES: readonly ServiceSpec[] = [
  {
    module: 'cart',
    summary: 'Shopping cart lines and the cart total shown before checkout.',
    about:
      'A cart line is one SKU with a quantity. Prices are copied from the catalog when the line is added, so a later price change does not move a cart that is already open.',
    entity: 'CartLine',
    noun: 'cart_line',
    plural: 'cart_lines',
    id: 'line_id',
    fields: [
      f('cart_id', 'str'),
      f('sku', 'str'),
      f('quantity', 'int'),
      f('unit_price', 'float'),
      f('added_on', 'date'),
    ],
    groupBy: 'cart_id',
    tax: tax('cart', 'cart_total', 'cart total'),
  },
  {
    module: 'checkout',
    summary: 'Checkout sessions, from cart to a placed order.',
    about:
      'A session starts when the customer opens the checkout page and completes when payment is captured. Abandoned sessions are kept for thirty days for the marketing reports.',
    entity: 'CheckoutSession',
    noun: 'session',
    plural: 'sessions',
    id: 'session_id',
    fields: [
      f('cart_id', 'str'),
      f('customer_id', 'str'),
      f('subtotal', 'float'),
      f('started_on', 'date'),
      f('completed', 'bool'),
    ],
    groupBy: 'customer_id',
    tax: tax('checkout', 'checkout_total', 'checkout amount'),
  },
  {
    module: 'invoicing',
    summary: 'Invoices for placed orders and their gross totals.',
    about:
      'An invoice is issued when an order ships. Amounts are stored net; the gross total printed on the invoice adds sales tax. Paid invoices feed the lifetime value of the customer.',
    entity: 'Invoice',
    noun: 'invoice',
    plural: 'invoices',
    id: 'invoice_id',
    fields: [
      f('customer_id', 'str'),
      f('order_id', 'str'),
      f('amount', 'float'),
      f('issued_on', 'date'),
      f('paid', 'bool'),
    ],
    groupBy: 'customer_id',
    tax: tax('invoicing', 'invoice_total', 'invoice total'),
  },
  {
    module: 'quotes',
    summary: 'Price quotes sent to prospective customers.',
    about:
      'A quote states the gross price a customer will pay if they accept within the validity period. Accepted quotes are turned into orders by the sales team.',
    entity: 'Quote',
    noun: 'quote',
    plural: 'quotes',
    id: 'quote_id',
    fields: [
      f('customer_id', 'str'),
      f('net_amount', 'float'),
      f('valid_days', 'int'),
      f('created_on', 'date'),
      f('accepted', 'bool'),
    ],
    groupBy: 'customer_id',
    tax: tax('quotes', 'quote_total', 'quote amount'),
  },
  {
    module: 'receipts',
    summary: 'Receipts printed or emailed by the shops.',
    about:
      'Point-of-sale receipts are stored for the legal retention period. The gross amount on a receipt adds sales tax to the net amount of the sale.',
    entity: 'Receipt',
    noun: 'receipt',
    plural: 'receipts',
    id: 'receipt_id',
    fields: [
      f('order_id', 'str'),
      f('store', 'str'),
      f('amount', 'float'),
      f('printed_on', 'date'),
      f('emailed', 'bool'),
    ],
    groupBy: 'store',
    tax: tax('receipts', 'receipt_total', 'receipt amount'),
  },
  {
    module: 'refunds',
    summary: 'Refund requests and the amounts paid back.',
    about:
      'A refund pays back the net amount plus the sales tax that was charged on it. Requests outside the refund window need a manager to approve them.',
    entity: 'Refund',
    noun: 'refund',
    plural: 'refunds',
    id: 'refund_id',
    fields: [
      f('order_id', 'str'),
      f('reason', 'str'),
      f('amount', 'float'),
      f('requested_on', 'date'),
      f('approved', 'bool'),
    ],
    groupBy: 'reason',
    tax: tax('refunds', 'refund_total', 'refund'),
    configNames: ['REFUND_WINDOW_DAYS'],
    extra: `def within_refund_window(ordered_on: dt.date, requested_on: dt.date) -> bool:
    """Whether a request can be approved without a manager."""
    return 0 <= (requested_on - ordered_on).days <= REFUND_WINDOW_DAYS`,
  },
  {
    module: 'subscriptions',
    summary: 'Monthly subscription plans and their renewals.',
    about:
      'Subscriptions renew on the same day every month. The renewal charge is the monthly price plus sales tax; a cancelled subscription runs until the end of the paid month.',
    entity: 'Subscription',
    noun: 'subscription',
    plural: 'subscriptions',
    id: 'subscription_id',
    fields: [
      f('customer_id', 'str'),
      f('plan', 'str'),
      f('monthly_price', 'float'),
      f('started_on', 'date'),
      f('cancelled', 'bool'),
    ],
    groupBy: 'plan',
    tax: tax('subscriptions', 'renewal_total', 'renewal charge'),
  },
];
