import pytest

from durations import format_duration, parse_duration


def test_single_unit():
    assert parse_duration("45s") == 45
    assert parse_duration("2h") == 7200


def test_combined_units():
    assert parse_duration("1h30m") == 5400
    assert parse_duration("1d2h3m4s") == 93784


def test_case_and_whitespace():
    assert parse_duration("  5M ") == 300


@pytest.mark.parametrize("bad", ["", "5", "h", "5x", "1m1h", "1h 30m"])
def test_rejects_malformed(bad):
    with pytest.raises(ValueError):
        parse_duration(bad)


def test_format():
    assert format_duration(0) == "0s"
    assert format_duration(5400) == "1h30m"
    assert format_duration(93784) == "1d2h3m4s"


@pytest.mark.parametrize("seconds", [1, 59, 60, 3600, 5400, 93784])
def test_round_trip(seconds):
    assert parse_duration(format_duration(seconds)) == seconds
