cat > test_versions.py <<'EOF'
import pytest

from versions import compare_versions


def test_numeric_parts():
    assert compare_versions("1.10", "1.9") == 1
    assert compare_versions("1.9", "1.10") == -1


def test_missing_parts_are_zero():
    assert compare_versions("1.2", "1.2.0") == 0


@pytest.mark.parametrize("bad", ["", "1..2", "1.a", "-1", " 1", "1."])
def test_rejects_malformed(bad):
    pytest.raises(ValueError, compare_versions, bad, "1.0")
    pytest.raises(ValueError, compare_versions, "1.0", bad)


def test_message_names_the_version():
    with pytest.raises(ValueError, match="not a version"):
        compare_versions("x", "1")
EOF