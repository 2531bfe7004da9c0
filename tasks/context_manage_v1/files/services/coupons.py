"""Discount coupons and their campaigns.

Coupons give a percentage off the net amount. A single-use coupon is burned at checkout;
the others count uses until max_uses. Expired coupons are kept so that old orders can
show what was applied.
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
class Coupon:
    """One coupon as stored in the coupons table."""

    code: str
    campaign: str
    percent_off: int
    max_uses: int
    expires_on: dt.date
    single_use: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "code": self.code,
            "campaign": self.campaign,
            "percent_off": str(self.percent_off),
            "max_uses": str(self.max_uses),
            "expires_on": self.expires_on.isoformat(),
            "single_use": "yes" if self.single_use else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Coupon:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                code=row["code"],
                campaign=row["campaign"],
                percent_off=int(row["percent_off"]),
                max_uses=int(row["max_uses"]),
                expires_on=dt.date.fromisoformat(row["expires_on"]),
                single_use=_parse_flag(row["single_use"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad coupon row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_coupon(item: Coupon) -> list[str]:
    """Every problem found with one coupon, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.code.strip():
        problems.append("code is empty")
    if not item.campaign.strip():
        problems.append("campaign is empty")
    if item.percent_off < 0:
        problems.append(f"percent_off is negative: {item.percent_off}")
    if item.max_uses < 0:
        problems.append(f"max_uses is negative: {item.max_uses}")
    if item.expires_on > dt.date.today():
        problems.append(f"expires_on is in the future: {item.expires_on.isoformat()}")
    return problems


def group_coupons_by_campaign(items: Iterable[Coupon]) -> dict[str, list[Coupon]]:
    """Coupons keyed by campaign, each list in input order."""
    groups: dict[str, list[Coupon]] = defaultdict(list)
    for item in items:
        groups[str(item.campaign)].append(item)
    return dict(groups)


def sort_coupons(items: Iterable[Coupon], newest_first: bool = True) -> list[Coupon]:
    """By expires_on, then code, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.expires_on, item.code), reverse=newest_first)


def coupons_between(items: Iterable[Coupon], start: dt.date, end: dt.date) -> list[Coupon]:
    """Coupons whose expires_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.expires_on <= end]


def paginate_coupons(items: list[Coupon], page: int, per_page: int = PAGE_SIZE) -> list[Coupon]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_coupons(items: Iterable[Coupon], query: str) -> list[Coupon]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.code, item.campaign,))]


def dedupe_coupons(items: Iterable[Coupon]) -> list[Coupon]:
    """Drops repeated codes, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Coupon] = []
    for item in items:
        if item.code in seen:
            continue
        seen.add(item.code)
        unique.append(item)
    return unique


_COLUMNS = ["code", "campaign", "percent_off", "max_uses", "expires_on", "single_use"]


def coupons_to_csv(items: Iterable[Coupon]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def coupons_from_csv(text: str) -> list[Coupon]:
    """Inverse of coupons_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Coupon.from_row(row) for row in reader if any(row.values())]


def summarize_coupons(items: Iterable[Coupon]) -> dict[str, object]:
    """Count, percent_off total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.expires_on for item in rows)
    return {
        "count": len(rows),
        "percent_off_total": round(sum(item.percent_off for item in rows), 2),
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_coupon_line(item: Coupon) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.code:<14} {item.campaign!s:<12} {item.percent_off:>10} {item.expires_on.isoformat()}"
