"""A store made with another model keeps working, says when it needs `penchant reembed`,
and reembed moves every vector with counts verified before and after."""

from __future__ import annotations

import json

import numpy as np
import pytest
import redis

from penchant.memory import InvalidInputError, Memory, PenchantError, PreferenceCandidate, Settings
from penchant.memory.embeddings import Embedder, HashEmbedder
from penchant.memory.services.reembed import reembed, vector_report

from conftest import CliRunner


class RetiredEmbedder(HashEmbedder):
    """Vectors of a model this install cannot rebuild (a retired or uninstalled one)."""

    def __init__(self) -> None:
        super().__init__(24)
        self.name = "retired/model-v0"


def _seed(memory: Memory, user: str = "u") -> None:
    memory.remember(user, [
        PreferenceCandidate(content="likes green tea", polarity="like", keywords=["green tea"]),
        PreferenceCandidate(content="dislikes coffee", polarity="dislike", keywords=["coffee"]),
    ])  # fmt: skip


def _vectors(memory: Memory, user: str = "u") -> dict[str, tuple[str | None, bytes | None]]:
    return {
        p.id: (p.embedding_model, p.embedding)
        for p in memory.preferences(user)
    }


def test_model_change_is_detected_and_reembed_moves_every_vector(
    redis_client: redis.Redis, settings: Settings
) -> None:
    old = Memory(redis_client, settings=settings, embedder=HashEmbedder(64))
    _seed(old)
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))
    dry = reembed(new, ["u"], dry_run=True)
    assert dry["stale"] == 2 and dry["reembedded"] == 0
    assert dry["stale_by_model"] == {"hash-64": 2}
    assert {p.embedding_model for p in new.preferences("u")} == {"hash-64"}
    report = reembed(new, ["u"])
    assert report["reembedded"] == 2 and report["preferences"] == 2
    prefs = new.preferences("u")
    assert {(p.embedding_model, p.embedding_dim) for p in prefs} == {("hash-32", 32)}
    assert all(p.embedding is not None and len(p.embedding) == 128 for p in prefs)
    assert reembed(new, ["u"])["stale"] == 0


def test_dry_run_writes_nothing(redis_client: redis.Redis, settings: Settings) -> None:
    _seed(Memory(redis_client, settings=settings, embedder=HashEmbedder(64)))
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))
    before, revision = _vectors(new), new.snapshot("u").revision
    reembed(new, ["u"], dry_run=True)
    assert _vectors(new) == before
    assert new.snapshot("u").revision == revision


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


def test_reembed_refuses_to_report_success_when_a_preference_vanished_meanwhile(
    redis_client: redis.Redis, settings: Settings
) -> None:
    _seed(Memory(redis_client, settings=settings, embedder=HashEmbedder(64)))
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))

    def forget_during_the_run(user: str, done: int, total: int) -> None:
        new.forget(user, "coffee")

    with pytest.raises(PenchantError, match=r"2 active preferences before, 1 after.*reembed"):
        reembed(new, ["u"], progress=forget_during_the_run)


def test_reembed_without_embedder_is_an_error(redis_client: redis.Redis,
                                              settings: Settings) -> None:
    with pytest.raises(InvalidInputError):
        reembed(Memory(redis_client, settings=settings, embedder=None), ["u"])


def test_store_of_another_shipped_model_is_recalled_by_meaning_before_reembed(
    redis_client: redis.Redis, settings: Settings
) -> None:
    _seed(Memory(redis_client, settings=settings, embedder=HashEmbedder(64)))
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))
    result = new.recall("u", "green tea please", k=1)
    assert result.items[0].preference.content == "likes green tea"
    assert result.items[0].channels.get("semantic") == 1 and result.stale == {}
    assert vector_report(new) == {
        "vectors": {"hash-64 (64-d)": 2}, "reembed_needed": 2, "vectors_unusable": 0,
    }  # fmt: skip
    reembed(new, ["u"])
    assert vector_report(new)["reembed_needed"] == 0


def test_store_of_an_unusable_model_is_found_by_words_and_says_reembed(
    redis_client: redis.Redis, settings: Settings
) -> None:
    _seed(Memory(redis_client, settings=settings, embedder=RetiredEmbedder()))
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))
    result = new.recall("u", "some green tea", k=2)
    top = result.items[0]
    assert top.preference.content == "likes green tea" and "lexical" in top.channels
    assert "semantic" not in top.channels
    assert result.stale == {"retired/model-v0": 2}
    assert vector_report(new)["vectors_unusable"] == 2


def test_cli_recall_and_doctor_say_reembed_is_needed_until_it_runs(
    cli: CliRunner, redis_client: redis.Redis, settings: Settings, cli_env: dict[str, str]
) -> None:
    old = Memory(redis_client, settings=settings, embedder=RetiredEmbedder())
    old.backend.ensure_schema()
    _seed(old, "ana")

    recalled = cli(["recall", "--user", "ana", "green tea", "--json"], cli_env)
    assert recalled.returncode == 0, recalled.stderr
    document = json.loads(recalled.stdout)
    assert document["items"][0]["content"] == "likes green tea"
    assert any("penchant reembed" in w for w in document["warnings"])
    assert "penchant reembed" in recalled.stderr

    doctor = json.loads(cli(["doctor", "--json"], cli_env).stdout)
    assert doctor["reembed_needed"] == 2 and doctor["vectors_unusable"] == 2

    dry = json.loads(cli(["reembed", "--dry-run", "--json"], cli_env).stdout)
    assert dry["stale"] == 2 and dry["reembedded"] == 0
    done = json.loads(cli(["reembed", "--json"], cli_env).stdout)
    assert done["reembedded"] == 2
    doctor = json.loads(cli(["doctor", "--json"], cli_env).stdout)
    assert doctor["reembed_needed"] == 0 and doctor["vectors"] == {"hash-64 (64-d)": 2}
    again = json.loads(cli(["recall", "--user", "ana", "green tea", "--json"], cli_env).stdout)
    assert "warnings" not in again
    stored = Memory(redis_client, settings=settings, embedder=None).preferences(
        "ana"
    )
    assert all(len(np.frombuffer(p.embedding or b"", np.float32)) == 64 for p in stored)


@pytest.mark.minilm
@pytest.mark.model
def test_minilm_store_is_recalled_with_minilm_under_the_use_default(
    redis_client: redis.Redis, settings: Settings, use_embedder: Embedder
) -> None:
    from penchant.memory.embeddings import MINILM_MODEL, LocalEmbedder

    old = Memory(redis_client, settings=settings, embedder=LocalEmbedder())
    old.remember("m", [
        PreferenceCandidate(content="allergic to wool", polarity="dislike", keywords=["wool"]),
        PreferenceCandidate(content="listens to jazz", polarity="like", keywords=["jazz"]),
    ])  # fmt: skip
    new = Memory(redis_client, settings=settings, embedder=use_embedder)
    result = new.recall("m", "I need a warm sweater for winter", k=1)
    assert result.items[0].preference.content == "allergic to wool"
    assert "semantic" in result.items[0].channels and result.stale == {}
    assert vector_report(new)["vectors"] == {f"{MINILM_MODEL} (384-d)": 2}
    assert reembed(new, ["m"])["reembedded"] == 2
    assert vector_report(new)["reembed_needed"] == 0
