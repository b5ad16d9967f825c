"""A switch no connector cuts is read for its sides by the object tagger (issue 17,
``memory/core/capture/kind_stances.switch_sides``).

Before, "I've gone over to Linux Mint permanently, Windows and me are done" stored nothing:
no connector ("from … to", "swapped … for") cuts it, and the statement head reads one
polarity for the sentence as a whole. The structure head reads a switch, and the tagger
marks the object now liked and the one left. The sentences are new instances, written for
this test, of the switch kind of ``bench/data/statements_kinds_blind4.jsonl``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("I've gone over to Linux Mint permanently, Windows and me are done",
     {("like", "linux mint")}),
    ("I shop at Aldi exclusively now, Tesco lost me with those prices", {("like", "aldi")}),
    ("I use DuckDuckGo exclusively now, Google kept tracking everything",
     {("like", "duckduckgo"), ("dislike", "google")}),
    ("I've moved to Proton Mail for good, Gmail and me are finished", {("like", "proton")}),
    ("I fly KLM exclusively now, Ryanair lost me after the last delay",
     {("like", "klm"), ("dislike", "ryanair")}),
])
def test_a_switch_no_connector_cuts_stores_what_the_user_turned_to(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    found = stored(text)
    assert want <= found
    assert not {("dislike", k) for p, k in want if p == "like"} & found


@pytest.mark.parametrize("text", [
    "I took the bus instead of the tram today because of the strike",
    "My brother went over to Linux Mint permanently, Windows and him are done",
    "thinking about moving from Lloyds to Monzo, any thoughts?",
    "We replaced the carpet in the hallway with tiles last week",
])
def test_a_switch_for_one_occasion_or_someone_else_stores_nothing(
    text: str, stored: Stored
) -> None:
    assert stored(text) == set()


def test_the_side_told_as_the_past_is_not_liked_now(stored: Stored) -> None:
    found = stored("I used to be a Canon guy, but I shoot only Sony now.")
    assert ("like", "canon") not in found
