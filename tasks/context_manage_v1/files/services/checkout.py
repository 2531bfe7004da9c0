"""Checkout sessions, from cart to a placed order.

A session starts when the customer opens the checkout page and completes when payment is
captured. Abandoned sessions are kept for thirty days for the marketing reports.
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
class CheckoutSession:
    """One session as stored in the sessions table."""

    session_id: str
    cart_id: str
    customer_id: str
    subtotal: float
    started_on: dt.date
    completed: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "session_id": self.session_id,
            "cart_id": self.cart_id,
            "customer_id": self.customer_id,
            "subtotal": f"{self.subtotal:.2f}",
            "started_on": self.started_on.isoformat(),
            "completed": "yes" if self.completed else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> CheckoutSession:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                session_id=row["session_id"],
                cart_id=row["cart_id"],
                customer_id=row["customer_id"],
                subtotal=float(row["subtotal"]),
                started_on=dt.date.fromisoformat(row["started_on"]),
                completed=_parse_flag(row["completed"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad session row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_session(item: CheckoutSession) -> list[str]:
    """Every problem found with one session, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.session_id.strip():
        problems.append("session_id is empty")
    if not item.cart_id.strip():
        problems.append("cart_id is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if item.subtotal < 0:
        problems.append(f"subtotal is negative: {item.subtotal}")
    if item.started_on > dt.date.today():
        problems.append(f"started_on is in the future: {item.started_on.isoformat()}")
    return problems


def group_sessions_by_customer_id(items: Iterable[CheckoutSession]) -> dict[str, list[CheckoutSession]]:
    """Sessions keyed by customer_id, each list in input order."""
    groups: dict[str, list[CheckoutSession]] = defaultdict(list)
    for item in items:
        groups[str(item.customer_id)].append(item)
    return dict(groups)


def sort_sessions(items: Iterable[CheckoutSession], newest_first: bool = True) -> list[CheckoutSession]:
    """By started_on, then session_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.started_on, item.session_id), reverse=newest_first)


def sessions_between(items: Iterable[CheckoutSession], start: dt.date, end: dt.date) -> list[CheckoutSession]:
    """Sessions whose started_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.started_on <= end]


def paginate_sessions(items: list[CheckoutSession], page: int, per_page: int = PAGE_SIZE) -> list[CheckoutSession]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_sessions(items: Iterable[CheckoutSession], query: str) -> list[CheckoutSession]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.session_id, item.cart_id, item.customer_id,))]


def dedupe_sessions(items: Iterable[CheckoutSession]) -> list[CheckoutSession]:
    """Drops repeated session_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[CheckoutSession] = []
    for item in items:
        if item.session_id in seen:
            continue
        seen.add(item.session_id)
        unique.append(item)
    return unique


_COLUMNS = ["session_id", "cart_id", "customer_id", "subtotal", "started_on", "completed"]


def sessions_to_csv(items: Iterable[CheckoutSession]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def sessions_from_csv(text: str) -> list[CheckoutSession]:
    """Inverse of sessions_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [CheckoutSession.from_row(row) for row in reader if any(row.values())]


def summarize_sessions(items: Iterable[CheckoutSession]) -> dict[str, object]:
    """Count, subtotal total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.started_on for item in rows)
    return {
        "count": len(rows),
        "subtotal_total": round(sum(item.subtotal for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_session_line(item: CheckoutSession) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.session_id:<14} {item.customer_id!s:<12} {item.subtotal:>10} {item.started_on.isoformat()}"


def checkout_total(net_amount: float) -> float:
    """Gross checkout amount: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)
