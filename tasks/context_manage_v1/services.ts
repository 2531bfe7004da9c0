/**
 * The twenty service modules of the shop backend. Seven charge sales tax; four of those carry a
 * stale copy of the rate, each hidden a different way (a module constant, a renamed copy, a private
 * constant after the dataclass, a default argument), so a search for one name finds only some.
 */
import type { Field, ServiceSpec, TaxSpec, TaxStyle } from './render.js';

const f = (name: string, type: Field['type']): Field => ({ name, type });

/** Module name → how its tax function gets the rate, for the modules that charge tax. */
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

export const SERVICES: readonly ServiceSpec[] = [
  {
    module: 'accounts',
    summary: 'Customer login accounts: creation, lockout bookkeeping and exports.',
    about:
      'Accounts are created at signup and never deleted; a deactivated account keeps its row so that old orders still resolve. Failed logins are counted here and reset by the support tools.',
    entity: 'Account',
    noun: 'account',
    plural: 'accounts',
    id: 'account_id',
    fields: [
      f('email', 'str'),
      f('display_name', 'str'),
      f('country', 'str'),
      f('created_on', 'date'),
      f('failed_logins', 'int'),
      f('is_active', 'bool'),
    ],
    groupBy: 'country',
  },
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
    module: 'catalog',
    summary: 'The product catalog: titles, categories, list prices and weights.',
    about:
      'The catalog is the source for product data shown in the shop. List prices are net; taxes are added by the modules that produce a gross amount. Discontinued products stay listed for order history.',
    entity: 'Product',
    noun: 'product',
    plural: 'products',
    id: 'sku',
    fields: [
      f('title', 'str'),
      f('category', 'str'),
      f('list_price', 'float'),
      f('weight_grams', 'int'),
      f('published_on', 'date'),
      f('discontinued', 'bool'),
    ],
    groupBy: 'category',
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
    module: 'coupons',
    summary: 'Discount coupons and their campaigns.',
    about:
      'Coupons give a percentage off the net amount. A single-use coupon is burned at checkout; the others count uses until max_uses. Expired coupons are kept so that old orders can show what was applied.',
    entity: 'Coupon',
    noun: 'coupon',
    plural: 'coupons',
    id: 'code',
    fields: [
      f('campaign', 'str'),
      f('percent_off', 'int'),
      f('max_uses', 'int'),
      f('expires_on', 'date'),
      f('single_use', 'bool'),
    ],
    groupBy: 'campaign',
  },
  {
    module: 'customers',
    summary: 'Customer records: contact details, city and lifetime value.',
    about:
      'Lifetime value is recomputed nightly from paid invoices. The newsletter flag mirrors the consent stored by the marketing tool and must not be set from here.',
    entity: 'Customer',
    noun: 'customer',
    plural: 'customers',
    id: 'customer_id',
    fields: [
      f('name', 'str'),
      f('email', 'str'),
      f('city', 'str'),
      f('signup_on', 'date'),
      f('lifetime_value', 'float'),
      f('newsletter', 'bool'),
    ],
    groupBy: 'city',
  },
  {
    module: 'exports',
    summary: 'Export jobs requested from the admin panel.',
    about:
      'An export job runs in the worker queue and writes a CSV file to the shared bucket. The row count is filled in when the job finishes; failed jobs are retried once.',
    entity: 'ExportJob',
    noun: 'export_job',
    plural: 'export_jobs',
    id: 'job_id',
    fields: [
      f('kind', 'str'),
      f('requested_by', 'str'),
      f('row_count', 'int'),
      f('requested_on', 'date'),
      f('finished', 'bool'),
    ],
    groupBy: 'kind',
  },
  {
    module: 'fulfillment',
    summary: 'Picking and packing tasks for the warehouses.',
    about:
      'One fulfillment task exists per order and warehouse. Tasks past their due date are escalated by the morning job; a task is done once every item is picked and the parcel is labelled.',
    entity: 'FulfillmentTask',
    noun: 'task',
    plural: 'tasks',
    id: 'task_id',
    fields: [
      f('order_id', 'str'),
      f('warehouse', 'str'),
      f('picked_items', 'int'),
      f('due_on', 'date'),
      f('done', 'bool'),
    ],
    groupBy: 'warehouse',
  },
  {
    module: 'inventory',
    summary: 'Stock levels per SKU and warehouse.',
    about:
      'On-hand quantities come from the weekly count plus the movements since; reserved quantities are held by open orders. Unit cost is the moving average used by the finance exports.',
    entity: 'StockLevel',
    noun: 'stock_level',
    plural: 'stock_levels',
    id: 'stock_id',
    fields: [
      f('sku', 'str'),
      f('warehouse', 'str'),
      f('on_hand', 'int'),
      f('reserved', 'int'),
      f('counted_on', 'date'),
      f('unit_cost', 'float'),
    ],
    groupBy: 'warehouse',
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
    module: 'loyalty',
    summary: 'Loyalty program members, tiers and points.',
    about:
      'Members earn points for every euro spent, at the rate set in the config. Tiers are recomputed monthly from the spend of the last twelve months.',
    entity: 'LoyaltyMember',
    noun: 'member',
    plural: 'members',
    id: 'member_id',
    fields: [
      f('customer_id', 'str'),
      f('tier', 'str'),
      f('points', 'int'),
      f('joined_on', 'date'),
      f('spent', 'float'),
    ],
    groupBy: 'tier',
    configNames: ['LOYALTY_POINTS_PER_EURO'],
    extra: `def points_for(amount: float) -> int:
    """Points earned for a purchase of \`amount\` euros (whole points, rounded down)."""
    if amount < 0:
        raise ValueError("amount must not be negative")
    return int(amount * LOYALTY_POINTS_PER_EURO)`,
  },
  {
    module: 'notifications',
    summary: 'Queued customer notifications (email, SMS, push).',
    about:
      'Notifications are queued by the other services and sent by the notifier process. A notification that could not be sent three times is marked failed and shows up in the support queue.',
    entity: 'Notification',
    noun: 'notification',
    plural: 'notifications',
    id: 'notification_id',
    fields: [
      f('customer_id', 'str'),
      f('channel', 'str'),
      f('template', 'str'),
      f('attempts', 'int'),
      f('queued_on', 'date'),
      f('sent', 'bool'),
    ],
    groupBy: 'channel',
  },
  {
    module: 'payments',
    summary: 'Captured payments and the card fees they cost us.',
    about:
      'A payment is captured once per order. The card processor takes a fee on every captured amount; refunded payments keep their row with the refunded flag set.',
    entity: 'Payment',
    noun: 'payment',
    plural: 'payments',
    id: 'payment_id',
    fields: [
      f('order_id', 'str'),
      f('method', 'str'),
      f('amount', 'float'),
      f('captured_on', 'date'),
      f('refunded', 'bool'),
    ],
    groupBy: 'method',
    extra: `# The processor's fee, set by our contract with them: not a tax, and not in config.py.
CARD_FEE_RATE = 0.029


def card_fee(amount: float) -> float:
    """What the processor keeps from a captured amount, rounded to cents."""
    return round(amount * CARD_FEE_RATE, 2)`,
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
    module: 'reports',
    summary: 'Daily sales reports per store.',
    about:
      'Revenue in these reports is net of tax, as the accountants want it; gross amounts live with the invoices and receipts. A report is final once the store has closed its till.',
    entity: 'DailyReport',
    noun: 'report',
    plural: 'reports',
    id: 'report_id',
    fields: [
      f('store', 'str'),
      f('orders', 'int'),
      f('revenue', 'float'),
      f('report_on', 'date'),
      f('final', 'bool'),
    ],
    groupBy: 'store',
  },
  {
    module: 'reviews',
    summary: 'Product reviews and ratings.',
    about:
      'Reviews are posted by customers and shown after moderation. A review is verified when the customer bought the product; only verified reviews count in the average rating.',
    entity: 'Review',
    noun: 'review',
    plural: 'reviews',
    id: 'review_id',
    fields: [
      f('sku', 'str'),
      f('customer_id', 'str'),
      f('stars', 'int'),
      f('posted_on', 'date'),
      f('verified', 'bool'),
    ],
    groupBy: 'sku',
  },
  {
    module: 'shipping',
    summary: 'Parcels handed to carriers, and what shipping costs the customer.',
    about:
      'Shipping is free above the threshold set in the config; below it the price depends on the weight. Insured parcels declare their value to the carrier.',
    entity: 'Parcel',
    noun: 'parcel',
    plural: 'parcels',
    id: 'parcel_id',
    fields: [
      f('order_id', 'str'),
      f('carrier', 'str'),
      f('weight_grams', 'int'),
      f('declared_value', 'float'),
      f('shipped_on', 'date'),
      f('insured', 'bool'),
    ],
    groupBy: 'carrier',
    configNames: ['FREE_SHIPPING_THRESHOLD'],
    extra: `def shipping_cost(order_amount: float, weight_grams: int) -> float:
    """What the customer pays for shipping an order of this net amount and weight."""
    if order_amount >= FREE_SHIPPING_THRESHOLD:
        return 0.0
    return 4.90 if weight_grams <= 2000 else 8.90`,
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
