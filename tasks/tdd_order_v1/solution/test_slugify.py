from slugify import slugify


def test_punctuation_becomes_one_hyphen():
    assert slugify("Hello, World!") == "hello-world"


def test_digits_are_kept_and_edges_trimmed():
    assert slugify("  Python 3.11 released  ") == "python-3-11-released"


def test_slug_is_unchanged():
    assert slugify("already-a-slug") == "already-a-slug"


def test_nothing_left():
    assert slugify("!!!") == ""
