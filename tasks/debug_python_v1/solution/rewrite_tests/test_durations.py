from durations import parse_duration


def test_parses():
    assert parse_duration("45s") == 45
