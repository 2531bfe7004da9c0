"""Ordering of dotted version strings such as "1.10.2"."""


def _parts(version: str) -> list[int]:
    pieces = version.split(".")
    if not all(p.isascii() and p.isdigit() for p in pieces):
        raise ValueError(f"not a version: {version!r}")
    return [int(p) for p in pieces]


def compare_versions(a: str, b: str) -> int:
    """-1, 0 or 1 as a is older than, the same as, or newer than b; missing parts count as 0."""
    left, right = _parts(a), _parts(b)
    width = max(len(left), len(right))
    left += [0] * (width - len(left))
    right += [0] * (width - len(right))
    return (left > right) - (left < right)
