"""A switch no connector cuts is read for its sides by the object tagger (issue 17,
``memory/core/capture/kind_stances.switch_sides``).

Before, "I've gone over to Linux Mint permanently, Windows and me are done" stored nothing:
no connector ("from … to", "swapped … for") cuts it, and the statement head reads one
polarity for the sentence as a whole. The structure head reads a switch, and the tagger
marks the object now liked and the one left. The sentences are new instances, written for
this test, of the switch kind of ``bench/data/statements_kinds_blind4.jsonl``."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.fixture(scope="module")
def reader() -> ClauseReader:
    return ClauseReader()


def stored(text: str, reader: ClauseReader) -> set[tuple[str, str]]:
    return {
        (c.polarity, k) for c in extract_preferences(text, reader=reader) for k in c.keywords
    }


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
    text: str, want: set[tuple[str, str]], reader: ClauseReader
) -> None:
    found = stored(text, reader)
    assert want <= found
    assert not {("dislike", k) for p, k in want if p == "like"} & found


@pytest.mark.parametrize("text", [
    "I took the bus instead of the tram today because of the strike",
    "My brother went over to Linux Mint permanently, Windows and him are done",
    "thinking about moving from Lloyds to Monzo, any thoughts?",
    "We replaced the carpet in the hallway with tiles last week",
])
def test_a_switch_for_one_occasion_or_someone_else_stores_nothing(
    text: str, reader: ClauseReader
) -> None:
    assert stored(text, reader) == set()


def test_the_side_told_as_the_past_is_not_liked_now(reader: ClauseReader) -> None:
    found = stored("I used to be a Canon guy, but I shoot only Sony now.", reader)
    assert ("like", "canon") not in found
