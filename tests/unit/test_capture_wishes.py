"""What the user asks the assistant to suggest, or to stop suggesting (issue 17).

"Please keep recommending sci-fi audiobooks", "could you please stop recommending true crime
podcasts?", ``能不能别再给我推荐网红店了``: a standing wish about what the assistant brings up
says what the user likes or does not want. Capture stored nothing for most of them, or the
verb as the thing (*suggest bakery*). A one-off request ("recommend me a cheap blender",
``给我推荐一款耳机吧``) and someone else's recommending are no preference. The sentences are
new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("From now on only suggest hotels with a gym.", {("like", "hotel with gym")}),
    ("Please keep recommending sci-fi audiobooks.", {("like", "sci-fi audiobook")}),
    ("Lean towards quiet neighbourhoods when you suggest apartments.",
     {("like", "quiet neighbourhood")}),
    ("Prioritize direct flights, please.", {("like", "direct flight")}),
    ("以后多给我推荐点纪录片", {("like", "纪录片")}),
    ("以后只推荐国产的护肤品", {("like", "国产"), ("like", "护肤品")}),
    ("Going forward, could you prioritise vegan bakeries?",
     {("like", "vegan"), ("like", "bakery")}),
    ("I want you to keep suggesting board game cafés.", {("like", "board game café")}),
    ("Be sure to include budget airlines when I ask about flights.", {("like", "budget airline")}),
    ("以后订机票优先选直飞的", {("like", "直飞")}),
    ("帮我多留意一下有机蔬菜", {("like", "有机"), ("like", "蔬菜")}),
])
def test_a_standing_wish_for_suggestions_is_a_like(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Can you please stop recommending true crime podcasts?", {("dislike", "true crime podcast")}),
    ("Would you mind not suggesting energy drinks?", {("dislike", "energy drink")}),
    ("Never recommend fast fashion brands to me.", {("dislike", "fast fashion brand")}),
    ("Stop sending cruise deals my way.", {("dislike", "cruise deal")}),
    ("能不能别再给我推荐网红店了", {("dislike", "网红店")}),
    ("别给我推那些鸡汤文", {("dislike", "鸡汤文")}),
    ("拜托少推送点娱乐新闻", {("dislike", "娱乐新闻")}),
    ("电影就别推荐恐怖片了", {("dislike", "恐怖片")}),
    ("Could you leave out horror titles from now on?", {("dislike", "horror title")}),
    ("Is it possible to stop recommending gyms to me?", {("dislike", "gym")}),
    ("Any chance you could drop the crypto recommendations?", {("dislike", "crypto")}),
])
def test_asking_the_assistant_to_stop_suggesting_is_a_dislike(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want


@pytest.mark.parametrize("text", [
    "Recommend me a cheap blender.",
    "Suggest a good sci-fi novel for my trip.",
    "My brother keeps recommending crypto to me.",
    "Could you stop by the pharmacy later?",
    "推荐几部好看的电影",
    "给我推荐一款耳机吧",
    "你能不能推荐一本书？",
    "Could you include a receipt?",
    "我妈买菜优先考虑价格",
    "这个任务要优先处理",
])
def test_a_one_off_request_or_someone_elses_recommending_stores_nothing(
    text: str, stored: Stored
) -> None:
    assert stored(text) == set()
