"""Daily sales reports per store.

Revenue in these reports is net of tax, as the accountants want it; gross amounts live
with the invoices and receipts. A report is final once the store has closed its till.
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
class DailyReport:
    """One report as stored in the reports table."""

    report_id: str
    store: str
    orders: int
    revenue: float
    report_on: dt.date
    final: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "report_id": self.report_id,
            "store": self.store,
            "orders": str(self.orders),
            "revenue": f"{self.revenue:.2f}",
            "report_on": self.report_on.isoformat(),
            "final": "yes" if self.final else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> DailyReport:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                report_id=row["report_id"],
                store=row["store"],
                orders=int(row["orders"]),
                revenue=float(row["revenue"]),
                report_on=dt.date.fromisoformat(row["report_on"]),
                final=_parse_flag(row["final"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad report row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_report(item: DailyReport) -> list[str]:
    """Every problem found with one report, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.report_id.strip():
        problems.append("report_id is empty")
    if not item.store.strip():
        problems.append("store is empty")
    if item.orders < 0:
        problems.append(f"orders is negative: {item.orders}")
    if item.revenue < 0:
        problems.append(f"revenue is negative: {item.revenue}")
    if item.report_on > dt.date.today():
        problems.append(f"report_on is in the future: {item.report_on.isoformat()}")
    return problems


def group_reports_by_store(items: Iterable[DailyReport]) -> dict[str, list[DailyReport]]:
    """Reports keyed by store, each list in input order."""
    groups: dict[str, list[DailyReport]] = defaultdict(list)
    for item in items:
        groups[str(item.store)].append(item)
    return dict(groups)


def sort_reports(items: Iterable[DailyReport], newest_first: bool = True) -> list[DailyReport]:
    """By report_on, then report_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.report_on, item.report_id), reverse=newest_first)


def reports_between(items: Iterable[DailyReport], start: dt.date, end: dt.date) -> list[DailyReport]:
    """Reports whose report_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.report_on <= end]


def paginate_reports(items: list[DailyReport], page: int, per_page: int = PAGE_SIZE) -> list[DailyReport]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_reports(items: Iterable[DailyReport], query: str) -> list[DailyReport]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.report_id, item.store,))]


def dedupe_reports(items: Iterable[DailyReport]) -> list[DailyReport]:
    """Drops repeated report_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[DailyReport] = []
    for item in items:
        if item.report_id in seen:
            continue
        seen.add(item.report_id)
        unique.append(item)
    return unique


_COLUMNS = ["report_id", "store", "orders", "revenue", "report_on", "final"]


def reports_to_csv(items: Iterable[DailyReport]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def reports_from_csv(text: str) -> list[DailyReport]:
    """Inverse of reports_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [DailyReport.from_row(row) for row in reader if any(row.values())]


def summarize_reports(items: Iterable[DailyReport]) -> dict[str, object]:
    """Count, revenue total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.report_on for item in rows)
    return {
        "count": len(rows),
        "revenue_total": round(sum(item.revenue for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_report_line(item: DailyReport) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.report_id:<14} {item.store!s:<12} {item.revenue:>10} {item.report_on.isoformat()}"
