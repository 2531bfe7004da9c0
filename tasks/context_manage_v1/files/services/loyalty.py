"""Loyalty program members, tiers and points.

Members earn points for every euro spent, at the rate set in the config. Tiers are
recomputed monthly from the spend of the last twelve months.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from collections import defaultdict
from typing import Iterable

from config import CURRENCY, LOYALTY_POINTS_PER_EURO, PAGE_SIZE


@dataclasses.dataclass(frozen=True)
class LoyaltyMember:
    """One member as stored in the members table."""

    member_id: str
    customer_id: str
    tier: str
    points: int
    joined_on: dt.date
    spent: float

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "member_id": self.member_id,
            "customer_id": self.customer_id,
            "tier": self.tier,
            "points": str(self.points),
            "joined_on": self.joined_on.isoformat(),
            "spent": f"{self.spent:.2f}",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> LoyaltyMember:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                member_id=row["member_id"],
                customer_id=row["customer_id"],
                tier=row["tier"],
                points=int(row["points"]),
                joined_on=dt.date.fromisoformat(row["joined_on"]),
                spent=float(row["spent"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad member row {row!r}: {exc}") from exc


def validate_member(item: LoyaltyMember) -> list[str]:
    """Every problem found with one member, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.member_id.strip():
        problems.append("member_id is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if not item.tier.strip():
        problems.append("tier is empty")
    if item.points < 0:
        problems.append(f"points is negative: {item.points}")
    if item.joined_on > dt.date.today():
        problems.append(f"joined_on is in the future: {item.joined_on.isoformat()}")
    if item.spent < 0:
        problems.append(f"spent is negative: {item.spent}")
    return problems


def group_members_by_tier(items: Iterable[LoyaltyMember]) -> dict[str, list[LoyaltyMember]]:
    """Members keyed by tier, each list in input order."""
    groups: dict[str, list[LoyaltyMember]] = defaultdict(list)
    for item in items:
        groups[str(item.tier)].append(item)
    return dict(groups)


def sort_members(items: Iterable[LoyaltyMember], newest_first: bool = True) -> list[LoyaltyMember]:
    """By joined_on, then member_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.joined_on, item.member_id), reverse=newest_first)


def members_between(items: Iterable[LoyaltyMember], start: dt.date, end: dt.date) -> list[LoyaltyMember]:
    """Members whose joined_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.joined_on <= end]


def paginate_members(items: list[LoyaltyMember], page: int, per_page: int = PAGE_SIZE) -> list[LoyaltyMember]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_members(items: Iterable[LoyaltyMember], query: str) -> list[LoyaltyMember]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.member_id, item.customer_id, item.tier,))]


def dedupe_members(items: Iterable[LoyaltyMember]) -> list[LoyaltyMember]:
    """Drops repeated member_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[LoyaltyMember] = []
    for item in items:
        if item.member_id in seen:
            continue
        seen.add(item.member_id)
        unique.append(item)
    return unique


_COLUMNS = ["member_id", "customer_id", "tier", "points", "joined_on", "spent"]


def members_to_csv(items: Iterable[LoyaltyMember]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def members_from_csv(text: str) -> list[LoyaltyMember]:
    """Inverse of members_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [LoyaltyMember.from_row(row) for row in reader if any(row.values())]


def summarize_members(items: Iterable[LoyaltyMember]) -> dict[str, object]:
    """Count, spent total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.joined_on for item in rows)
    return {
        "count": len(rows),
        "spent_total": round(sum(item.spent for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_member_line(item: LoyaltyMember) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.member_id:<14} {item.tier!s:<12} {item.spent:>10} {item.joined_on.isoformat()}"


def points_for(amount: float) -> int:
    """Points earned for a purchase of `amount` euros (whole points, rounded down)."""
    if amount < 0:
        raise ValueError("amount must not be negative")
    return int(amount * LOYALTY_POINTS_PER_EURO)
