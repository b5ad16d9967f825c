"""The client's retry, replay and spool logic on the in-process backend (no Redis).

The store's injected failures are the seam (:meth:`InProcessStore.fail_next`): a failure as a
failover's (retried), a server that is down (the spool takes over), a commit whose reply was
lost after it was stored (the resent commit is answered ``replayed``). What each test checks
is what the store holds before and after, not only what the call returned. Writes spooled
while the store is down, and their replay through the gate, moved here from the integration
tests: they test the client, not Redis (the conformance suite still runs the dead-socket path
on both Redis doors).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from penchant.memory import (
    AsyncMemory,
    ConcurrencyError,
    InProcessStore,
    Memory,
    PreferenceCandidate,
    Settings,
    StorageUnavailableError,
)
from penchant.memory.backends import InjectedFailure, InProcessBackend
from penchant.memory.client.spool import WriteSpool
from penchant.memory.model.keys import UserKeys

USER = "u"


def like(content: str, *keywords: str, **extra: Any) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=list(keywords), **extra)


def dislike(content: str, *keywords: str, **extra: Any) -> PreferenceCandidate:
    return PreferenceCandidate(
        content=content, polarity="dislike", keywords=list(keywords), **extra
    )


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", embeddings="hash")


@pytest.fixture
def store() -> InProcessStore:
    return InProcessStore()


@pytest.fixture
def memory(store: InProcessStore, settings: Settings) -> Memory:
    return Memory.in_process(store, settings=settings)


def prefs(store: InProcessStore, user: str = USER) -> dict[bytes, bytes]:
    return store.hgetall(UserKeys.for_user(user).prefs)


def dead(settings: Settings, spool: WriteSpool | None = None) -> Memory:
    down = InProcessStore()
    down.unavailable = True
    return Memory.in_process(down, settings=settings, spool=spool)


# -- the public way in ---------------------------------------------------------------------------


async def test_a_memory_takes_a_backend_where_it_takes_a_client(
    store: InProcessStore, settings: Settings
) -> None:
    from penchant.memory.backends import AsyncInProcessBackend

    memory = Memory(InProcessBackend(store, settings), settings=settings)
    amem = AsyncMemory(AsyncInProcessBackend(store, settings), settings=settings)
    assert memory.client is None and amem.client is None
    assert memory.redis_location == "in-process store"
    memory.remember(USER, like("I like tea", "tea"))
    assert [p.content for p in await amem.preferences(USER)] == ["I like tea"]


async def test_a_sync_and_an_async_memory_over_one_store_share_the_data(
    store: InProcessStore, settings: Settings
) -> None:
    sync = Memory.in_process(store, settings=settings)
    amem = AsyncMemory.in_process(store, settings=settings)
    sync.remember(USER, like("I like tea", "tea"))
    result = await amem.remember(USER, dislike("I dislike tea now", "tea"))
    assert [s.preference.content for s in result.superseded] == ["I like tea"]
    assert [p.content for p in sync.preferences(USER)] == ["I dislike tea now"]
    assert await amem.users() == [USER] and len(prefs(store)) == 1
    await amem.aclose()


def test_the_store_keeps_the_redis_key_layout(memory: Memory, store: InProcessStore) -> None:
    memory.remember(USER, like("I like tea", "tea"), idempotency_key="call-1")
    keys = UserKeys.for_user(USER)
    names = {k.decode() for k in store.keys()}
    assert {keys.prefs, keys.rev, keys.revlog, keys.changes, "penchant:users"} <= names
    assert any(n.startswith(f"{keys.tag}:idem:") for n in names)
    idem = next(n for n in names if n.startswith(f"{keys.tag}:idem:"))
    assert 0 < store.ttl(idem) <= memory.settings.idempotency_ttl_seconds
    assert store.ttl(keys.prefs) == -1 and store.ttl("penchant:no-such-key") == -2


# -- failures a client rides out, and those it reports ---------------------------------------------


def test_a_failovers_failures_are_retried_and_the_write_stored_once(
    memory: Memory, store: InProcessStore
) -> None:
    store.fail_next(2, transient=True)
    result = memory.remember(USER, like("I like tea", "tea"))
    assert [p.content for p in result.created] == ["I like tea"]
    assert store.pending_failures == 0 and len(prefs(store)) == 1


def test_a_commit_whose_reply_was_lost_is_reported_committed_and_applied_once(
    memory: Memory, store: InProcessStore
) -> None:
    memory.remember(USER, like("I like tea", "tea"))
    store.fail_next(1, transient=True, after_write=True, methods={"commit"})
    before = store.calls["commit"]
    result = memory.remember(USER, like("I like tea", "tea"))
    assert store.calls["commit"] == before + 2  # stored, reply lost, resent: replayed
    assert [m.mention_count for m in result.merged] == [2]
    (stored,) = Memory.in_process(store, settings=memory.settings).preferences(USER)
    assert stored.mention_count == 2  # applied once, not twice


def test_a_lost_reply_on_a_single_server_is_reported_as_a_failure_not_a_success(
    memory: Memory, store: InProcessStore
) -> None:
    store.fail_next(1, after_write=True, methods={"commit"})
    with pytest.raises(InjectedFailure) as caught:
        memory.remember(USER, like("I like tea", "tea"))
    assert caught.value.stored and isinstance(caught.value, StorageUnavailableError)
    assert len(prefs(store)) == 1  # it was stored: a retry with its key is a replay


def test_a_keyed_write_resent_after_a_lost_reply_returns_the_first_result(
    memory: Memory, store: InProcessStore
) -> None:
    store.fail_next(1, after_write=True, methods={"commit"})
    with pytest.raises(StorageUnavailableError):
        memory.remember(USER, like("I like tea", "tea"), idempotency_key="turn-1")
    again = memory.remember(USER, like("I like tea", "tea"), idempotency_key="turn-1")
    assert [p.content for p in again.created] == ["I like tea"]
    (pref,) = memory.preferences(USER)
    assert pref.mention_count == 1


def test_a_failure_that_is_no_failover_is_raised_and_nothing_is_stored(
    memory: Memory, store: InProcessStore
) -> None:
    store.fail_next(1, methods={"commit"})
    with pytest.raises(StorageUnavailableError, match="injected"):
        memory.remember(USER, like("I like tea", "tea"))
    assert prefs(store) == {} and memory.changes(USER) == []


def test_a_failed_registry_update_leaves_the_write_committed_and_logs_it(
    memory: Memory, store: InProcessStore, caplog: pytest.LogCaptureFixture
) -> None:
    store.fail_next(1, methods={"register_user"})
    with caplog.at_level(logging.WARNING):
        result = memory.remember(USER, like("I like jazz", "jazz"))
    assert [p.content for p in result.created] == ["I like jazz"]
    assert len(prefs(store)) == 1 and memory.users() == []
    assert "write committed, but the user registry was not updated" in caplog.text
    memory.remember(USER, like("I like rye", "rye"))  # the next write registers the user
    assert memory.users() == [USER]


# -- conflicts: re-read, re-plan, retry within the budget ------------------------------------------


class RacedBackend(InProcessBackend):
    """A backend whose commits each lose to another writer's, ``races`` times: just before
    each, a rival stores a preference of its own (which moves the user's revision)."""

    def __init__(self, store: InProcessStore, settings: Settings, races: int) -> None:
        super().__init__(store, settings)
        self.races = races
        self.rival = Memory.in_process(store, settings=settings)
        self.outcomes: list[str] = []

    def commit(self, keys: Any, ops: Any, expected_revision: Any, idempotency: Any = None) -> Any:
        if self.races > 0:
            self.races -= 1
            n = len(self.outcomes)
            self.rival.remember(keys.user_id, like(f"I like thing{n}", f"thing{n}"))
        result = super().commit(keys, ops, expected_revision, idempotency)
        self.outcomes.append(result.status)
        return result


def test_a_write_that_loses_to_other_writers_replans_on_fresh_data(
    store: InProcessStore, settings: Settings
) -> None:
    backend = RacedBackend(store, settings, races=0)
    memory = Memory(backend, settings=settings)
    memory.remember(USER, like("I like tea", "tea"))
    backend.races = 3
    result = memory.remember(USER, dislike("I dislike tea now", "tea"))
    assert backend.outcomes == ["committed", "conflict", "conflict", "conflict", "committed"]
    assert [s.preference.content for s in result.superseded] == ["I like tea"]
    found = Memory.in_process(store, settings=settings).preferences(USER)
    assert sorted(p.content for p in found) == [
        "I dislike tea now", "I like thing1", "I like thing2", "I like thing3",
    ]
    assert len(prefs(store)) == 4


def test_a_write_that_keeps_losing_gives_up_with_a_concurrency_error_storing_nothing(
    store: InProcessStore, settings: Settings
) -> None:
    tight = settings.model_copy(update={"write_retry_seconds": 0.05, "max_preferences": 10_000})
    backend = RacedBackend(store, tight, races=0)
    memory = Memory(backend, settings=tight)
    memory.remember(USER, like("I like tea", "tea"))
    backend.races = 10**6
    with pytest.raises(ConcurrencyError):
        memory.remember(USER, dislike("I dislike tea", "tea"))
    assert set(backend.outcomes[1:]) == {"conflict"}
    found = Memory.in_process(store, settings=tight).preferences(USER)
    assert [p.polarity for p in found if "tea" in p.content] == ["like"]


# -- the spool: writes made while the store is down ------------------------------------------


def test_write_while_the_store_is_down_is_deferred_not_reported_stored(
    tmp_path: Path, settings: Settings
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    result = dead(settings, spool).remember("u", like("likes tea", "tea"))
    assert result.created == [] and result.deferred == ["likes tea"]
    assert "NOT stored yet" in result.describe()
    assert spool.pending() == 1


def test_spooled_writes_replay_in_order_through_the_gate(
    tmp_path: Path, settings: Settings, store: InProcessStore
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    down = dead(settings, spool)
    down.remember("u", like("likes plastic", "plastic"))
    down.remember("u", dislike("no plastic", "plastic"))
    down.capture("u", "I love green tea.")
    up = Memory.in_process(store, settings=settings, spool=spool)
    assert up.replay_spool() == 3
    found = up.preferences("u")
    assert [p.content for p in found if p.polarity == "dislike"] == ["no plastic"]
    assert [p.keywords for p in found if p.polarity == "like"] == [["green tea"]]
    assert spool.pending() == 0 and up.replay_spool() == 0
    assert len(prefs(store)) == 2


def test_replay_is_idempotent_if_interrupted(
    tmp_path: Path, settings: Settings, store: InProcessStore
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    dead(settings, spool).remember("u", like("likes jazz", "jazz"))
    saved = spool.path.read_text()
    up = Memory.in_process(store, settings=settings, spool=spool)
    up.replay_spool()
    spool.path.write_text(saved)  # as if the process died before the spool was rewritten
    up.replay_spool()
    (pref,) = up.preferences("u")
    assert pref.mention_count == 1


def test_without_a_spool_the_error_is_raised(settings: Settings) -> None:
    with pytest.raises(StorageUnavailableError):
        dead(settings).remember("u", like("likes tea", "tea"))


def test_unreadable_spool_line_is_set_aside(
    tmp_path: Path, settings: Settings, store: InProcessStore
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    dead(settings, spool).remember("u", like("likes jazz", "jazz"))
    with open(spool.path, "a") as handle:
        handle.write('{"op": "remember", "user_id": "u", trunc\n')
    assert Memory.in_process(store, settings=settings, spool=spool).replay_spool() == 2
    assert spool.path.with_suffix(".unreadable").exists()


def test_a_store_that_comes_back_replays_the_spool_on_the_next_write(
    tmp_path: Path, settings: Settings, store: InProcessStore
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    memory = Memory.in_process(store, settings=settings, spool=spool)
    store.unavailable = True
    assert memory.remember(USER, like("I like oolong", "oolong")).deferred == ["I like oolong"]
    assert prefs(store) == {}
    store.unavailable = False
    memory.remember(USER, like("I like rye bread", "rye bread"))
    assert spool.pending() == 0
    assert sorted(p.content for p in memory.preferences(USER)) == [
        "I like oolong", "I like rye bread",
    ]


def _spooled(tmp_path: Path, settings: Settings, *candidates: PreferenceCandidate) -> WriteSpool:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    assert dead(settings, spool).remember(USER, list(candidates)).deferred
    return spool


def test_spooled_like_does_not_supersede_a_newer_dislike(
    tmp_path: Path, settings: Settings, store: InProcessStore, memory: Memory
) -> None:
    spool = _spooled(tmp_path, settings, like("I like coffee", "coffee"))
    memory.remember(USER, dislike("I dislike coffee", "coffee"))  # said later, no spool here
    replaying = Memory.in_process(store, settings=settings, spool=spool)
    assert replaying.replay_spool() == 1
    assert [(p.polarity, p.content) for p in memory.preferences(USER)] == [
        ("dislike", "I dislike coffee")
    ]
    assert "older than" in memory.changes(USER, 1)[0].reason


def test_spooled_slot_value_does_not_replace_a_newer_one(
    tmp_path: Path, settings: Settings, store: InProcessStore, memory: Memory
) -> None:
    spool = _spooled(tmp_path, settings, like("my favourite band is Muse", "muse",
                                              slot="favourite band"))
    memory.remember(USER, like("my favourite band is Blur", "blur", slot="favourite band"))
    Memory.in_process(store, settings=settings, spool=spool).replay_spool()
    assert sorted(p.content for p in memory.preferences(USER)) == ["my favourite band is Blur"]


def test_unwritable_spool_reports_the_write_as_not_stored(
    tmp_path: Path, settings: Settings
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    spool = WriteSpool(blocker / "spool.jsonl")
    with pytest.raises(StorageUnavailableError, match="NOT stored") as caught:
        dead(settings, spool).remember(USER, like("I like tea", "tea"))
    assert str(blocker / "spool.jsonl") in str(caught.value)
