"""Queued customer notifications (email, SMS, push).

Notifications are queued by the other services and sent by the notifier process. A
notification that could not be sent three times is marked failed and shows up in the
support queue.
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
class Notification:
    """One notification as stored in the notifications table."""

    notification_id: str
    customer_id: str
    channel: str
    template: str
    attempts: int
    queued_on: dt.date
    sent: bool

    def to_row(self) -> dict[str, str]:
        """Flatten to strings for the CSV export and the audit log."""
        return {
            "notification_id": self.notification_id,
            "customer_id": self.customer_id,
            "channel": self.channel,
            "template": self.template,
            "attempts": str(self.attempts),
            "queued_on": self.queued_on.isoformat(),
            "sent": "yes" if self.sent else "no",
        }

    @classmethod
    def from_row(cls, row: dict[str, str]) -> Notification:
        """Inverse of to_row. Raises ValueError on a missing or malformed column."""
        try:
            return cls(
                notification_id=row["notification_id"],
                customer_id=row["customer_id"],
                channel=row["channel"],
                template=row["template"],
                attempts=int(row["attempts"]),
                queued_on=dt.date.fromisoformat(row["queued_on"]),
                sent=_parse_flag(row["sent"]),
            )
        except (KeyError, ValueError) as exc:
            raise ValueError(f"bad notification row {row!r}: {exc}") from exc


def _parse_flag(value: str) -> bool:
    """CSV flags are written yes/no; exports before 2023 used 1/0."""
    lowered = value.strip().lower()
    if lowered in ("yes", "1", "true"):
        return True
    if lowered in ("no", "0", "false", ""):
        return False
    raise ValueError(f"not a yes/no flag: {value!r}")


def validate_notification(item: Notification) -> list[str]:
    """Every problem found with one notification, as readable strings (empty when it is valid)."""
    problems: list[str] = []
    if not item.notification_id.strip():
        problems.append("notification_id is empty")
    if not item.customer_id.strip():
        problems.append("customer_id is empty")
    if not item.channel.strip():
        problems.append("channel is empty")
    if not item.template.strip():
        problems.append("template is empty")
    if item.attempts < 0:
        problems.append(f"attempts is negative: {item.attempts}")
    if item.queued_on > dt.date.today():
        problems.append(f"queued_on is in the future: {item.queued_on.isoformat()}")
    return problems


def group_notifications_by_channel(items: Iterable[Notification]) -> dict[str, list[Notification]]:
    """Notifications keyed by channel, each list in input order."""
    groups: dict[str, list[Notification]] = defaultdict(list)
    for item in items:
        groups[str(item.channel)].append(item)
    return dict(groups)


def sort_notifications(items: Iterable[Notification], newest_first: bool = True) -> list[Notification]:
    """By queued_on, then notification_id, so that ties always come out in the same order."""
    return sorted(items, key=lambda item: (item.queued_on, item.notification_id), reverse=newest_first)


def notifications_between(items: Iterable[Notification], start: dt.date, end: dt.date) -> list[Notification]:
    """Notifications whose queued_on falls in [start, end]; ValueError when end is before start."""
    if end < start:
        raise ValueError(f"empty range: {start} .. {end}")
    return [item for item in items if start <= item.queued_on <= end]


def paginate_notifications(items: list[Notification], page: int, per_page: int = PAGE_SIZE) -> list[Notification]:
    """One 1-based page of items, as the admin list views show them."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page < 1:
        raise ValueError("per_page must be positive")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def find_notifications(items: Iterable[Notification], query: str) -> list[Notification]:
    """Case-insensitive substring search over the text columns, for the admin search box."""
    needle = query.strip().lower()
    if not needle:
        return []
    return [item for item in items if any(needle in value.lower() for value in (item.notification_id, item.customer_id, item.channel, item.template,))]


def dedupe_notifications(items: Iterable[Notification]) -> list[Notification]:
    """Drops repeated notification_ids, keeping the first one (overlapping imports repeat rows)."""
    seen: set[str] = set()
    unique: list[Notification] = []
    for item in items:
        if item.notification_id in seen:
            continue
        seen.add(item.notification_id)
        unique.append(item)
    return unique


_COLUMNS = ["notification_id", "customer_id", "channel", "template", "attempts", "queued_on", "sent"]


def notifications_to_csv(items: Iterable[Notification]) -> str:
    """CSV text with a header row, in the column order of the nightly export."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        writer.writerow(item.to_row())
    return buffer.getvalue()


def notifications_from_csv(text: str) -> list[Notification]:
    """Inverse of notifications_to_csv. Blank lines are skipped; a bad row raises ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    return [Notification.from_row(row) for row in reader if any(row.values())]


def summarize_notifications(items: Iterable[Notification]) -> dict[str, object]:
    """Count, attempts total and date range, for the daily operations report."""
    rows = list(items)
    dates = sorted(item.queued_on for item in rows)
    return {
        "count": len(rows),
        "attempts_total": round(sum(item.attempts for item in rows), 2),
        "first": dates[0].isoformat() if dates else None,
        "last": dates[-1].isoformat() if dates else None,
    }


def format_notification_line(item: Notification) -> str:
    """One fixed-width line for the plain-text reports."""
    return f"{item.notification_id:<14} {item.channel!s:<12} {item.attempts:>10} {item.queued_on.isoformat()}"
