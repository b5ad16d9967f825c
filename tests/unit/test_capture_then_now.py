"""A change of mind told as then and now (``changes.py``), and topics put up by a bare question
or kept over a filler clause. The statement head is scripted per clause here, so what is
tested is what capture does with a reading, not the model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.changes import then_and_now
from penchant.memory.core.capture.statements import KINDS, Kind


def _kind(name: str, p: float = 0.95) -> Kind:
    rest = (1 - p) / (len(KINDS) - 1)
    return Kind(name, p, tuple(p if k == name else rest for k in KINDS))


def _by_clause(*kinds: str):  # type: ignore[no-untyped-def]
    return lambda clauses: [_kind(k) for k in kinds[: len(clauses)]] + [
        _kind("none") for _ in clauses[len(kinds) :]
    ]


def _read(text: str, *kinds: str) -> list[tuple[str, list[str]]]:
    return [(c.polarity, c.keywords) for c in extract_preferences(text, reader=_by_clause(*kinds))]


@pytest.mark.parametrize(
    ("text", "kinds", "expected"),
    [
        # The present clause reads as nothing: the past clause's polarity turns.
        ("I used to adore sardines, but I'm done with them now", ("like", "none"),
         [("dislike", ["sardine"])]),
        ("Back in college instant ramen was my whole diet; these days, meh", ("like", "none"),
         [("dislike", ["instant ramen"])]),
        ("原来天天泡酒吧，现在提不起劲了", ("like", "none"), [("dislike", ["泡酒吧"])]),
        ("以前一闻到榴莲就躲，现在一周买两次", ("dislike", "none"), [("like", ["榴莲"])]),
        # The present clause has its own reading: it wins, on the past clause's object.
        ("I used to hate jogging, these days it keeps me sane", ("dislike", "like"),
         [("like", ["jogging"])]),
    ],
)  # fmt: skip
def test_the_present_state_of_a_then_and_now_sentence_is_stored(
    text: str, kinds: tuple[str, ...], expected: list[tuple[str, list[str]]]
) -> None:
    assert _read(text, *kinds) == expected


def test_the_past_clause_alone_is_history_not_a_preference_now() -> None:
    # The head reads the past clause as a like; the present clause names another object.
    found = _read("以前天天喝可乐，现在只喝白开水", "like", "like")
    assert ("like", ["可乐"]) not in found
    assert ("like", ["白开水"]) in found


@pytest.mark.parametrize(
    "text",
    [
        "My uncle used to love golf but now he hates it",
        "我妈以前爱吃辣，现在不吃了",
        "I'm used to spicy food now",  # accustomed, not the past
        "I love tea, but not after six",  # no past clause
    ],
)
def test_not_then_and_now(text: str) -> None:
    parts = [p.strip() for p in text.replace("，", ",").split(",")]
    assert then_and_now(parts) is None or "golf" in text or "辣" in text
    assert all(
        polarity != "dislike" or keywords != ["spicy food"]
        for polarity, keywords in _read(text, "none", "none")
    )
    if "golf" in text or "辣" in text:
        assert _read(text, "like", "none") == []


@pytest.mark.parametrize(
    ("text", "kinds", "expected"),
    [
        ("Sardines? Count me out.", ("dislike",), [("dislike", ["sardine"])]),
        ("螺蛳粉？一生推", ("like",), [("like", ["螺蛳粉"])]),
        ("Karaoke? ugh, honestly, it makes me cringe", ("dislike", "dislike"),
         [("dislike", ["karaoke"])]),
    ],
)  # fmt: skip
def test_a_bare_question_or_a_filler_keeps_the_topic_for_a_stance_with_no_object(
    text: str, kinds: tuple[str, ...], expected: list[tuple[str, list[str]]]
) -> None:
    assert _read(text, *kinds) == expected


def test_a_longer_question_puts_up_no_topic() -> None:
    assert _read("Have you ever tried sardines on toast? Count me out.", "dislike") == []


def test_how_often_is_no_part_of_the_object() -> None:
    found = extract_preferences("I'd pick trains over planes every single time")
    read = [(c.polarity, c.keywords) for c in found]
    assert read == [("like", ["train"]), ("dislike", ["plane"])]


@pytest.mark.parametrize(
    ("text", "kinds", "expected"),
    [
        # The present clause has a stance of its own but points back with a pronoun: its object
        # is the past clause's ("look forward", "put" were stored before).
        ("Parsnips used to be my least favourite, now I actually crave them", ("none", "like"),
         [("like", ["parsnip"])]),
        ("Myspace was my whole world once, now I cringe at it", ("like", "dislike"),
         [("dislike", ["myspace"])]),
        # Its own object stays its own.
        ("I used to hate coffee, now I love tea", ("dislike", "like"), [("like", ["tea"])]),
    ],
)  # fmt: skip
def test_a_present_stance_that_points_back_is_about_the_past_object(
    text: str, kinds: tuple[str, ...], expected: list[tuple[str, list[str]]]
) -> None:
    assert _read(text, *kinds) == expected


def test_once_as_a_frequency_is_no_past() -> None:
    assert then_and_now(["I go bowling once a month", "now it's my thing"]) is None
    assert then_and_now(["bowling was my thing once", "now it bores me"]) == (0, 1)


@pytest.mark.parametrize(
    ("text", "kinds", "expected"),
    [
        # Neither clause is sure alone; the head reads the whole sentence (the last reading).
        ("羊毛衫扎得慌，碰都不想碰", ("none", "none", "dislike"), [("dislike", ["羊毛衫"])]),
        ("Jigsaw puzzles, I could do them for hours", ("none", "none", "like"),
         [("like", ["jigsaw puzzle"])]),
        # Not for another person's taste, nor for a sentence told as then and now.
        ("我姐说榴莲很香，她天天吃", ("none", "none", "like"), []),
    ],
)  # fmt: skip
def test_a_stance_spread_over_clauses_is_read_from_the_whole_sentence(
    text: str, kinds: tuple[str, ...], expected: list[tuple[str, list[str]]]
) -> None:
    assert _read(text, *kinds) == expected


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # Someone else's change of mind, wherever they stand in the sentence.
        ("以前我姐爱喝奶茶，现在不喝了", ("like", "dislike")),
        ("老婆以前爱追剧，现在不追了", ("like", "dislike")),
        ("以前爱吃辣，现在他不吃了", ("like", "dislike")),
        # No turn: the present goes on with the past, or is unsure.
        ("I used to love jazz and I still do now", ("like", "none")),
        ("I used to hate olives, now I'm not sure", ("dislike", "none")),
        # An allergy that has cleared is no like.
        ("I used to be allergic to shrimp, now I'm fine", ("dislike", "none")),
    ],
)  # fmt: skip
def test_then_and_now_stores_no_turn_that_was_not_the_users(
    text: str, kinds: tuple[str, ...]
) -> None:
    found = _read(text, *kinds)
    assert not any(polarity == "like" for polarity, _ in found) or "jazz" in text
    if "jazz" in text:
        assert ("dislike", ["jazz"]) not in found
    if "姐" in text or "老婆" in text or "他" in text:
        assert found == []


def test_a_demonstrative_in_the_present_clause_names_its_own_object() -> None:
    found = _read("I used to love burgers, now I love this new ramen bar", "like", "like")
    assert ("like", ["burger"]) not in found
    assert any(polarity == "like" and "ramen" in " ".join(kw) for polarity, kw in found)


def test_a_bare_question_about_a_time_or_anything_puts_up_no_topic() -> None:
    assert _read("Tomorrow? Can't, sorry.", "dislike") == []
    assert _read("Anything else? Nope, all good.", "dislike") == []


@pytest.mark.parametrize(("text", "want"), [
    ("I used to adore Adele but now she annoys me", {("dislike", "adele")}),
    ("Used to adore Ed Sheeran, now he grates on me", {("dislike", "ed sheeran")}),
    ("I used to like Drake but now he's boring to me", {("dislike", "drake")}),
    # another person's turn, no stance of the user's, or no object the user held
    ("My sister used to love Adele, now she can't stand her", set()),
    ("I used to work with Sarah, now she's my boss", set()),
    ("Used to follow Elon Musk, now he just annoys me", set()),
])
def test_he_or_she_after_a_name_in_the_past_clause_is_that_name(
    text: str, want: set[tuple[str, str]], stored: Callable[[str], set[tuple[str, str]]]
) -> None:
    """"I used to adore Adele but now she annoys me" stored nothing: *she* was taken for
    another person whose stance the present clause told (``changes.then_and_now``)."""
    assert stored(text) == want
