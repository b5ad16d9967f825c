"""Injection selects (issue 18), on the real default embedder: an unrelated request injects
only the protected preferences, a related one the few that bear on it, within a budget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from penchant.agent.hooks import MemoryHooks
from penchant.memory import Memory, PreferenceCandidate, select_injection
from penchant.memory.recall import MAX_INJECTED
from penchant.tools.prompt_blocks import parse_preferences

pytestmark = pytest.mark.model

USER = "twenty"
TWENTY = [
    ("allergic to peanuts", "dislike", ["peanut"], "food"),
    ("dislikes plastic", "dislike", ["plastic"], "material"),
    ("is vegetarian", "like", ["vegetarian"], "food"),
    ("hates cilantro", "dislike", ["cilantro"], "food"),
    ("loves jazz", "like", ["jazz"], "music"),
    ("cannot stand heavy metal", "dislike", ["heavy metal"], "music"),
    ("prefers aisle seats on flights", "like", ["aisle seat"], "travel"),
    ("hates early morning flights", "dislike", ["morning flight"], "travel"),
    ("loves hiking in the mountains", "like", ["hiking"], "sport"),
    ("dislikes crowded gyms", "dislike", ["crowded gym"], "sport"),
    ("prefers wooden toys for the kids", "like", ["wooden toy"], "style"),
    ("likes minimalist Scandinavian furniture", "like", ["scandinavian furniture"], "style"),
    ("avoids horror movies", "dislike", ["horror movie"], "movies"),
    ("enjoys science fiction novels", "like", ["science fiction"], "books"),
    ("dislikes strong floral perfumes", "dislike", ["floral perfume"], "beauty"),
    ("prefers electric cars", "like", ["electric car"], "cars"),
    ("dislikes wool sweaters, they itch", "dislike", ["wool"], "material"),
    ("adopts pets from shelters, never from breeders", "like", ["shelter"], "pets"),
    ("likes learning with videos rather than books", "like", ["video"], "learning"),
    ("dislikes spicy food", "dislike", ["spicy food"], "food"),
]


@pytest.fixture
def real_memory(
    memory: Memory, redis_client: Any, settings: Any, use_embedder: Any
) -> Iterator[Memory]:
    """A memory on USE holding the twenty preferences (``memory`` first: a clean keyspace)."""
    with Memory(redis_client, settings=settings, embedder=use_embedder) as real:
        real.remember(USER, [
            PreferenceCandidate(content=c, polarity=p, keywords=k, category=cat)
            for c, p, k, cat in TWENTY
        ])  # fmt: skip
        assert len(real.preferences(USER)) == 20
        yield real


def injected(memory: Memory, request: str) -> Any:
    """What ``request`` injects for the user (:func:`select_injection` after recall)."""
    context = memory.context(USER, request)
    assert context.recall is not None
    return select_injection(context.recall, context.snapshot.ordered_preferences(), request)


def test_an_unrelated_request_injects_only_the_protected_preferences(real_memory: Memory) -> None:
    chosen = injected(real_memory, "What's the time in Tokyo?")
    assert [p.content for p in chosen.preferences] == ["allergic to peanuts"]
    text = MemoryHooks(real_memory).memory_context(USER, "What's the time in Tokyo?")
    parsed = parse_preferences(text)
    assert [p.content for p in parsed.all()] == ["allergic to peanuts"]
    assert [p.content for p in parsed.hard_constraints] == ["allergic to peanuts"]


def test_a_lunch_box_request_injects_the_plastic_dislike_and_few_others(
    real_memory: Memory,
) -> None:
    chosen = injected(real_memory, "Which lunch box should I buy?")
    contents = [p.content for p in chosen.preferences]
    assert contents[0] == "allergic to peanuts"
    assert "dislikes plastic" in contents
    assert len(contents) <= 1 + MAX_INJECTED
    assert "loves jazz" not in contents and "prefers electric cars" not in contents


@pytest.mark.parametrize(
    ("request_text", "own"),
    [
        ("Recommend a jazz album for a quiet evening", "loves jazz"),
        ("Book me a flight to Berlin", "prefers aisle seats on flights"),
        ("Suggest a horror-free film for Friday night", "avoids horror movies"),
        ("What sweater should I buy for winter?", "dislikes wool sweaters, they itch"),
        ("Where can I find a Bengal cat?", "adopts pets from shelters, never from breeders"),
        ("Any ideas for a birthday present for my nephew?", "prefers wooden toys for the kids"),
        ("What should I cook for dinner tonight?", "is vegetarian"),
    ],
)
def test_a_related_request_injects_its_own_preference_among_at_most_four(
    real_memory: Memory, request_text: str, own: str
) -> None:
    contents = [p.content for p in injected(real_memory, request_text).preferences]
    assert own in contents
    assert len(contents) <= 1 + MAX_INJECTED


def test_the_prompt_lists_only_the_selected_preferences(real_memory: Memory) -> None:
    text = MemoryHooks(real_memory).memory_context(USER, "Which lunch box should I buy?")
    parsed = parse_preferences(text)
    shown = [p.content for p in parsed.all()]
    assert "dislikes plastic" in [p.content for p in parsed.constraints]
    assert len(shown) <= 1 + MAX_INJECTED
    assert not parsed.others  # no "also known" list of everything else


def test_a_request_about_the_user_injects_every_preference(real_memory: Memory) -> None:
    text = MemoryHooks(real_memory).memory_context(USER, "What do you know about me?")
    assert len(parse_preferences(text).all()) == 20


def test_a_request_naming_a_disliked_object_injects_that_dislike(real_memory: Memory) -> None:
    contents = [p.content for p in injected(real_memory, "Is there cilantro in pho?").preferences]
    assert "hates cilantro" in contents


@pytest.mark.parametrize(
    "request_text",
    [
        "What is 15% of 240?",
        "How do I undo the last git commit?",
        "Translate 'where is the station' into German.",
        "Good morning!",
        "Who painted the Mona Lisa?",
        "Convert 30 degrees Celsius to Fahrenheit.",
        "北京现在几点？",
        "把“谢谢”翻译成英文。",
        "三百六十除以十二是多少？",
    ],
)
def test_a_request_that_asks_for_no_choice_injects_only_the_protected_ones(
    real_memory: Memory, request_text: str
) -> None:
    contents = [p.content for p in injected(real_memory, request_text).preferences]
    assert contents == ["allergic to peanuts"]


def test_a_factual_request_about_a_preferences_subject_still_injects_it(
    real_memory: Memory,
) -> None:
    """The request floor rises for a request that asks for no choice, but a strong match
    still passes it: a question about jazz itself brings the jazz preference."""
    chosen = injected(real_memory, "Who are the great jazz pianists?")
    contents = [p.content for p in chosen.preferences]
    assert "loves jazz" in contents
