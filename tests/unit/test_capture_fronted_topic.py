"""A Chinese clause that puts what it speaks of before the verb, with no 我 (``手机只认苹果``,
``电脑上只装Fedora``, ``理发只去楼下那家小店``): the words before the verb name a thing, a
place or an activity, not who holds the preference (``memory/core/capture/zh_subjects.py``,
issue 17). Every noun there had been read as another subject, and the clause stored nothing.
Someone who can act before the verb (a person, an animal, an institution) still makes it
theirs. The sentences are new instances, not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.zh_subjects import fronted_topic


@pytest.mark.parametrize(("text", "keyword"), [
    ("平板只认华为", "华为"),
    ("笔记本上只装Ubuntu", "Ubuntu"),
    ("剪头发只去街口那家老店", "街口那家老店"),
    ("家里的洗洁精这两年只买白猫", "白猫"),
    ("跑鞋只穿索康尼，别的牌子磨脚", "索康尼"),
])
def test_a_thing_put_before_the_verb_leaves_the_stance_the_users(text: str, keyword: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    likes = [c for c in found if c.polarity == "like"]
    assert likes, found
    assert any(keyword.lower() in k.lower() for k in likes[0].keywords)


@pytest.mark.parametrize("text", [
    "我家狗只吃冻干",
    "外甥只喝可乐",
    "食堂只卖盖饭",
    "我们公司只用企业微信",
    "营养师只让我吃糙米",
    "打算以后只吃素",
])
def test_someone_who_acts_or_a_plan_before_the_verb_stores_nothing(text: str) -> None:
    """An animal, a person, an institution before the verb is its subject; an intent makes
    it a plan."""
    assert extract_preferences(text, reader=ClauseReader()) == []


@pytest.mark.parametrize(
    "text", ["今天只喝粥", "这周在备考，晚上只喝黑咖啡", "Today I only eat soup"]
)
def test_only_one_thing_on_a_near_day_is_no_lasting_preference(text: str) -> None:
    """"only X" today or this week is a diet or a plan for that time."""
    assert extract_preferences(text, reader=ClauseReader()) == []


def test_a_near_day_after_the_preference_does_not_bound_it() -> None:
    found = extract_preferences("I only drink rooibos now, today I ordered more", reader=None)
    assert [c.polarity for c in found] == ["like"]


def test_an_emoji_between_two_chinese_clauses_separates_them() -> None:
    """``只喝乌龙茶🍵 奶茶太甜，受不了``: the emoji ends the first clause; the dislike is of
    奶茶, not of the whole run of text, and no object keeps the emoji."""
    found = extract_preferences("只喝乌龙茶🍵 奶茶太甜，受不了", reader=ClauseReader())
    assert ("like", "只喝乌龙茶") in [(c.polarity, c.content) for c in found]
    assert all("🍵" not in c.content for c in found)


@pytest.mark.parametrize(("words", "topic"), [
    ("手机", True), ("电脑上", True), ("理发", True), ("家里的食用油去年起", True),
    ("猫", False), ("公司", False), ("小侄子", False), ("他", False), ("打算", False),
    ("", False),
])
def test_fronted_topic_tells_what_from_who(words: str, topic: bool) -> None:
    assert fronted_topic(words) is topic
