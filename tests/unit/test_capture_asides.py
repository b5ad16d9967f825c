"""What follows an object is not part of it (issue 17).

- An aside after a comma: a time word then a comment ("I don't eat pork anymore, religious
  reasons" was keyed ``pork anymore religious reason``) or an adverb alone ("I'm allergic to
  sesame, unfortunately" stored a second allergy, to *sesame unfortunately*); stacked
  modifiers stay one object ("traditional, in-person classes").
- When: "I cancelled Spotify last month" was a quit of *cancelled spotify last*, "I'm obsessed
  with K-dramas right now" a like of *k-dramas right*.
- How long since, after a Chinese topic put first: ``可乐我已经戒了半年了`` was keyed
  ``半年可乐``.
- ``走路`` is an activity: ``我特别喜欢走路`` stored nothing, ``我宁愿走路也不想打车`` one
  object of the whole.

The sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("I don't eat pork anymore, religious reasons", {("dislike", "pork")}),
    ("I'm allergic to sesame, unfortunately", {("dislike", "sesame")}),
    ("I quit vaping, finally", {("dislike", "vaping")}),
    ("I find anchovies way too salty", {("dislike", "anchovy")}),  # "way" says how much
    ("Pickles? I find them way too sour.", {("dislike", "pickle")}),
    ("I cancelled Spotify last month", {("dislike", "spotify")}),
    ("I'm obsessed with K-dramas right now", {("like", "k-drama")}),
    ("可乐我已经戒了半年了", {("dislike", "可乐")}),
    ("我特别喜欢走路", {("like", "走路")}),
    ("我宁愿走路也不想打车", {("like", "走路"), ("dislike", "打车")}),
])
def test_what_follows_the_object_is_left_out(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want


def test_stacked_modifiers_stay_one_object(stored: Stored) -> None:
    assert stored("I like small, independent bookshops") == {("like", "small independent bookshop")}


@pytest.mark.parametrize(
    "text", ["I can't eat peanuts anymore", "I can't have shellfish anymore, sadly"]
)
def test_a_food_the_user_can_no_longer_eat_is_no_allergy_over(text: str, stored: Stored) -> None:
    """The structure head read "can't eat X anymore" as an allergy over and stored a like of
    X "fine for them again": the opposite. A present inability vetoes that reading as a
    hedge does (:func:`~penchant.memory.core.capture.allergies.hedged`)."""
    assert {polarity for polarity, _ in stored(text)} == {"dislike"}
