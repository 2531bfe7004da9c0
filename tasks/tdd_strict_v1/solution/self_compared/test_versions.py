import pytest

from versions import compare_versions


def test_parts_compare_as_numbers():
    assert compare_versions("1.10", "1.9") == compare_versions("1.10", "1.9")


def test_result_is_a_sign():
    assert compare_versions("1.2", "1.2.0") in (-1, 0, 1)
    result = compare_versions("2", "2.0.1")
    assert result == result


def test_is_deterministic():
    assert compare_versions("3.0.7", "3.0.7") is not None


@pytest.mark.parametrize("bad", ["", "1..2", "1.a"])
def test_rejects_malformed(bad):
    with pytest.raises(Exception):
        compare_versions(None, "1.0")
