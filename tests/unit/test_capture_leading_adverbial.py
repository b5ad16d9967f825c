"""A clause that opens with a time or cause before the user ("Since that trip I only drink
espresso", "After the move I…"): the words before "I" say when or why, not who
(``memory/core/capture/clauses.py``, issue 17). They had been read as another subject, and
the sentence stored nothing. The sentences are new instances, not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "polarity", "keyword"), [
    ("After the move I only shop at Aldi.", "like", "aldi"),
    ("Ever since college I only wear black.", "like", "black"),
    ("Since the accident I avoid motorways.", "dislike", "motorway"),
    ("Because of my job I hate Mondays.", "dislike", "monday"),
])
def test_a_time_or_cause_before_the_user_leaves_the_statement_the_users(
    text: str, polarity: str, keyword: str
) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [(polarity, [keyword])]


def test_another_subject_after_the_opening_is_still_someone_else() -> None:
    """Only the words before the user are read as the opening: "my wife likes jazz" is hers."""
    text = "Since my wife likes jazz I play it at home."
    found = extract_preferences(text, reader=ClauseReader())
    assert not any("jazz" in c.keywords for c in found)


@pytest.mark.parametrize(("text", "keyword"), [
    ("去年起只买鲁花了", "鲁花"),
    ("从去年开始我只喝美式", "美式"),
])
def test_a_chinese_start_that_lasts_to_now_is_no_subject(text: str, keyword: str) -> None:
    """``去年起`` / ``从去年开始``: since last year, so the stance holds now; the time word had
    been read as another subject, and nothing was stored."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [("like", [keyword])]


@pytest.mark.parametrize(("text", "keyword"), [
    ("I wear nothing but Patagonia.", "patagonia"),
    ("I drink light roast exclusively", "light roast"),
    ("I play Overwatch and basically nothing else", "overwatch"),
    ("it's Coke Zero or nothing for me", "coke zero"),
    ("nothing beats a proper cuppa, coffee can't compete", "proper cuppa"),
    ("我非原味酸奶不喝", "原味酸奶"),
    ("I was a Converse kid, but I wear only Puma these days", "puma"),
])
def test_a_preference_said_by_exclusivity_is_a_like(text: str, keyword: str) -> None:
    """"nothing but X", "X exclusively", "X and nothing else", "X or nothing", "nothing beats
    X", ``非X不喝``: the only one is the one liked ("X or nothing" had been a dislike, and "nothing
    but" a clause boundary)."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [c.polarity for c in found] == ["like"]
    assert any(keyword in k for k in found[0].keywords)


@pytest.mark.parametrize("text", [
    "my brother wears nothing but Nike",
    "我一个月只去一次",
    "I eat only once a day",
    "I drink only on weekends",
    "My dad's turned into a tea snob. He used to drink anything but now it's Darjeeling or nothing",
])
def test_exclusivity_of_someone_else_or_of_how_often_stores_nothing(text: str) -> None:
    assert extract_preferences(text, reader=ClauseReader()) == []
