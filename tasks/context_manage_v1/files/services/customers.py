"""Customer records: contact details, city and lifetime value.

Lifetime value is recomputed nightly from paid invoices. The newsletter flag mirrors the
consent stored by the marketing tool and must not be set from here.
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
class Customer:
    """One customer as stored in the customers table."""

    customer_id: str
    name: str
    email: str
    city: str
    signup_on: dt.date
    lifetime_value: float
    newsletter: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "customer_id": self.customer_id,
            "name": self.name,
            "email": self.email,
            "city": self.city,
            "signup_on": self.signup_on.isoformat(),
            "lifetime_value": f"{self.lifetime_value:.2f}",
            "newsletter": "yes" if self.newsletter else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Customer:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                customer_id=row["customer_id"],
                name=row["name"],
                email=row["email"],
                city=row["city"],
                signup_on=dt.date.fromisoformat(row["signup_on"]),
                lifetime_value=float(row["lifetime_value"]),
                newsletter=_parse_flag(row["newsletter"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad customer row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_customer(item: Customer) -> list[str]:
    """Every problem found with one customer, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if not item.name.strip():
        problems.append("name is empty")
    if not item.email.strip():
        problems.append("email is empty")
    if not item.city.strip():
        problems.append("city is empty")
    if item.signup_on > dt.date.today():
        problems.append(f"signup_on is in the future: {item.signup_on.isoformat()}")
    if item.lifetime_value < 0:
        problems.append(f"lifetime_value is negative: {item.lifetime_value}")
    return problems


def group_customers_by_city(items: Iterable[Customer]) -> dict[str, list[Customer]]:
    """Customers keyed by city, each list in input order."""
    groups: dict[str, list[Customer]] = defaultdict(list)
    for item in items:
        groups[str(item.city)].append(item)
    return dict(groups)


def sort_customers(items: Iterable[Customer], newest_first: bool = True) -> list[Customer]:
    """By signup_on, then customer_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.signup_on, item.customer_id), reverse=newest_first)


def customers_between(items: Iterable[Customer], start: dt.date, end: dt.date) -> list[Customer]:
    """Customers whose signup_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.signup_on <= end]


def paginate_customers(items: list[Customer], page: int, per_page: int = PAGE_SIZE) -> list[Customer]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_customers(items: Iterable[Customer], query: str) -> list[Customer]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.customer_id, item.name, item.email, item.city,))]


def dedupe_customers(items: Iterable[Customer]) -> list[Customer]:
    """Drops repeated customer_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Customer] = []
    for item in items:
        if item.customer_id in seen:
            continue
        seen.add(item.customer_id)
        unique.append(item)
    return unique


_COLUMNS = ["customer_id", "name", "email", "city", "signup_on", "lifetime_value", "newsletter"]


def customers_to_csv(items: Iterable[Customer]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def customers_from_csv(text: str) -> list[Customer]:
    """Inverse of customers_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Customer.from_row(row) for row in reader if any(row.values())]


def summarize_customers(items: Iterable[Customer]) -> dict[str, object]:
    """Count, lifetime_value total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.signup_on for item in rows)
    return {
        "count": len(rows),
        "lifetime_value_total": round(sum(item.lifetime_value for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_customer_line(item: Customer) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.customer_id:<14} {item.city!s:<12} {item.lifetime_value:>10} {item.signup_on.isoformat()}"
