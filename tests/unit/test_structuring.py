"""When a sentence is structured (``memory/core/capture/structuring.py``): a sentence the
statement head reads as a statement of any kind, not only as the structural kind, is tried
with strict connectors (issue 17: on the development half of the blind kinds set the head
read switches, exceptions and slots on 3-22 % of their messages, so most were never
structured). The sentences are new instances, not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.core.capture.statements import KINDS, Kind
from penchant.memory.core.capture.structuring import STATEMENT_MAX_NONE, structured


def _kind(**probs: float) -> Kind:
    rest = (1.0 - sum(probs.values())) / (len(KINDS) - len(probs))
    row = tuple(probs.get(name, rest) for name in KINDS)
    best = max(range(len(KINDS)), key=row.__getitem__)
    return Kind(KINDS[best], row[best], row)


STATEMENT = _kind(like=0.5, none=0.1, switch=0.1, exception=0.1, slot=0.1)
"""Read as a plain like, little mass on "none"."""
NOT_A_STATEMENT = _kind(none=STATEMENT_MAX_NONE + 0.2, like=0.1)


def _read(sentence: str, kind: Kind) -> list[tuple[str, str]] | None:
    made = structured(sentence, [sentence], [kind], [], 0.8)
    return None if made is None else [(c.polarity, c.content) for c in made]


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Switched my bank from Barclays to Monzo and I'm staying put",
     [("like", "switched to Monzo"), ("dislike", "switched from Barclays to Monzo")]),
    ("I never wear hats apart from my winter beanie",
     [("dislike", "dislikes hats"),
      ("like", "likes winter beanie (an exception to disliking hats)")]),
    ("my default browser these days is Vivaldi",
     [("like", "favourite browser is Vivaldi")]),
    ("咖啡从美式换成拿铁了", [("like", "换成拿铁"), ("dislike", "从美式换成拿铁")]),
])
def test_a_statement_not_read_as_its_structure_is_still_structured(
    sentence: str, expected: list[tuple[str, str]]
) -> None:
    assert _read(sentence, STATEMENT) == expected


@pytest.mark.parametrize("sentence", [
    "Switched my bank from Barclays to Monzo and I'm staying put",
    "my default browser these days is Vivaldi",
])
def test_a_sentence_the_head_reads_as_no_statement_is_not(sentence: str) -> None:
    assert _read(sentence, NOT_A_STATEMENT) is None


@pytest.mark.parametrize("sentence", [
    "Had oat milk instead of cow's milk this morning, we'd run out",  # one occasion
    "I'm thinking of switching from Spotify to Tidal",  # a plan
    "My brother moved from Xbox to PlayStation",  # another person
    "My back is killing me after moving boxes all day",  # "my S is V" with no word of choice
    "打算把米饭换成糙米",  # a plan
    "客户说他不吃辣，水煮鱼除外",  # reported speech
])
def test_one_occasion_a_plan_or_another_person_is_not_structured(sentence: str) -> None:
    assert _read(sentence, STATEMENT) is None


EXCEPTION = _kind(exception=0.8, none=0.05)
"""The whole sentence read as an exception, its clauses as a plain like or dislike."""


@pytest.mark.parametrize(("sentence", "parts", "expected"), [
    ("不喜欢喝奶茶，杨枝甘露除外", ["不喜欢喝奶茶", "杨枝甘露除外"],
     [("dislike", "不喜欢奶茶"), ("like", "喜欢杨枝甘露（奶茶里的例外）")]),
    ("I avoid fried food, but tempura is fine", ["I avoid fried food", "tempura is fine"],
     [("dislike", "dislikes fried food"),
      ("like", "likes tempura (an exception to disliking fried food)")]),
])
def test_a_relation_said_across_clauses_is_read_by_the_whole_sentence(
    sentence: str, parts: list[str], expected: list[tuple[str, str]]
) -> None:
    """No clause alone reads as an exception; the head's reading of the whole sentence does,
    and its loose connectors are tried first."""
    clause = _kind(dislike=0.6, none=0.3)
    assert structured(sentence, parts, [clause, clause], [], 0.8) is None
    made = structured(sentence, parts, [clause, clause], [], 0.8, whole=EXCEPTION)
    assert made is not None and [(c.polarity, c.content) for c in made] == expected


def test_an_english_exception_to_no_class_is_no_structure() -> None:
    """"anything but X" names no class: no "(the exception to )" with nothing after "to"."""
    made = structured("anything but drum and bass for the road trip",
                      ["anything but drum and bass for the road trip"], [EXCEPTION], [], 0.8)
    assert made is None or all("exception to )" not in c.content for c in made)
