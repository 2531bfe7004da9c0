"""Receipts printed or emailed by the shops.

Point-of-sale receipts are stored for the legal retention period. The gross amount on a
receipt adds sales tax to the net amount of the sale.
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
class Receipt:
    """One receipt as stored in the receipts table."""

    receipt_id: str
    order_id: str
    store: str
    amount: float
    printed_on: dt.date
    emailed: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "receipt_id": self.receipt_id,
            "order_id": self.order_id,
            "store": self.store,
            "amount": f"{self.amount:.2f}",
            "printed_on": self.printed_on.isoformat(),
            "emailed": "yes" if self.emailed else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Receipt:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                receipt_id=row["receipt_id"],
                order_id=row["order_id"],
                store=row["store"],
                amount=float(row["amount"]),
                printed_on=dt.date.fromisoformat(row["printed_on"]),
                emailed=_parse_flag(row["emailed"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad receipt row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_receipt(item: Receipt) -> list[str]:
    """Every problem found with one receipt, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.receipt_id.strip():
        problems.append("receipt_id is empty")
    if not item.order_id.strip():
        problems.append("order_id is empty")
    if not item.store.strip():
        problems.append("store is empty")
    if item.amount < 0:
        problems.append(f"amount is negative: {item.amount}")
    if item.printed_on > dt.date.today():
        problems.append(f"printed_on is in the future: {item.printed_on.isoformat()}")
    return problems


def group_receipts_by_store(items: Iterable[Receipt]) -> dict[str, list[Receipt]]:
    """Receipts keyed by store, each list in input order."""
    groups: dict[str, list[Receipt]] = defaultdict(list)
    for item in items:
        groups[str(item.store)].append(item)
    return dict(groups)


def sort_receipts(items: Iterable[Receipt], newest_first: bool = True) -> list[Receipt]:
    """By printed_on, then receipt_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.printed_on, item.receipt_id), reverse=newest_first)


def receipts_between(items: Iterable[Receipt], start: dt.date, end: dt.date) -> list[Receipt]:
    """Receipts whose printed_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.printed_on <= end]


def paginate_receipts(items: list[Receipt], page: int, per_page: int = PAGE_SIZE) -> list[Receipt]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_receipts(items: Iterable[Receipt], query: str) -> list[Receipt]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.receipt_id, item.order_id, item.store,))]


def dedupe_receipts(items: Iterable[Receipt]) -> list[Receipt]:
    """Drops repeated receipt_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Receipt] = []
    for item in items:
        if item.receipt_id in seen:
            continue
        seen.add(item.receipt_id)
        unique.append(item)
    return unique


_COLUMNS = ["receipt_id", "order_id", "store", "amount", "printed_on", "emailed"]


def receipts_to_csv(items: Iterable[Receipt]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def receipts_from_csv(text: str) -> list[Receipt]:
    """Inverse of receipts_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Receipt.from_row(row) for row in reader if any(row.values())]


def summarize_receipts(items: Iterable[Receipt]) -> dict[str, object]:
    """Count, amount total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.printed_on for item in rows)
    return {
        "count": len(rows),
        "amount_total": round(sum(item.amount for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_receipt_line(item: Receipt) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.receipt_id:<14} {item.store!s:<12} {item.amount:>10} {item.printed_on.isoformat()}"


def receipt_total(net_amount: float) -> float:
    """Gross receipt amount: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)
