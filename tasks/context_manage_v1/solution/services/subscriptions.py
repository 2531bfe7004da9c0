"""Monthly subscription plans and their renewals.

Subscriptions renew on the same day every month. The renewal charge is the monthly price
plus sales tax; a cancelled subscription runs until the end of the paid month.
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
class Subscription:
    """One subscription as stored in the subscriptions table."""

    subscription_id: str
    customer_id: str
    plan: str
    monthly_price: float
    started_on: dt.date
    cancelled: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "subscription_id": self.subscription_id,
            "customer_id": self.customer_id,
            "plan": self.plan,
            "monthly_price": f"{self.monthly_price:.2f}",
            "started_on": self.started_on.isoformat(),
            "cancelled": "yes" if self.cancelled else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Subscription:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                subscription_id=row["subscription_id"],
                customer_id=row["customer_id"],
                plan=row["plan"],
                monthly_price=float(row["monthly_price"]),
                started_on=dt.date.fromisoformat(row["started_on"]),
                cancelled=_parse_flag(row["cancelled"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad subscription row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_subscription(item: Subscription) -> list[str]:
    """Every problem found with one subscription, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.subscription_id.strip():
        problems.append("subscription_id is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if not item.plan.strip():
        problems.append("plan is empty")
    if item.monthly_price < 0:
        problems.append(f"monthly_price is negative: {item.monthly_price}")
    if item.started_on > dt.date.today():
        problems.append(f"started_on is in the future: {item.started_on.isoformat()}")
    return problems


def group_subscriptions_by_plan(items: Iterable[Subscription]) -> dict[str, list[Subscription]]:
    """Subscriptions keyed by plan, each list in input order."""
    groups: dict[str, list[Subscription]] = defaultdict(list)
    for item in items:
        groups[str(item.plan)].append(item)
    return dict(groups)


def sort_subscriptions(items: Iterable[Subscription], newest_first: bool = True) -> list[Subscription]:
    """By started_on, then subscription_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.started_on, item.subscription_id), reverse=newest_first)


def subscriptions_between(items: Iterable[Subscription], start: dt.date, end: dt.date) -> list[Subscription]:
    """Subscriptions whose started_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.started_on <= end]


def paginate_subscriptions(items: list[Subscription], page: int, per_page: int = PAGE_SIZE) -> list[Subscription]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_subscriptions(items: Iterable[Subscription], query: str) -> list[Subscription]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.subscription_id, item.customer_id, item.plan,))]


def dedupe_subscriptions(items: Iterable[Subscription]) -> list[Subscription]:
    """Drops repeated subscription_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Subscription] = []
    for item in items:
        if item.subscription_id in seen:
            continue
        seen.add(item.subscription_id)
        unique.append(item)
    return unique


_COLUMNS = ["subscription_id", "customer_id", "plan", "monthly_price", "started_on", "cancelled"]


def subscriptions_to_csv(items: Iterable[Subscription]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def subscriptions_from_csv(text: str) -> list[Subscription]:
    """Inverse of subscriptions_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Subscription.from_row(row) for row in reader if any(row.values())]


def summarize_subscriptions(items: Iterable[Subscription]) -> dict[str, object]:
    """Count, monthly_price total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.started_on for item in rows)
    return {
        "count": len(rows),
        "monthly_price_total": round(sum(item.monthly_price for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_subscription_line(item: Subscription) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.subscription_id:<14} {item.plan!s:<12} {item.monthly_price:>10} {item.started_on.isoformat()}"


def renewal_total(net_amount: float) -> float:
    """Gross renewal charge: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)
