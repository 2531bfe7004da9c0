import datetime as dt
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
