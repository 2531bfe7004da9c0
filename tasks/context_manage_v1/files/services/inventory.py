"""Stock levels per SKU and warehouse.

On-hand quantities come from the weekly count plus the movements since; reserved
quantities are held by open orders. Unit cost is the moving average used by the finance
exports.
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
class StockLevel:
    """One stock_level as stored in the stock_levels table."""

    stock_id: str
    sku: str
    warehouse: str
    on_hand: int
    reserved: int
    counted_on: dt.date
    unit_cost: float

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "stock_id": self.stock_id,
            "sku": self.sku,
            "warehouse": self.warehouse,
            "on_hand": str(self.on_hand),
            "reserved": str(self.reserved),
            "counted_on": self.counted_on.isoformat(),
            "unit_cost": f"{self.unit_cost:.2f}",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> StockLevel:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                stock_id=row["stock_id"],
                sku=row["sku"],
                warehouse=row["warehouse"],
                on_hand=int(row["on_hand"]),
                reserved=int(row["reserved"]),
                counted_on=dt.date.fromisoformat(row["counted_on"]),
                unit_cost=float(row["unit_cost"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad stock_level row {row!r}: {exc}") from exc


def validate_stock_level(item: StockLevel) -> list[str]:
    """Every problem found with one stock_level, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.stock_id.strip():
        problems.append("stock_id is empty")
    if not item.sku.strip():
        problems.append("sku is empty")
    if not item.warehouse.strip():
        problems.append("warehouse is empty")
    if item.on_hand < 0:
        problems.append(f"on_hand is negative: {item.on_hand}")
    if item.reserved < 0:
        problems.append(f"reserved is negative: {item.reserved}")
    if item.counted_on > dt.date.today():
        problems.append(f"counted_on is in the future: {item.counted_on.isoformat()}")
    if item.unit_cost < 0:
        problems.append(f"unit_cost is negative: {item.unit_cost}")
    return problems


def group_stock_levels_by_warehouse(items: Iterable[StockLevel]) -> dict[str, list[StockLevel]]:
    """Stock_levels keyed by warehouse, each list in input order."""
    groups: dict[str, list[StockLevel]] = defaultdict(list)
    for item in items:
        groups[str(item.warehouse)].append(item)
    return dict(groups)


def sort_stock_levels(items: Iterable[StockLevel], newest_first: bool = True) -> list[StockLevel]:
    """By counted_on, then stock_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.counted_on, item.stock_id), reverse=newest_first)


def stock_levels_between(items: Iterable[StockLevel], start: dt.date, end: dt.date) -> list[StockLevel]:
    """Stock_levels whose counted_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.counted_on <= end]


def paginate_stock_levels(items: list[StockLevel], page: int, per_page: int = PAGE_SIZE) -> list[StockLevel]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_stock_levels(items: Iterable[StockLevel], query: str) -> list[StockLevel]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.stock_id, item.sku, item.warehouse,))]


def dedupe_stock_levels(items: Iterable[StockLevel]) -> list[StockLevel]:
    """Drops repeated stock_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[StockLevel] = []
    for item in items:
        if item.stock_id in seen:
            continue
        seen.add(item.stock_id)
        unique.append(item)
    return unique


_COLUMNS = ["stock_id", "sku", "warehouse", "on_hand", "reserved", "counted_on", "unit_cost"]


def stock_levels_to_csv(items: Iterable[StockLevel]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def stock_levels_from_csv(text: str) -> list[StockLevel]:
    """Inverse of stock_levels_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [StockLevel.from_row(row) for row in reader if any(row.values())]


def summarize_stock_levels(items: Iterable[StockLevel]) -> dict[str, object]:
    """Count, unit_cost total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.counted_on for item in rows)
    return {
        "count": len(rows),
        "unit_cost_total": round(sum(item.unit_cost for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_stock_level_line(item: StockLevel) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.stock_id:<14} {item.warehouse!s:<12} {item.unit_cost:>10} {item.counted_on.isoformat()}"
