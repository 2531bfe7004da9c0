"""Customer login accounts: creation, lockout bookkeeping and exports.

Accounts are created at signup and never deleted; a deactivated account keeps its row so
that old orders still resolve. Failed logins are counted here and reset by the support
tools.
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
class Account:
    """One account as stored in the accounts table."""

    account_id: str
    email: str
    display_name: str
    country: str
    created_on: dt.date
    failed_logins: int
    is_active: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "account_id": self.account_id,
            "email": self.email,
            "display_name": self.display_name,
            "country": self.country,
            "created_on": self.created_on.isoformat(),
            "failed_logins": str(self.failed_logins),
            "is_active": "yes" if self.is_active else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Account:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                account_id=row["account_id"],
                email=row["email"],
                display_name=row["display_name"],
                country=row["country"],
                created_on=dt.date.fromisoformat(row["created_on"]),
                failed_logins=int(row["failed_logins"]),
                is_active=_parse_flag(row["is_active"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad account row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_account(item: Account) -> list[str]:
    """Every problem found with one account, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.account_id.strip():
        problems.append("account_id is empty")
    if not item.email.strip():
        problems.append("email is empty")
    if not item.display_name.strip():
        problems.append("display_name is empty")
    if not item.country.strip():
        problems.append("country is empty")
    if item.created_on > dt.date.today():
        problems.append(f"created_on is in the future: {item.created_on.isoformat()}")
    if item.failed_logins < 0:
        problems.append(f"failed_logins is negative: {item.failed_logins}")
    return problems


def group_accounts_by_country(items: Iterable[Account]) -> dict[str, list[Account]]:
    """Accounts keyed by country, each list in input order."""
    groups: dict[str, list[Account]] = defaultdict(list)
    for item in items:
        groups[str(item.country)].append(item)
    return dict(groups)


def sort_accounts(items: Iterable[Account], newest_first: bool = True) -> list[Account]:
    """By created_on, then account_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.created_on, item.account_id), reverse=newest_first)


def accounts_between(items: Iterable[Account], start: dt.date, end: dt.date) -> list[Account]:
    """Accounts whose created_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.created_on <= end]


def paginate_accounts(items: list[Account], page: int, per_page: int = PAGE_SIZE) -> list[Account]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_accounts(items: Iterable[Account], query: str) -> list[Account]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.account_id, item.email, item.display_name, item.country,))]


def dedupe_accounts(items: Iterable[Account]) -> list[Account]:
    """Drops repeated account_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Account] = []
    for item in items:
        if item.account_id in seen:
            continue
        seen.add(item.account_id)
        unique.append(item)
    return unique


_COLUMNS = ["account_id", "email", "display_name", "country", "created_on", "failed_logins", "is_active"]


def accounts_to_csv(items: Iterable[Account]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def accounts_from_csv(text: str) -> list[Account]:
    """Inverse of accounts_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Account.from_row(row) for row in reader if any(row.values())]


def summarize_accounts(items: Iterable[Account]) -> dict[str, object]:
    """Count, failed_logins total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.created_on for item in rows)
    return {
        "count": len(rows),
        "failed_logins_total": round(sum(item.failed_logins for item in rows), 2),
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_account_line(item: Account) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.account_id:<14} {item.country!s:<12} {item.failed_logins:>10} {item.created_on.isoformat()}"
