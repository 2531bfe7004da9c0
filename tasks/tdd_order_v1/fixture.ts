/** slugify: the function the agent test-drives, its reference implementation, tests and hidden contract. */

export const IMPLEMENTATION = `"""URL slugs from titles."""

import re

_SEPARATORS = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lower-case text, keep a-z and 0-9, and join the remaining runs with single hyphens."""
    return _SEPARATORS.sub("-", text.lower()).strip("-")
`;

export const AGENT_TESTS = `from slugify import slugify


def test_punctuation_becomes_one_hyphen():
    assert slugify("Hello, World!") == "hello-world"


def test_digits_are_kept_and_edges_trimmed():
    assert slugify("  Python 3.11 released  ") == "python-3-11-released"


def test_slug_is_unchanged():
    assert slugify("already-a-slug") == "already-a-slug"


def test_nothing_left():
    assert slugify("!!!") == ""
`;

/** Checks the implementation against the rules in the prompt, so trivial agent tests cannot carry the flag. */
export const CONTRACT_TESTS = String.raw`import sys

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
`;
