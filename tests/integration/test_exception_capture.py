"""An exception's two sides through capture and the persistence gate, on a real Redis (issue 17).

Capture writes the broader side first (:func:`~penchant.memory.core.capture.tagged_sides.
exception_sides`): the gate lets a broader statement supersede a narrower one of the other
polarity, so a class written after its member would retire it. Each test looks at what is
active in Redis after the message. The sentences are new instances of the exception kind."""

from __future__ import annotations

import pytest

from penchant.memory import Memory


def active(memory: Memory, user: str = "u") -> set[tuple[str, str]]:
    return {(p.polarity, k) for p in memory.preferences(user) for k in p.keywords}


@pytest.mark.parametrize(("message", "sides"), [
    ("I love all kinds of cheese except blue cheese", {("like", "cheese"),
                                                       ("dislike", "blue cheese")}),
    ("Cheese of any kind is great, feta is my one exception", {("like", "cheese"),
                                                               ("dislike", "feta")}),
    ("水果我都爱吃，除了榴莲", {("like", "水果"), ("dislike", "榴莲")}),
    ("运动我基本都讨厌，除了游泳", {("dislike", "运动"), ("like", "游泳")}),
])
def test_both_sides_of_an_exception_stay_active(
    memory: Memory, message: str, sides: set[tuple[str, str]]
) -> None:
    memory.capture("u", message)
    assert sides <= active(memory)


def test_the_order_matters_to_the_gate(memory: Memory) -> None:
    """Why capture writes the broader side first: written after its member, a class of the
    other polarity supersedes it (a newer statement about the broader object wins)."""
    from penchant.memory import PreferenceCandidate

    member = PreferenceCandidate(content="dislikes oolong tea", polarity="dislike")
    broader = PreferenceCandidate(content="likes tea", polarity="like")
    memory.remember("first", [broader, member])
    assert {("like", "tea"), ("dislike", "oolong tea")} <= active(memory, "first")
    memory.remember("second", [member, broader])
    assert ("dislike", "oolong tea") not in active(memory, "second")
