"""Reads after another process's write fetch only what changed; large reads are paged.

Two ``Memory``/``AsyncMemory`` instances on one Redis play two processes: the writer's
commits reach the reader's cached snapshot through the user's revision log (a delta), and the
result must equal a full read by a third, cold instance. What the server executed is counted
with ``INFO commandstats`` (it counts commands run inside scripts too), so "no ``HGETALL``"
is checked on the server, not assumed.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from penchant.memory import AsyncMemory, Memory, PreferenceCandidate, Settings
from penchant.memory.backends import wire
from penchant.memory.core.observations import ObservationCandidate
from penchant.memory.core.snapshot import UserSnapshot
from penchant.memory.embeddings import HashEmbedder
from penchant.memory.model.flags import Flag, flag_id
from penchant.memory.model.keys import UserKeys

from conftest import Door, async_client, on_cluster, sync_client

USER = "delta-reader"
KEYS = UserKeys.for_user(USER)


@pytest.fixture(params=["Memory", "AsyncMemory"])
async def reader(
    request: pytest.FixtureRequest, redis_client: redis.Redis, redis_url: str, settings: Settings
) -> AsyncIterator[Door]:
    """The process that caches the user's snapshot (sync or async door)."""
    if request.param == "Memory":
        client = sync_client(redis_url)
        yield Door(Memory(client, settings=settings, embedder=HashEmbedder()))
        client.close()
        return
    aclient = async_client(redis_url)
    yield Door(AsyncMemory(aclient, settings=settings, embedder=HashEmbedder()))
    await aclient.aclose()


@pytest.fixture
def writer(redis_url: str, settings: Settings) -> Memory:
    """Another process writing the same user, on its own connection."""
    return Memory(sync_client(redis_url), settings=settings, embedder=HashEmbedder())


def like(content: str, *keywords: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=list(keywords))


def dislike(content: str, *keywords: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="dislike", keywords=list(keywords))


def many(n: int, start: int = 0) -> list[PreferenceCandidate]:
    return [like(f"likes product line {i} in cotton", f"product line {i}")
            for i in range(start, start + n)]  # fmt: skip


def state(snapshot: UserSnapshot) -> dict[str, Any]:
    """Everything a snapshot holds, comparable with ``==`` (vectors included)."""
    return {
        "revision": snapshot.revision,
        "prefs": {i: (p.model_dump(), p.embedding) for i, p in snapshot.active.prefs.items()},
        "observations": {i: o.model_dump() for i, o in snapshot.observations.items()},
        "flags": {i: f.model_dump() for i, f in snapshot.flags.items()},
        "tombstones": {k: t.model_dump() for k, t in snapshot.tombstones.by_key.items()},
        "legacy": set(snapshot.tombstones.legacy),
    }


def full_read(redis_client: redis.Redis, settings: Settings) -> UserSnapshot:
    """The user's snapshot as a cold instance reads it: whole, in one script."""
    cold = Memory(redis_client, settings=settings)
    cold.backend.inline_fields = 1_000_000
    return cold.snapshot(USER)


