"""Chinese words the segmenter mistags as nouns, fronted topics, "any … at all" quantifiers
(``哪个…都``) that are no questions, and an exception in one clause of several (issue 17).

The sentences are new instances of their kinds, written for these tests; none is in a
development or held-out set.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.questions import is_question_or_hypothetical
from penchant.memory.core.capture.segment import tag


@pytest.mark.parametrize("word", ["基本", "基本上", "压根", "全都", "全部", "统统"])
def test_adverbs_jieba_tags_as_nouns_are_adverbs(word: str) -> None:
    assert dict(tag(f"香菜我{word}不吃"))[word] == "d"


@pytest.mark.parametrize(("text", "polarity", "keyword"), [
    ("我压根不吃香菜", "dislike", "香菜"),
    ("海鲜我全部不吃", "dislike", "海鲜"),  # was a like: the head read the fronted class
    ("我基本不喝碳酸饮料", "dislike", "碳酸饮料"),
    ("蒜我不吃", "dislike", "蒜"),  # a fronted topic of one character
])
def test_a_stance_behind_a_mistagged_adverb_or_a_short_topic_is_read(
    reader: ClauseReader, text: str, polarity: str, keyword: str
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, c.keywords) for c in found] == [(polarity, [keyword])]


def test_a_one_character_topic_must_be_a_noun() -> None:
    assert extract_preferences("那我不吃") == []


@pytest.mark.parametrize(("text", "question"), [
    ("哪家的火锅我都爱吃", False),
    ("戒烟对谁来说都不容易", True),  # anyone at all: people, not the user
    ("怎么做的茄子我都不吃", False),
    ("哪家的火锅好吃", True),
    ("你哪天有空", True),
    ("哪个牌子你最喜欢", True),
])
def test_a_question_word_before_dou_is_any_at_all(text: str, question: bool) -> None:
    assert is_question_or_hypothetical(text) is question


def test_any_at_all_is_no_part_of_the_object(reader: ClauseReader) -> None:
    found = extract_preferences("哪家的火锅我都爱吃", reader=reader)
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["火锅"])]


@pytest.mark.parametrize(("text", "want"), [
    # the exception is one clause of several: a comment on the member follows it
    ("爬山我都嫌累，除了徒步，能走一整天", [("dislike", "爬山"), ("like", "徒步")]),
    # a fronted topic is its own clause's: 海鲜, not the last clause's 香菜 (was "爱香菜")
    ("我不吃香菜，海鲜我都爱，除了生蚝", [("dislike", "香菜"), ("like", "海鲜")]),
    # the comment after the member is no dislike of the class, nor of 口感 or 感觉
    ("桌游我都挺喜欢，大富翁例外，太拖沓了", [("like", "桌游"), ("dislike", "大富翁")]),
    ("日料我几乎都爱,除了纳豆,口感实在接受不了", [("like", "日料"), ("dislike", "纳豆")]),
    ("周星驰的电影我都喜欢,除了《美人鱼》,看完没感觉", [("like", "周星驰"), ("dislike", "美人鱼")]),
])
def test_an_exception_in_one_clause_of_several(
    reader: ClauseReader, text: str, want: list[tuple[str, str]]
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, c.keywords[0]) for c in found][: len(want)] == want
    assert ("like", "香菜") not in [(c.polarity, c.keywords[0]) for c in found]
