"""Export jobs requested from the admin panel.

An export job runs in the worker queue and writes a CSV file to the shared bucket. The
row count is filled in when the job finishes; failed jobs are retried once.
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
class ExportJob:
    """One export_job as stored in the export_jobs table."""

    job_id: str
    kind: str
    requested_by: str
    row_count: int
    requested_on: dt.date
    finished: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "job_id": self.job_id,
            "kind": self.kind,
            "requested_by": self.requested_by,
            "row_count": str(self.row_count),
            "requested_on": self.requested_on.isoformat(),
            "finished": "yes" if self.finished else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> ExportJob:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                job_id=row["job_id"],
                kind=row["kind"],
                requested_by=row["requested_by"],
                row_count=int(row["row_count"]),
                requested_on=dt.date.fromisoformat(row["requested_on"]),
                finished=_parse_flag(row["finished"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad export_job row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_export_job(item: ExportJob) -> list[str]:
    """Every problem found with one export_job, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.job_id.strip():
        problems.append("job_id is empty")
    if not item.kind.strip():
        problems.append("kind is empty")
    if not item.requested_by.strip():
        problems.append("requested_by is empty")
    if item.row_count < 0:
        problems.append(f"row_count is negative: {item.row_count}")
    if item.requested_on > dt.date.today():
        problems.append(f"requested_on is in the future: {item.requested_on.isoformat()}")
    return problems


def group_export_jobs_by_kind(items: Iterable[ExportJob]) -> dict[str, list[ExportJob]]:
    """Export_jobs keyed by kind, each list in input order."""
    groups: dict[str, list[ExportJob]] = defaultdict(list)
    for item in items:
        groups[str(item.kind)].append(item)
    return dict(groups)


def sort_export_jobs(items: Iterable[ExportJob], newest_first: bool = True) -> list[ExportJob]:
    """By requested_on, then job_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.requested_on, item.job_id), reverse=newest_first)


def export_jobs_between(items: Iterable[ExportJob], start: dt.date, end: dt.date) -> list[ExportJob]:
    """Export_jobs whose requested_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.requested_on <= end]


def paginate_export_jobs(items: list[ExportJob], page: int, per_page: int = PAGE_SIZE) -> list[ExportJob]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_export_jobs(items: Iterable[ExportJob], query: str) -> list[ExportJob]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.job_id, item.kind, item.requested_by,))]


def dedupe_export_jobs(items: Iterable[ExportJob]) -> list[ExportJob]:
    """Drops repeated job_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[ExportJob] = []
    for item in items:
        if item.job_id in seen:
            continue
        seen.add(item.job_id)
        unique.append(item)
    return unique


_COLUMNS = ["job_id", "kind", "requested_by", "row_count", "requested_on", "finished"]


def export_jobs_to_csv(items: Iterable[ExportJob]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def export_jobs_from_csv(text: str) -> list[ExportJob]:
    """Inverse of export_jobs_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [ExportJob.from_row(row) for row in reader if any(row.values())]


def summarize_export_jobs(items: Iterable[ExportJob]) -> dict[str, object]:
    """Count, row_count total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.requested_on for item in rows)
    return {
        "count": len(rows),
        "row_count_total": round(sum(item.row_count for item in rows), 2),
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_export_job_line(item: ExportJob) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.job_id:<14} {item.kind!s:<12} {item.row_count:>10} {item.requested_on.isoformat()}"
