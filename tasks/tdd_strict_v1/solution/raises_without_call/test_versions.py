import pytest

from versions import compare_versions


def test_rejects_empty():
    compare_versions("1", "1")
    pytest.raises(ValueError)


def test_rejects_letters():
    compare_versions("2", "1")
    pytest.raises(ValueError, match="not a version")
