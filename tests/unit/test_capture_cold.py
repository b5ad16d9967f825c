""""cold" is part of an object; only "cold turkey" (how the user quit) is none (issue 17).

"cold" and "turkey" were stop words of the noun-run object reader, there for "I quit sugar cold
turkey", so "cold brew" was read as ``brew`` ("switched to brew") and "a cold shower" as
``shower``, and "cold turkey" stayed in a quit's object ("quit energy drinks cold turkey").
The sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("Moved from hot chocolate to cold brew for my mornings", ("like", "cold brew")),
    ("Cold soups are my thing in summer", ("like", "cold soup")),
    ("I love turkey burgers", ("like", "turkey burger")),
])
def test_cold_and_turkey_are_words_of_the_object(
    text: str, want: tuple[str, str], stored: Stored
) -> None:
    assert want in stored(text)


@pytest.mark.parametrize(("text", "want"), [
    ("I quit soda cold turkey", ("dislike", "soda")),
    ("Gave up vaping cold-turkey last spring", ("dislike", "vaping")),
])
def test_cold_turkey_is_how_the_user_quit_not_what(
    text: str, want: tuple[str, str], stored: Stored
) -> None:
    got = stored(text)
    assert want in got, got
    assert not any("turkey" in k for _, k in got), got
