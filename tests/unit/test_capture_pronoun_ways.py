"""How a thing is had, after the pronoun that stands for it (``pronoun_ways.py``; issue 17):
"Coffee is fine but I love it black" had stored *likes it black* (keyword ``it black``, which
matches nothing); the thing is the pronoun's antecedent, so qualified. Words that say how
much, when, with whom or how sure are no way of having it. The sentences are new instances,
not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.pronoun_ways import way_had


@pytest.fixture(scope="module")
def reader() -> ClauseReader:
    return ClauseReader()


@pytest.mark.parametrize(("text", "polarity", "thing", "way"), [
    ("Cider is nice but I prefer it dry.", "like", "cider", "dry"),
    ("Carrots are fine, but I can't stand them boiled.", "dislike", "carrot", "boiled"),
    ("Bagels are my go-to, I like them with cream cheese.", "like", "bagel", "cream cheese"),
])
def test_the_pronoun_is_the_thing_so_qualified(
    reader: ClauseReader, text: str, polarity: str, thing: str, way: str
) -> None:
    found = extract_preferences(text, reader=reader)
    qualified = [c for c in found if way in c.content]
    assert qualified, found
    assert all(c.polarity == polarity for c in qualified), found
    assert all(thing in c.content.lower() for c in qualified), found
    assert not any(k.startswith(("it ", "them ")) for c in found for k in c.keywords), found


@pytest.mark.parametrize(("display", "expected"), [
    ("it black", "black"),
    ("them without onions", "without onions"),
    ("it a lot", None),
    ("it tonight", None),
    ("it lmao", None),
    ("it honestly", None),
    ("it with a passion", None),
    ("them with friends", None),
    ("it without fail", None),
    ("it without feeling sick", None),
    ("the red one", None),
])
def test_a_way_of_having_it_or_not(display: str, expected: str | None) -> None:
    assert way_had(display) == expected
