import importlib
import sys

import pytest

sys.path.insert(0, "/workspace")

import config  # noqa: E402

CONFIGURED_RATE = 0.0725
MODULES = ["services.accounts", "services.cart", "services.catalog", "services.checkout", "services.coupons", "services.customers", "services.exports", "services.fulfillment", "services.inventory", "services.invoicing", "services.loyalty", "services.notifications", "services.payments", "services.quotes", "services.receipts", "services.refunds", "services.reports", "services.reviews", "services.shipping", "services.subscriptions"]
TAX_FUNCTIONS = [
    ("services.cart", "cart_total"),
    ("services.checkout", "checkout_total"),
    ("services.invoicing", "invoice_total"),
    ("services.quotes", "quote_total"),
    ("services.receipts", "receipt_total"),
    ("services.refunds", "refund_total"),
    ("services.subscriptions", "renewal_total"),
]


def test_config_untouched():
    assert config.TAX_RATE == CONFIGURED_RATE


@pytest.mark.parametrize("module_name", MODULES)
def test_module_imports(module_name):
    importlib.import_module(module_name)


@pytest.mark.parametrize("module_name, function_name", TAX_FUNCTIONS)
def test_uses_configured_rate(module_name, function_name):
    module = importlib.import_module(module_name)
    assert getattr(module, function_name)(100) == pytest.approx(100 * (1 + CONFIGURED_RATE), abs=0.005)


@pytest.mark.parametrize("module_name, function_name", TAX_FUNCTIONS)
def test_rounds_to_cents(module_name, function_name):
    # 12.34 * 1.0725 = 13.23465: only rounding to cents gives 13.23 (found by validate --metamorphic,
    # whose mutant rounding to three places passed the checks at 100).
    module = importlib.import_module(module_name)
    assert getattr(module, function_name)(12.34) == 13.23


@pytest.mark.parametrize("module_name, function_name", TAX_FUNCTIONS)
def test_follows_config(module_name, function_name, monkeypatch):
    module = importlib.import_module(module_name)
    monkeypatch.setattr(config, "TAX_RATE", 0.19)
    try:
        reloaded = importlib.reload(module)
        assert getattr(reloaded, function_name)(100) == pytest.approx(119.0, abs=0.005)
    finally:
        monkeypatch.undo()
        importlib.reload(module)
