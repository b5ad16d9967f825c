"""A Chinese current choice said as a routine now (``现在出门都坐高铁``), the thing left beside
it (``QQ音乐不用了，现在都用网易云``), and whose slot a slot sentence fills (issue 17).

``rules_zh.ZH_ROUTINE_NOW``, ``changes._left_for_now``, ``slots.zh_slot_reading`` and the
holder check of ``structuring.structured``. The head had read a routine now as nothing or as
a slot the user never named (``最喜欢的打车现在是高德``), and stored another person's
favourite as the user's (``他最喜欢的歌手是周杰伦``). The sentences are new instances of the
kinds, not rows of the bench files.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


def _read(text: str) -> list[tuple[str, str]]:
    return [(c.polarity, c.content) for c in extract_preferences(text, reader=ClauseReader())]


@pytest.mark.parametrize(("text", "keyword"), [
    ("现在出差都坐高铁", "高铁"),
    ("这几年一直喝燕麦拿铁", "燕麦拿铁"),
    ("我如今上班都骑自行车", "自行车"),
    ("最近看剧都在用爱奇艺", "爱奇艺"),
    ("现在导航全靠百度地图", "百度地图"),
])
def test_a_routine_now_is_a_like_of_what_it_names(text: str, keyword: str) -> None:
    found = extract_preferences(text)
    assert any(c.polarity == "like" and any(keyword in k for k in c.keywords)
               for c in found), found
    assert not any(c.polarity == "dislike" for c in found), found


@pytest.mark.parametrize("text", [
    "现在都吃不了辣",  # what cannot be done: no choice (nor a like of spice)
    "最近一直吃药",  # treatment
    "现在都吃两顿",  # how much
    "我表哥现在都用拼多多",  # someone else's
    "小李现在都用拼多多",
    "我们公司现在都用飞书",  # an institution's
    "全靠自己",  # no thing relied on
    "这几年一直在吃降压药",  # treatment named by its drug (a breaker helper's)
    "现在年轻人都喝燕麦拿铁",  # a group's habit, not the user's
    "现在同事都用飞书",
    "现在一天都喝三杯咖啡",  # how much
])
def test_no_choice_or_someone_elses_is_no_routine_like(text: str) -> None:
    assert not any(c.polarity == "like" for c in extract_preferences(text))


@pytest.mark.parametrize(("text", "left", "new"), [
    ("百度网盘不用了，现在都用阿里云盘", "百度网盘", "阿里云盘"),
    ("我这两年都在用飞书，微信办公基本不用了", "微信办公", "飞书"),
    ("Chrome不用了，现在全用Arc", "chrome", "arc"),  # a name in Latin letters is a thing too
    ("微博卸了，现在天天刷小红书", "微博", "小红书"),
])
def test_a_thing_left_beside_a_routine_now_is_disliked(text: str, left: str, new: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    polarities = {c.polarity for c in found if any(left in k.lower() for k in c.keywords)}
    assert polarities == {"dislike"}, found
    assert any(c.polarity == "like" and any(new in k.lower() for k in c.keywords)
               for c in found), found


@pytest.mark.parametrize("text", [
    "晚饭不吃了，现在只想睡觉",  # one meal skipped, no thing left
    "他不用了，现在都用网易云",  # a person is no thing left
])
def test_a_person_or_a_one_off_beside_a_routine_is_no_thing_left(text: str) -> None:
    assert not any(c.polarity == "dislike" for c in extract_preferences(text))


@pytest.mark.parametrize("text", [
    "他最喜欢的歌手是陈奕迅",
    "小王最爱喝的是美式",
    "奶奶最爱的还是黄梅戏",
])
def test_another_persons_slot_is_not_the_users(text: str) -> None:
    assert _read(text) == []


@pytest.mark.parametrize(("text", "content"), [
    ("主力机现在是ThinkPad", "主力机是ThinkPad"),  # the slot keeps its qualifier
    ("买菜现在都用盒马", "买菜都用盒马"),  # a habit says the habit, not a favourite
    ("我最爱喝的是普洱", "最爱喝的是普洱"),
    ("最近迷上的游戏是双人成行", "最近迷上的游戏是双人成行"),
])
def test_a_slot_says_what_the_user_said(text: str, content: str) -> None:
    assert ("like", content) in _read(text)


def test_a_slot_is_one_slot_however_it_is_named() -> None:
    """``主力相机`` and ``最喜欢的相机`` fill one slot, so either supersedes the other."""
    (first,) = extract_preferences("我最喜欢的相机是富士XT5", reader=ClauseReader())
    (second,) = extract_preferences("主力相机现在是索尼A7C", reader=ClauseReader())
    assert first.slot == second.slot == "最喜欢的相机"


@pytest.mark.parametrize(("text", "obj"), [
    ("现在都用企业微信，烦死了", "企业微信"),
    ("现在每天都坐公交，真是折磨", "公交"),
])
def test_a_routine_complained_of_is_kept_against_the_users_will(text: str, obj: str) -> None:
    """A complaint alone after a routine of now is about it: the user is made to keep it."""
    found = extract_preferences(text, reader=ClauseReader())
    assert {c.polarity for c in found if any(obj in k for k in c.keywords)} == {"dislike"}, found


def test_a_routine_praised_stays_a_choice() -> None:
    found = extract_preferences("现在都用企业微信，挺好用的", reader=ClauseReader())
    assert any(c.polarity == "like" and any("企业微信" in k for k in c.keywords)
               for c in found), found
