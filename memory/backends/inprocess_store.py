"""The keyspace of the in-process backend (:mod:`.inprocess`): a Redis-shaped dict with
expiry, ports of the commit and read scripts of :mod:`.wire`, failure injection, and the
embeddings cache.
"""

from __future__ import annotations

import fnmatch
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..model import StorageUnavailableError, UserKeys, cache_keys
from . import wire


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

    def xrange(self, key: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """A stream's entries, oldest first, as ``(id, {field: value})``."""
        with self._lock:
            return [(entry_id, dict(fields)) for entry_id, fields in self._get(key, _Stream) or []]

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
        elif name == "SADD":
            self._make(key, set).update(_b(a) for a in args)
        elif name == "XADD":  # MAXLEN n * field value [field value ...]
            stream = self._make(key, _Stream)
            self._stream_seq += 1
            entry_id = f"{int(self._clock() * 1000)}-{self._stream_seq}".encode()
            pairs = args[3:]
            fields = {_b(pairs[i]): _b(pairs[i + 1]) for i in range(0, len(pairs) - 1, 2)}
            stream.append((entry_id, fields))
            del stream[: max(0, len(stream) - int(args[1]))]
        else:  # pragma: no cover - encode_commit emits only the commands above
            raise StorageUnavailableError(f"the in-process store has no command {name}")
        self._tidy(key)

    def _log_add(
        self, log: str, events: str, index: str, cap: int, token: Any, event: Any, terms: Any
    ) -> None:
        """The commit script's ``LOGADD``: the token onto the stream, the event into the
        events hash, ``"<stream id><terms>"`` into the erasure index, all three capped."""
        self._command("XADD", log, ["MAXLEN", 2**62, "*", "ek", token])
        stream = self._get(log, _Stream) or _Stream()
        entry_id = stream[-1][0]
        self._command("HSET", events, [token, event])
        self._command("HSET", index, [token, entry_id + _b(terms)])
        for _id, fields in stream[: max(0, len(stream) - cap)]:
            if b"ek" in fields:
                self._command("HDEL", events, [fields[b"ek"]])
                self._command("HDEL", index, [fields[b"ek"]])
        del stream[: max(0, len(stream) - cap)]
        self._tidy(log)

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
            args = list(argv[i + 3 : i + 3 + count])
            if argv[i] == "LOGADD":  # events hash index, erasure index index, cap, token, …
                self._log_add(keys[int(argv[i + 1]) - 1], keys[int(args[0]) - 1],
                              keys[int(args[1]) - 1], int(args[2]), *args[3:6])  # fmt: skip
            else:
                self._command(argv[i], keys[int(argv[i + 1]) - 1], args)
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


__all__ = ["InProcessEmbeddingsCache", "InProcessStore", "InjectedFailure"]
