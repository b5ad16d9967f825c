"""A named thing that let the user down, said of it as subject ("Google Keep never worked for
me", "Deliveroo lost me", "vinyl is dead to me", "the bread maker went to Goodwill";
``rules_en_evaluations.LET_DOWN``, ``NEVER_TOOK``; issue 17): often the other side of a switch,
after a comma that now starts a clause of its own. Such clauses had been read as nothing, and
the side left was not stored. The sentences are new instances of the kind, not rows of the
bench files.
"""

from __future__ import annotations

import pytest

from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "disliked"), [
    ("Google Keep never worked for me", "google keep"),
    ("Deliveroo lost me after the last refund fight", "deliveroo"),
    ("vinyl is dead to me", "vinyl"),
    ("Instant coffee is history in our house", "instant coffee"),
    ("the bread maker went to Goodwill", "bread maker"),
])
def test_a_thing_that_let_the_user_down_is_disliked(text: str, disliked: str) -> None:
    found = extract_preferences(text)
    assert [c.polarity for c in found] == ["dislike"], found
    assert disliked in " ".join(found[0].keywords).lower()


@pytest.mark.parametrize(("text", "liked", "disliked"), [
    ("I write in Bear now, Google Keep never worked for me", "bear", "google keep"),
    ("I shop at Aldi these days, Sainsbury's lost me", "aldi", "sainsbury"),
])
def test_both_sides_of_a_switch_are_stored(text: str, liked: str, disliked: str) -> None:
    found = {c.polarity: " ".join(c.keywords).lower() for c in extract_preferences(text)}
    assert liked in found.get("like", ""), found
    assert disliked in found.get("dislike", ""), found


@pytest.mark.parametrize("text", [
    "He lost me at hello",
    "The match is history",
    "my old bike went to Goodwill",  # the user's own thing given away: no taste
    "We lost our way on the hike",
])
def test_no_taste_is_read_where_none_is_said(text: str) -> None:
    assert extract_preferences(text) == []


@pytest.mark.parametrize("text", [
    "The meeting lost me halfway through",  # confused, not let down
    "Chelsea lost me £50 on the weekend",
])
def test_lost_me_as_confusion_or_money_is_no_let_down(text: str) -> None:
    """A breaker helper's findings."""
    assert extract_preferences(text) == []


@pytest.mark.parametrize(("text", "disliked"), [
    ("Gave up on Evernote, it got too bloated", "evernote"),
    ("I've given up on energy drinks completely", "energy drink"),
    ("I'd rather die than fly Ryanair again", "ryanair"),
])
def test_a_quit_on_a_thing_or_a_hyperbolic_refusal_is_a_dislike(text: str, disliked: str) -> None:
    """"gave up on X" had been left to the statement head (the quit rule leaves "gave up on
    trying" alone), and "I'd rather die than X" was read as preferring *die*."""
    found = extract_preferences(text)
    assert [c.polarity for c in found] == ["dislike"], found
    assert " ".join(found[0].keywords).lower() == disliked


def test_a_thing_said_to_be_history_before_the_next_clause_is_left() -> None:
    """"X is history, …" is how a switch is told; the head had read it as a like of X."""
    found = extract_preferences("Evernote is history, Obsidian all the way")
    assert {c.polarity for c in found if "evernote" in " ".join(c.keywords).lower()} == {
        "dislike"}, found
