"""Invoices for placed orders and their gross totals.

An invoice is issued when an order ships. Amounts are stored net; the gross total
printed on the invoice adds sales tax. Paid invoices feed the lifetime value of the
customer.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from collections import defaultdict
from typing import Iterable

from config import CURRENCY, PAGE_SIZE, TAX_RATE


@dataclasses.dataclass(frozen=True)
class Invoice:
    """One invoice as stored in the invoices table."""

    invoice_id: str
    customer_id: str
    order_id: str
    amount: float
    issued_on: dt.date
    paid: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "invoice_id": self.invoice_id,
            "customer_id": self.customer_id,
            "order_id": self.order_id,
            "amount": f"{self.amount:.2f}",
            "issued_on": self.issued_on.isoformat(),
            "paid": "yes" if self.paid else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Invoice:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                invoice_id=row["invoice_id"],
                customer_id=row["customer_id"],
                order_id=row["order_id"],
                amount=float(row["amount"]),
                issued_on=dt.date.fromisoformat(row["issued_on"]),
                paid=_parse_flag(row["paid"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad invoice row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_invoice(item: Invoice) -> list[str]:
    """Every problem found with one invoice, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.invoice_id.strip():
        problems.append("invoice_id is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if not item.order_id.strip():
        problems.append("order_id is empty")
    if item.amount < 0:
        problems.append(f"amount is negative: {item.amount}")
    if item.issued_on > dt.date.today():
        problems.append(f"issued_on is in the future: {item.issued_on.isoformat()}")
    return problems


def group_invoices_by_customer_id(items: Iterable[Invoice]) -> dict[str, list[Invoice]]:
    """Invoices keyed by customer_id, each list in input order."""
    groups: dict[str, list[Invoice]] = defaultdict(list)
    for item in items:
        groups[str(item.customer_id)].append(item)
    return dict(groups)


def sort_invoices(items: Iterable[Invoice], newest_first: bool = True) -> list[Invoice]:
    """By issued_on, then invoice_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.issued_on, item.invoice_id), reverse=newest_first)


def invoices_between(items: Iterable[Invoice], start: dt.date, end: dt.date) -> list[Invoice]:
    """Invoices whose issued_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.issued_on <= end]


def paginate_invoices(items: list[Invoice], page: int, per_page: int = PAGE_SIZE) -> list[Invoice]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_invoices(items: Iterable[Invoice], query: str) -> list[Invoice]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.invoice_id, item.customer_id, item.order_id,))]


def dedupe_invoices(items: Iterable[Invoice]) -> list[Invoice]:
    """Drops repeated invoice_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Invoice] = []
    for item in items:
        if item.invoice_id in seen:
            continue
        seen.add(item.invoice_id)
        unique.append(item)
    return unique


_COLUMNS = ["invoice_id", "customer_id", "order_id", "amount", "issued_on", "paid"]


def invoices_to_csv(items: Iterable[Invoice]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def invoices_from_csv(text: str) -> list[Invoice]:
    """Inverse of invoices_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Invoice.from_row(row) for row in reader if any(row.values())]


def summarize_invoices(items: Iterable[Invoice]) -> dict[str, object]:
    """Count, amount total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.issued_on for item in rows)
    return {
        "count": len(rows),
        "amount_total": round(sum(item.amount for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_invoice_line(item: Invoice) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.invoice_id:<14} {item.customer_id!s:<12} {item.amount:>10} {item.issued_on.isoformat()}"


def invoice_total(net_amount: float) -> float:
    """Gross invoice total: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)
