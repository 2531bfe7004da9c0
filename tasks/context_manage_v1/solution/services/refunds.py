"""Refund requests and the amounts paid back.

A refund pays back the net amount plus the sales tax that was charged on it. Requests
outside the refund window need a manager to approve them.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from collections import defaultdict
from typing import Iterable

from config import CURRENCY, PAGE_SIZE, REFUND_WINDOW_DAYS, TAX_RATE


@dataclasses.dataclass(frozen=True)
class Refund:
    """One refund as stored in the refunds table."""

    refund_id: str
    order_id: str
    reason: str
    amount: float
    requested_on: dt.date
    approved: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "refund_id": self.refund_id,
            "order_id": self.order_id,
            "reason": self.reason,
            "amount": f"{self.amount:.2f}",
            "requested_on": self.requested_on.isoformat(),
            "approved": "yes" if self.approved else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Refund:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                refund_id=row["refund_id"],
                order_id=row["order_id"],
                reason=row["reason"],
                amount=float(row["amount"]),
                requested_on=dt.date.fromisoformat(row["requested_on"]),
                approved=_parse_flag(row["approved"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad refund row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_refund(item: Refund) -> list[str]:
    """Every problem found with one refund, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.refund_id.strip():
        problems.append("refund_id is empty")
    if not item.order_id.strip():
        problems.append("order_id is empty")
    if not item.reason.strip():
        problems.append("reason is empty")
    if item.amount < 0:
        problems.append(f"amount is negative: {item.amount}")
    if item.requested_on > dt.date.today():
        problems.append(f"requested_on is in the future: {item.requested_on.isoformat()}")
    return problems


def group_refunds_by_reason(items: Iterable[Refund]) -> dict[str, list[Refund]]:
    """Refunds keyed by reason, each list in input order."""
    groups: dict[str, list[Refund]] = defaultdict(list)
    for item in items:
        groups[str(item.reason)].append(item)
    return dict(groups)


def sort_refunds(items: Iterable[Refund], newest_first: bool = True) -> list[Refund]:
    """By requested_on, then refund_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.requested_on, item.refund_id), reverse=newest_first)


def refunds_between(items: Iterable[Refund], start: dt.date, end: dt.date) -> list[Refund]:
    """Refunds whose requested_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.requested_on <= end]


def paginate_refunds(items: list[Refund], page: int, per_page: int = PAGE_SIZE) -> list[Refund]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_refunds(items: Iterable[Refund], query: str) -> list[Refund]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.refund_id, item.order_id, item.reason,))]


def dedupe_refunds(items: Iterable[Refund]) -> list[Refund]:
    """Drops repeated refund_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Refund] = []
    for item in items:
        if item.refund_id in seen:
            continue
        seen.add(item.refund_id)
        unique.append(item)
    return unique


_COLUMNS = ["refund_id", "order_id", "reason", "amount", "requested_on", "approved"]


def refunds_to_csv(items: Iterable[Refund]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def refunds_from_csv(text: str) -> list[Refund]:
    """Inverse of refunds_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Refund.from_row(row) for row in reader if any(row.values())]


def summarize_refunds(items: Iterable[Refund]) -> dict[str, object]:
    """Count, amount total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.requested_on for item in rows)
    return {
        "count": len(rows),
        "amount_total": round(sum(item.amount for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_refund_line(item: Refund) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.refund_id:<14} {item.reason!s:<12} {item.amount:>10} {item.requested_on.isoformat()}"


def refund_total(net_amount: float) -> float:
    """Gross refund: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)


def within_refund_window(ordered_on: dt.date, requested_on: dt.date) -> bool:
    """Whether a request can be approved without a manager."""
    return 0 <= (requested_on - ordered_on).days <= REFUND_WINDOW_DAYS
