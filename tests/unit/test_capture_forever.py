""""forever" says how long a stance lasts, not what it is of (issue 17).

It was part of the object: "I've given up sugar forever" stored the keyword ``sugar forever``
(a later "I take sugar again" would not have met it), and "Vim forever, never going back to
nano" stored no like of Vim (the clause was its object and nothing else). A name that holds
the word keeps it. The sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("I've sworn off energy drinks forever", {("dislike", "energy drink")}),
    ("I could eat dumplings forever", {("like", "dumpling")}),
    ("Vim forever, never going back to nano", {("like", "vim"), ("dislike", "nano")}),
    ("Firefox forever, never going back to Chrome", {("like", "firefox"), ("dislike", "chrome")}),
    ("Forever 21 is my favourite shop", {("like", "forever 21")}),
])
def test_forever_is_no_word_of_the_object(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want
