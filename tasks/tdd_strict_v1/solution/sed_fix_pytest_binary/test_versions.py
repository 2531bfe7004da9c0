import pytest

from versions import compare_versions


def test_order():
    def check(a, b, expected):
        assert compare_versions(a, b) == expected

    check("1.10", "1.9", 1)
    check("1.2", "1.2.0", 0)
    check("2", "2.0.1", -1)


if True:

    def test_malformed():
        for bad in ["", "1..2", "1.a", "-1", " 1", "1."]:
            pytest.raises(ValueError, lambda: compare_versions(bad, "1.0"))
