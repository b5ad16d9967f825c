"""Erasure (issue 11, DESIGN.md §7): after a forget no plaintext of the forgotten preference is
anywhere in Redis, and after ``delete-user`` no key of that user is, while every other user's
keys are untouched. Both doors (``Memory``, ``AsyncMemory``); the whole keyspace is scanned and
every value of every type dumped."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import numpy as np
import pytest
import redis

from penchant.memory import (
    AsyncMemory,
    HistorySnapshot,
    Memory,
    PreferenceCandidate,
    Settings,
)
from penchant.memory.backends import redis_embeddings_cache
from penchant.memory.core.observations import ObservationCandidate
from penchant.memory.embeddings import HashEmbedder
from penchant.memory.embeddings.base import (
    CACHE_INDEX_KEY,
    CACHE_MAX_ENTRIES,
    CACHE_TTL_SECONDS,
    cache_keys,
    embed_with,
    embedding_text,
)
from penchant.memory.model.keys import CHECKUP_DUE_KEY, USERS_KEY, UserKeys

from conftest import Door, async_client

USER = "erasure-user"
OTHER = "erasure-other"
FORGOTTEN_LIKE = "I like espresso martinis"
FORGOTTEN_DISLIKE = "I dislike espresso martinis now"
FORGOTTEN_WORDS = ("espresso", "martini")


class CachingEmbedder:
    """The deterministic hash embedder behind redisvl's vectorizer and Penchant's embeddings
    cache, the path MiniLM and OpenAI take."""

    def __init__(self, client: redis.Redis) -> None:
        from redisvl.utils.vectorize import CustomVectorizer

        inner = HashEmbedder()
        self.name, self.dim = "hash-cached-64", inner.dim
        self.vectorizer = CustomVectorizer(
            embed=lambda text, **_: inner.embed([text])[0].tolist(),
            embed_many=lambda texts, **_: inner.embed(list(texts)).tolist(),
            cache=redis_embeddings_cache(client, CACHE_TTL_SECONDS, CACHE_MAX_ENTRIES),
        )
        self.vectorizer.model = self.name

    def embed(self, texts: list[str]) -> np.ndarray:
        return embed_with(self.vectorizer, texts, self.dim)


def _door_factory(
    kind: str, redis_client: redis.Redis, redis_url: str
) -> tuple[Callable[[Settings], Door], list[Any]]:
    clients: list[Any] = []

    def make(settings: Settings) -> Door:
        embedder = CachingEmbedder(redis_client)
        if kind == "Memory":
            return Door(Memory(redis_client, settings=settings, embedder=embedder))
        client = async_client(redis_url)
        clients.append(client)
        return Door(AsyncMemory(client, settings=settings, embedder=embedder))

    return make, clients


@pytest.fixture(params=["Memory", "AsyncMemory"])
async def doors(
    request: pytest.FixtureRequest, redis_client: redis.Redis, redis_url: str
) -> AsyncIterator[Callable[[Settings], Door]]:
    make, clients = _door_factory(request.param, redis_client, redis_url)
    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
async def door(doors: Callable[[Settings], Door], settings: Settings) -> Door:
    return doors(settings)


def dump_all(client: redis.Redis) -> dict[bytes, bytes]:
    """Every key of the server → its type and every value it holds, as bytes."""
    found: dict[bytes, bytes] = {}
    for key in client.scan_iter(count=1000):
        kind = client.type(key).decode()
        value: Any
        if kind == "string":
            value = client.get(key)
        elif kind == "hash":
            value = client.hgetall(key)
        elif kind == "list":
            value = client.lrange(key, 0, -1)
        elif kind == "set":
            value = sorted(client.smembers(key))
        elif kind == "zset":
            value = client.zrange(key, 0, -1, withscores=True)
        elif kind == "stream":
            value = client.xrange(key)
        else:
            raise AssertionError(f"key {key!r} has a type this test does not dump: {kind}")
        found[key] = kind.encode() + b"\0" + repr(value).encode()
    return found


def plaintext_hits(client: redis.Redis, *needles: str) -> list[str]:
    """``key: needle`` for every key whose name or value holds one of ``needles``."""
    hits = []
    for key, value in dump_all(client).items():
        # repr() escapes non-ASCII bytes: compare the JSON-decoded text as well
        blob = (key + b" " + value).decode("unicode_escape", "replace").lower()
        raw = (key + b" " + value).lower()
        for needle in needles:
            if needle.lower() in blob or needle.lower().encode() in raw:
                hits.append(f"{key.decode(errors='replace')}: {needle}")
    return hits


async def _fill(door: Door, user: str, *, forgotten: bool = True) -> None:
    """Every kind of record, most of them copying the text that will be forgotten."""
    like = PreferenceCandidate(content=FORGOTTEN_LIKE, polarity="like",
                               keywords=["espresso martini"], category="drink")
    hiking = PreferenceCandidate(content="I like hiking", polarity="like", keywords=["hiking"])
    first = await door.remember(user, [like, hiking], idempotency_key="turn-1")
    ids = {p.content: p.id for p in first.created}
    await door.write_observations(user, [ObservationCandidate(
        content="enjoys espresso martini cocktails", confidence=0.6,
        sources=[ids[FORGOTTEN_LIKE]],
    ), ObservationCandidate(content="enjoys the outdoors", confidence=0.6,
                            sources=[ids["I like hiking"]])])  # fmt: skip
    if forgotten:  # the like is superseded: its text lives on in the log and idempotency
        dislike = PreferenceCandidate(content=FORGOTTEN_DISLIKE, polarity="dislike",
                                      keywords=["espresso martini"], category="drink")
        await door.remember(user, dislike, idempotency_key="turn-2")
    await door.append_transcript(user, "t1", "user", "honestly espresso martinis are the best")
    await door.append_transcript(user, "t1", "user", "let's plan a hiking trip")
    await door.record_history(user, HistorySnapshot(kind="search",
                                                    summary="searched espresso martini glasses"))
    await door.record_history(user, HistorySnapshot(kind="view", summary="viewed hiking boots"))
    await door.recall(user, "an espresso martini recipe please")  # a cached query embedding


async def test_a_forget_leaves_no_plaintext_of_the_forgotten_preference_anywhere(
    door: Door, redis_client: redis.Redis
) -> None:
    await _fill(door, USER)
    assert plaintext_hits(redis_client, *FORGOTTEN_WORDS)  # the scan sees the text before
    result = await door.forget(USER, "espresso martini")
    assert [p.content for p in result.removed] == [FORGOTTEN_DISLIKE]
    assert plaintext_hits(redis_client, FORGOTTEN_LIKE, FORGOTTEN_DISLIKE,
                          *FORGOTTEN_WORDS) == []  # fmt: skip
    # what was not forgotten is still there, in every kind of record
    assert [p.content for p in await door.preferences(USER)] == ["I like hiking"]
    assert [o.content for o in await door.observations(USER)] == ["enjoys the outdoors"]
    assert [m["text"] for m in await door.transcript(USER, "t1")] == ["let's plan a hiking trip"]
    assert [h.summary for h in await door.history(USER)] == ["viewed hiking boots"]
    assert plaintext_hits(redis_client, "hiking", "outdoors")


async def test_the_change_log_keeps_a_tombstone_event_of_a_forget(
    door: Door, redis_client: redis.Redis
) -> None:
    await door.remember(USER, PreferenceCandidate(content=FORGOTTEN_LIKE, polarity="like",
                                                  keywords=["espresso martini"]))
    (removed,) = (await door.forget(USER, "espresso martini")).removed
    events = await door.changes(USER)
    assert [e.op for e in events] == ["forgotten"]  # the created event held the text
    (event,) = events
    assert event.before is not None and event.before["id"] == removed.id
    assert "content" not in event.before and event.digest and len(event.digest) == 32
    assert "espresso" not in event.model_dump_json()


async def test_with_full_history_the_log_and_transcripts_keep_the_forgotten_text(
    doors: Callable[[Settings], Door], settings: Settings, redis_client: redis.Redis
) -> None:
    door = doors(settings.model_copy(update={"keep_full_history": True}))
    await _fill(door, USER, forgotten=False)
    await door.forget(USER, "espresso martini")
    forgotten = [e for e in await door.changes(USER) if e.op == "forgotten"]
    assert forgotten[0].before is not None and forgotten[0].before["content"] == FORGOTTEN_LIKE
    assert any("espresso" in m["text"] for m in await door.transcript(USER, "t1"))
    assert await door.preferences(USER) and all(
        "espresso" not in p.content for p in await door.preferences(USER)
    )


async def test_a_forget_drops_the_cached_embedding_of_the_removed_text(
    door: Door, redis_client: redis.Redis
) -> None:
    pref = PreferenceCandidate(content=FORGOTTEN_LIKE, polarity="like", category="drink",
                               keywords=["espresso martini"])
    await door.remember(USER, pref)
    (key,) = cache_keys([embedding_text(FORGOTTEN_LIKE, "drink")], ["hash-cached-64"])
    assert redis_client.exists(key) and redis_client.ttl(key) > 0
    await door.forget(USER, "espresso martini")
    assert not redis_client.exists(key) and redis_client.zscore(CACHE_INDEX_KEY, key) is None


async def test_delete_user_removes_every_key_of_the_user_and_nothing_of_another(
    door: Door, redis_client: redis.Redis
) -> None:
    await _fill(door, USER)
    await _fill(door, OTHER)
    await door.forget(USER, "hiking")  # tombstones
    await door.schedule_checkup(USER, 1)
    await door.schedule_checkup(OTHER, 1)
    other_tag = UserKeys.for_user(OTHER).tag.encode()
    before = {k: v for k, v in dump_all(redis_client).items() if k.startswith(other_tag)}
    result = await door.delete_user(USER)
    tag = UserKeys.for_user(USER).tag.encode()
    assert [k for k in dump_all(redis_client) if k.startswith(tag)] == []
    assert b"erasure-user" not in redis_client.smembers(USERS_KEY)
    assert redis_client.zscore(CHECKUP_DUE_KEY, USER) is None
    assert result.removed and result.preferences_removed == 1  # the dislike (hiking forgotten)
    assert result.keys_removed >= 10 and result.cached_embeddings_removed == 1
    after = {k: v for k, v in dump_all(redis_client).items() if k.startswith(other_tag)}
    assert after == before
    assert redis_client.zscore(CHECKUP_DUE_KEY, OTHER) == 1
    assert OTHER in await door.users()
    hits = plaintext_hits(redis_client, FORGOTTEN_DISLIKE)
    assert hits and all(h.startswith(other_tag.decode()) for h in hits)  # only the other's


async def test_delete_user_twice_removes_nothing_the_second_time(door: Door) -> None:
    await door.remember(USER, PreferenceCandidate(content="I like tea", polarity="like"))
    assert (await door.delete_user(USER)).removed
    again = await door.delete_user(USER)
    assert not again.removed and again.keys_removed == 0
    assert "nothing was removed" in again.describe()
    assert await door.preferences(USER) == []


def test_cli_delete_user_reports_what_it_removed_and_is_idempotent(
    cli: Any, cli_env: dict[str, str], redis_client: redis.Redis
) -> None:
    stored = cli(["remember", "--user", USER, "--polarity", "like", "--content",
                  "I like green tea"], cli_env)  # fmt: skip
    assert stored.returncode == 0
    first = cli(["delete-user", "--user", USER, "--json"], cli_env)
    assert first.returncode == 0, first.stderr
    document = json.loads(first.stdout)
    assert document["removed"] and document["preferences_removed"] == 1
    assert document["keys_removed"] >= 3
    second = cli(["delete-user", "--user", USER], cli_env)
    assert second.returncode == 0 and "nothing was removed" in second.stdout
    tag = UserKeys.for_user(USER).tag
    assert list(redis_client.scan_iter(match=f"{tag}:*")) == []


def test_the_embeddings_cache_is_bounded_expires_and_holds_no_text(
    redis_client: redis.Redis,
) -> None:
    embedder = CachingEmbedder(redis_client)
    embedder.vectorizer.cache = redis_embeddings_cache(redis_client, 60, 5)
    texts = [f"cached sentence number {i}" for i in range(8)]
    embedder.embed(texts)
    assert redis_client.zcard(CACHE_INDEX_KEY) == 5
    live = cache_keys(texts, [embedder.name])
    kept = [k for k in live if redis_client.exists(k)]
    assert kept == live[3:]  # the oldest three went first
    assert all(0 < redis_client.ttl(k) <= 60 for k in kept)
    assert plaintext_hits(redis_client, "cached sentence") == []
    again = embedder.embed(texts[3:])  # hits: the same vectors
    assert np.allclose(again, HashEmbedder().embed(texts[3:]), atol=1e-6)


def test_the_backend_gives_the_embeddings_cache_on_its_own_client(
    redis_client: redis.Redis,
) -> None:
    backend = Memory(redis_client).backend
    cache = backend.embeddings_cache(60, 5)
    key = cache.set("I like tea", "hash-cached-64", [0.5, 0.5])
    assert redis_client.zscore(CACHE_INDEX_KEY, key) is not None
    assert 0 < redis_client.ttl(key) <= 60
    assert cache.get("I like tea", "hash-cached-64")["embedding"] == [0.5, 0.5]
    assert plaintext_hits(redis_client, "I like tea") == []
    assert backend.embeddings_cache(60, 0) is None  # a bound of 0 turns it off


def test_the_plaintext_cache_of_an_earlier_release_is_purged(redis_client: redis.Redis) -> None:
    redis_client.hset("penchant:embeddings:abc", mapping={"content": "I like espresso"})
    cache = redis_embeddings_cache(redis_client, CACHE_TTL_SECONDS, CACHE_MAX_ENTRIES)
    assert redis_client.exists("penchant:embeddings:abc")  # building it sends nothing
    assert cache.mget(["I like tea"], "hash-cached-64") == [None]  # its first command purges
    assert not redis_client.exists("penchant:embeddings:abc")


def serialized_hits(client: Any, *needles: str) -> list[str]:
    """``key: needle`` for every key whose ``DUMP`` (what an RDB or an AOF rewrite writes)
    holds a needle's bytes: deleted-but-kept bytes count, unlike what commands return."""
    hits = []
    # LZF would hide a needle inside a DUMP; on a cluster, every node dumps its own keys
    if isinstance(client, redis.cluster.RedisCluster):
        client.config_set("rdbcompression", "no", target_nodes=client.ALL_NODES)
    else:
        client.config_set("rdbcompression", "no")
    for key in client.scan_iter(count=1000):
        blob = (client.dump(key) or b"").lower()
        hits += [f"{key.decode(errors='replace')}: {n}" for n in needles
                 if n.lower().encode() in blob]  # fmt: skip
    return hits


