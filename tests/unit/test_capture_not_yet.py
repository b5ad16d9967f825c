"""What has not happened yet, and a habit never broken, is no quitting and no dislike (issue 17).

"Getting tempted by Arc but haven't left Safari yet" was stored as *has given up Safari*: the
clause splitter took the closing "yet" for a conjunction and cut it off, and the statement head
read "haven't left Safari" as quitting. "I haven't tried oysters yet" was stored as *dislikes
tried oysters*. A "yet" that ends a clause stays in it now, and a clause that says something
has not happened yet (``还没``) stores no dislike (:func:`~penchant.memory.core.capture.negation.
not_yet`). The sentences are new instances of the kind, written for this test."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.clauses import clauses


@pytest.mark.parametrize("text", [
    "Haven't deleted my Twitter account yet",
    "Haven't switched away from Spotify yet, the playlists keep me",
    "I haven't tried oysters yet",
    "I haven't found anything better than my Kindle yet",
])
def test_what_has_not_happened_yet_stores_no_dislike(text: str, reader: ClauseReader) -> None:
    assert [c.content for c in extract_preferences(text, reader=reader)
            if c.polarity == "dislike"] == []


@pytest.mark.parametrize(("text", "polarity", "keyword"), [
    ("It's pricey, yet I love this cafe", "like", "cafe"),  # "yet" opening a clause: "but"
    ("I haven't eaten red meat since 2019", "dislike", "red meat"),  # a quit, no "yet"
])
def test_look_alikes_keep_their_reading(
    text: str, polarity: str, keyword: str, reader: ClauseReader
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [c.polarity for c in found if keyword in c.keywords] == [polarity]


def test_a_yet_that_ends_a_clause_is_no_conjunction() -> None:
    assert clauses("Getting tempted by Arc but haven't left Safari yet") == [
        "Getting tempted by Arc", "haven't left Safari yet"]
    assert clauses("It's pricey, yet I love this cafe") == ["It's pricey", "I love this cafe"]


@pytest.mark.parametrize("text", [
    "Haven't missed an episode of Bake Off since it started",
    "I haven't skipped a single leg day since January",
    "瑜伽我每周三次，两年没断过",
])
def test_a_habit_never_broken_is_no_quit(text: str, reader: ClauseReader) -> None:
    """"Haven't missed an episode of Bake Off since it started" was stored as *has given up
    episode*: not once missing a thing is keeping it (``negation.kept``)."""
    assert [c.content for c in extract_preferences(text, reader=reader)
            if c.polarity == "dislike"] == []


def test_not_missing_a_thing_one_left_is_still_a_quit(reader: ClauseReader) -> None:
    """Look-alike: missing *it* is longing, not a streak."""
    found = extract_preferences("I ditched Snapchat and haven't missed it one bit", reader=reader)
    assert [(c.polarity, c.keywords) for c in found] == [("dislike", ["snapchat"])]

