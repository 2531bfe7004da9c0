"""Ordering of dotted version strings such as "1.10.2"."""

import re

_VERSION = re.compile(r"^[0-9]+(\.[0-9]+)*$")


def _parts(version: str) -> list[int]:
    if not _VERSION.match(version):
        raise ValueError(f"not a version: {version!r}")
    return [int(p) for p in version.split(".")]


def compare_versions(a: str, b: str) -> int:
    """-1, 0 or 1 as a is older than, the same as, or newer than b; missing parts count as 0."""
    left, right = _parts(a), _parts(b)
    width = max(len(left), len(right))
    left += [0] * (width - len(left))
    right += [0] * (width - len(right))
    return (left > right) - (left < right)