class ServerCommands:
    """Counts of the commands the server ran since :meth:`reset`, less those of the writes
    run through :meth:`excluding` (another process's, landing in the middle of a read)."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.excluded: Counter[str] = Counter()

    def reset(self) -> None:
        self.client.config_resetstat()
        self.excluded.clear()

    def _totals(self) -> Counter[str]:
        stats: Any = self.client.info("commandstats")
        return Counter({name.removeprefix("cmdstat_"): int(v["calls"])
                        for name, v in stats.items()})  # fmt: skip

    def excluding(self, write: Callable[[], Any]) -> None:
        before = self._totals()
        write()
        self.excluded += self._totals() - before
        self.excluded["info"] += 1

    def calls(self) -> dict[str, int]:
        left = self._totals() - self.excluded
        return {name: n for name, n in left.items() if n > 0}


@pytest.fixture
def server(redis_client: redis.Redis) -> ServerCommands:
    """Counts on the server that holds the user's keys (on a cluster: its slot's primary)."""
    if on_cluster():
        node: Any = redis_client.get_node_from_key(KEYS.rev)  # type: ignore[attr-defined]
        return ServerCommands(redis_client.get_redis_connection(node))  # type: ignore[attr-defined]
    return ServerCommands(redis_client)


async def read_delta(reader: Door, server: ServerCommands) -> tuple[UserSnapshot, dict[str, int]]:
    server.reset()
    snapshot = await reader.snapshot(USER)
    return snapshot, server.calls()


def assert_delta_only(calls: dict[str, int]) -> None:
    """One script that read only changed fields: no whole hash, no paging."""
    assert calls.get("evalsha") == 1, calls
    assert "hgetall" not in calls and "hscan" not in calls, calls
    assert calls.get("hmget", 0) >= 1, calls


async def test_each_kind_of_other_writers_change_reaches_the_snapshot_as_a_delta(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, many(20) + [like("I like plastic toys", "plastic")])
    before = await reader.snapshot(USER)
    kept = next(p for p in before.preferences() if p.keywords == ["product line 3"])

    def observe() -> None:
        ids = [p.id for p in writer.snapshot(USER).preferences()[:2]]
        writer.write_observations(
            USER, [ObservationCandidate(content="likes cotton products", confidence=0.6,
                                        sources=ids)])  # fmt: skip

    def flag() -> None:
        a, b = (p.id for p in writer.snapshot(USER).preferences()[:2])
        writer.write_flags(USER, [Flag(
            id=flag_id("duplicate", [a, b]), user_id=USER, kind="duplicate",
            preference_ids=[a, b], contents=["x", "y"], score=0.5, signals=["lexicon"],
            reason="test")])  # fmt: skip

    def revector() -> None:
        pref = next(p for p in writer.snapshot(USER).preferences()[5:] if p.id != kept.id)
        moved = pref.model_copy(update={"embedding_model": "other", "embedding_dim": 2})
        moved.embedding = b"\x01" * 8
        assert writer.replace_vectors(USER, {pref.id: moved}) == 1

    steps: list[tuple[str, Callable[[], Any]]] = [
        ("add", lambda: writer.remember(USER, like("I like green tea", "green tea"))),
        ("merge", lambda: writer.remember(USER, like("I like green tea a lot", "green tea"))),
        ("supersede", lambda: writer.remember(USER, dislike("I hate plastic toys", "plastic"))),
        ("observation", observe),
        ("flag", flag),
        ("vector replace", revector),
        ("forget", lambda: writer.forget(USER, "green tea")),
    ]
    for what, write in steps:
        write()
        after, calls = await read_delta(reader, server)
        assert_delta_only(calls)
        assert state(after) == state(full_read(redis_client, settings)), what
    assert after.active.prefs[kept.id] is kept  # unchanged records are shared, not re-parsed


async def test_a_log_trimmed_past_the_known_revision_falls_back_to_a_full_read(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, like("I like tea", "tea"))
    await reader.snapshot(USER)
    for i in range(wire.REVLOG_MAX + 1):
        writer.record_history(USER, _history(i))  # no snapshot change: no log entry
        writer.remember(USER, like(f"likes item {i}", f"item {i}"))
    assert redis_client.llen(KEYS.revlog) == wire.REVLOG_MAX
    after, calls = await read_delta(reader, server)
    assert calls.get("hgetall") == 5 and "hmget" not in calls, calls  # small store: whole
    assert state(after) == state(full_read(redis_client, settings))
    assert len(after.active.prefs) == wire.REVLOG_MAX + 2


def _history(i: int) -> Any:
    from penchant.memory import HistorySnapshot

    return HistorySnapshot(kind="search", summary=f"searched item {i}")


async def test_a_writer_that_keeps_no_log_breaks_the_chain_and_forces_a_full_read(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, like("I like tea", "tea"))
    await reader.snapshot(USER)
    writer.remember(USER, like("I like coffee", "coffee"))
    # an older release: writes the record and bumps the revision, logs nothing
    (pref,) = [p for p in writer.snapshot(USER).preferences() if p.keywords == ["coffee"]]
    redis_client.hset(KEYS.prefs, pref.id, pref.model_copy(update={"confidence": 0.9}).to_json())
    redis_client.set(KEYS.rev, "written-by-an-older-release")
    after, calls = await read_delta(reader, server)
    assert "hgetall" in calls, calls
    assert after.active.prefs[pref.id].confidence == 0.9
    assert state(after) == state(full_read(redis_client, settings))


async def test_a_commit_too_large_to_log_makes_readers_behind_it_read_everything(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, like("I like tea", "tea"))
    await reader.snapshot(USER)
    writer.import_preferences(USER, many(wire.LOG_FIELDS_MAX // 2 + 1))
    entry = redis_client.lindex(KEYS.revlog, 0)
    assert entry is not None and entry.endswith(b"\n*")
    after, calls = await read_delta(reader, server)
    assert "hmget" not in calls and calls.get("hgetall") == 5, calls  # whole, not a delta
    assert state(after) == state(full_read(redis_client, settings))


async def test_a_paged_read_returns_exactly_the_store_while_another_writer_writes(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, many(200) + [like("I like plastic toys", "plastic")])
    backend = reader.memory.backend
    backend.page_fields, backend.inline_fields = 20, 50
    pages = _write_during_paging(backend, server, {
        3: lambda: writer.remember(USER, like("I like green tea", "green tea")),
        6: lambda: writer.forget(USER, "product line 7"),
        9: lambda: writer.remember(USER, dislike("I hate plastic toys", "plastic")),
        12: lambda: writer.remember(USER, many(3, start=500)),
    })
    server.reset()
    after = await reader.snapshot(USER)
    calls = server.calls()
    assert len(pages) > 12, "the writes must land during the paging"
    assert "hgetall" not in calls and calls["hscan"] == len(pages), calls
    assert calls["evalsha"] == 2  # the first read, and the delta that makes it consistent
    assert state(after) == state(full_read(redis_client, settings))
    contents = {p.content for p in after.preferences()}
    assert "I like green tea" in contents and "I hate plastic toys" in contents
    assert not any(p.keywords == ["product line 7"] for p in after.preferences())


async def test_a_paged_read_pages_again_when_the_log_does_not_reach_its_start(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, many(200))
    backend = reader.memory.backend
    backend.page_fields, backend.inline_fields = 50, 50

    def unlogged_write() -> None:  # an older release's write: no log entry
        pref = writer.snapshot(USER).preferences()[0]
        redis_client.hset(KEYS.prefs, pref.id, pref.model_copy(update={"confidence": 0.9})
                          .to_json())  # fmt: skip
        redis_client.set(KEYS.rev, "written-by-an-older-release")

    pages = _write_during_paging(backend, server, {2: unlogged_write})
    server.reset()
    after = await reader.snapshot(USER)
    calls = server.calls()
    assert calls["evalsha"] == 3 and "hgetall" not in calls, calls  # page, page again, check
    assert len(pages) == calls["hscan"] and len(pages) > 4
    assert state(after) == state(full_read(redis_client, settings))
    assert after.preferences()[0].confidence == 0.9


async def test_a_store_that_keeps_changing_unlogged_is_read_in_one_script_after_the_tries(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands, caplog: pytest.LogCaptureFixture,
) -> None:
    writer.remember(USER, many(200))
    backend = reader.memory.backend
    backend.page_fields, backend.inline_fields = 100, 50
    bumps = iter(range(1000))

    def unlogged_bump() -> None:
        redis_client.set(KEYS.rev, f"older-release-{next(bumps)}")

    _write_during_paging(backend, server, dict.fromkeys(range(1, 100), unlogged_bump))
    server.reset()
    after = await reader.snapshot(USER)
    calls = server.calls()
    assert calls["evalsha"] == wire.PAGE_TRIES + 2 and calls["hgetall"] == 5, calls
    assert "changed too fast" in caplog.text
    assert state(after) == state(full_read(redis_client, settings))


def _write_during_paging(
    backend: Any, server: ServerCommands, writes: dict[int, Callable[[], Any]]
) -> list[str]:
    """Wrap the reader's ``HSCAN`` so that ``writes[n]`` runs just after the n-th page (its
    commands not counted as the reader's)."""
    pages: list[str] = []
    real = backend.client.hscan

    def after_page() -> None:
        pages.append("page")
        if len(pages) in writes:
            server.excluding(writes[len(pages)])

    if inspect.iscoroutinefunction(real):
        async def ahscan(*args: Any, **kwargs: Any) -> Any:
            reply = await real(*args, **kwargs)
            after_page()
            return reply

        backend.client.hscan = ahscan
    else:
        def hscan(*args: Any, **kwargs: Any) -> Any:
            reply = real(*args, **kwargs)
            after_page()
            return reply

        backend.client.hscan = hscan
    return pages


