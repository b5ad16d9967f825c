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

import fnmatch
import json
import random
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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
    cache_keys,
    decode_user_id,
    encode_user_id,
)
from . import wire
from .errors import schema_of


class _Hash(dict[bytes, bytes]):
    pass


class _ZSet(dict[bytes, float]):
    pass


class _Stream(list[tuple[bytes, dict[bytes, bytes]]]):
    pass


def _b(value: Any) -> bytes:
    """A value as Redis stores it: bytes (text as UTF-8, numbers as their decimal text)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    return str(value).encode("utf-8", "surrogatepass")


def _span(length: int, start: int, stop: int) -> range:
    """Indices of Redis's inclusive ``start..stop`` (negative from the end) over a list."""
    start = start + length if start < 0 else start
    stop = stop + length if stop < 0 else stop
    start, stop = max(start, 0), min(stop, length - 1)
    return range(start, stop + 1) if start <= stop else range(0)


@dataclass
class _Failure:
    transient: bool
    after_write: bool
    methods: Collection[str] | None


class InjectedFailure(StorageUnavailableError):
    """A failure :meth:`InProcessStore.fail_next` asked for (a
    :class:`~penchant.memory.StorageUnavailableError`, as a Redis driver raises).

    Attributes:
        transient: Whether the backend reports it as a failover's (retried by the client).
        stored: Whether the commit it interrupted had been stored (its reply was lost).
    """

    def __init__(self, message: str, *, transient: bool, stored: bool) -> None:
        super().__init__(message)
        self.transient = transient
        self.stored = stored