async def test_no_serialized_key_holds_the_forgotten_text_after_a_forget(
    door: Door, redis_client: redis.Redis
) -> None:
    """Issue 19: ``XDEL`` left the scrubbed events' bytes in the change log's ``DUMP``, and a
    check-up flag kept the forgotten preference's text."""
    from penchant.memory.model.flags import Flag, flag_id

    jam = PreferenceCandidate(content="I like cloudberry jam on toast", polarity="like",
                              keywords=["cloudberry jam"], category="food")  # fmt: skip
    sugar = PreferenceCandidate(content="I avoid sugary spreads", polarity="dislike",
                                keywords=["sugary spread"], category="food")  # fmt: skip
    made = await door.remember(USER, [jam, sugar])
    for i in range(30):  # later events share the stream's nodes with the ones to scrub
        await door.remember(USER, PreferenceCandidate(
            content=f"I like board game {i}", polarity="like", keywords=[f"board game {i}"]))
    ids = [p.id for p in made.created]
    await door.write_flags(USER, [Flag(
        id=flag_id("contradiction", ids), user_id=USER, kind="contradiction",
        preference_ids=ids, contents=[jam.content, sugar.content], reason="sweet vs not")])
    assert serialized_hits(redis_client, "cloudberry")  # in the log, the flag, the prefs
    result = await door.forget(USER, "cloudberry jam")
    assert [p.content for p in result.removed] == [jam.content]
    assert serialized_hits(redis_client, "cloudberry") == []
    assert await door.flags(USER) == []
    assert len(await door.preferences(USER)) == 31  # the rest stays
    assert any("board game 7" in (e.after or {}).get("content", "")
               for e in await door.changes(USER, 100))  # the log's other events stay


