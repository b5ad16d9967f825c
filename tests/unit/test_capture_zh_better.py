"""What the user finds better, said in Chinese with no verb of liking (issue 17).

``粤菜比川菜更对我口味`` (A比B + a judgement of taste), ``网购没有实体店靠谱``
(A没有B…), ``安卓完胜苹果`` (A完胜B), ``相比A，B更靠谱`` and ``与其A，我宁可B``: a like of the
better side and a dislike of the other; the statement head read only some of them. A
comparison of the weather, of distances or of people is no taste. The sentences
are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "better", "worse"), [
    ("手冲比速溶好喝太多了", "手冲", "速溶"),
    ("羽绒服没有冲锋衣实用", "冲锋衣", "羽绒服"),
    ("公交没有骑车舒服", "骑车", "公交"),
    ("机械键盘完胜薄膜键盘", "机械键盘", "薄膜键盘"),
    ("相比跟团游，我还是觉得自由行更好玩", "自由行", "跟团游"),
    ("豆浆确实比牛奶更合我胃口", "豆浆", "牛奶"),
    ("我觉得兔子比仓鼠可爱多了", "兔子", "仓鼠"),  # the judgement is no part of a side
    ("与其坐大巴，我宁可坐火车", "火车", "大巴"),
])
def test_the_better_side_is_liked_and_the_other_disliked(
    text: str, better: str, worse: str, stored: Stored
) -> None:
    assert stored(text) == {("like", better), ("dislike", worse)}


@pytest.mark.parametrize("text", [
    "明天比今天暖和",
    "高铁比飞机慢",
    "他比我会做饭",
    "我表哥觉得猫比狗好养",
    "你觉得手冲比速溶好喝吗",
])
def test_a_comparison_of_no_taste_or_of_someone_else_stores_nothing(
    text: str, stored: Stored
) -> None:
    assert stored(text) == set()


@pytest.mark.parametrize(("text", "want"), [
    ("电脑从华硕换成了联想", {("like", "联想"), ("dislike", "华硕")}),
    ("我已经弃用百度网盘，转投夸克了", {("like", "夸克"), ("dislike", "百度网盘")}),
    ("想换成折叠屏手机，还在犹豫", set()),  # a plan
    ("不喝啤酒改喝米酒了", {("like", "米酒"), ("dislike", "啤酒")}),  # no comma between
])
def test_a_switch_after_a_fronted_topic_keeps_both_sides(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want
