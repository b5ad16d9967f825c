"""What the user cannot go without is a like; what they can do without is not (issue 17).

``rules_en_kept`` ("I can't go a day without coffee", "I can live without dessert") and
``rules_zh`` (``一天不喝咖啡就没精神``, ``健身房一天不去就浑身不自在``). The English had stored
*likes day* and *likes live*, the Chinese a dislike of what followed 不 (``不喝没精神``). The
sentences are new instances of the kinds, not rows of the bench files.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


def _read(text: str) -> list[tuple[str, str]]:
    return [(c.polarity, c.content) for c in extract_preferences(text, reader=ClauseReader())]


@pytest.mark.parametrize(("text", "keyword"), [
    ("I can't go a single day without green tea", "green tea"),
    ("Honestly can't live without my e-reader", "e-reader"),
    ("I couldn't start the morning without a flat white", "flat white"),
    ("I can't do without noise-cancelling headphones on the train", "noise-cancelling"),
    ("两天不喝豆浆就浑身不舒服", "豆浆"),
    ("我一周不去游泳就难受", "游泳"),
    ("羽毛球一周不打就浑身难受", "羽毛球"),
])
def test_what_the_user_cannot_go_without_is_a_like(text: str, keyword: str) -> None:
    found = _read(text)
    assert [p for p, _ in found] == ["like"] and keyword in found[0][1]


@pytest.mark.parametrize("text", [
    "I can live without cruises",
    "I could happily do without open-plan offices",
])
def test_what_the_user_can_do_without_is_no_like(text: str) -> None:
    assert [p for p, _ in _read(text)] == ["dislike"]


@pytest.mark.parametrize("text", [
    "My brother can't live without his PlayStation",  # another person's
    "Can you name a gadget I can't live without?",  # a question
    "我妈一天不看电视就难受",  # another person's
    "他一天不喝茶就难受",
    "我一周不练三次就浑身难受",  # how often: no object
    # needs and complaints are no taste (a breaker's look-alikes)
    "I can't go a day without my inhaler",
    "I can't go a day without arguing with my landlord",
    "一天不吃药就浑身不舒服",
])
def test_no_like_of_another_persons_need_a_question_or_a_count(text: str) -> None:
    assert not any(c.startswith(("can't do", "离不开")) for _, c in _read(text))
