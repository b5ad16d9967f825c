"""Cross-language recall (``recall-k2.jsonl``) on the default embedder, USE multilingual v3.

Each query of each case is one named test: Chinese preferences must be found by English
requests and English preferences by Chinese ones, where the two share no word, so the
lexical channel cannot help and only a multilingual vector space can.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import redis

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.core.lexical import tokenize
from penchant.memory.embeddings import USEEmbedder, embedding_text
from penchant.memory.model.records import Preference
from penchant.memory.recall.engine import Recaller

from conftest import load_cases


def _queries() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [
        (f"{case['id']}:{query['q']}", case, query)
        for case in load_cases("recall-k2.jsonl")
        for query in case["queries"]
    ]


def _stored(case: dict[str, Any], embedder: USEEmbedder) -> list[Preference]:
    """The case's preferences as the gate stores them (vector of content plus category)."""
    texts = [embedding_text(p["content"], p.get("category", "other")) for p in case["prefs"]]
    vectors = embedder.embed(texts)
    return [
        Preference(
            user_id=case["id"],
            content=p["content"],
            polarity=p["polarity"],
            keywords=p.get("keywords", []),
            category=p.get("category", "other"),
            embedding=np.asarray(v, dtype=np.float32).tobytes(),
            embedding_model=embedder.name,
            embedding_dim=embedder.dim,
        )
        for p, v in zip(case["prefs"], vectors, strict=True)
    ]


@pytest.mark.model
@pytest.mark.parametrize(
    ("label", "case", "query"), _queries(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_recall_k2_case(
    use_embedder: USEEmbedder, label: str, case: dict[str, Any], query: dict[str, Any]
) -> None:
    prefs = _stored(case, use_embedder)
    result = Recaller(use_embedder).recall(prefs, query["q"], k=query["k"])
    got = [item.preference.content for item in result.items]
    for relevant in query["relevant"]:
        hits = [item for item in result.items if relevant in item.preference.content]
        assert hits, f"{label}: {relevant!r} not in top {query['k']}: {got}"
        assert all(item.matched for item in hits), f"{label}: {relevant!r} not labelled relevant"


def test_recall_k2_queries_share_no_word_with_what_they_must_find() -> None:
    # Guards the point of the cases: a hit must come from meaning, not from BM25.
    for label, case, query in _queries():
        wanted = [p for p in case["prefs"] if any(r in p["content"] for r in query["relevant"])]
        for p in wanted:
            shared = set(tokenize(query["q"])) & set(tokenize(p["content"]))
            assert not shared, f"{label}: shares {shared} with {p['content']!r}"


@pytest.mark.model
def test_english_preference_is_recalled_for_a_chinese_request_through_memory(
    redis_client: redis.Redis, settings: Settings, use_embedder: USEEmbedder
) -> None:
    memory = Memory(redis_client, settings=settings, embedder=use_embedder)
    memory.backend.ensure_schema()
    memory.remember("xl", [
        PreferenceCandidate(content="likes bamboo products", polarity="like",
                            keywords=["bamboo"], category="material"),
        PreferenceCandidate(content="hates horror movies", polarity="dislike",
                            keywords=["horror movie"], category="movies"),
    ])  # fmt: skip
    stored = memory.preferences("xl")
    assert {p.embedding_model for p in stored} == {use_embedder.name}
    result = memory.recall("xl", "给我推荐一个竹子做的收纳盒", k=1)
    assert [i.preference.content for i in result.items] == ["likes bamboo products"]
    assert result.items[0].channels.get("semantic") == 1 and result.stale == {}


@pytest.mark.model
def test_chinese_preference_is_recalled_for_an_english_request_through_memory(
    redis_client: redis.Redis, settings: Settings, use_embedder: USEEmbedder
) -> None:
    memory = Memory(redis_client, settings=settings, embedder=use_embedder)
    memory.backend.ensure_schema()
    memory.remember("xl2", [
        PreferenceCandidate(content="喜欢竹制品", polarity="like", keywords=["竹制品"],
                            category="material"),
        PreferenceCandidate(content="不喜欢潮湿的天气", polarity="dislike", keywords=["潮湿"],
                            category="weather"),
    ])  # fmt: skip
    result = memory.recall("xl2", "Recommend a storage box made of bamboo", k=1)
    assert [i.preference.content for i in result.items] == ["喜欢竹制品"]
    assert result.items[0].matched
