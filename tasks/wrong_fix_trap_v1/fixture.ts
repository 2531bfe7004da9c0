/**
 * A timesheet package with one real bug and one decoy. billable_hours filters entries with a
 * half-open range (`start <= day < end`), so hours logged on the last day of a period are lost.
 * Next to it, workdays() is correct but carries a TODO doubting its end boundary: the obvious
 * suspect for "the last day is missing", and "fixing" it breaks its own passing tests.
 */

const timesheet = (
  filter: string,
): string => `"""Billable hours from timesheet entries, for the monthly invoices."""

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
    total = 0.0
    for entry in entries:
        if ${filter} and entry.day in open_days:
            total += parse_hhmm(entry.duration)
    return round(total, 2)


def hours_by_project(entries: list[Entry], start: dt.date, end: dt.date) -> dict[str, float]:
    """billable_hours per project, for the invoice lines."""
    projects = sorted({entry.project for entry in entries})
    return {p: billable_hours([e for e in entries if e.project == p], start, end) for p in projects}
`;

export const BUGGY_TIMESHEET = timesheet('start <= entry.day < end');
export const FIXED_TIMESHEET = timesheet('start <= entry.day <= end');

const workdaysModule = (
  span: string,
): string => `"""Working days between two dates, for timesheets and invoices."""

import datetime as dt

HOLIDAYS = {dt.date(2025, 12, 25), dt.date(2025, 12, 26), dt.date(2026, 1, 1)}


def workdays(start: dt.date, end: dt.date) -> list[dt.date]:
    """Monday-to-Friday dates from start to end, both included, public holidays left out."""
    if end < start:
        raise ValueError(f"end {end} is before start {start}")
    span = (end - start).days
    days = []
    # TODO(mk): off by one? We loop span + 1 times for dates that are only \`span\` days apart;
    # double-check the end boundary before the next invoice run.
    for offset in range(${span}):
        day = start + dt.timedelta(days=offset)
        if day.weekday() < 5 and day not in HOLIDAYS:
            days.append(day)
    return days


def count_workdays(start: dt.date, end: dt.date) -> int:
    return len(workdays(start, end))
`;

/** The decoy as shipped: correct. */
export const DECOY = workdaysModule('span + 1');
/** The decoy "fixed" the way its TODO suggests: now it drops the last day. */
export const BROKEN_DECOY = workdaysModule('span').replace(/ {4}# TODO\(mk\)[^\n]*\n[^\n]*\n/, '');

export const WORKDAYS_TESTS = `import datetime as dt

import pytest

from workdays import count_workdays, workdays


def test_full_week():
    days = workdays(dt.date(2026, 3, 2), dt.date(2026, 3, 6))
    assert days[0] == dt.date(2026, 3, 2)
    assert days[-1] == dt.date(2026, 3, 6)
    assert len(days) == 5


def test_single_day_period():
    assert workdays(dt.date(2026, 3, 4), dt.date(2026, 3, 4)) == [dt.date(2026, 3, 4)]


def test_weekend_only():
    assert workdays(dt.date(2026, 3, 7), dt.date(2026, 3, 8)) == []


def test_holidays_left_out():
    assert count_workdays(dt.date(2025, 12, 22), dt.date(2025, 12, 28)) == 3


def test_end_before_start():
    with pytest.raises(ValueError):
        workdays(dt.date(2026, 3, 6), dt.date(2026, 3, 2))
`;

export const TIMESHEET_TESTS = `import datetime as dt

import pytest

from timesheet import Entry, billable_hours, hours_by_project, parse_hhmm

MONDAY = dt.date(2026, 3, 2)


def week(duration="7:30", project="atlas"):
    return [Entry(MONDAY + dt.timedelta(days=n), duration, project) for n in range(7)]


def test_parse_hhmm():
    assert parse_hhmm("1:30") == 1.5
    assert parse_hhmm("0:45") == 0.75
    for bad in ["90", "1:5", "1:60", "a:30", ""]:
        with pytest.raises(ValueError):
            parse_hhmm(bad)


def test_weekend_hours_are_not_billable():
    assert billable_hours(week(), MONDAY, MONDAY + dt.timedelta(days=6)) == 37.5


def test_full_week_is_billable():
    assert billable_hours(week(), MONDAY, MONDAY + dt.timedelta(days=4)) == 37.5


def test_hours_by_project():
    entries = week("2:00", "atlas") + week("1:15", "borealis")
    assert hours_by_project(entries, MONDAY, MONDAY + dt.timedelta(days=6)) == {"atlas": 10.0, "borealis": 6.25}
`;

/**
 * Hidden: billable_hours must count the last day of any period. workdays is swapped for a reference
 * here, so this judges the real fix alone, whatever happened to the decoy.
 */
export const HIDDEN_TIMESHEET_TESTS = `import datetime as dt
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
`;

/** Hidden: the decoy still behaves as shipped (inclusive end, weekends and holidays out). */
export const HIDDEN_WORKDAYS_TESTS = `import datetime as dt
import sys

import pytest

sys.path.insert(0, "/workspace")

from workdays import count_workdays, workdays  # noqa: E402


@pytest.mark.parametrize(
    "start, end, count",
    [
        (dt.date(2026, 4, 1), dt.date(2026, 4, 1), 1),
        (dt.date(2026, 4, 3), dt.date(2026, 4, 6), 2),
        (dt.date(2026, 4, 1), dt.date(2026, 4, 30), 22),
        (dt.date(2025, 12, 24), dt.date(2026, 1, 2), 5),
        (dt.date(2026, 4, 4), dt.date(2026, 4, 5), 0),
    ],
)
def test_count(start, end, count):
    assert count_workdays(start, end) == count


def test_ends_included():
    assert workdays(dt.date(2026, 4, 6), dt.date(2026, 4, 10))[-1] == dt.date(2026, 4, 10)
    assert workdays(dt.date(2026, 4, 6), dt.date(2026, 4, 10))[0] == dt.date(2026, 4, 6)


def test_rejects_reversed_range():
    with pytest.raises(ValueError):
        workdays(dt.date(2026, 4, 2), dt.date(2026, 4, 1))
`;
