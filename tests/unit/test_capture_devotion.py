"""Devotion said as who one is, and what the user has alone, are likes of it (``rules_en_kept.py``,
``rules_zh.py``; issue 17): "Die-hard Marvel fan" had stored *likes Die-hard Marvel fan*,
"Liverpool till I die" *likes liverpool till*, ``我是京东的老会员了，买电器从来不去别的平台``
*戒了京东* (the opposite), and "ride or die for Trader Joe's", "we're a Subaru family",
``周杰伦铁粉报到`` nothing. Another's devotion is none. The sentences are new instances, not rows
of the bench files."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Captured = Callable[[str], list[tuple[str, list[str]]]]


@pytest.mark.parametrize(("text", "thing"), [
    ("Die-hard Celtics fan", "celtics"),
    ("lifelong Toyota guy here", "toyota"),
    ("I'm a total tea nerd", "tea"),
    ("Arsenal till I die", "arsenal"),
    ("ride or die for Costco", "costco"),
    ("Loyal to Levi's since high school", "levi"),
    ("we're a Volvo family", "volvo"),
    ("once an Android user always an Android user", "android"),
    ("proud member of the Birkenstock gang", "birkenstock"),
    ("honestly im a Kobo person through and thru", "kobo"),  # "im" after "honestly"
    ("五月天铁粉报到！", "五月天"),
    ("本人瑞幸死忠", "瑞幸"),
    ("我是盒马的老会员了，买菜从来不去别的平台", "盒马"),
    ("奶茶我是忠实粉丝", "奶茶"),
    ("这辈子就认海天了", "海天"),
    ("I stan Olivia Rodrigo so hard", "olivia rodrigo"),
    ("Costco girlie through and through.", "costco"),
    ("我算是奈雪的忠实顾客了", "奈雪"),
])
def test_devotion_is_a_like_of_what_one_is_devoted_to(
    captured: Captured, text: str, thing: str
) -> None:
    assert captured(text) == [("like", [thing])]


@pytest.mark.parametrize("text", [
    "my sister is a member of the BTS army",
    "我老公是个铁杆球迷，每场必看",  # a fan, of no thing named
    "室友是五月天的死忠粉",  # another's
    "我闺蜜是肖战的铁粉",
    "曾是抖音忠实用户，现在不想刷了",  # a former one: no like
    "天天被迫当“忠实用户”，服了",  # said in quotes, against the will
    "we're a big family",
])
def test_another_s_or_a_former_devotion_is_no_like(captured: Captured, text: str) -> None:
    assert all(p != "like" for p, _ in captured(text))


def test_what_the_user_has_alone_is_cut_before_the_others(captured: Captured) -> None:
    """", the other airlines…" had been stored inside the object of "only fly"."""
    got = captured("I only fly Emirates, the other airlines are cramped")
    assert ("like", ["emirate"]) in got  # the keyword is lemmatised


@pytest.mark.parametrize(("text", "thing"), [
    ("strictly Ethiopian beans in my grinder", "ethiopian bean"),
    ("Uni-ball Jetstream only.", "uni-ball jetstream"),
    ("I've worn nothing except Converse since school", "converse"),
    ("The only hot sauce allowed in my kitchen is Cholula.", "cholula"),
    ("除了小米手机别的我都不用", "小米手机"),  # had stored a dislike of it
    ("除了羽毛球别的运动我都不喜欢", "羽毛球"),
])
def test_what_the_user_has_alone_is_a_like(captured: Captured, text: str, thing: str) -> None:
    got = captured(text)
    assert [p for p, words in got if thing in " ".join(words) or thing in "".join(words)] == [
        "like"], got


@pytest.mark.parametrize("text", [
    "Cash only, sorry",
    "Members only",
    "The gym is adults only.",
    "No swimming, showers only, until the stitches come out.",
    "Strictly speaking, that's not a sandwich",
    "strictly water for me this morning, I'm fasting for a blood test",  # one occasion
    "除了周末我都不去健身房",  # a time, not what the user has
    "除了国庆，景区平时都不用预约",  # a need, not a use
])
def test_an_only_that_names_no_choice_stores_nothing(captured: Captured, text: str) -> None:
    assert captured(text) == []


def test_a_quit_before_what_the_user_has_alone_is_kept(captured: Captured) -> None:
    """"dropped coffee completely, tea only now": the quit had been lost to the new like."""
    got = captured("dropped soda completely, water only now")
    assert ("dislike", ["soda"]) in got and ("like", ["water"]) in got
