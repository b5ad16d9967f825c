"""The word after the user as subject is a verb, not an object (issue 17).

A clause no rule reads takes its object from the words left when stance, time and degree
words are out (:func:`~penchant.memory.core.capture.kinds.pull_object_en`). A verb no list
named stayed among them: "I can't bear it" stored a dislike of *bear*, "I deleted Snapchat
for good" a quit of *deleted snapchat*, "…, I never say no to it" a like of *say*. After "I"
(and auxiliaries, negations and adverbs) the next word is the verb; after "I'm"/"I was" an
adjective before a preposition of stance is no object either ("I was mad about X"). A clause
left with no object of its own then points back to the thing the clause before it read, and
says more of the same stance unless a word of contrast or change sets it against that one
("Jazz brunches are lovely, but I never go to them anymore"); one that only says the user is
not going back has no way of its own ("Uninstalled Facebook and I'm never going back" had stored
a like of *back*). The sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


_VERB_FIRST = [
    ("I can't bear it", set()),
    ("I deleted Snapchat for good", {("dislike", "snapchat")}),
    ("I cancelled Hulu years ago", {("dislike", "hulu")}),
    ("Mango sticky rice is heavenly, I never say no to it", {("like", "mango sticky rice")}),
    ("Lo-fi beats are perfect, I play them every time I study", {("like", "lo-fi beats")}),
    ("Salted caramel is divine, I could never resist it", {("like", "salted caramel")}),
    ("My partner and I share a deep love of board games", {("like", "board game")}),
    ("I called it quits on Duolingo", {("dislike", "duolingo")}),
    ("Uninstalled Facebook and I'm never going back", {("dislike", "facebook")}),
    ("Crocs are so comfy, don't @ me", {("like", "croc")}),  # the second clause turned it
    ("I find them delicious", set()),  # a verdict on what *them* points back to: nothing here
    ("Kombucha is the best, I drink it all day", {("like", "kombucha")}),  # was also *day*
]
"""New instances each stored something wrong before."""
_NOT_A_KEYWORD = [
    ("Switched to oat milk and never looked back", {("like", "oat milk")}),
    ("Pretzels make me thirsty so I've stopped buying them", {("dislike", "pretzel")}),
]
"""A past verb after "never", a pronoun: no keyword (they were *looked back*, *them*)."""
_LOOK_ALIKES = [
    ("Horror games are terrifying, I avoid them at all costs", {("dislike", "horror game")}),
    ("Jazz brunches are lovely, but I never go to them anymore", {("dislike", "jazz brunch")}),
    ("I'm really keen on bouldering", {("like", "bouldering")}),
    ("Moved to Fedora and I'm never going back", {("like", "fedora")}),
    ("Cilantro, I find it soapy.", {("dislike", "cilantro")}),
]
"""Read right before and after."""


@pytest.mark.parametrize(("text", "want"), _VERB_FIRST + _NOT_A_KEYWORD + _LOOK_ALIKES)
def test_what_an_english_clause_names(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want
