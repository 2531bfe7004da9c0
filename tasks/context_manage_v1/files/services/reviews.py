"""Product reviews and ratings.

Reviews are posted by customers and shown after moderation. A review is verified when
the customer bought the product; only verified reviews count in the average rating.
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
class Review:
    """One review as stored in the reviews table."""

    review_id: str
    sku: str
    customer_id: str
    stars: int
    posted_on: dt.date
    verified: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "review_id": self.review_id,
            "sku": self.sku,
            "customer_id": self.customer_id,
            "stars": str(self.stars),
            "posted_on": self.posted_on.isoformat(),
            "verified": "yes" if self.verified else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Review:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                review_id=row["review_id"],
                sku=row["sku"],
                customer_id=row["customer_id"],
                stars=int(row["stars"]),
                posted_on=dt.date.fromisoformat(row["posted_on"]),
                verified=_parse_flag(row["verified"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad review row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_review(item: Review) -> list[str]:
    """Every problem found with one review, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.review_id.strip():
        problems.append("review_id is empty")
    if not item.sku.strip():
        problems.append("sku is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if item.stars < 0:
        problems.append(f"stars is negative: {item.stars}")
    if item.posted_on > dt.date.today():
        problems.append(f"posted_on is in the future: {item.posted_on.isoformat()}")
    return problems


def group_reviews_by_sku(items: Iterable[Review]) -> dict[str, list[Review]]:
    """Reviews keyed by sku, each list in input order."""
    groups: dict[str, list[Review]] = defaultdict(list)
    for item in items:
        groups[str(item.sku)].append(item)
    return dict(groups)


def sort_reviews(items: Iterable[Review], newest_first: bool = True) -> list[Review]:
    """By posted_on, then review_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.posted_on, item.review_id), reverse=newest_first)


def reviews_between(items: Iterable[Review], start: dt.date, end: dt.date) -> list[Review]:
    """Reviews whose posted_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.posted_on <= end]


def paginate_reviews(items: list[Review], page: int, per_page: int = PAGE_SIZE) -> list[Review]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_reviews(items: Iterable[Review], query: str) -> list[Review]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.review_id, item.sku, item.customer_id,))]


def dedupe_reviews(items: Iterable[Review]) -> list[Review]:
    """Drops repeated review_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Review] = []
    for item in items:
        if item.review_id in seen:
            continue
        seen.add(item.review_id)
        unique.append(item)
    return unique


_COLUMNS = ["review_id", "sku", "customer_id", "stars", "posted_on", "verified"]


def reviews_to_csv(items: Iterable[Review]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def reviews_from_csv(text: str) -> list[Review]:
    """Inverse of reviews_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Review.from_row(row) for row in reader if any(row.values())]


def summarize_reviews(items: Iterable[Review]) -> dict[str, object]:
    """Count, stars total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.posted_on for item in rows)
    return {
        "count": len(rows),
        "stars_total": round(sum(item.stars for item in rows), 2),
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_review_line(item: Review) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.review_id:<14} {item.sku!s:<12} {item.stars:>10} {item.posted_on.isoformat()}"
