"""A stance bounded in time is a temporary state, not a preference (``temporary.py``, issue 17).

Each bounded sentence is paired with the same stance unbounded, which is stored: the bound is
what keeps it out. The sentences are new instances of the kind, written for these tests.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.temporary import is_time_bound


@pytest.mark.parametrize(("bounded", "lasting"), [
    ("I'm avoiding sugar for now", "I'm avoiding sugar"),
    ("no alcohol for the next three weeks, I'm on antibiotics", "no alcohol, I'm on antibiotics"),
    ("I'm not drinking coffee today", "I'm not drinking coffee"),
    ("I'm avoiding dairy till the rash clears up", "I'm avoiding dairy"),
    ("这几天嗓子疼，辣的先不吃", "辣的不吃"),
])
def test_a_bounded_stance_stores_nothing(
    reader: ClauseReader, bounded: str, lasting: str
) -> None:
    assert extract_preferences(lasting, reader=reader) != []
    assert extract_preferences(bounded, reader=reader) == []


@pytest.mark.parametrize(("text", "polarity", "word"), [
    ("I've been off sugar for two months", "dislike", "sugar"),  # a duration lived
    ("I love this week's playlist", "like", "playlist"),  # a near week bounds no liking
    ("I'm allergic to shellfish, found out this week", "dislike", "shellfish"),  # an allergy
    # a bound in another clause bounds a plan there, not this stance
    ("我最喜欢的歌手是周杰伦，这几天想听点新歌，推荐几首吧", "like", "周杰伦"),
    ("Tried Tidal for a month, still on Spotify", "like", "Spotify"),  # a trial lived
])
def test_what_is_no_bound_keeps_the_preference(
    reader: ClauseReader, text: str, polarity: str, word: str
) -> None:
    found = extract_preferences(text, reader=reader)
    assert any(c.polarity == polarity and word in c.content for c in found)


@pytest.mark.parametrize(("text", "bound"), [
    ("Only eating soup until my tooth heals", True),
    ("No gym for a couple of weeks", True),
    ("I won't touch sushi until I die", False),
    ("Hated podcasts until a friend got me into one", False),  # how a mind changed
    ("Switched to decaf until the baby arrives", True),
    ("I've been gluten-free for the past three years", False),
    ("术后两周内不能喝酒", True),
    ("这阵子迷上了手冲咖啡", False),
])
def test_what_bounds_a_sentence(text: str, bound: bool) -> None:
    assert is_time_bound(text) is bound
