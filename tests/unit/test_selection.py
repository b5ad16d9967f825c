"""Selecting what one request injects, and which transcript turns the model sees (issue 18)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from penchant.agent.hooks import recent_turns
from penchant.memory import Preference, select_injection
from penchant.memory.recall import (
    RecallItem,
    RecallResult,
    dislike_applies,
    generic_vector,
    neutral_vector,
    request_floor,
    select_turns,
)


def pref(content: str, polarity: str = "dislike", category: str = "other", *keywords: str,
         protected: bool = False) -> Preference:  # fmt: skip
    return Preference(user_id="u", content=content, polarity=polarity, category=category,
                      keywords=list(keywords), protected=protected)  # fmt: skip


def result(*items: tuple[Preference, bool]) -> RecallResult:
    return RecallResult(
        items=[RecallItem(p, 1.0 / (60 + i), {"semantic": i + 1}, 0.3, relevant=r)
               for i, (p, r) in enumerate(items)],
        tokens=0,
    )  # fmt: skip


def test_unmatched_recall_items_are_not_injected() -> None:
    jazz, opera = pref("loves jazz", "like"), pref("hates opera")
    chosen = select_injection(result((jazz, False), (opera, False)), [jazz, opera], "time?")
    assert chosen.preferences == []


def test_protected_preferences_are_injected_for_any_request() -> None:
    allergy, jazz = pref("allergic to shrimp", protected=True), pref("loves jazz", "like")
    chosen = select_injection(result((jazz, False)), [allergy, jazz], "What's the time?")
    assert chosen.preferences == [allergy]


def test_relevant_items_are_capped_and_kept_best_first() -> None:
    prefs = [pref(f"dislikes thing {i}") for i in range(6)]
    chosen = select_injection(result(*[(p, True) for p in prefs]), prefs, "x", max_items=3)
    assert chosen.relevant == prefs[:3]


def test_the_token_budget_skips_a_long_item_and_takes_a_shorter_one() -> None:
    long, short = pref("dislikes " + "very " * 40 + "loud music"), pref("dislikes rain")
    chosen = select_injection(result((long, True), (short, True)), [long, short], "x",
                              token_budget=10)  # fmt: skip
    assert chosen.relevant == [short] and chosen.tokens <= 10


def test_a_material_dislike_applies_to_a_product_request_only() -> None:
    plastic = pref("dislikes plastic", "dislike", "material", "plastic")
    assert dislike_applies(plastic, "Which lunch box should I buy?")
    assert dislike_applies(plastic, "推荐一个水杯")
    assert not dislike_applies(plastic, "What's the time in Tokyo?")


def test_a_dislike_applies_when_the_request_names_its_keyword() -> None:
    cilantro = pref("hates cilantro", "dislike", "food", "cilantro")
    assert dislike_applies(cilantro, "Is there cilantro in pho?")
    assert not dislike_applies(cilantro, "Is there coriander seed in curry?")
    assert not dislike_applies(pref("likes cilantro", "like", "food", "cilantro"), "cilantro?")


def roles(messages: list[tuple[str, str]]) -> list[str]:
    return [r for r, _ in messages]


def turns(messages: list[tuple[str, str]], **kw: object) -> list[tuple[str, str]]:
    return select_turns(messages, lambda m: m[0], lambda m: m[1], **kw)  # type: ignore[arg-type]


def test_turns_keep_their_order_and_alternate() -> None:
    chat = [("user", "a"), ("assistant", "b"), ("user", "c"), ("assistant", "d"), ("user", "e")]
    assert turns(chat) == chat


def test_a_scrubbed_user_message_takes_its_orphan_answer_with_it() -> None:
    # a forget removed the user message "I hate durian" but kept the reply to it
    chat = [("user", "hi"), ("assistant", "hello"), ("assistant", "noted: durian"),
            ("user", "recommend a fruit")]  # fmt: skip
    kept = turns(chat)
    assert kept == [("user", "hi"), ("assistant", "hello"), ("user", "recommend a fruit")]


def test_a_scrubbed_answer_drops_its_question() -> None:
    chat = [("user", "I hate durian"), ("user", "hi"), ("assistant", "hello"), ("user", "next")]
    assert roles(turns(chat)) == ["user", "assistant", "user"]
    assert turns(chat)[0] == ("user", "hi")


def test_messages_before_the_first_user_message_are_dropped() -> None:
    assert turns([("assistant", "orphan"), ("user", "hi")]) == [("user", "hi")]


def test_only_the_most_recent_whole_turns_fit_the_limits() -> None:
    chat = [m for i in range(10) for m in (("user", f"q{i}"), ("assistant", f"a{i}"))]
    chat.append(("user", "now"))
    kept = turns(chat, max_turns=3)
    assert kept == [("user", "q8"), ("assistant", "a8"), ("user", "q9"), ("assistant", "a9"),
                    ("user", "now")]  # fmt: skip
    assert turns(chat, token_budget=1) == [("user", "now")]  # the request is always kept


def test_the_model_sees_alternating_turns_after_a_forget() -> None:
    messages = [
        HumanMessage("I like jazz"), AIMessage("Noted."), AIMessage("Noted: durian."),
        HumanMessage("Suggest music"), AIMessage("", tool_calls=[
            {"name": "recall_memory", "args": {"query": "music"}, "id": "c1"}]),
        ToolMessage("jazz", tool_call_id="c1"),
    ]  # fmt: skip
    seen = recent_turns(messages)
    assert [m.type for m in seen] == ["human", "ai", "human", "ai", "tool"]
    assert seen[1].content == "Noted."


class _Gated:
    """A hash embedder that declares a request floor (as USE does)."""

    def __init__(self, margin: float, slope: float) -> None:
        from penchant.memory.embeddings import HashEmbedder

        self.inner = HashEmbedder()
        self.name, self.dim = "gated-hash", self.inner.dim
        self.request_margin, self.request_slope = margin, slope

    def embed(self, texts: list[str]) -> Any:
        return self.inner.embed(texts)


def test_the_request_floor_rises_by_the_slope_below_the_margin() -> None:
    gated = _Gated(margin=0.03, slope=2.0)
    q = gated.embed(["what is the time"])[0]
    d = float(q @ generic_vector(gated)) - float(q @ neutral_vector(gated))
    assert request_floor(gated, q) == pytest.approx(2.0 * max(0.0, 0.03 - d))
    assert request_floor(_Gated(margin=0.03, slope=0.0), q) == 0.0
    assert request_floor(_Gated(margin=d - 0.01, slope=2.0), q) == 0.0  # above the margin
    from penchant.memory.embeddings import HashEmbedder

    assert request_floor(HashEmbedder(), q) == 0.0  # no calibrated floor: never raised


def test_the_neutral_background_is_not_the_benchs_unrelated_set() -> None:
    """The request floor is calibrated on the bench's unrelated requests, so its background
    must not contain them (the held-out half would be measured on its own background)."""
    import json
    from pathlib import Path

    from penchant.memory.recall import NEUTRAL_REQUESTS

    path = Path(__file__).resolve().parents[2] / "bench" / "data" / "unrelated_requests.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert {r["split"] for r in rows} == {"tune", "held_out"}
    assert not {r["text"].casefold() for r in rows} & {t.casefold() for t in NEUTRAL_REQUESTS}
