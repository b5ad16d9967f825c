"""Re-embedding after a model change: never mix vector spaces."""

from __future__ import annotations

import pytest
import redis

from penchant.memory import InvalidInputError, Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import HashEmbedder
from penchant.memory.reembed import reembed


def _seed(memory: Memory) -> None:
    memory.remember("u", [
        PreferenceCandidate(content="likes green tea", polarity="like", keywords=["green tea"]),
        PreferenceCandidate(content="dislikes coffee", polarity="dislike", keywords=["coffee"]),
    ])


def test_model_change_is_detected_and_reembed_moves_every_vector(
    redis_client: redis.Redis, settings: Settings
) -> None:
    old = Memory(redis_client, settings=settings, embedder=HashEmbedder(64))
    _seed(old)
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))
    dry = reembed(new, ["u"], dry_run=True)
    assert dry["stale"] == 2 and dry["reembedded"] == 0
    assert {p.embedding_model for p in new.preferences("u")} == {"hash-64"}
    report = reembed(new, ["u"])
    assert report["reembedded"] == 2
    prefs = new.preferences("u", with_embeddings=True)
    assert {(p.embedding_model, p.embedding_dim) for p in prefs} == {("hash-32", 32)}
    assert all(p.embedding is not None and len(p.embedding) == 128 for p in prefs)
    assert reembed(new, ["u"])["stale"] == 0


def test_reembed_keeps_everything_but_the_vector(memory: Memory, redis_client: redis.Redis,
                                                 settings: Settings) -> None:
    _seed(memory)
    before = {p.id: p for p in memory.preferences("u")}
    other = Memory(redis_client, settings=settings, embedder=HashEmbedder(16))
    reembed(other, ["u"])
    for pref in other.preferences("u"):
        old = before[pref.id]
        assert pref.model_dump(exclude={"embedding_model", "embedding_dim"}) == old.model_dump(
            exclude={"embedding_model", "embedding_dim"}
        )


def test_reembed_without_embedder_is_an_error(redis_client: redis.Redis,
                                              settings: Settings) -> None:
    with pytest.raises(InvalidInputError):
        reembed(Memory(redis_client, settings=settings, embedder=None), ["u"])
