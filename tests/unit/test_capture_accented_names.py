"""Names with accented Latin letters keep them in their keywords (issue 17).

The English keyword reader took ASCII letters only: "I love Häagen-Dazs" was keyed ``h``,
``agen-daz`` ("h agen-daz"), "Crème brûlée is my weakness" stored a like of *e*, so a later
"I've gone off Häagen-Dazs" could not meet the like it turns. Keywords now keep every letter,
as the gate's own normalisation does. The sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.model import normalise_keyword

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("I love Häagen-Dazs", {("like", "häagen-daz")}),
    ("My favourite singer is Rosalía", {("like", "rosalía")}),
    ("I'm obsessed with Pokémon cards", {("like", "pokémon card")}),
    ("Crème brûlée is my weakness", {("like", "crème brûlée")}),
])
def test_accented_letters_stay_in_the_keyword(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    found = stored(text)
    assert found == want
    assert all(normalise_keyword(keyword) == keyword for _, keyword in found)
