"""The product catalog: titles, categories, list prices and weights.

The catalog is the source for product data shown in the shop. List prices are net; taxes
are added by the modules that produce a gross amount. Discontinued products stay listed
for order history.
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
class Product:
    """One product as stored in the products table."""

    sku: str
    title: str
    category: str
    list_price: float
    weight_grams: int
    published_on: dt.date
    discontinued: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "sku": self.sku,
            "title": self.title,
            "category": self.category,
            "list_price": f"{self.list_price:.2f}",
            "weight_grams": str(self.weight_grams),
            "published_on": self.published_on.isoformat(),
            "discontinued": "yes" if self.discontinued else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Product:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                sku=row["sku"],
                title=row["title"],
                category=row["category"],
                list_price=float(row["list_price"]),
                weight_grams=int(row["weight_grams"]),
                published_on=dt.date.fromisoformat(row["published_on"]),
                discontinued=_parse_flag(row["discontinued"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad product row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_product(item: Product) -> list[str]:
    """Every problem found with one product, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.sku.strip():
        problems.append("sku is empty")
    if not item.title.strip():
        problems.append("title is empty")
    if not item.category.strip():
        problems.append("category is empty")
    if item.list_price < 0:
        problems.append(f"list_price is negative: {item.list_price}")
    if item.weight_grams < 0:
        problems.append(f"weight_grams is negative: {item.weight_grams}")
    if item.published_on > dt.date.today():
        problems.append(f"published_on is in the future: {item.published_on.isoformat()}")
    return problems


def group_products_by_category(items: Iterable[Product]) -> dict[str, list[Product]]:
    """Products keyed by category, each list in input order."""
    groups: dict[str, list[Product]] = defaultdict(list)
    for item in items:
        groups[str(item.category)].append(item)
    return dict(groups)


def sort_products(items: Iterable[Product], newest_first: bool = True) -> list[Product]:
    """By published_on, then sku, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.published_on, item.sku), reverse=newest_first)


def products_between(items: Iterable[Product], start: dt.date, end: dt.date) -> list[Product]:
    """Products whose published_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.published_on <= end]


def paginate_products(items: list[Product], page: int, per_page: int = PAGE_SIZE) -> list[Product]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_products(items: Iterable[Product], query: str) -> list[Product]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.sku, item.title, item.category,))]


def dedupe_products(items: Iterable[Product]) -> list[Product]:
    """Drops repeated skus, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Product] = []
    for item in items:
        if item.sku in seen:
            continue
        seen.add(item.sku)
        unique.append(item)
    return unique


_COLUMNS = ["sku", "title", "category", "list_price", "weight_grams", "published_on", "discontinued"]


def products_to_csv(items: Iterable[Product]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def products_from_csv(text: str) -> list[Product]:
    """Inverse of products_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Product.from_row(row) for row in reader if any(row.values())]


def summarize_products(items: Iterable[Product]) -> dict[str, object]:
    """Count, list_price total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.published_on for item in rows)
    return {
        "count": len(rows),
        "list_price_total": round(sum(item.list_price for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_product_line(item: Product) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.sku:<14} {item.category!s:<12} {item.list_price:>10} {item.published_on.isoformat()}"
