"""URL slugs from titles."""

import re

_SEPARATORS = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lower-case text, keep a-z and 0-9, and join the remaining runs with single hyphens."""
    # An apostrophe belongs to its word: "Don't" -> "dont".
    return _SEPARATORS.sub("-", text.replace("'", "").lower()).strip("-")
