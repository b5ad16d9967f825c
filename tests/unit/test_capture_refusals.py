"""Idioms of refusal and of what a thing does to the user (issue 17).

"Natto? Hard no.", "…, so I steer clear", "I break out in hives", "you won't catch me at a
casino", "X has grown on me": the idiom's words are no object (*hard*, *clear*, *hive*, *sushi
grew*), and being caught dead with something is a dislike of it. The sentences are new,
written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("Natto? Hard no.", {("dislike", "natto")}),
    ("Mint chip? Big no from me.", {("dislike", "mint chip")}),
    ("Scented candles give me headaches, so I steer clear.", {("dislike", "scented candle")}),
    ("Glitter gets everywhere, so I stay away.", {("dislike", "glitter")}),
    ("Mangoes make me break out in a rash.", {("dislike", "mango")}),
    ("Olive tapenade grew on me.", {("like", "olive tapenade")}),
    ("You won't catch me at a casino.", {("dislike", "casino")}),
    ("I wouldn't be caught dead in a fedora.", {("dislike", "fedora")}),
    ("Cilantro? Not my cup of tea.", {("dislike", "cilantro")}),
    ("蛇？饶了我吧", {("dislike", "蛇")}),
    ("Loose-leaf tea is a real step up from teabags.",
     {("like", "loose-leaf tea"), ("dislike", "teabag")}),
    ("Hotmail's out, Proton Mail is in.", {("like", "proton mail"), ("dislike", "hotmail")}),
])
def test_the_idiom_is_no_object(text: str, want: set[tuple[str, str]], stored: Stored) -> None:
    assert stored(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("I love hard cider.", {("like", "hard cider")}),
    ("Clear broth soups are my favourite.", {("like", "clear broth soup")}),
    ("My uncle wouldn't be caught dead in a fedora.", set()),
    ("The sequel is an improvement on the original.", set()),
])
def test_the_same_words_elsewhere_still_name_things(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want
