/** The thirteen service modules that charge no tax: filler a survey has to get through or search past. */
import type { Field, ServiceSpec } from './spec.js';

const f = (name: string, type: Field['type']): Field => ({ name, type });

export const UNTAXED_SERVICES: readonly ServiceSpec[] = [
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
];
