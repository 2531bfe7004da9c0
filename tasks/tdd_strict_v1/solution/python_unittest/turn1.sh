python3 - <<'PY'
import pathlib
pathlib.Path("test_versions.py").write_text(r'''import unittest

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
''')
PY