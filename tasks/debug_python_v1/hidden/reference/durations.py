"""Parse and format human-friendly durations such as "1h30m" or "45s".

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
        total += amount * size
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