class InProcessStore:
    """A Redis-shaped keyspace in a dict, shared by every backend (sync or async) over it.

    Thread-safe: each command, commit and read runs under one lock, so a commit is atomic as
    a Lua script is on Redis. Expiry is by ``clock`` (seconds, ``time.time`` by default) and
    lazy, as Redis's is on access.

    Args:
        clock: Seconds since the epoch; a test may pass its own to move time.

    Attributes:
        unavailable: While True, every backend call raises
            :class:`~penchant.memory.StorageUnavailableError` (a server that is down).
        calls: How many backend calls reached the store (failed ones included), by name.
    """

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.RLock()
        self._data: dict[str, Any] = {}
        self._expires: dict[str, float] = {}
        self._stream_seq = 0
        self._failures: list[_Failure] = []
        self._cache_index: OrderedDict[str, None] = OrderedDict()  # oldest entry first
        self._cache_models: set[str] = set()
        self.unavailable = False
        self.calls: dict[str, int] = {}

    # -- failure injection ----------------------------------------------------------------------

    def fail_next(
        self,
        calls: int = 1,
        *,
        transient: bool = False,
        after_write: bool = False,
        methods: Collection[str] | None = None,
    ) -> None:
        """Make the next ``calls`` backend calls raise
        :class:`~penchant.memory.StorageUnavailableError`.

        Args:
            calls: How many calls fail (counted among ``methods`` only, when given).
            transient: Fail as a cluster failover does: the client retries the call within
                ``Settings.write_retry_seconds``; otherwise it gives up at once (a single
                server that is down: the spool takes over).
            after_write: A failing ``commit`` is stored first and then raises, as a commit
                whose reply was lost on the way back.
            methods: Backend method names the failures apply to (``{"commit"}``); ``None``:
                any call.
        """
        with self._lock:
            self._failures += [_Failure(transient, after_write, methods) for _ in range(calls)]

    @property
    def pending_failures(self) -> int:
        """Injected failures not yet raised."""
        return len(self._failures)

    @contextmanager
    def _call(self, name: str) -> Iterator[_Failure | None]:
        """Enter one backend call: raise an injected failure now, or hand over one that
        applies after the write (the caller raises it with :meth:`_raise`)."""
        with self._lock:
            self.calls[name] = self.calls.get(name, 0) + 1
            if self.unavailable:
                raise StorageUnavailableError(
                    f"cannot {name}: the in-process store is unavailable (store.unavailable)"
                )
            failure = next((f for f in self._failures
                            if f.methods is None or name in f.methods), None)  # fmt: skip
            if failure is not None:
                self._failures.remove(failure)
                if not (failure.after_write and name == "commit"):
                    raise InjectedFailure(
                        f"cannot {name}: injected failure (store.fail_next)",
                        transient=failure.transient, stored=False,
                    )
            yield failure

    @staticmethod
    def _raise(name: str, failure: _Failure | None) -> None:
        if failure is not None:
            raise InjectedFailure(
                f"{name}: the reply was lost after the write (store.fail_next)",
                transient=failure.transient, stored=True,
            )

    # -- the keyspace ---------------------------------------------------------------------------

    def _get(self, key: str, kind: type | None = None) -> Any:
        deadline = self._expires.get(key)
        if deadline is not None and deadline <= self._clock():
            self._delete(key)
        value = self._data.get(key)
        if value is not None and kind is not None and not isinstance(value, kind):
            raise StorageUnavailableError(
                f"WRONGTYPE: key {key!r} holds a {type(value).__name__.strip('_').lower()}"
            )
        return value

    def _make(self, key: str, kind: type) -> Any:
        value = self._get(key, kind)
        if value is None:
            value = self._data[key] = kind()
        return value

    def _delete(self, key: str) -> int:
        self._expires.pop(key, None)
        return 0 if self._data.pop(key, None) is None else 1

    def _tidy(self, key: str) -> None:
        """Drop a container left empty (Redis deletes the key of an empty hash or list)."""
        value = self._data.get(key)
        if value is not None and not isinstance(value, bytes) and not value:
            self._delete(key)

    def _set(self, key: str, value: Any, ttl_seconds: float | None = None) -> None:
        self._data[key] = _b(value)
        self._expires.pop(key, None)
        if ttl_seconds is not None:
            self._expires[key] = self._clock() + ttl_seconds

    def _keys(self, pattern: str = "*") -> list[str]:
        return [k for k in list(self._data) if self._get(k) is not None
                and fnmatch.fnmatchcase(k, pattern)]  # fmt: skip

    # -- inspection, with redis-py's names and reply shapes (for tests) -------------------------

    def keys(self, pattern: str = "*") -> list[bytes]:
        """Names of the live keys matching a glob ``pattern``."""
        with self._lock:
            return [k.encode() for k in self._keys(pattern)]

    def exists(self, *keys: str) -> int:
        """How many of ``keys`` exist."""
        with self._lock:
            return sum(self._get(k) is not None for k in keys)

    def get(self, key: str) -> bytes | None:
        """A string key's value."""
        with self._lock:
            value = self._get(key, bytes)
            return value if value is None else bytes(value)

    def hgetall(self, key: str) -> dict[bytes, bytes]:
        """A hash as ``{field: value}`` (``{}`` when absent)."""
        with self._lock:
            return dict(self._get(key, _Hash) or {})

    def hlen(self, key: str) -> int:
        """Fields of a hash."""
        with self._lock:
            return len(self._get(key, _Hash) or {})

    def lrange(self, key: str, start: int, stop: int) -> list[bytes]:
        """A list's items ``start..stop`` (inclusive, negative from the end)."""
        with self._lock:
            items = self._get(key, list) or []
            return [items[i] for i in _span(len(items), start, stop)]

    def smembers(self, key: str) -> set[bytes]:
        """A set's members."""
        with self._lock:
            return set(self._get(key, set) or ())

    def zscore(self, key: str, member: str) -> float | None:
        """A sorted set member's score."""
        with self._lock:
            return (self._get(key, _ZSet) or {}).get(_b(member))

    def ttl(self, key: str) -> int:
        """Seconds a key has left: ``-2`` when absent, ``-1`` without expiry."""
        with self._lock:
            if self._get(key) is None:
                return -2
            deadline = self._expires.get(key)
            return -1 if deadline is None else max(0, round(deadline - self._clock()))

    def flushall(self) -> None:
        """Delete every key (the embeddings cache included)."""
        with self._lock:
            self._data.clear()
            self._expires.clear()
            self._cache_index.clear()

    # -- the commands a commit runs (the command list of :func:`.wire.encode_commit`) -----------

    def _command(self, name: str, key: str, args: list[Any]) -> None:
        if name == "HSET":
            self._make(key, _Hash)[_b(args[0])] = _b(args[1])
        elif name == "HDEL":
            (self._get(key, _Hash) or {}).pop(_b(args[0]), None)
        elif name == "LPUSH":
            self._make(key, list).insert(0, _b(args[0]))
        elif name == "RPUSH":
            self._make(key, list).append(_b(args[0]))
        elif name == "LTRIM":
            items = self._get(key, list)
            if items is not None:
                items[:] = [items[i] for i in _span(len(items), int(args[0]), int(args[1]))]
        elif name == "EXPIRE":
            if self._get(key) is not None:
                self._expires[key] = self._clock() + int(args[0])
        elif name == "XADD":  # MAXLEN n * field value
            stream = self._make(key, _Stream)
            self._stream_seq += 1
            entry_id = f"{int(self._clock() * 1000)}-{self._stream_seq}".encode()
            stream.append((entry_id, {_b(args[3]): _b(args[4])}))
            del stream[: max(0, len(stream) - int(args[1]))]
        else:  # pragma: no cover - encode_commit emits only the commands above
            raise StorageUnavailableError(f"the in-process store has no command {name}")
        self._tidy(key)

    def _run_commit(self, keys: list[str], argv: list[Any]) -> list[bytes]:
        """:data:`.wire.COMMIT_SCRIPT`, in Python (same KEYS, ARGV and reply)."""
        idem_ttl = str(argv[3])
        if idem_ttl:
            prev = self._get(keys[1], bytes)
            if prev is not None:
                return [b"replayed", prev]
        cur = self._get(keys[0], bytes) or b""
        if argv[0] == "guard" and cur != _b(argv[1]):
            return [b"conflict", cur]
        i = 8
        for _ in range(int(argv[5])):
            count = int(argv[i + 2])
            self._command(argv[i], keys[int(argv[i + 1]) - 1], list(argv[i + 3 : i + 3 + count]))
            i += 3 + count
        if argv[2]:
            new = _b(argv[2])
            self._set(keys[0], new)
            self._command("LPUSH", keys[2], [new + b"\n" + cur + b"\n" + _b(argv[6])])
            self._command("LTRIM", keys[2], [0, int(argv[7]) - 1])
            cur = new
        if idem_ttl:
            self._set(keys[1], argv[4], int(idem_ttl))
        return [b"committed", cur]

    def _run_read(self, keys: UserKeys, argv: list[Any]) -> list[Any]:
        """:data:`.wire.READ_SCRIPT`, in Python (same ARGV and reply)."""
        cur = self._get(keys.rev, bytes) or b""
        known, wanted = str(argv[0]), int(argv[1])
        hist = [bytes(h) for h in self._get(keys.history, list) or []][: max(0, wanted)]
        if cur.decode() == known:
            return [cur, hist, "current"]
        codes = wire.SNAPSHOT_HASHES
        hashes = dict(zip(codes, (keys.prefs, keys.vectors, keys.observations, keys.flags,
                                  keys.tombstones), strict=True))  # fmt: skip
        max_fields = int(argv[2])
        if max_fields > 0 and known and cur:
            want: dict[str, list[str]] = {}
            seen: set[tuple[str, str]] = set()
            expect, found = cur.decode(), False
            for entry in self._get(keys.revlog, list) or []:
                parts = entry.decode().split("\n", 2)
                if len(parts) < 3 or parts[0] != expect or parts[2] == "*":
                    break
                flat = json.loads(parts[2])
                for j in range(0, len(flat), 2):
                    if (flat[j], flat[j + 1]) not in seen:
                        seen.add((flat[j], flat[j + 1]))
                        want.setdefault(flat[j], []).append(flat[j + 1])
                if len(seen) > max_fields:
                    break
                if parts[1] == known:
                    found = True
                    break
                expect = parts[1]
            if found:
                out: list[Any] = [cur, hist, "delta"]
                for code in codes:
                    if code in want:
                        values = self._get(hashes[code], _Hash) or {}
                        out += [code, want[code], [values.get(_b(f)) for f in want[code]]]
                return out
        inline = int(argv[3])
        stores = [self._get(hashes[code], _Hash) or {} for code in codes]
        if inline >= 0 and sum(len(s) for s in stores) > inline:
            return [cur, hist, "page"]
        return [cur, hist, "full", *([x for pair in s.items() for x in pair] for s in stores)]

    # -- the embeddings cache -------------------------------------------------------------------

    def _cache_get(self, keys: list[str]) -> list[list[float] | None]:
        found: list[list[float] | None] = []
        for key in keys:
            raw = self._get(key, bytes)
            if raw is None:
                self._cache_index.pop(key, None)
            found.append(None if raw is None else list(json.loads(raw)))
        return found

    def _cache_set(self, keys: list[str], model: str, vectors: list[list[float]], ttl: int,
                   limit: int) -> None:
        self._cache_models.add(model)
        for key, vector in zip(keys, vectors, strict=True):
            self._set(key, json.dumps([float(x) for x in vector]), ttl or None)
            self._cache_index.pop(key, None)
            self._cache_index[key] = None
        while len(self._cache_index) > limit:
            victim, _ = self._cache_index.popitem(last=False)
            self._delete(victim)

    def _cache_drop(self, texts: list[str]) -> int:
        found = [k for k in cache_keys(texts, sorted(self._cache_models)) if k in self._cache_index]
        for key in found:
            self._cache_index.pop(key)
        return sum(self._delete(k) for k in found)


