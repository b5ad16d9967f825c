"""The in-process backend: a dict-backed store answering the same ``read`` and ``commit`` as
the Redis drivers, for unit tests and for applications that embed Penchant in their own tests
(as httpx's ``MockTransport`` answers for a server, or LangGraph's ``InMemoryStore`` stands
behind ``BaseStore``).

:class:`InProcessStore` is a Redis-shaped keyspace (strings, hashes, lists, sets, sorted sets,
streams, with expiry) under the very key names the Redis drivers use. A commit is the same
command list :func:`~.wire.encode_commit` builds for the Lua script, run here under one lock
by a port of that script, and a read is :func:`~.wire.read_steps` answered by a port of the
read script: revisions, ``expected_revision`` conflicts, idempotency records (``replayed``),
the revision log and its delta reads, capped change log, history and transcripts behave as on
Redis, and a test may inspect what is stored with redis-py's names (:meth:`~InProcessStore.
hgetall`, :meth:`~InProcessStore.ttl`, …).

Failures are injected on the store: :attr:`InProcessStore.unavailable` makes every call fail,
:meth:`InProcessStore.fail_next` the next ``n`` calls (optionally as a failover would, or
after a commit was stored, as a reply lost on the way back). Each failure is the
:class:`~penchant.memory.StorageUnavailableError` a Redis driver raises.
"""

from __future__ import annotations

import random
import uuid
from typing import TYPE_CHECKING, Any

from ..core import CommitResult, Erasure, Idempotency, Op, UserSnapshot, touches_snapshot
from ..model import (
    CHECKUP_DUE_KEY,
    META_KEY,
    SCHEMA_VERSION,
    USERS_KEY,
    ChangeEvent,
    HistorySnapshot,
    Settings,
    StorageUnavailableError,
    UserKeys,
    decode_user_id,
    encode_user_id,
)
from . import wire
from .errors import schema_of
from .inprocess_store import (
    InjectedFailure,
    InProcessEmbeddingsCache,
    InProcessStore,
    _b,
    _Hash,
    _Stream,
    _ZSet,
)


