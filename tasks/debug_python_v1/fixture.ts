/**
 * The module under repair: a duration parser whose loop overwrites its running total (`=` where
 * `+=` belongs), so single-unit durations pass and combined ones ("1h30m") come out short.
 */

const parser = (
  accumulate: string,
): string => String.raw`"""Parse and format human-friendly durations such as "1h30m" or "45s".

The job scheduler reads timeouts and retry delays from its config files with these.
"""

import re

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_TOKEN = re.compile(r"(\d+)([dhms])")


def parse_duration(text: str) -> int:
    """Return the number of seconds in a duration like "2h", "1h30m" or "1d2h3m4s".

    Each unit may appear once, largest first. Surrounding whitespace and upper-case
    units are accepted. Anything else raises ValueError.
    """
    cleaned = text.strip().lower()
    if not cleaned:
        raise ValueError("empty duration")
    total = 0
    pos = 0
    last_size = None
    for match in _TOKEN.finditer(cleaned):
        if match.start() != pos:
            raise ValueError(f"invalid duration: {text!r}")
        amount, unit = int(match.group(1)), match.group(2)
        size = _UNITS[unit]
        if last_size is not None and size >= last_size:
            raise ValueError(f"units out of order in {text!r}")
        ${accumulate}
        last_size = size
        pos = match.end()
    if pos != len(cleaned):
        raise ValueError(f"invalid duration: {text!r}")
    return total


def format_duration(seconds: int) -> str:
    """Inverse of parse_duration: 5400 -> "1h30m", 0 -> "0s"."""
    if seconds < 0:
        raise ValueError("negative duration")
    if seconds == 0:
        return "0s"
    parts = []
    for unit, size in _UNITS.items():
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return "".join(parts)
`;

export const BUGGY_MODULE = parser('total = amount * size');
export const FIXED_MODULE = parser('total += amount * size');

export const VISIBLE_TESTS = `import pytest

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
`;

/** Values the visible tests do not use, so a fix that special-cases them fails here. */
export const HIDDEN_TESTS = `import sys

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
`;
