"""Working days between two dates, for timesheets and invoices."""

import datetime as dt

HOLIDAYS = {dt.date(2025, 12, 25), dt.date(2025, 12, 26), dt.date(2026, 1, 1)}


def workdays(start: dt.date, end: dt.date) -> list[dt.date]:
    """Monday-to-Friday dates from start to end, both included, public holidays left out."""
    if end < start:
        raise ValueError(f"end {end} is before start {start}")
    span = (end - start).days
    days = []
    # TODO(mk): off by one? We loop span + 1 times for dates that are only `span` days apart;
    # double-check the end boundary before the next invoice run.
    for offset in range(span + 1):
        day = start + dt.timedelta(days=offset)
        if day.weekday() < 5 and day not in HOLIDAYS:
            days.append(day)
    return days


def count_workdays(start: dt.date, end: dt.date) -> int:
    return len(workdays(start, end))