async def test_a_write_after_a_conflict_rereads_only_the_delta(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
    server: ServerCommands,
) -> None:
    writer.remember(USER, many(200))
    await reader.snapshot(USER)
    writer.remember(USER, like("I like green tea", "green tea"))  # the reader's cache is stale
    server.reset()
    result = await reader.remember(USER, dislike("I hate plastic", "plastic"))
    calls = server.calls()
    assert len(result.created) == 1
    assert "hgetall" not in calls and "hscan" not in calls, calls
    assert calls["evalsha"] == 3  # commit refused, delta read, commit
    assert state(await reader.snapshot(USER)) == state(full_read(redis_client, settings))


async def test_delete_user_removes_the_log_and_a_cached_reader_sees_nothing(
    reader: Door, writer: Memory, redis_client: redis.Redis, settings: Settings,
) -> None:
    writer.remember(USER, many(3))
    await reader.snapshot(USER)
    assert redis_client.llen(KEYS.revlog) == 1
    writer.delete_user(USER)
    assert redis_client.exists(KEYS.revlog) == 0
    assert (await reader.snapshot(USER)).active.prefs == {}
    writer.remember(USER, like("I like tea", "tea"))
    after = await reader.snapshot(USER)
    assert [p.content for p in after.preferences()] == ["I like tea"]
    assert state(after) == state(full_read(redis_client, settings))


