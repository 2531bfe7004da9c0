"""Parcels handed to carriers, and what shipping costs the customer.

Shipping is free above the threshold set in the config; below it the price depends on
the weight. Insured parcels declare their value to the carrier.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from collections import defaultdict
from typing import Iterable

from config import CURRENCY, FREE_SHIPPING_THRESHOLD, PAGE_SIZE


@dataclasses.dataclass(frozen=True)
class Parcel:
    """One parcel as stored in the parcels table."""

    parcel_id: str
    order_id: str
    carrier: str
    weight_grams: int
    declared_value: float
    shipped_on: dt.date
    insured: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "parcel_id": self.parcel_id,
            "order_id": self.order_id,
            "carrier": self.carrier,
            "weight_grams": str(self.weight_grams),
            "declared_value": f"{self.declared_value:.2f}",
            "shipped_on": self.shipped_on.isoformat(),
            "insured": "yes" if self.insured else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Parcel:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                parcel_id=row["parcel_id"],
                order_id=row["order_id"],
                carrier=row["carrier"],
                weight_grams=int(row["weight_grams"]),
                declared_value=float(row["declared_value"]),
                shipped_on=dt.date.fromisoformat(row["shipped_on"]),
                insured=_parse_flag(row["insured"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad parcel row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_parcel(item: Parcel) -> list[str]:
    """Every problem found with one parcel, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.parcel_id.strip():
        problems.append("parcel_id is empty")
    if not item.order_id.strip():
        problems.append("order_id is empty")
    if not item.carrier.strip():
        problems.append("carrier is empty")
    if item.weight_grams < 0:
        problems.append(f"weight_grams is negative: {item.weight_grams}")
    if item.declared_value < 0:
        problems.append(f"declared_value is negative: {item.declared_value}")
    if item.shipped_on > dt.date.today():
        problems.append(f"shipped_on is in the future: {item.shipped_on.isoformat()}")
    return problems


def group_parcels_by_carrier(items: Iterable[Parcel]) -> dict[str, list[Parcel]]:
    """Parcels keyed by carrier, each list in input order."""
    groups: dict[str, list[Parcel]] = defaultdict(list)
    for item in items:
        groups[str(item.carrier)].append(item)
    return dict(groups)


def sort_parcels(items: Iterable[Parcel], newest_first: bool = True) -> list[Parcel]:
    """By shipped_on, then parcel_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.shipped_on, item.parcel_id), reverse=newest_first)


def parcels_between(items: Iterable[Parcel], start: dt.date, end: dt.date) -> list[Parcel]:
    """Parcels whose shipped_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.shipped_on <= end]


def paginate_parcels(items: list[Parcel], page: int, per_page: int = PAGE_SIZE) -> list[Parcel]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_parcels(items: Iterable[Parcel], query: str) -> list[Parcel]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.parcel_id, item.order_id, item.carrier,))]


def dedupe_parcels(items: Iterable[Parcel]) -> list[Parcel]:
    """Drops repeated parcel_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Parcel] = []
    for item in items:
        if item.parcel_id in seen:
            continue
        seen.add(item.parcel_id)
        unique.append(item)
    return unique


_COLUMNS = ["parcel_id", "order_id", "carrier", "weight_grams", "declared_value", "shipped_on", "insured"]


def parcels_to_csv(items: Iterable[Parcel]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def parcels_from_csv(text: str) -> list[Parcel]:
    """Inverse of parcels_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Parcel.from_row(row) for row in reader if any(row.values())]


def summarize_parcels(items: Iterable[Parcel]) -> dict[str, object]:
    """Count, declared_value total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.shipped_on for item in rows)
    return {
        "count": len(rows),
        "declared_value_total": round(sum(item.declared_value for item in rows), 2),
        "currency": CURRENCY,
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_parcel_line(item: Parcel) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.parcel_id:<14} {item.carrier!s:<12} {item.declared_value:>10} {item.shipped_on.isoformat()}"


def shipping_cost(order_amount: float, weight_grams: int) -> float:
    """What the customer pays for shipping an order of this net amount and weight."""
    if order_amount >= FREE_SHIPPING_THRESHOLD:
        return 0.0
    return 4.90 if weight_grams <= 2000 else 8.90
