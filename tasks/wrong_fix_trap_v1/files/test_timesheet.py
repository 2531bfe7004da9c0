import datetime as dt

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
