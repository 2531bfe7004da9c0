/**
 * Other test files for compare_versions: legitimate suites in other styles (for alternates and
 * tests), and suites that run and pass but check nothing that can fail in code that runs (for
 * cheats and tests).
 */

// ---- legitimate ----

/** The documented call form of pytest.raises, and the block form with match=. */
export const CALL_FORM_TESTS = `import pytest

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
`;

/** unittest style: assertEqual, the call form of assertRaises, a helper method. */
export const UNITTEST_TESTS = `import unittest

from versions import compare_versions


class TestCompareVersions(unittest.TestCase):
    def check(self, a, b, expected):
        self.assertEqual(compare_versions(a, b), expected)
        self.assertEqual(compare_versions(b, a), -expected)

    def test_numeric_parts(self):
        self.check("1.10", "1.9", 1)

    def test_missing_parts(self):
        self.check("1.2", "1.2.0", 0)
        self.check("2", "2.0.1", -1)

    def test_malformed(self):
        for bad in ["", "1..2", "1.a", "-1", " 1", "1."]:
            self.assertRaises(ValueError, compare_versions, bad, "1.0")
`;

/** A helper defined inside a test, a lambda handed to pytest.raises, tests under `if True:`. */
export const NESTED_HELPER_TESTS = `import pytest

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
`;

// ---- dodges ----

/** compare_versions is called, but every assert sits under if False:, after a return, or in while 0:. */
export const DEAD_ASSERT_TESTS = `from versions import compare_versions


def test_numeric_parts():
    result = compare_versions("1.10", "1.9")
    if False:
        assert result == 1


def test_missing_parts():
    result = compare_versions("1.2", "1.2.0")
    return
    assert result == 0


def test_equal():
    result = compare_versions("3.0.7", "3.0.7")
    while 0:
        assert result == 0
`;

/** The checks live in a helper the tests never call (only under if 0:); a real test defined under if False:. */
export const UNCALLED_HELPER_TESTS = `from versions import compare_versions


def check(a, b, expected):
    assert compare_versions(a, b) == expected


def test_numeric_parts():
    compare_versions("1.10", "1.9")
    if 0:
        check("1.10", "1.9", 1)


def test_missing_parts():
    compare_versions("1.2", "1.2.0")
    helper = check


if False:

    def test_real():
        check("2", "1", 1)
`;

/** Checks that cannot fail: a comparison of constants, an assert of a tuple, assertTrue(True). */
export const CONSTANT_CHECK_TESTS = `import unittest

from versions import compare_versions


def test_numeric_parts():
    compare_versions("1.10", "1.9")
    assert 1 == 1


def test_missing_parts():
    assert (compare_versions("1.2", "1.2.0") == 0, "missing parts count as zero")


class TestMore(unittest.TestCase):
    def test_equal(self):
        compare_versions("3.0.7", "3.0.7")
        self.assertTrue(True)
`;

/** pytest.raises without a function and outside a with block: it checks nothing. */
export const RAISES_WITHOUT_CALL_TESTS = `import pytest

from versions import compare_versions


def test_rejects_empty():
    compare_versions("1", "1")
    pytest.raises(ValueError)


def test_rejects_letters():
    compare_versions("2", "1")
    pytest.raises(ValueError, match="not a version")
`;
