from slugify import slugify


def test_runs_collapse():
    assert slugify("a__b  c") == "a-b-c"


def test_upper_case():
    assert slugify("ABC") == "abc"
