"""A taste told as who the user was or what was theirs ("I was a die-hard Leeds fan",
"Pilates was my favourite workout"), and a present clause that points back with ``they``
(``memory/core/capture/changes.py``, ``objects.leading_subject``; issue 17).

Such a past was read as a standing like, and a ``but … now`` after it as the exception to it
("likes PlayStation guy", "dislikes Xbox (the exception to PlayStation guy)"); ``they`` in the
present clause had no antecedent where no rule read the past clause ("dislikes now they").
The sentences are new instances of the kinds, not rows of the bench files.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.fixture(scope="module")
def reader() -> ClauseReader:
    return ClauseReader()


def _found(text: str, reader: ClauseReader) -> list[tuple[str, str]]:
    return [(c.polarity, " ".join(c.keywords)) for c in extract_preferences(text, reader=reader)]


@pytest.mark.parametrize(("text", "liked"), [
    ("I used to be a Canon guy but it's Sony now", "sony"),
    ("I was a die-hard Leeds fan but I support Burnley now", "burnley"),
    pytest.param(
        "I was a die-hard Arsenal fan but I support Fulham now", "fulham",
        marks=pytest.mark.xfail(strict=True, reason=(
            "the object tagger reads Fulham as no object and Arsenal as liked, and replaces "
            "the rules' like (retagging.retagged); keeping a present like of the rules "
            "broke 40 development flips whose rules' objects were junk")),
    ),
    ("I used to buy from Asos but Zalando is the only one I use anymore", "zalando"),
])
def test_a_past_identity_then_a_new_choice_is_a_switch_not_an_exception(
    text: str, liked: str, reader: ClauseReader
) -> None:
    found = _found(text, reader)
    assert ("like", liked) in found, found
    assert [p for p, _ in found].count("like") == 1, found  # the past side is never liked
    assert not any("exception" in c.content for c in extract_preferences(text, reader=reader))


@pytest.mark.parametrize(("text", "disliked"), [
    ("Pilates was my favourite workout but now it bores me", "pilate"),
    ("Spin classes were my whole routine, now they just stress me out", "spin class"),
    ("Energy drinks tasted great for years; now they make me feel sick", "energy drink"),
])
def test_a_present_clause_that_points_back_judges_the_past_object(
    text: str, disliked: str, reader: ClauseReader
) -> None:
    found = _found(text, reader)
    assert found and all(p == "dislike" for p, _ in found), found
    assert any(disliked in k for _, k in found), found


@pytest.mark.parametrize("text", [
    "The weather was nice but I hate it when it rains",  # an ``it`` that points at nothing
    "Mum used to bake scones, now they taste dry to me",  # her baking, not the user's taste
])
def test_a_pronoun_goes_back_to_no_subject_it_cannot_mean(text: str, reader: ClauseReader) -> None:
    assert _found(text, reader) == []


@pytest.mark.parametrize(("text", "liked"), [
    ("I was in Lisbon last month and now I love custard tarts", "custard tart"),
    ("I was a nurse for years, now I love pottery", "pottery"),
])
def test_a_was_that_tells_no_taste_is_no_past_of_one(
    text: str, liked: str, reader: ClauseReader
) -> None:
    """Only a ``was`` of who the user was as a taste ("a … fan", "Team X", "my thing") marks
    the past; a place or a job does not."""
    assert _found(text, reader) == [("like", liked)]


def test_a_past_was_with_a_present_that_turns_nowhere_is_no_dislike(reader: ClauseReader) -> None:
    """"was" alone is a past tense: it says no turn until the present clause says one (a
    breaker's finding: "The Killers were my favourite band, now I see them live every year"
    had become a dislike)."""
    for text in ("Dune was my favourite book, now it's a movie",
                 "Blur were my favourite band, now I see them live every summer"):
        assert all(p != "dislike" for p, _ in _found(text, reader)), text


@pytest.mark.parametrize(("text", "liked"), [
    ("went back to my old barber and staying put", "old barber"),  # the head read a quit
    ("Vim never worked for me at first but now I can't live without it", "vim"),
])
def test_a_lasting_return_or_a_turn_from_at_first_is_a_like(
    text: str, liked: str, reader: ClauseReader
) -> None:
    assert _found(text, reader) == [("like", liked)]


def test_an_only_opening_is_never_read_as_a_quit(reader: ClauseReader) -> None:
    """The statement head read "Only Kirkland olive oil in my kitchen since last year" as
    quitting (0.84); exclusivity vetoes a dislike."""
    found = _found("Only Filippo Berio olive oil in my kitchen since last year.", reader)
    assert all(p != "dislike" for p, _ in found), found
