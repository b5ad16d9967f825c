"""A statement with a question asked after it in the same sentence (issue 17).

Chat often puts the statement and the question in one sentence: "I can't stand cilantro,
what can I use instead?". Capture dropped the whole sentence as a question, so the dislike
was lost. What comes before the question is read as a statement of its own where it is
one: the user's (first person), and no question or hypothetical itself. The sentences are
new, written for this test."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.questions import stated_before_question


@pytest.mark.parametrize(("text", "polarity", "word"), [
    ("I can't stand cilantro, what can I use instead?", "dislike", "cilantro"),
    ("My go-to bike these days is a Brompton, which lock fits it?", "like", "brompton"),
    ("I'm allergic to sesame, which takeaway dishes are safe?", "dislike", "sesame"),
    ("我不吃香菜，这道菜还能怎么做？", "dislike", "香菜"),
    ("我最近迷上了飞盘，有什么入门装备推荐吗？", "like", "飞盘"),
    ("我一直不爱吃内脏，这附近有什么馆子推荐吗", "dislike", "内脏"),  # no question mark
])
def test_the_statement_before_a_question_is_captured(
    reader: ClauseReader, text: str, polarity: str, word: str
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [c.polarity for c in found if word in c.content.lower()] == [polarity]


@pytest.mark.parametrize("text", [
    "Do you like opera, or ballet?",  # a question throughout
    "If I liked opera, which one would you pick?",  # a hypothetical
    "By the way, if I liked opera, which one would you pick?",
    "Opera or ballet, which is better for a first date?",  # no one's statement
    "Would I enjoy opera, or is it too long?",
    "你喜欢歌剧吗，还是芭蕾？",
    "歌剧还是芭蕾，哪个更适合约会？",
    "如果我想学滑雪，该买什么装备",
    "我妈不吃辣，推荐几道菜吧",
])
def test_a_question_throughout_stores_nothing(reader: ClauseReader, text: str) -> None:
    assert extract_preferences(text, reader=reader) == []


def test_only_the_last_part_is_the_question() -> None:
    assert stated_before_question("I love sushi, ramen and tacos, which should I cook?") == (
        "I love sushi, ramen and tacos")
    assert stated_before_question("I love sushi, and you?") == "I love sushi"
    assert stated_before_question("I love sushi.") is None  # no question
    assert stated_before_question("I love sushi, honestly") is None
