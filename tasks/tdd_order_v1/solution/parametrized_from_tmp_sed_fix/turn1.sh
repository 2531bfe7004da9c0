python3 - <<'PY'
import pathlib
pathlib.Path("test_slugify.py").write_text(r'''import pytest

from slugify import slugify


@pytest.mark.parametrize(
    "text, slug",
    [
        ("Hello, World!", "hello-world"),
        ("  Python 3.11 released  ", "python-3-11-released"),
        ("already-a-slug", "already-a-slug"),
        ("--Ready?? Set... GO!--", "ready-set-go"),
        ("!!!", ""),
    ],
)
def test_examples(text, slug):
    assert slugify(text) == slug
''')
PY