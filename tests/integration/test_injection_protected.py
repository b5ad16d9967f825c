"""Protected preferences (allergies, intolerances) in the injected prompt: always, first, hard."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage

from penchant.agent.hooks import MemoryHooks
from penchant.agent.offline_model import offline_reply
from penchant.memory import Memory, PreferenceCandidate
from penchant.tools.prompt_blocks import (
    HARD_CONSTRAINTS_HEADER,
    parse_preferences,
    render_preferences,
)


def _store(memory: Memory, content: str, polarity: str, *keywords: str) -> None:
    memory.remember(
        "u",
        PreferenceCandidate(
            content=content, polarity=polarity, keywords=list(keywords), category="food"
        ),
    )


def test_allergy_is_injected_as_a_hard_constraint_for_an_unrelated_request(
    memory: Memory,
) -> None:
    _store(memory, "allergic to peanuts", "dislike", "peanut")
    _store(memory, "likes jazz", "like", "jazz")
    context = MemoryHooks(memory).memory_context("u", "Plan a weekend in Lisbon for me")
    parsed = parse_preferences(context)
    assert [p.content for p in parsed.hard_constraints] == ["allergic to peanuts"]
    assert context.index(HARD_CONSTRAINTS_HEADER) < context.index("likes jazz")


def test_allergy_is_never_cut_by_the_limit_on_other_preferences(memory: Memory) -> None:
    _store(memory, "allergic to shellfish", "dislike", "shellfish")
    for i in range(5):
        _store(memory, f"likes band number {i}", "like", f"band{i}")
    context = MemoryHooks(memory, max_other_preferences=2).memory_context("u", "hello")
    assert [p.content for p in parse_preferences(context).hard_constraints] == [
        "allergic to shellfish"
    ]


def test_a_like_of_the_broader_object_is_injected_beside_the_allergy(memory: Memory) -> None:
    _store(memory, "allergic to tree nuts", "dislike", "tree nut")
    _store(memory, "loves nuts in salad", "like", "nut")
    context = MemoryHooks(memory).memory_context("u", "suggest a salad")
    parsed = parse_preferences(context)
    assert [p.content for p in parsed.hard_constraints] == ["allergic to tree nuts"]
    assert "loves nuts in salad" in [p.content for p in parsed.all()]


def test_offline_model_puts_the_hard_constraint_first() -> None:
    from penchant.memory.model.records import Preference

    allergy = Preference(user_id="u", content="allergic to shrimp", polarity="dislike",
                         category="food", keywords=["shrimp"], protected=True)
    system = render_preferences([], [allergy])
    reply = offline_reply([SystemMessage(content=system),
                           HumanMessage(content="Can you recommend a dinner?")])
    assert "allergic to shrimp" in reply