async def test_own_writes_keep_the_cache_current_without_any_read(
    reader: Door, server: ServerCommands,
) -> None:
    await reader.remember(USER, many(5))
    await reader.snapshot(USER)
    await reader.remember(USER, like("I like tea", "tea"))
    server.reset()
    snapshot = await reader.snapshot(USER)
    calls = server.calls()
    assert calls.get("evalsha") == 1 and "hmget" not in calls and "hgetall" not in calls, calls
    assert len(snapshot.active.prefs) == 6


WORDS = ["tea", "coffee", "plastic", "wool", "jazz", "green tea", "leather"]
writes = st.lists(
    st.tuples(st.sampled_from(["like", "dislike", "forget", "observe", "revector", "history"]),
              st.sampled_from(WORDS)),
    min_size=1, max_size=4,
)  # fmt: skip


@given(rounds=st.lists(writes, min_size=1, max_size=4))
@examples(max_examples=25, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
def test_any_sequence_of_other_writers_writes_patches_to_a_full_read(
    rounds: list[list[tuple[str, str]]], redis_url: str, settings: Settings
) -> None:
    client = sync_client(redis_url)
    client.delete(*KEYS.all_fixed())
    reader = Memory(client, settings=settings, embedder=HashEmbedder())
    writer = Memory(client, settings=settings, embedder=HashEmbedder())
    writer.remember(USER, [like("I like jazz", "jazz"), dislike("no wool", "wool")])
    reader.snapshot(USER)
    for round_ in rounds:
        for action, word in round_:
            _write(writer, action, word)
        assert state(reader.snapshot(USER)) == state(full_read(client, settings))
    client.close()


def _write(writer: Memory, action: str, word: str) -> None:
    from penchant.memory import HistorySnapshot

    prefs = writer.snapshot(USER).preferences()
    if action in ("like", "dislike"):
        writer.remember(USER, PreferenceCandidate(
            content=f"I {action} {word}", polarity=action, keywords=[word]))  # type: ignore[arg-type]
    elif action == "forget":
        writer.forget(USER, word)
    elif action == "observe" and prefs:
        writer.write_observations(USER, [ObservationCandidate(
            content=f"cares about {word}", confidence=0.5, sources=[prefs[0].id])])
    elif action == "revector" and prefs:
        moved = prefs[-1].model_copy()
        moved.embedding = bytes([len(word)]) * 8
        writer.replace_vectors(USER, {moved.id: moved})
    else:
        writer.record_history(USER, HistorySnapshot(kind="view", summary=f"viewed {word}"))