class InProcessEmbeddingsCache:
    """The embeddings cache of an :class:`InProcessStore`: the same keys as on Redis
    (:func:`~penchant.memory.model.cache_keys`: digests, no text), with a TTL and a bound on
    entries (oldest dropped first).

    Args:
        store: The store that holds the entries.
        ttl_seconds: Lifetime of an entry (0: none).
        max_entries: Most entries kept.
    """

    def __init__(self, store: InProcessStore, ttl_seconds: int, max_entries: int) -> None:
        self.store, self.ttl_seconds, self.max_entries = store, ttl_seconds, max_entries

    def get_many(self, texts: list[str], model: str) -> list[list[float] | None]:
        """Cached vectors of ``texts`` under ``model`` (``None`` for a miss)."""
        with self.store._call("embeddings_cache.get"):
            return self.store._cache_get(cache_keys(texts, [model]))

    def set_many(self, texts: list[str], model: str, vectors: list[list[float]]) -> None:
        """Store vectors of ``texts`` under ``model``, evicting the oldest past the bound."""
        with self.store._call("embeddings_cache.set"):
            self.store._cache_set(cache_keys(texts, [model]), model, vectors, self.ttl_seconds,
                                  self.max_entries)


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
            stream = store._get(keys.changes, _Stream) or _Stream()
            gone = set(wire.events_to_erase(list(stream), erasure))
            if gone:
                stream[:] = [e for e in stream if e[0] not in gone]
                removed += len(gone)
                store._tidy(keys.changes)
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
        return wire.decode_changes(stream[::-1][: max(0, limit)])

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
