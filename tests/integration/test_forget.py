"""Forget: deterministic, word-boundary aware, exact about what it removed."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from penchant.memory import InvalidInputError, Memory, PreferenceCandidate


def remember(memory: Memory, polarity: str, content: str, *keywords: str) -> str:
    cand = PreferenceCandidate(content=content, polarity=polarity, keywords=list(keywords))  # type: ignore[arg-type]
    return memory.remember("u", cand).created[0].id


def test_forget_removes_exactly_the_match_and_reports_it(memory: Memory) -> None:
    coffee = remember(memory, "dislike", "dislikes coffee", "coffee")
    tea = remember(memory, "like", "likes jasmine tea", "jasmine tea")
    result = memory.forget("u", "coffee")
    assert [p.id for p in result.removed] == [coffee]
    assert [p.id for p in memory.preferences("u")] == [tea]
    assert memory.changes("u")[0].op == "forgotten"


def test_forget_is_word_boundary_aware(memory: Memory) -> None:
    remember(memory, "like", "likes steak", "steak")
    assert memory.forget("u", "tea").removed == []
    assert len(memory.preferences("u")) == 1


def test_forget_no_match_removes_nothing_and_logs_nothing(memory: Memory) -> None:
    remember(memory, "like", "likes hiking boots", "hiking boot")
    events = len(memory.changes("u"))
    assert memory.forget("u", "rubber").removed == []
    assert len(memory.preferences("u")) == 1 and len(memory.changes("u")) == events


def test_forget_limited_to_polarity(memory: Memory) -> None:
    dark = remember(memory, "like", "likes dark chocolate", "dark chocolate")
    remember(memory, "dislike", "dislikes milk chocolate", "milk chocolate")
    memory.forget("u", "chocolate", "dislike")
    assert [p.id for p in memory.preferences("u")] == [dark]


def test_forget_by_description_sentence(memory: Memory) -> None:
    remember(memory, "dislike", "dislikes coffee", "coffee")
    assert len(memory.forget("u", "forget that I dislike coffee").removed) == 1


def test_forget_chinese_keyword(memory: Memory) -> None:
    remember(memory, "dislike", "不要塑料制品", "塑料")
    remember(memory, "like", "喜欢帆布包", "帆布包")
    result = memory.forget("u", "塑料")
    assert [p.content for p in result.removed] == ["不要塑料制品"]
    assert [p.content for p in memory.preferences("u")] == ["喜欢帆布包"]


def test_forget_plural_matches_singular(memory: Memory) -> None:
    remember(memory, "dislike", "allergic to peanuts", "peanut")
    assert len(memory.forget("u", "Peanuts").removed) == 1


@pytest.mark.parametrize("text", ["", "   "])
def test_forget_empty_text_is_invalid(memory: Memory, text: str) -> None:
    remember(memory, "like", "likes tea", "tea")
    with pytest.raises(InvalidInputError):
        memory.forget("u", text)
    assert len(memory.preferences("u")) == 1


def test_forget_does_not_guess_vague_references(memory: Memory) -> None:
    remember(memory, "like", "likes an expensive watch", "watch")
    assert memory.forget("u", "that expensive one").removed == []


def test_forget_a_compound_leaves_its_parts(memory: Memory) -> None:
    remember(memory, "like", "likes tea", "tea")
    remember(memory, "like", "likes milk", "milk")
    assert memory.forget("u", "forget that I like milk tea").removed == []
    assert len(memory.preferences("u")) == 2


def test_forget_several_objects_at_once(memory: Memory) -> None:
    remember(memory, "dislike", "dislikes coffee", "coffee")
    remember(memory, "like", "likes jazz", "jazz")
    remember(memory, "like", "likes tea", "tea")
    result = memory.forget("u", "coffee and jazz")
    assert sorted(p.content for p in result.removed) == ["dislikes coffee", "likes jazz"]


def test_single_chinese_character_forgets_nothing(memory: Memory) -> None:
    remember(memory, "dislike", "不要塑料制品", "塑料")
    remember(memory, "like", "喜欢饮料", "饮料")
    assert memory.forget("u", "料").removed == []
    assert memory.forget("u", "的").removed == []
    assert len(memory.preferences("u")) == 2


def test_forget_matches_spelling_variants(memory: Memory) -> None:
    remember(memory, "like", "likes grey colours", "grey colour")
    assert len(memory.forget("u", "gray color").removed) == 1


def test_a_forget_whose_scrub_fails_is_reported_done_and_its_retry_reports_the_same(
    memory: Memory, redis_client: redis.Redis
) -> None:
    """Issue 19: the connection dropped during a forget's scrub; the forget raised after it
    was applied (the tool said "nothing was changed"), the text stayed in the change log, and
    a retry answered "removed nothing"."""
    from penchant.memory.backends.errors import translate

    memory.remember("odile", PreferenceCandidate(
        content="I like rhubarb crumble", polarity="like", keywords=["rhubarb crumble"]))
    real = memory.backend.erase
    failures = [redis.ConnectionError("Connection closed by server.")]

    def drops_once(*args: Any) -> int:
        if failures:
            raise translate(failures.pop(), "erase forgotten text")
        return real(*args)

    memory.backend.erase = drops_once  # type: ignore[method-assign]
    first = memory.forget("odile", "rhubarb", idempotency_key="tool-call-7")
    assert [p.content for p in first.removed] == ["I like rhubarb crumble"]
    assert first.scrub_pending and "retried on the next call" in first.describe()
    assert memory.preferences("odile") == []
    again = memory.forget("odile", "rhubarb", idempotency_key="tool-call-7")
    assert again.already_removed == [first.removed[0].id] and not again.scrub_pending
    assert "already done" in again.describe()
    log = json.dumps([e.model_dump(mode="json") for e in memory.changes("odile", 100)])
    assert "rhubarb" not in log  # the pending scrub ran at the retry
    other = memory.forget("odile", "rhubarb")  # no key: a new request, which finds nothing
    assert other.removed == [] and other.already_removed == []


@pytest.mark.parametrize("query", ["allergic to shrimp", "my shrimp allergy",
                                   "forget that I am allergic to shrimp"])
def test_forget_naming_an_allergy_removes_it_and_not_a_like_of_its_object(
    memory: Memory, query: str
) -> None:
    """Issue 17's breaker: ``forget "allergic to shrimp"`` removed nothing (the query became
    "allergic shrimp"); ``shrimp`` alone would also take "likes shrimp tempura"."""
    memory.capture("u", "I'm allergic to shrimp, but I really love shrimp tempura.")
    removed = memory.forget("u", query).removed
    assert [p.content for p in removed] == ["allergic to shrimp"]
    assert [p.content for p in memory.preferences("u")] == ["likes shrimp tempura"]


def test_forget_naming_an_intolerance_or_a_chinese_allergy(memory: Memory) -> None:
    memory.capture("u", "I'm lactose intolerant")
    memory.capture("u", "我对花生过敏，但是我喜欢花生酱的味道。")
    assert [p.content for p in memory.forget("u", "lactose intolerance").removed] == [
        "intolerant to lactose"]
    assert [p.content for p in memory.forget("u", "花生过敏").removed] == ["对花生过敏"]
    assert [p.content for p in memory.preferences("u")] == ["喜欢花生酱的味道"]