class InProcessBackend:
    """The sync backend over an :class:`InProcessStore` (see the module docstring).

    Args:
        store: The keyspace; share one store between backends to share the data.
        settings: Caps of the change log and the history, idempotency lifetime.
    """

    def __init__(self, store: InProcessStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.page_fields = wire.PAGE_FIELDS
        self.inline_fields = wire.INLINE_READ_FIELDS
        self.closed = False

    def close(self) -> None:
        """Nothing to release; the store keeps its data for other backends."""
        self.closed = True

    # -- the snapshot and the commit ------------------------------------------------------------

    def read(
        self, keys: UserKeys, known: UserSnapshot | None = None, *, history_limit: int = 0
    ) -> tuple[UserSnapshot, list[HistorySnapshot]]:
        """The user's snapshot and last history snapshots, as :meth:`.sync.SyncBackend.read`
        (``known`` as is when current, patched by a delta when the revision log reaches it)."""
        steps = wire.read_steps(
            keys, known, history_limit, page_fields=self.page_fields,
            inline_fields=self.inline_fields,
        )  # fmt: skip
        reply: Any = None
        with self.store._call("read"):
            while True:
                try:
                    step = steps.send(reply)
                except StopIteration as stop:
                    result: tuple[UserSnapshot, list[HistorySnapshot]] = stop.value
                    return result
                if isinstance(step, wire.ScriptRead):
                    reply = self.store._run_read(keys, step.args)
                else:  # one page holds the whole hash: the scan ends at once
                    reply = (0, self.store.hgetall(step.key))

    def commit(
        self,
        keys: UserKeys,
        ops: list[Op],
        expected_revision: str | None,
        idempotency: Idempotency | None = None,
    ) -> CommitResult:
        """Apply ``ops`` atomically if the user's revision is ``expected_revision``, as
        :meth:`.sync.SyncBackend.commit` (the same command list, run by a port of its script).

        Returns:
            ``committed`` with the new revision, ``conflict`` with the current one (nothing
            written), or ``replayed`` with an earlier identical write's result.
        """
        new_rev = uuid.uuid4().hex if touches_snapshot(ops) else ""
        script_keys, args = wire.encode_commit(
            keys, ops, expected_revision=expected_revision, new_revision=new_rev,
            idempotency=idempotency, settings=self.settings,
        )  # fmt: skip
        with self.store._call("commit") as lost:
            reply = self.store._run_commit(script_keys, args)
            self.store._raise("commit", lost)
        status, value = wire.decode_commit(reply)
        if status == "replayed":
            return CommitResult(status, replay=value)
        return CommitResult(status, revision=value)

    def transient(self, exc: BaseException) -> bool:
        """Whether ``exc`` is an injected failure that asked to be retried (a failover's)."""
        return isinstance(exc, InjectedFailure) and exc.transient

    def register_user(self, keys: UserKeys) -> None:
        """Add the user to ``penchant:users``."""
        with self.store._call("register_user"):
            self.store._make(USERS_KEY, set).add(_b(encode_user_id(keys.user_id)))

    # -- erasure --------------------------------------------------------------------------------

    def erase(self, keys: UserKeys, erasure: Erasure) -> int:
        """Scrub the forgotten text from change events, idempotency records, transcripts and
        history snapshots, as :meth:`.sync.SyncBackend.erase`.

        Returns:
            How many records were removed.
        """
        store = self.store
        removed = 0
        with store._call("erase"):
            removed += self._erase_events(keys, erasure)
            for key in store._keys(wire.user_pattern(keys)):
                if key.startswith(f"{keys.tag}:idem:"):
                    record = store._get(key)
                    if isinstance(record, bytes) and wire.record_names(record, erasure):
                        removed += store._delete(key)
                elif key.startswith(f"{keys.tag}:thread:") or key == keys.history:
                    items = store._get(key, list)
                    history = key == keys.history
                    pick = wire.snapshots_to_erase if history else wire.messages_to_erase
                    drop = set(pick(list(items), erasure))
                    removed += sum(item in drop for item in items)
                    items[:] = [item for item in items if item not in drop]
                    store._tidy(key)
            last = store._get(keys.history_last, _Hash) or {}
            stale = set(wire.snapshots_to_erase(list(last.values()), erasure))
            for name in [f for f, v in last.items() if v in stale]:
                del last[name]
                removed += 1
            store._tidy(keys.history_last)
        return removed

    def _erase_events(self, keys: UserKeys, erasure: Erasure) -> int:
        """The change events that copy the forgotten text, as the scripts of
        :meth:`.sync.SyncBackend._erase_events`: candidates from the erasure index, the
        exact rules on those, each picked event removed (older inline events too)."""
        if erasure.keep_history:
            return 0
        store = self.store
        stream = store._get(keys.changes, _Stream) or _Stream()
        events = store._get(keys.change_events, _Hash) or {}
        index = store._get(keys.change_index, _Hash) or {}
        query = wire.index_args(erasure)
        tokens = [t for t, ix in index.items() if wire.index_satisfies(ix.decode(), query)]
        entries = [(t, events[t]) for t in tokens if t in events]
        entries += [e for e in wire.xrange_entries(list(stream)) if e[1]]  # inline (older)
        gone = set(wire.events_to_erase(entries, erasure))
        if not gone:
            return 0
        stream[:] = [e for e in stream if e[0] not in gone and e[1].get(b"ek") not in gone]
        for token in gone:
            index.pop(token, None)
            events.pop(token, None)
        for key in wire.event_keys(keys):
            store._tidy(key)
        return len(gone)

    def drop_cached_embeddings(self, texts: list[str]) -> int:
        """Delete the embeddings cache's entries of ``texts``, under every cached model."""
        if not texts:
            return 0
        with self.store._call("drop_cached_embeddings"):
            return self.store._cache_drop(texts)

    def embeddings_cache(self, ttl_seconds: int, max_entries: int) -> InProcessEmbeddingsCache:
        """An embeddings cache in the store (see :class:`InProcessEmbeddingsCache`)."""
        return InProcessEmbeddingsCache(self.store, ttl_seconds, max_entries)

    def delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]:
        """Delete every key of one user, its registry entry and its check-up schedule.

        Returns:
            ``(keys removed, preferences removed, embedded texts of those preferences)``.
        """
        store = self.store
        member = _b(encode_user_id(keys.user_id))
        with store._call("delete_user"):
            prefs = {k.decode(): v for k, v in (store._get(keys.prefs, _Hash) or {}).items()}
            deleted = sum(store._delete(k) for k in store._keys(wire.user_pattern(keys)))
            users = store._get(USERS_KEY, set)
            if users is not None and member in users:
                users.discard(member)
                deleted += 1
                store._tidy(USERS_KEY)
            due = store._get(CHECKUP_DUE_KEY, _ZSet)
            if due is not None and due.pop(member, None) is not None:
                deleted += 1
                store._tidy(CHECKUP_DUE_KEY)
        return deleted, len(prefs), wire.erasure_texts(prefs)

    # -- other reads ----------------------------------------------------------------------------

    def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]:
        """Recent history snapshots, newest first."""
        with self.store._call("history"):
            raw = self.store.lrange(keys.history, 0, max(0, limit - 1))
        return [HistorySnapshot.model_validate_json(r) for r in raw]

    def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        with self.store._call("changes"):
            stream = list(self.store._get(keys.changes, _Stream) or [])
            events = self.store._get(keys.change_events, _Hash) or {}
            raw = [events.get(f[b"ek"]) if b"ek" in f else f.get(b"event")
                   for _id, f in stream[::-1][: max(0, limit)]]  # fmt: skip
        return wire.decode_changes([r for r in raw if r is not None])

    def change_count(self, keys: UserKeys) -> int:
        """Number of change events kept (bounded by ``settings.change_log_max``)."""
        with self.store._call("change_count"):
            return len(self.store._get(keys.changes, _Stream) or [])

    def transcript(self, keys: UserKeys, thread_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a thread, oldest first."""
        with self.store._call("transcript"):
            raw = self.store.lrange(keys.transcript(thread_id), -limit, -1)
        return wire.decode_transcript(raw)

    def users(self) -> list[str]:
        """Every user id that has stored something."""
        with self.store._call("users"):
            members = self.store.smembers(USERS_KEY)
        return sorted(decode_user_id(wire.text(u)) for u in members)

    def sample_users(self, limit: int) -> list[str]:
        """Up to ``limit`` distinct user ids, at random."""
        with self.store._call("sample_users"):
            members = sorted(self.store.smembers(USERS_KEY))
        chosen = random.sample(members, min(max(0, limit), len(members)))
        return sorted(decode_user_id(wire.text(u)) for u in chosen)

    def ensure_schema(self) -> int:
        """Record the schema version on first use; refuse data of an unknown version.

        Raises:
            SchemaVersionError: The data was written by an incompatible release.
        """
        with self.store._call("ensure_schema"):
            meta = self.store._make(META_KEY, _Hash)
            stored = meta.setdefault(b"schema_version", _b(SCHEMA_VERSION))
        return schema_of(stored)

    def ping(self) -> bool:
        """Whether the store answers (False while :attr:`InProcessStore.unavailable`)."""
        try:
            with self.store._call("ping"):
                return True
        except StorageUnavailableError:
            return False

    def server_report(self) -> dict[str, Any]:
        """``doctor``'s report: an in-process store keeps nothing on disk and has no Query
        Engine."""
        with self.store._call("server_report"):
            schema = self.store.hgetall(META_KEY).get(b"schema_version")
            users = len(self.store.smembers(USERS_KEY))
        return {
            "server": "in-process store", "aof_enabled": False,
            "schema_version": int(schema) if schema is not None else None,
            "users": users, "query_engine": False,
        }  # fmt: skip

    # -- leases and the check-up schedule -------------------------------------------------------

    def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Take a lease (``SET NX PX``); False when someone else holds it."""
        with self.store._call("acquire_lease"):
            if self.store._get(key) is not None:
                return False
            self.store._set(key, token, ttl_ms / 1000)
            return True

    def release_lease(self, key: str, token: str) -> bool:
        """Give a lease back if it is still ours."""
        with self.store._call("release_lease"):
            if self.store._get(key) != _b(token):
                return False
            return bool(self.store._delete(key))

    def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Extend a lease we still hold to ``ttl_ms`` from now; False when it is not ours."""
        with self.store._call("renew_lease"):
            if self.store._get(key) != _b(token):
                return False
            self.store._expires[key] = self.store._clock() + ttl_ms / 1000
            return True

    def lease_holder(self, key: str) -> str | None:
        """The token of the lease's current holder, or None when it is free (or expired)."""
        with self.store._call("lease_holder"):
            value = self.store._get(key)
        return None if value is None else wire.text(value)

    def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        """Mark a user's check-up due at ``due_ms``; an earlier due time is kept."""
        with self.store._call("schedule_checkup"):
            due = self.store._make(CHECKUP_DUE_KEY, _ZSet)
            member = _b(encode_user_id(user_id))
            due[member] = min(float(due_ms), due.get(member, float("inf")))

    def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Users whose check-up is due by ``now_ms``, earliest first."""
        with self.store._call("due_checkups"):
            due = dict(self.store._get(CHECKUP_DUE_KEY, _ZSet) or {})
        rows = sorted((score, member) for member, score in due.items() if score <= now_ms)
        return [(decode_user_id(wire.text(m)), int(s)) for s, m in rows[: max(0, limit)]]

    def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """Remove a done check-up from the schedule unless it was rescheduled meanwhile."""
        with self.store._call("complete_checkup"):
            due = self.store._get(CHECKUP_DUE_KEY, _ZSet) or {}
            member = _b(encode_user_id(user_id))
            if due.get(member) != float(due_ms):
                return False
            del due[member]
            self.store._tidy(CHECKUP_DUE_KEY)
            return True


class AsyncInProcessBackend:
    """:class:`InProcessBackend` with coroutines, for :class:`~penchant.memory.AsyncMemory`
    (each call runs at once, under the store's lock; nothing awaits I/O)."""

    def __init__(self, store: InProcessStore, settings: Settings) -> None:
        self.sync = InProcessBackend(store, settings)
        self.store, self.settings = store, settings

    def transient(self, exc: BaseException) -> bool:
        return self.sync.transient(exc)

    def embeddings_cache(self, ttl_seconds: int, max_entries: int) -> InProcessEmbeddingsCache:
        return self.sync.embeddings_cache(ttl_seconds, max_entries)

    async def aclose(self) -> None:
        self.sync.close()

    async def read(
        self, keys: UserKeys, known: UserSnapshot | None = None, *, history_limit: int = 0
    ) -> tuple[UserSnapshot, list[HistorySnapshot]]:
        return self.sync.read(keys, known, history_limit=history_limit)

    async def commit(
        self,
        keys: UserKeys,
        ops: list[Op],
        expected_revision: str | None,
        idempotency: Idempotency | None = None,
    ) -> CommitResult:
        return self.sync.commit(keys, ops, expected_revision, idempotency)

    async def register_user(self, keys: UserKeys) -> None:
        self.sync.register_user(keys)

    async def erase(self, keys: UserKeys, erasure: Erasure) -> int:
        return self.sync.erase(keys, erasure)

    async def drop_cached_embeddings(self, texts: list[str]) -> int:
        return self.sync.drop_cached_embeddings(texts)

    async def delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]:
        return self.sync.delete_user(keys)

    async def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]:
        return self.sync.history(keys, limit)

    async def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]:
        return self.sync.changes(keys, limit)

    async def change_count(self, keys: UserKeys) -> int:
        return self.sync.change_count(keys)

    async def transcript(
        self, keys: UserKeys, thread_id: str, limit: int = 200
    ) -> list[dict[str, Any]]:
        return self.sync.transcript(keys, thread_id, limit)

    async def users(self) -> list[str]:
        return self.sync.users()

    async def sample_users(self, limit: int) -> list[str]:
        return self.sync.sample_users(limit)

    async def ensure_schema(self) -> int:
        return self.sync.ensure_schema()

    async def ping(self) -> bool:
        return self.sync.ping()

    async def server_report(self) -> dict[str, Any]:
        return self.sync.server_report()

    async def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        return self.sync.acquire_lease(key, token, ttl_ms)

    async def release_lease(self, key: str, token: str) -> bool:
        return self.sync.release_lease(key, token)

    async def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        return self.sync.renew_lease(key, token, ttl_ms)

    async def lease_holder(self, key: str) -> str | None:
        return self.sync.lease_holder(key)

    async def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        self.sync.schedule_checkup(user_id, due_ms)

    async def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        return self.sync.due_checkups(now_ms, limit)

    async def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        return self.sync.complete_checkup(user_id, due_ms)


if TYPE_CHECKING:  # mypy checks that the drivers answer the client's Protocols
    from .protocols import AsyncBackend, Backend

    _sync: type[Backend] = InProcessBackend
    _async: type[AsyncBackend] = AsyncInProcessBackend


__all__ = [
    "AsyncInProcessBackend",
    "InProcessBackend",
    "InProcessEmbeddingsCache",
    "InProcessStore",
    "InjectedFailure",
]
