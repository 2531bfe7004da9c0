"""Shopping cart lines and the cart total shown before checkout.

A cart line is one SKU with a quantity. Prices are copied from the catalog when the line
is added, so a later price change does not move a cart that is already open.
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
class CartLine:
    """One cart_line as stored in the cart_lines table."""

    line_id: str
    cart_id: str
    sku: str
    quantity: int
    unit_price: float
    added_on: dt.date

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "line_id": self.line_id,
            "cart_id": self.cart_id,
            "sku": self.sku,
            "quantity": str(self.quantity),
            "unit_price": f"{self.unit_price:.2f}",
            "added_on": self.added_on.isoformat(),
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> CartLine:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                line_id=row["line_id"],
                cart_id=row["cart_id"],
                sku=row["sku"],
                quantity=int(row["quantity"]),
                unit_price=float(row["unit_price"]),
                added_on=dt.date.fromisoformat(row["added_on"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad cart_line row {row!r}: {exc}") from exc


def validate_cart_line(item: CartLine) -> list[str]:
    """Every problem found with one cart_line, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.line_id.strip():
        problems.append("line_id is empty")
    if not item.cart_id.strip():
        problems.append("cart_id is empty")
    if not item.sku.strip():
        problems.append("sku is empty")
    if item.quantity < 0:
        problems.append(f"quantity is negative: {item.quantity}")
    if item.unit_price < 0:
        problems.append(f"unit_price is negative: {item.unit_price}")
    if item.added_on > dt.date.today():
        problems.append(f"added_on is in the future: {item.added_on.isoformat()}")
    return problems


def group_cart_lines_by_cart_id(items: Iterable[CartLine]) -> dict[str, list[CartLine]]:
    """Cart_lines keyed by cart_id, each list in input order."""
    groups: dict[str, list[CartLine]] = defaultdict(list)
    for item in items:
        groups[str(item.cart_id)].append(item)
    return dict(groups)


def sort_cart_lines(items: Iterable[CartLine], newest_first: bool = True) -> list[CartLine]:
    """By added_on, then line_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.added_on, item.line_id), reverse=newest_first)


def cart_lines_between(items: Iterable[CartLine], start: dt.date, end: dt.date) -> list[CartLine]:
    """Cart_lines whose added_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.added_on <= end]


def paginate_cart_lines(items: list[CartLine], page: int, per_page: int = PAGE_SIZE) -> list[CartLine]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_cart_lines(items: Iterable[CartLine], query: str) -> list[CartLine]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.line_id, item.cart_id, item.sku,))]


def dedupe_cart_lines(items: Iterable[CartLine]) -> list[CartLine]:
    """Drops repeated line_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[CartLine] = []
    for item in items:
        if item.line_id in seen:
            continue
        seen.add(item.line_id)
        unique.append(item)
    return unique


_COLUMNS = ["line_id", "cart_id", "sku", "quantity", "unit_price", "added_on"]


def cart_lines_to_csv(items: Iterable[CartLine]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def cart_lines_from_csv(text: str) -> list[CartLine]:
    """Inverse of cart_lines_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [CartLine.from_row(row) for row in reader if any(row.values())]


def summarize_cart_lines(items: Iterable[CartLine]) -> dict[str, object]:
    """Count, unit_price total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.added_on for item in rows)
    return {
        "count": len(rows),
        "unit_price_total": round(sum(item.unit_price for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_cart_line_line(item: CartLine) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.line_id:<14} {item.cart_id!s:<12} {item.unit_price:>10} {item.added_on.isoformat()}"


def cart_total(net_amount: float) -> float:
    """Gross cart total: the net amount plus sales tax, rounded to cents."""
    if net_amount < 0:
        raise ValueError("net_amount must not be negative")
    return round(net_amount * (1 + TAX_RATE), 2)
