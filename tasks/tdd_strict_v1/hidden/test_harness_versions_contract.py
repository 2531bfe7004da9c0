import sys

import pytest

sys.path.insert(0, "/workspace")

from versions import compare_versions  # noqa: E402


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("1.10", "1.9", 1),
        ("1.9", "1.10", -1),
        ("1.2", "1.2.0", 0),
        ("1.2.0.0", "1.2", 0),
        ("2", "2.0.1", -1),
        ("10.0", "9.99.99", 1),
        ("0.0.1", "0", 1),
        ("3.0.7", "3.0.7", 0),
        ("1.02", "1.2", 0),
        ("4.5.6", "4.5.10", -1),
    ],
)
def test_order(a, b, expected):
    assert compare_versions(a, b) == expected
    assert compare_versions(b, a) == -expected


@pytest.mark.parametrize("bad", ["", ".", "1..2", "1.", ".1", "1.a", "v1", "-1", "+1", " 1", "1 .2", "1,2"])
def test_rejects(bad):
    with pytest.raises(ValueError):
        compare_versions(bad, "1.0")
    with pytest.raises(ValueError):
        compare_versions("1.0", bad)
