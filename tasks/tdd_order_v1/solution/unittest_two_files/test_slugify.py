import unittest

from slugify import slugify


class TestSlugify(unittest.TestCase):
    def test_lower_and_hyphens(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")

    def test_edges_trimmed(self):
        self.assertEqual(slugify("--Ready?? Set... GO!--"), "ready-set-go")

    def test_empty(self):
        self.assertEqual(slugify("!!!"), "")
