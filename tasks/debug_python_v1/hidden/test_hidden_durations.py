import sys

import pytest

sys.path.insert(0, "/workspace")

from durations import format_duration, parse_duration  # noqa: E402


@pytest.mark.parametrize(
    "text, seconds",
    [("3h15s", 10815), ("1h1m1s", 3661), ("2d", 172800), (" 10M ", 600), ("1D23H59M59S", 172799), ("0h5m", 300)],
)
def test_parse(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("bad", ["1h1h", "1s1m", "-5s", "1.5h", "hm", "1 h"])
def test_rejects(bad):
    with pytest.raises(ValueError):
        parse_duration(bad)


def test_round_trip_range():
    for seconds in range(0, 400000, 7919):
        assert parse_duration(format_duration(seconds)) == seconds
