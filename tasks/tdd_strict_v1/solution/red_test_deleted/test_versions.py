import pytest

from versions import compare_versions


def test_parts_compare_as_numbers():
    assert compare_versions("1.10", "1.9") == 1
    assert compare_versions("1.9", "1.10") == -1


def test_missing_parts_count_as_zero():
    assert compare_versions("1.2", "1.2.0") == 0
    assert compare_versions("2", "2.0.1") == -1


@pytest.mark.parametrize("bad", ["", "1..2", "1.a", "-1", " 1", "1."])
def test_rejects_malformed(bad):
    with pytest.raises(ValueError):
        compare_versions(bad, "1.0")
