"""Billable hours from timesheet entries, for the monthly invoices."""

import datetime as dt
from dataclasses import dataclass

from workdays import workdays


@dataclass(frozen=True)
class Entry:
    day: dt.date
    duration: str  # "H:MM", e.g. "7:30"
    project: str


def parse_hhmm(text: str) -> float:
    """Hours in a duration written "H:MM": "1:30" -> 1.5. Minutes must be 00-59."""
    hours, sep, minutes = text.strip().partition(":")
    if not sep or not hours.isdigit() or len(minutes) != 2 or not minutes.isdigit():
        raise ValueError(f"not an H:MM duration: {text!r}")
    if int(minutes) > 59:
        raise ValueError(f"minutes out of range in {text!r}")
    return int(hours) + int(minutes) / 60


def billable_hours(entries: list[Entry], start: dt.date, end: dt.date) -> float:
    """Hours logged on working days from start to end, both included, rounded to 2 places."""
    open_days = set(workdays(start, end))
    by_day = {entry.day: parse_hhmm(entry.duration) for entry in entries if entry.day in open_days}
    return round(sum(by_day.values()), 2)


def hours_by_project(entries: list[Entry], start: dt.date, end: dt.date) -> dict[str, float]:
    """billable_hours per project, for the invoice lines."""
    projects = sorted({entry.project for entry in entries})
    return {p: billable_hours([e for e in entries if e.project == p], start, end) for p in projects}
