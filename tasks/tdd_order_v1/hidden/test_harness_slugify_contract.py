import sys

import pytest

sys.path.insert(0, "/workspace")

from slugify import slugify  # noqa: E402


@pytest.mark.parametrize(
    "text, slug",
    [
        ("Hello, World!", "hello-world"),
        ("  Python 3.11 released  ", "python-3-11-released"),
        ("already-a-slug", "already-a-slug"),
        ("--Ready?? Set... GO!--", "ready-set-go"),
        ("!!!", ""),
        ("", ""),
        ("ABC", "abc"),
        ("a__b  c", "a-b-c"),
        ("x--y", "x-y"),
        ("Route 66 / Exit 9", "route-66-exit-9"),
        ("tabs\tand\nnewlines", "tabs-and-newlines"),
    ],
)
def test_contract(text, slug):
    assert slugify(text) == slug
