import datetime as dt
import sys

import pytest

sys.path.insert(0, "/workspace")

import timesheet  # noqa: E402
from timesheet import Entry, billable_hours  # noqa: E402

HOLIDAYS = {dt.date(2025, 12, 25), dt.date(2025, 12, 26), dt.date(2026, 1, 1)}


def reference_workdays(start, end):
    days = (start + dt.timedelta(days=n) for n in range((end - start).days + 1))
    return [d for d in days if d.weekday() < 5 and d not in HOLIDAYS]


@pytest.fixture(autouse=True)
def _reference_workdays(monkeypatch):
    monkeypatch.setattr(timesheet, "workdays", reference_workdays)


def day(y, m, d, duration="8:00", project="p"):
    return Entry(dt.date(y, m, d), duration, project)


@pytest.mark.parametrize(
    "entries, start, end, hours",
    [
        ([day(2026, 4, 1)], dt.date(2026, 4, 1), dt.date(2026, 4, 1), 8.0),
        ([day(2026, 4, 3, "1:45")], dt.date(2026, 3, 30), dt.date(2026, 4, 3), 1.75),
        ([day(2026, 4, 3), day(2026, 4, 6)], dt.date(2026, 4, 1), dt.date(2026, 4, 3), 8.0),
        ([day(2026, 3, 31, "0:30"), day(2026, 4, 1, "0:30")], dt.date(2026, 4, 1), dt.date(2026, 4, 30), 0.5),
        ([day(2025, 12, 24), day(2025, 12, 25)], dt.date(2025, 12, 22), dt.date(2025, 12, 25), 8.0),
        ([day(2026, 4, 4)], dt.date(2026, 4, 1), dt.date(2026, 4, 4), 0.0),
    ],
)
def test_billable_hours(entries, start, end, hours):
    assert billable_hours(entries, start, end) == hours
