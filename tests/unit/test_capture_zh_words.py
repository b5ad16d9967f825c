"""Chinese phrasings no reader had (issue 17).

- ``再也回不去了`` after a switch says only that the user is not going back: it had turned the
  thing switched to into a dislike (``我从Windows换到了Mac，再也回不去了`` stored a dislike of
  Mac). Which way it went is the switch's.
- ``受够了X`` is a dislike of X (it stored nothing).
- ``我这个人`` is the user, not an object nor someone else (``我这个人不挑食，除了芹菜`` stored
  a dislike of *这个人*, ``我这个人不吃香菜`` nothing).
- ``不点X`` (not ordering it) is a dislike of X, not of ``点X`` (``我从来不点外卖`` was keyed
  ``点外卖``, which a later ``外卖`` would not meet); ``这顿``/``这回`` (this meal, this time) bound
  it to one occasion, as ``今天`` does; ``大半年`` is how long, not part of the object.
- ``说唱`` (rap) is a genre, not the verb 说 and a particle; ``什么``/``啥`` before a class say
  "any", no part of it (``什么歌都听，就是不听说唱`` stored no dislike of rap).

The sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.model import is_protected

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("我从Windows换到了Mac，再也回不去了", {("like", "mac"), ("dislike", "window")}),
    ("我真的受够了早高峰", {("dislike", "早高峰")}),
    ("我这个人不挑食，除了芹菜", {("dislike", "芹菜")}),
    ("我这个人不吃香菜", {("dislike", "香菜")}),
    ("我这人就爱喝冰的", {("like", "冰")}),
    ("什么歌都听，就是不听说唱", {("like", "歌"), ("dislike", "说唱")}),
    ("我从来不点外卖", {("dislike", "外卖")}),
    ("奶茶我戒了大半年了", {("dislike", "奶茶")}),
    ("这顿不吃辣了，胃不舒服", set()),  # this meal only
    ("啥蔬菜我都吃", {("like", "蔬菜")}),  # read right before too
    ("这人真讨厌", set()),  # a person, as before
    ("我不点头", set()),
])
def test_what_a_chinese_sentence_stores(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want


@pytest.mark.parametrize(("text", "allergen"), [
    ("肉类都行，就是羊肉过敏", "羊肉"),
    ("零食都爱吃，唯独开心果过敏", "开心果"),
])
def test_an_allergy_after_an_exception_is_a_clause_of_its_own(
    text: str, allergen: str, reader: ClauseReader
) -> None:
    found = extract_preferences(text, reader=reader)
    allergies = [c.keywords for c in found if is_protected(c.content, c.polarity)]
    assert allergies == [[allergen]]
