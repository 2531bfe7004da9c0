"""Picking and packing tasks for the warehouses.

One fulfillment task exists per order and warehouse. Tasks past their due date are
escalated by the morning job; a task is done once every item is picked and the parcel is
labelled.
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
class FulfillmentTask:
    """One task as stored in the tasks table."""

    task_id: str
    order_id: str
    warehouse: str
    picked_items: int
    due_on: dt.date
    done: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "task_id": self.task_id,
            "order_id": self.order_id,
            "warehouse": self.warehouse,
            "picked_items": str(self.picked_items),
            "due_on": self.due_on.isoformat(),
            "done": "yes" if self.done else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> FulfillmentTask:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                task_id=row["task_id"],
                order_id=row["order_id"],
                warehouse=row["warehouse"],
                picked_items=int(row["picked_items"]),
                due_on=dt.date.fromisoformat(row["due_on"]),
                done=_parse_flag(row["done"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad task row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_task(item: FulfillmentTask) -> list[str]:
    """Every problem found with one task, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.task_id.strip():
        problems.append("task_id is empty")
    if not item.order_id.strip():
        problems.append("order_id is empty")
    if not item.warehouse.strip():
        problems.append("warehouse is empty")
    if item.picked_items < 0:
        problems.append(f"picked_items is negative: {item.picked_items}")
    if item.due_on > dt.date.today():
        problems.append(f"due_on is in the future: {item.due_on.isoformat()}")
    return problems


def group_tasks_by_warehouse(items: Iterable[FulfillmentTask]) -> dict[str, list[FulfillmentTask]]:
    """Tasks keyed by warehouse, each list in input order."""
    groups: dict[str, list[FulfillmentTask]] = defaultdict(list)
    for item in items:
        groups[str(item.warehouse)].append(item)
    return dict(groups)


def sort_tasks(items: Iterable[FulfillmentTask], newest_first: bool = True) -> list[FulfillmentTask]:
    """By due_on, then task_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.due_on, item.task_id), reverse=newest_first)


def tasks_between(items: Iterable[FulfillmentTask], start: dt.date, end: dt.date) -> list[FulfillmentTask]:
    """Tasks whose due_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.due_on <= end]


def paginate_tasks(items: list[FulfillmentTask], page: int, per_page: int = PAGE_SIZE) -> list[FulfillmentTask]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_tasks(items: Iterable[FulfillmentTask], query: str) -> list[FulfillmentTask]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.task_id, item.order_id, item.warehouse,))]


def dedupe_tasks(items: Iterable[FulfillmentTask]) -> list[FulfillmentTask]:
    """Drops repeated task_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[FulfillmentTask] = []
    for item in items:
        if item.task_id in seen:
            continue
        seen.add(item.task_id)
        unique.append(item)
    return unique


_COLUMNS = ["task_id", "order_id", "warehouse", "picked_items", "due_on", "done"]


def tasks_to_csv(items: Iterable[FulfillmentTask]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def tasks_from_csv(text: str) -> list[FulfillmentTask]:
    """Inverse of tasks_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [FulfillmentTask.from_row(row) for row in reader if any(row.values())]


def summarize_tasks(items: Iterable[FulfillmentTask]) -> dict[str, object]:
    """Count, picked_items total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.due_on for item in rows)
    return {
        "count": len(rows),
        "picked_items_total": round(sum(item.picked_items for item in rows), 2),
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_task_line(item: FulfillmentTask) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.task_id:<14} {item.warehouse!s:<12} {item.picked_items:>10} {item.due_on.isoformat()}"
