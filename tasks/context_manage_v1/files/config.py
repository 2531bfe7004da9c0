"""Shop-wide settings.

This module is the single source of truth for these values: import them from here
(`from config import TAX_RATE`), never copy them into another module.
"""

CURRENCY = "EUR"

# Sales tax added to every gross amount: invoices, quotes, receipts, refunds, renewals...
TAX_RATE = 0.0725

FREE_SHIPPING_THRESHOLD = 60.0
LOYALTY_POINTS_PER_EURO = 2
REFUND_WINDOW_DAYS = 30
PAGE_SIZE = 25