async def test_no_serialized_key_holds_the_text_a_capped_change_log_pushed_out_or_forgot(
    doors: Callable[[Settings], Door], settings: Settings, redis_client: redis.Redis
) -> None:
    """Issue 19: the cap trims the change log's stream, events and erasure index together,
    and a forget removes its events one by one (``HDEL``): no ``DUMP`` holds either text."""
    door = doors(settings.model_copy(update={"change_log_max": 10}))
    await door.remember(USER, PreferenceCandidate(
        content="I like cloudberry jam", polarity="like", keywords=["cloudberry jam"]))
    superseded = await door.remember(USER, PreferenceCandidate(
        content="I dislike quince paste now", polarity="dislike", keywords=["quince paste"]))
    await door.remember(USER, PreferenceCandidate(
        content="I like quince paste again", polarity="like", keywords=["quince paste"]))
    for i in range(12):  # pushes both out of the log
        await door.remember(USER, PreferenceCandidate(
            content=f"I like board game {i}", polarity="like", keywords=[f"board game {i}"]))
    assert superseded.created and serialized_hits(redis_client, "dislike quince") == []
    await door.remember(USER, PreferenceCandidate(
        content="I really like cloudberry jam", polarity="like", keywords=["cloudberry jam"]))
    assert serialized_hits(redis_client, "cloudberry")
    (removed,) = (await door.forget(USER, "cloudberry jam")).removed
    assert serialized_hits(redis_client, "cloudberry") == []
    keys = UserKeys.for_user(USER)
    assert not any(removed.id.encode() in v for v in redis_client.hvals(keys.change_index))
    assert redis_client.xlen(keys.changes) == redis_client.hlen(keys.change_events) == 9


