def test_fail():
    assert False
