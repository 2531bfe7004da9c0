"""Price quotes sent to prospective customers.

A quote states the gross price a customer will pay if they accept within the validity
period. Accepted quotes are turned into orders by the sales team.
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
class Quote:
    """One quote as stored in the quotes table."""

    quote_id: str
    customer_id: str
    net_amount: float
    valid_days: int
    created_on: dt.date
    accepted: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "quote_id": self.quote_id,
            "customer_id": self.customer_id,
            "net_amount": f"{self.net_amount:.2f}",
            "valid_days": str(self.valid_days),
            "created_on": self.created_on.isoformat(),
            "accepted": "yes" if self.accepted else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Quote:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                quote_id=row["quote_id"],
                customer_id=row["customer_id"],
                net_amount=float(row["net_amount"]),
                valid_days=int(row["valid_days"]),
                created_on=dt.date.fromisoformat(row["created_on"]),
                accepted=_parse_flag(row["accepted"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad quote row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_quote(item: Quote) -> list[str]:
    """Every problem found with one quote, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.quote_id.strip():
        problems.append("quote_id is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if item.net_amount < 0:
        problems.append(f"net_amount is negative: {item.net_amount}")
    if item.valid_days < 0:
        problems.append(f"valid_days is negative: {item.valid_days}")
    if item.created_on > dt.date.today():
        problems.append(f"created_on is in the future: {item.created_on.isoformat()}")
    return problems


def group_quotes_by_customer_id(items: Iterable[Quote]) -> dict[str, list[Quote]]:
    """Quotes keyed by customer_id, each list in input order."""
    groups: dict[str, list[Quote]] = defaultdict(list)
    for item in items:
        groups[str(item.customer_id)].append(item)
    return dict(groups)


def sort_quotes(items: Iterable[Quote], newest_first: bool = True) -> list[Quote]:
    """By created_on, then quote_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.created_on, item.quote_id), reverse=newest_first)


def quotes_between(items: Iterable[Quote], start: dt.date, end: dt.date) -> list[Quote]:
    """Quotes whose created_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.created_on <= end]


def paginate_quotes(items: list[Quote], page: int, per_page: int = PAGE_SIZE) -> list[Quote]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_quotes(items: Iterable[Quote], query: str) -> list[Quote]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.quote_id, item.customer_id,))]


def dedupe_quotes(items: Iterable[Quote]) -> list[Quote]:
    """Drops repeated quote_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Quote] = []
    for item in items:
        if item.quote_id in seen:
            continue
        seen.add(item.quote_id)
        unique.append(item)
    return unique


_COLUMNS = ["quote_id", "customer_id", "net_amount", "valid_days", "created_on", "accepted"]


def quotes_to_csv(items: Iterable[Quote]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def quotes_from_csv(text: str) -> list[Quote]:
    """Inverse of quotes_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Quote.from_row(row) for row in reader if any(row.values())]


def summarize_quotes(items: Iterable[Quote]) -> dict[str, object]:
    """Count, net_amount total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.created_on for item in rows)
    return {
        "count": len(rows),
        "net_amount_total": round(sum(item.net_amount for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_quote_line(item: Quote) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.quote_id:<14} {item.customer_id!s:<12} {item.net_amount:>10} {item.created_on.isoformat()}"


def quote_total(net_amount: float) -> float:
    """Gross quote amount: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)
