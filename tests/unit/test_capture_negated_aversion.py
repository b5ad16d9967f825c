"""An aversion the sentence negates is never a dislike (issue 17: stored text reads as its
polarity).

Before, "Cilantro doesn't bother me anymore" was stored as ``dislikes cilantro doesn't``: the
rule for "X bothers me" took "cilantro doesn't" for its object, so a change of mind toward
cilantro kept the user's dislike and added a junk one. ``我现在不排斥香菜了`` was read by the
rules as ``能接受香菜`` and then turned into ``不再喜欢香菜`` by the statement head, which
read a change of mind away from it; ``对榴莲没以前那么抗拒了`` was stored as quitting durian.
The sentences are new instances of the kind, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.prepare import prepare

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "obj"), [
    ("Olives don't bother me anymore", "olive"),
    ("Thunderstorms no longer scare me", "thunderstorm"),
    ("Early flights don't really faze me these days", "early flight"),
    ("Blue cheese doesn't gross me out anymore", "blue cheese"),
    ("Crowded trains never annoy me", "crowded train"),
    # a breaker's kinds, in new words: other verbs, chat spelling, the past of "never"
    ("Job interviews don't terrify me anymore", "job interview"),
    ("Raw tomatoes no longer make me gag", "raw tomato"),
    ("Swearing in films doesnt offend me anymore", "swearing"),
    ("spiders dont scare me", "spider"),
    ("Tofu never bothered me", "tofu"),
    ("Long drives don't make me nervous anymore", "long drive"),
    ("honestly, tbh spiders dont scare me anymore", "spider"),  # fillers are no object
])
def test_a_negated_aversion_with_the_object_first_is_a_mild_like(
    text: str, obj: str, reader: ClauseReader
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [c.polarity for c in found] == ["like"], found
    assert found[0].content.startswith("doesn't mind "), found
    assert any(obj in k for k in found[0].keywords), found
    junk = ("n't", "longer", "never", "still", "tbh", "honestly")
    assert not any(word in k for k in found[0].keywords for word in junk), found


@pytest.mark.parametrize(("text", "obj"), [
    ("我现在不排斥苦瓜了", "苦瓜"),
    ("我现在不排斥羊肉了", "羊肉"),
    ("现在对芥末没那么抗拒了", "芥末"),
    ("我对臭豆腐没以前那么嫌弃了", "臭豆腐"),
    ("我现在不怕猫了", "猫"),
    ("最近对坐飞机没那么害怕了", "飞机"),
    ("苦瓜我已经不嫌弃了", "苦瓜"),  # the object fronted
    ("芥末我居然不排斥了", "芥末"),
])
def test_a_chinese_negated_aversion_is_never_a_dislike(
    text: str, obj: str, stored: Stored
) -> None:
    got = stored(text)
    assert ("like", obj) in got, got
    assert not any(polarity == "dislike" for polarity, _ in got), got


@pytest.mark.parametrize(("text", "want"), [
    ("Loud neighbours bother me", ("dislike", "loud neighbour")),
    ("Horror films really scare me", ("dislike", "horror film")),
    ("Reality TV doesn't interest me", ("dislike", "reality tv")),
    ("Wasps still scare me", ("dislike", "wasp")),
    ("我很怕蜘蛛", ("dislike", "蜘蛛")),
    ("我对加班依然很抗拒", ("dislike", "加班")),  # an aversion, its object after 对
])
def test_an_aversion_said_plainly_is_still_a_dislike(
    text: str, want: tuple[str, str], stored: Stored
) -> None:
    """"Cats still bother me" stored ``dislikes cats still``: the object is the cat."""
    got = stored(text)
    assert want in got, got
    assert not any("still" in k for _, k in got), got


@pytest.mark.parametrize("text", [
    "Karaoke no longer appeals to me",
    "Escape rooms don't appeal to me anymore",
])
def test_a_liking_the_verb_negates_is_no_like(text: str, reader: ClauseReader) -> None:
    """"Karaoke no longer appeals to me" was stored as ``likes karaoke no longer``."""
    found = extract_preferences(text, reader=reader)
    assert found and all(c.polarity == "dislike" for c in found), found
    assert not any("longer" in k or "n't" in k for c in found for k in c.keywords), found


@pytest.mark.parametrize("text", [
    "My sister says spiders don't bother her",
    "It doesn't bother me that the train is late",
    "我妈对榴莲没那么抗拒了",
    "Thunder used to terrify me",  # the past alone: it had stored "dislikes thunder used to"
])
def test_another_persons_or_no_object_stores_nothing(text: str, reader: ClauseReader) -> None:
    assert extract_preferences(text, reader=reader) == []


@pytest.mark.parametrize(("typed", "read"), [
    ("crowds dont scare me", "crowds don't scare me"),
    ("garlic dosent bother me", "garlic doesn't bother me"),
    ("i cant stand olives", "i can't stand olives"),
    ("IT DOESNT MATTER", "IT DOESN'T MATTER"),
    ("the cant of politicians", "the cant of politicians"),  # the noun
    ("an old wont of mine", "an old wont of mine"),
])
def test_a_negation_typed_without_its_apostrophe_is_read_as_written_out(
    typed: str, read: str
) -> None:
    """"crowds dont scare me" stored ``dislikes crowds dont``: no rule knew "dont"."""
    assert prepare(typed) == read
