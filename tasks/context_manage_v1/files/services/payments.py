"""Captured payments and the card fees they cost us.

A payment is captured once per order. The card processor takes a fee on every captured
amount; refunded payments keep their row with the refunded flag set.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from collections import defaultdict
from typing import Iterable

from config import CURRENCY, PAGE_SIZE


@dataclasses.dataclass(frozen=True)
class Payment:
    """One payment as stored in the payments table."""

    payment_id: str
    order_id: str
    method: str
    amount: float
    captured_on: dt.date
    refunded: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "payment_id": self.payment_id,
            "order_id": self.order_id,
            "method": self.method,
            "amount": f"{self.amount:.2f}",
            "captured_on": self.captured_on.isoformat(),
            "refunded": "yes" if self.refunded else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Payment:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                payment_id=row["payment_id"],
                order_id=row["order_id"],
                method=row["method"],
                amount=float(row["amount"]),
                captured_on=dt.date.fromisoformat(row["captured_on"]),
                refunded=_parse_flag(row["refunded"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad payment row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_payment(item: Payment) -> list[str]:
    """Every problem found with one payment, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.payment_id.strip():
        problems.append("payment_id is empty")
    if not item.order_id.strip():
        problems.append("order_id is empty")
    if not item.method.strip():
        problems.append("method is empty")
    if item.amount < 0:
        problems.append(f"amount is negative: {item.amount}")
    if item.captured_on > dt.date.today():
        problems.append(f"captured_on is in the future: {item.captured_on.isoformat()}")
    return problems


def group_payments_by_method(items: Iterable[Payment]) -> dict[str, list[Payment]]:
    """Payments keyed by method, each list in input order."""
    groups: dict[str, list[Payment]] = defaultdict(list)
    for item in items:
        groups[str(item.method)].append(item)
    return dict(groups)


def sort_payments(items: Iterable[Payment], newest_first: bool = True) -> list[Payment]:
    """By captured_on, then payment_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.captured_on, item.payment_id), reverse=newest_first)


def payments_between(items: Iterable[Payment], start: dt.date, end: dt.date) -> list[Payment]:
    """Payments whose captured_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.captured_on <= end]


def paginate_payments(items: list[Payment], page: int, per_page: int = PAGE_SIZE) -> list[Payment]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_payments(items: Iterable[Payment], query: str) -> list[Payment]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.payment_id, item.order_id, item.method,))]


def dedupe_payments(items: Iterable[Payment]) -> list[Payment]:
    """Drops repeated payment_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Payment] = []
    for item in items:
        if item.payment_id in seen:
            continue
        seen.add(item.payment_id)
        unique.append(item)
    return unique


_COLUMNS = ["payment_id", "order_id", "method", "amount", "captured_on", "refunded"]


def payments_to_csv(items: Iterable[Payment]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def payments_from_csv(text: str) -> list[Payment]:
    """Inverse of payments_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Payment.from_row(row) for row in reader if any(row.values())]


def summarize_payments(items: Iterable[Payment]) -> dict[str, object]:
    """Count, amount total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.captured_on for item in rows)
    return {
        "count": len(rows),
        "amount_total": round(sum(item.amount for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_payment_line(item: Payment) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.payment_id:<14} {item.method!s:<12} {item.amount:>10} {item.captured_on.isoformat()}"


# The processor's fee, set by our contract with them: not a tax, and not in config.py.
CARD_FEE_RATE = 0.029


def card_fee(amount: float) -> float:
    """What the processor keeps from a captured amount, rounded to cents."""
    return round(amount * CARD_FEE_RATE, 2)
