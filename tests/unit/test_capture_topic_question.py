"""A thing put up as a question, then a stance on it by a pronoun (issue 17).

"Alcohol? Gave it up in January." stored nothing, "Chewing gum? Ditched it, my jaw thanks me"
stored *has given up jaw*, "Jazz? Could listen to it all day" *likes day*: the question's
topic is the pronoun's antecedent in the next sentence (``extract``), a clause's own noun gives
way to it where a pronoun points back (``kind_stances.kind_stance``), and a quit said of a
pronoun ("Gave it up", "Ditched them") and "never got into" are read (``rules_en_kept``).
The sentences are new instances of the kinds, not rows of the bench files.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


def _read(text: str) -> list[tuple[str, str]]:
    return [(c.polarity, c.content) for c in extract_preferences(text, reader=ClauseReader())]


@pytest.mark.parametrize(("text", "polarity", "keyword"), [
    ("Energy drinks? Gave them up last spring.", "dislike", "Energy drinks"),
    ("Vaping? Ditched it for good.", "dislike", "Vaping"),
    ("Board games? Could play them every night of the week.", "like", "Board games"),
    ("Audiobooks? Never got into them.", "dislike", "Audiobooks"),
])
def test_a_stance_on_the_topic_a_question_put_up(text: str, polarity: str, keyword: str) -> None:
    found = _read(text)
    assert len(found) == 1 and found[0][0] == polarity and keyword in found[0][1]


def test_a_later_question_topic_is_the_pronouns_not_an_earlier_object() -> None:
    found = _read("I love tea. Coffee? Gave it up.")
    assert ("dislike", "has given up Coffee") in found and ("like", "likes tea") in found


@pytest.mark.parametrize("text", [
    "My old bike? Gave it to my nephew.",  # given away, no taste
    "Gave it a go, not for me.",  # no antecedent
    "I never got into trouble as a kid.",
])
def test_no_quit_of_what_was_given_away_or_of_nothing_named(text: str) -> None:
    assert not any(c.startswith(("has given up", "never got into")) for _, c in _read(text))


def test_a_clause_with_a_stance_before_keeps_its_own_reading() -> None:
    """The pronoun points back to the sentence's own object, which the rules read: the head's
    polarity on the later clause does not overturn it (it had, in a first cut)."""
    found = _read("Long haul flights are brutal, I dread them every time")
    assert ("dislike", "dislikes long haul flights") in found
