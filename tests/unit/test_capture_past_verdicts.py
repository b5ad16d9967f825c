"""A verdict told in the past on a thing the user met is a preference now (``rules_en_past.py``,
``past.py``; issue 17): "We saw Wicked last night and I loved it" stored nothing, "I tried miso
ramen once and hated it" stored *now likes tried miso ramen once*. A verdict bounded to a past
stretch of the user's life ("I adored Tamagotchis as a kid") or said of a moment of the near
past ("I loved the fireworks last night") is none. That the older preference is left alone
after such a verdict on a new thing (in Chinese, after the user's one-off event: ``我很喜欢吃
辣。上周去了那家新开的日料店，不喜欢`` had stored a dislike of spicy food) is in
``test_capture_antecedents.py``. The sentences are new instances, not rows of the bench
files."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.past import past_stretch

Captured = Callable[[str], list[tuple[str, list[str]]]]


@pytest.mark.parametrize(("text", "polarity", "thing"), [
    ("We saw Wicked last night and I loved it", "like", "wicked"),
    ("I watched Shogun over the holidays and didn't enjoy it", "dislike", "shogun"),
    ("Tried Obsidian for a month, really liked it", "like", "obsidian"),
    ("I thoroughly enjoyed Past Lives", "like", "past life"),
    ("Gave kombucha a shot and couldn't stand it", "dislike", "kombucha"),
    ("Used Todoist for a while, hated it", "dislike", "todoist"),
    ("I tried miso ramen once and hated it", "dislike", "miso ramen"),
    ("I played Stardew Valley for like 40 hours and loved it", "like", "stardew valley"),
    ("Watched Severance over the weekend, absolutely loved it", "like", "severance"),
])
def test_a_past_verdict_on_a_thing_met_is_stored_with_the_thing(
    captured: Captured, text: str, polarity: str, thing: str
) -> None:
    """With the rules alone and with the statement head: one candidate, the thing's words
    only (no "tried", "once", "40 hours"), its polarity the verdict's."""
    assert captured(text) == [(polarity, [thing])]
    assert [(c.polarity, c.keywords) for c in extract_preferences(text)] == [(polarity, [thing])]


@pytest.mark.parametrize("text", [
    "I adored Tamagotchis as a kid",
    "When I was a teenager I hated jazz",
    "I disliked olives at first",
    "I hated vim at first",  # the object tagger had read it as coming round: *now likes vim*
    "I hated running in high school",
    "I loved the fireworks last night",
    "I hated that my train was late",
    # a click, an occasion
    "I liked her post about the marathon",
    "I loved the wedding, it was so beautiful",
    "Loved the concert!",
])
def test_a_verdict_on_a_past_stretch_or_a_moment_is_no_preference(
    captured: Captured, text: str
) -> None:
    assert captured(text) == []


@pytest.mark.parametrize(("text", "polarity", "thing"), [
    ("I've loved jazz since I was a teenager", "like", "jazz"),
    ("I hated olives as a kid but now I love them", "like", "olive"),
])
def test_a_stretch_up_to_now_or_a_turn_after_it_stands(
    captured: Captured, text: str, polarity: str, thing: str
) -> None:
    assert captured(text) == [(polarity, [thing])]


@pytest.mark.parametrize(("clause", "stretch"), [
    ("I loved Pokemon as a kid", True),
    ("Growing up I hated broccoli", True),
    ("I liked olives once", True),
    ("I hated it once I tried it", False),
    ("I've loved it since back in college", False),
    ("I hated it as a kid and still do now", False),
])
def test_past_stretch(clause: str, stretch: bool) -> None:
    assert past_stretch(clause) is stretch


def test_a_thing_used_then_judged_keeps_the_verdict_over_the_tagger(captured: Captured) -> None:
    """The object tagger marks a thing named in a clause of using or installing it as the
    side switched to; where a pronoun after it carries the user's verdict, the verdict holds
    (had been *now likes Arch Linux*, *now likes Notion*)."""
    assert captured("I installed Arch Linux on my laptop and I hate it") == [
        ("dislike", ["arch linux"])]
    assert captured("Used Obsidian for a while, hated it, back to paper notebooks")[0] == (
        "dislike", ["obsidian"])


def test_a_dislike_taken_back_reads_as_a_like() -> None:
    """``Not anymore`` after a dislike stores a like; its content had read "no longer likes"."""
    found = extract_preferences("I hate spicy food. Not anymore.")
    assert [(c.polarity, c.content) for c in found] == [("like", "now likes spicy food")]


@pytest.mark.parametrize(("text", "polarity", "thing"), [
    ("Hated spicy food as a kid, and honestly I still do.", "dislike", "spicy food"),
    ("Loved horror films as a teen. These days I can't stand being scared.", "dislike",
     "horror film"),
    ("Hated tofu growing up. Now I cook it twice a week.", "like", "tofu"),
])
def test_a_past_told_over_two_clauses_or_sentences_turns_or_holds(
    captured: Captured, text: str, polarity: str, thing: str
) -> None:
    """"I still do" holds the past stance now; a sentence marked as the past and the next
    opening with the present are one then-and-now (each alone had stored nothing, or the
    past as now)."""
    assert [(p, " ".join(words)) for p, words in captured(text)] == [(polarity, thing)]


def test_what_is_liked_less_than_another_is_the_other_preferred() -> None:
    """"X less than Y": Y is liked, X the one turned from (had been *likes Interstellar
    less*, with *less keen on Inception*)."""
    found = extract_preferences("I liked Interstellar less than Inception")
    assert [(c.polarity, c.keywords) for c in found] == [
        ("like", ["inception"]), ("dislike", ["interstellar"])]


def test_more_and_more_says_the_older_preference_again(captured: Captured) -> None:
    """``越来越喜欢`` after a visit names the older thing, not the thing bought on it."""
    found = captured("我喜欢宜家。昨天又去了，买了个书架，越来越喜欢")
    assert found == [("like", ["宜家"])]


@pytest.mark.parametrize(("text", "expected"), [
    ("我喜欢安静。昨天邻居装修了一整天，受不了", [("like", ["安静"])]),
    ("我很喜欢爬山。昨天公司组织了一次团建，不太喜欢", [("like", ["爬山"])]),
    ("刚看完《繁花》，太好看了，喜欢", [("like", ["繁花"])]),
    ("上个月用了一下Notion，还挺喜欢的", [("like", ["notion"])]),
])
def test_a_chinese_event_of_a_day_hands_its_thing_or_nothing(
    captured: Captured, text: str, expected: list[tuple[str, list[str]]]
) -> None:
    """An event told with its day (``昨天…了``) that names no thing of the user's, or is
    another's act, leaves the verdict after it no object: the older preference is not flipped
    (``受不了安静`` had been stored), nor is the subject or a person disliked."""
    found = captured(text)
    assert [(p, [k.lower() for k in ks]) for p, ks in found] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I liked it fine.", []),
    ("I dislike seafood and will not eat it under any circumstances.",
     [("dislike", ["seafood"])]),
])
def test_it_with_words_after_it_is_no_object(
    captured: Captured, text: str, expected: list[tuple[str, list[str]]]
) -> None:
    """An object that opens with "it" and goes on is no thing ("likes it fine", "won't eat it
    under any circumstances" had been stored): the pattern meant to refuse it matched only a
    one-letter word after "it"."""
    assert captured(text) == expected