async def test_an_older_releases_inline_change_events_are_read_and_erased(
    door: Door, redis_client: redis.Redis
) -> None:
    """A stream written by an older release holds the events inline (field ``event``):
    ``changes`` still reads them, and a forget finds them through their ``ix`` terms and
    rewrites the stream without their bytes, beside the new events it removes alone."""
    from penchant.memory.core import event_terms
    from penchant.memory.model import ChangeEvent

    keys = UserKeys.for_user(USER)
    old = [ChangeEvent(op="rejected", reason="screened", content=text)
           for text in ("I like cloudberry jam", "I like rye bread")]  # fmt: skip
    for event in old:
        redis_client.xadd(keys.changes, {"event": event.model_dump_json(),
                                         "ix": event_terms(event)})  # fmt: skip
    await door.remember(USER, PreferenceCandidate(
        content="I like cloudberry jam on toast", polarity="like", keywords=["cloudberry jam"]))
    assert [e.op for e in await door.changes(USER)] == ["created", "rejected", "rejected"]
    (removed,) = (await door.forget(USER, "cloudberry jam")).removed
    assert serialized_hits(redis_client, "cloudberry") == []
    assert [e.content for e in await door.changes(USER) if e.op == "rejected"] == [
        "I like rye bread"]
    assert serialized_hits(redis_client, "rye bread")
