import datetime as dt

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
