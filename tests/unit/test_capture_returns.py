"""A return to what the user had is a like of it; a switch it undoes in the same sentence is
none; a return ruled out is a dislike of what was left (``rules_en_kept.py``, ``returns.py``;
issue 17). "tested a few budgeting apps, back to YNAB" stored nothing, "Switched to Edge for a
month and went back to Firefox" stored *switched to Edge*, ``从百度地图换到高德，后来又换回来了``
a like of 高德 and a dislike of 百度地图: the opposite of what was said. The sentences are new
instances, not rows of the bench files."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Captured = Callable[[str], list[tuple[str, list[str]]]]


@pytest.mark.parametrize(("text", "thing"), [
    ("I keep coming back to my Kindle", "kindle"),
    ("Gave Bing a shot for a week, went straight back to Google", "google"),
    ("tested a few budgeting apps, back to YNAB", "ynab"),
    ("I'm back on Ubuntu after a year of Arch", "ubuntu"),
    ("Did a month of Duolingo and went back to Anki", "anki"),  # "did" opening: no question
    ("I've gone back to Thunderbird", "thunderbird"),
    ("Every winter I go back to my flannel sheets every time", "flannel sheet"),
    ("Tried Bear for a while, went back to Apple Notes", "apple note"),
])
def test_a_return_is_a_like_of_what_the_user_went_back_to(
    captured: Captured, text: str, thing: str
) -> None:
    """One like, of the thing returned to alone (not what was tried, not "after a year")."""
    assert captured(text) == [("like", [thing])]


@pytest.mark.parametrize(("text", "expected"), [
    ("Switched to Edge for a month and went back to Firefox", [("like", ["firefox"])]),
    ("Moved to Dropbox, then went back to Google Drive because of the price",
     [("like", ["google drive"])]),
    ("I love hiking. Tried Garmin for a season and came back to my Coros watch",
     [("like", ["hiking"]), ("like", ["coros watch"])]),
    ("从百度地图换到高德，后来又换回来了", [("like", ["百度地图"])]),
    ("换了两周小米又换回华为了", [("like", ["华为"])]),
    ("我喜欢喝茶。从美式换到拿铁又换回来了", [("like", ["茶"]), ("like", ["美式"])]),
])
def test_a_switch_undone_leaves_what_was_tried_and_keeps_the_rest(
    captured: Captured, text: str, expected: list[tuple[str, list[str]]]
) -> None:
    """What was tried on the way is neither liked nor (where it was the old side of a
    ``从A换到B``) disliked; the user's other stances stay."""
    assert captured(text) == expected


@pytest.mark.parametrize("text", [
    "My dad keeps going back to the same diner",  # another's
    "If the update fixes it I might go back to Slack",  # a supposition
    "I'm going back to Tokyo in March",  # a trip
    "back to square one with the bathroom",  # idioms
    "well, back to work",
    "Back to the grind",
    "My brother says he can't go back to dairy",
    "I can't go back to the UK because of my visa",  # a return the user cannot make
    # a return alone, after no try or switch: a visit, a state, a place (a breaker's kind)
    "We went back to that Thai place last night",
    "Went back to my hometown for Christmas",
    "went back to the dentist for a filling",
    "Back on antibiotics, ugh",
    "I'm back on night shifts this week",
    "back to London on Friday",
    "came back to a flooded kitchen",
    "I went back to university at 40",
    "今天加班到九点，又回公司拿了个东西",
    "我换了衣服又回去了",
])
def test_what_is_no_return_of_the_user_stores_nothing(captured: Captured, text: str) -> None:
    assert captured(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Fountain pens are so smooth, I can't go back to ballpoints",
     [("like", ["fountain pen"]), ("dislike", ["ballpoint"])]),
    ("Induction hob changed everything, never going back to gas", [("dislike", ["gas"])]),
])
def test_a_return_ruled_out_is_a_dislike_of_what_was_left(
    captured: Captured, text: str, expected: list[tuple[str, list[str]]]
) -> None:
    """"can't go back to ballpoints" had stored *likes back*."""
    assert captured(text) == expected


def test_what_the_user_left_for_is_kept_beside_a_return_ruled_out(captured: Captured) -> None:
    """The like said without a verb of liking ("X is a game changer") was read only when the
    rules read nothing in the sentence; the return ruled out must not cost it."""
    got = captured("Merino socks are a game changer, can't go back to cotton ones")
    assert [p for p, words in got if "sock" in words] == ["like"]
    assert [p for p, words in got if "cotton" in words] == ["dislike"]


def test_every_minute_of_a_thing_is_the_thing(captured: Captured) -> None:
    """"hated every minute of the crowds" had stored *dislikes every minute of the crowds*."""
    assert captured("Did the Inca Trail in May and hated every minute of the crowds") == [
        ("dislike", ["crowd"])]


@pytest.mark.parametrize(("text", "expected"), [
    # a try and a return over two sentences
    ("Switched to Brave for a month. Back on Safari now.", [("like", ["safari"])]),
    # the return's own verdict after it stays
    ("上个月试着喝椰奶拿铁，喝了几次还是换回普通拿铁了，椰奶味太怪",
     [("dislike", ["椰奶"]), ("like", ["普通拿铁"])]),
])
def test_a_return_over_two_sentences_and_a_verdict_after_it(
    captured: Captured, text: str, expected: list[tuple[str, list[str]]]
) -> None:
    assert captured(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("用过降噪耳机就再也回不去普通耳机了", [("like", ["降噪耳机"]), ("dislike", ["普通耳机"])]),
    ("喝过手冲，速溶咖啡真的回不去了", [("like", ["手冲"]), ("dislike", ["速溶咖啡"])]),
    ("那家火锅店我是再也不会回去了", [("dislike", ["火锅店"])]),
    ("Can't go back to a regular keyboard after using a split one",
     [("dislike", ["regular keyboard"]), ("like", ["split"])]),
])
def test_a_chinese_return_ruled_out_and_what_the_user_had(
    captured: Captured, text: str, expected: list[tuple[str, list[str]]]
) -> None:
    """``回不去`` stored nothing, or the experience as a quit (``喝惯了无糖的，含糖可乐回不去了``
    had stored *戒了无糖*, the opposite)."""
    got = captured(text)
    assert [p for p, _ in got] == [p for p, _ in expected]
    for (_, words), (_, want) in zip(got, expected, strict=True):
        assert any(w in "".join(words) or w in " ".join(words) for w in want), (got, expected)


@pytest.mark.parametrize("text", [
    "这个周末回不去了，票买不到",  # a trip home
    "回不去了，真的回不去了",
    "老同学搬回老家了，说再也不想回大城市",  # reported
    # someone else's or something else's switch (a breaker's kind)
    "The gym replaced the old treadmills with new ones.",
    "Dan quit energy drinks and drinks matcha now instead.",
    "Google dropped the old logo for a flat one in 2015.",
    "The bakery downstairs switched to sourdough only",
])
def test_what_is_no_return_or_switch_of_the_user_stores_nothing(
    captured: Captured, text: str
) -> None:
    assert captured(text) == []


@pytest.mark.parametrize(("text", "thing"), [
    ("Finally ditched Chrome for Firefox", "firefox"),  # no subject: the user's
    ("The Kindle replaced my paperbacks for good", "kindle"),  # a thing replaced, no agent
    ("导航从百度地图换成高德地图了", "高德地图"),  # a domain before the switch, not an agent
])
def test_the_users_own_switch_is_still_read(captured: Captured, text: str, thing: str) -> None:
    assert ("like", [thing]) in captured(text)
