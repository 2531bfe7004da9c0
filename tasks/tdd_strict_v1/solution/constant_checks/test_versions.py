import unittest

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
