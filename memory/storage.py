"""Redis storage: the only module that talks to redis-py (DESIGN.md §2, §5).

Writes to a user's active set happen in :meth:`RedisStorage.apply`, an
optimistic transaction: ``WATCH`` the user's revision key, read the active
set, let the caller decide a :class:`~.resolution.WritePlan`, then ``MULTI`` …
``EXEC`` the plan together with its change events and a new revision. A
concurrent writer makes ``EXEC`` fail and the whole decision is taken again on
fresh data, so two processes writing the same preference end with one merged
record and nothing lost. All keys of one transaction share the user's hash
tag, so this also works on Redis Cluster.

The active set is cached in-process per user and revision: the hot path costs
one ``GET`` of the revision when nothing else wrote in between.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

from .errors import (
    ConcurrencyError,
    InvalidInputError,
    SchemaVersionError,
    StorageUnavailableError,
)
from .flags import Flag
from .keys import CHECKUP_DUE_KEY, META_KEY, USERS_KEY, UserKeys, decode_user_id, encode_user_id
from .observations import Observation, ObservationPlan
from .records import SCHEMA_VERSION, ChangeEvent, HistorySnapshot, Preference
from .resolution import ActiveSet, WritePlan
from .settings import Settings

logger = logging.getLogger(__name__)

_CACHE_USERS = 256

Cascade = Callable[[WritePlan, dict[str, Observation]], ObservationPlan]
"""Decides how a preference write bears on the user's observations (see ``apply``)."""

_RELEASE_LEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RENEW_LEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
_COMPLETE_DUE = """
local score = redis.call('zscore', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('zrem', KEYS[1], ARGV[1])
end
return 0
"""


def client_retry() -> Retry:
    """Retry policy of Penchant's own clients: 3 tries within about half a second.

    redis-py's default (10 tries, several seconds) would freeze a chat turn
    while Redis is down; the spool and the degraded status take over instead.
    """
    return Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.25), 3)


def open_client(url: str, name: str) -> redis.Redis:
    """A client for ``url`` (``redis://``, ``rediss://``, ``unix://``) named ``name``.

    Raises:
        InvalidInputError: The URL is malformed.
        StorageUnavailableError: The server does not answer.
    """
    try:
        client = redis.Redis.from_url(
            url, client_name=name, retry=client_retry(), socket_timeout=5.0,
            socket_connect_timeout=2.0, health_check_interval=30,
        )
    except ValueError as exc:
        raise InvalidInputError(
            f"PENCHANT_REDIS_URL {url!r} is not a Redis URL ({exc}); use redis://, rediss:// "
            "or unix://"
        ) from exc
    try:
        with storage_errors(f"connect to {url}"):
            client.ping()
    except StorageUnavailableError:
        client.close()
        raise
    return client


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


@contextmanager
def storage_errors(action: str) -> Iterator[None]:
    """Translate redis-py errors into :class:`StorageUnavailableError` naming ``action``."""
    try:
        yield
    except redis.WatchError:
        raise
    except (redis.RedisError, OSError) as exc:
        reason = str(exc).rstrip(". ")
        raise StorageUnavailableError(
            f"Redis unavailable while trying to {action}: {reason}. Check PENCHANT_REDIS_URL, "
            "or run 'penchant doctor'."
        ) from exc


class RedisStorage:
    """Reads and atomic writes of preferences, history and change events.

    Args:
        client: A redis-py client (borrowed: the caller closes it), created
            with ``decode_responses=False`` (redis-py's default): vectors are bytes.
        settings: Limits (change-log cap, history cap, retries).

    Raises:
        InvalidInputError: The client decodes responses.
    """

    def __init__(self, client: redis.Redis, settings: Settings) -> None:
        if client.get_connection_kwargs().get("decode_responses"):
            raise InvalidInputError(
                "Penchant needs a redis client with decode_responses=False (the default); "
                "stored vectors are raw bytes"
            )
        self.client = client
        self.settings = settings
        self._cache: OrderedDict[str, tuple[bytes, ActiveSet]] = OrderedDict()
        self._known_users: set[str] = set()

    # -- schema ---------------------------------------------------------------------------------

    def ensure_schema(self) -> int:
        """Record the schema version on first use; refuse data of an unknown version.

        Returns:
            The stored schema version.

        Raises:
            SchemaVersionError: The data was written by an incompatible release.
            StorageUnavailableError: Redis cannot be reached.
        """
        with storage_errors("check the schema version"):
            self.client.hsetnx(META_KEY, "schema_version", SCHEMA_VERSION)
            stored = int(self.client.hget(META_KEY, "schema_version") or SCHEMA_VERSION)
        if stored > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"stored schema version {stored} is newer than this release's {SCHEMA_VERSION}; "
                "upgrade penchant"
            )
        return stored

    # -- reads ----------------------------------------------------------------------------------

    def preferences(self, keys: UserKeys, *, with_embeddings: bool = False) -> list[Preference]:
        """The user's active preferences, oldest first.

        Args:
            keys: The user's keys.
            with_embeddings: Also load each ``float32`` vector (for recall).
        """
        return self.preferences_at_revision(keys, with_embeddings=with_embeddings)[1]

    def revision(self, keys: UserKeys) -> bytes:
        """The user's current revision token (changes with every write of the active set)."""
        with storage_errors("read the revision"):
            rev: Any = self.client.get(keys.rev)
        return bytes(rev or b"")

    def preferences_at_revision(
        self, keys: UserKeys, *, with_embeddings: bool = False
    ) -> tuple[bytes, list[Preference]]:
        """The active preferences together with the revision they belong to.

        Read in one ``MULTI`` so the list and the revision always match.
        """
        with storage_errors("read preferences"), self.client.pipeline() as pipe:
            pipe.get(keys.rev)
            pipe.hgetall(keys.prefs)
            pipe.hgetall(keys.vectors if with_embeddings else keys.prefs + ":none")
            rev, raw, vectors = pipe.execute()
        vectors = vectors if with_embeddings else {}
        prefs = [Preference.from_json(v, vectors.get(k)) for k, v in raw.items()]
        return bytes(rev or b""), sorted(prefs, key=lambda p: (p.created_at, p.id))

    def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]:
        """Recent history snapshots, newest first."""
        with storage_errors("read history"):
            raw = self.client.lrange(keys.history, 0, max(0, limit - 1))
        return [HistorySnapshot.model_validate_json(r) for r in raw]

    def latest_history(self, keys: UserKeys) -> dict[str, HistorySnapshot]:
        """The last snapshot of each kind."""
        with storage_errors("read history"):
            raw = self.client.hgetall(keys.history_last)
        return {_text(k): HistorySnapshot.model_validate_json(v) for k, v in raw.items()}

    def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        with storage_errors("read the change log"):
            entries: Any = self.client.xrevrange(keys.changes, count=limit)
        return [ChangeEvent.model_validate_json(fields[b"event"]) for _id, fields in entries]

    def change_count(self, keys: UserKeys) -> int:
        """Number of change events kept (bounded by ``settings.change_log_max``)."""
        with storage_errors("read the change log"):
            return int(self.client.xlen(keys.changes))

    def users(self) -> list[str]:
        """Every user id that has stored something."""
        with storage_errors("list users"):
            members: Any = self.client.smembers(USERS_KEY)
        return sorted(decode_user_id(_text(u)) for u in members)

    # -- the gate's transaction -----------------------------------------------------------------

    def _active(self, pipe: Any, keys: UserKeys, rev: bytes) -> ActiveSet:
        cached = self._cache.get(keys.tag)
        if cached is not None and cached[0] == rev:
            self._cache.move_to_end(keys.tag)
            return cached[1]
        raw = pipe.hgetall(keys.prefs)
        return ActiveSet.build(Preference.from_json(v) for v in raw.values())

    def _remember(self, keys: UserKeys, rev: bytes, active: ActiveSet) -> None:
        self._cache[keys.tag] = (rev, active)
        self._cache.move_to_end(keys.tag)
        while len(self._cache) > _CACHE_USERS:
            self._cache.popitem(last=False)

    def apply(
        self,
        keys: UserKeys,
        decide: Callable[[ActiveSet], WritePlan],
        *,
        extra_events: list[ChangeEvent] | None = None,
        idempotency_key: str | None = None,
        encode_result: Callable[[WritePlan], str] | None = None,
        cascade: Cascade | None = None,
    ) -> WritePlan | str:
        """Run ``decide`` against the user's active set and write its plan atomically.

        Args:
            keys: The user's keys.
            decide: Pure function from the active set (not to be modified)
                to a plan. Called again after every lost race.
            extra_events: Events to log with the plan (e.g. rejections).
            idempotency_key: When given, a second call with the same key within
                ``settings.idempotency_ttl_seconds`` writes nothing and returns
                the first call's encoded result instead.
            encode_result: Encodes the plan's result for the idempotency record.
            cascade: When given and the plan deletes or merges preferences, the user's
                observations are read (and ``WATCH``ed) and the cascade's changes to them
                are written in the same transaction (forget cascades to observations).

        Returns:
            The plan that was written, or the stored result string of an
            earlier call with the same idempotency key.

        Raises:
            ConcurrencyError: Lost the race ``settings.gate_retries`` times.
            StorageUnavailableError: Redis failed; nothing was written.
        """
        idem = keys.idempotency(idempotency_key) if idempotency_key else None
        for _attempt in range(self.settings.gate_retries):
            try:
                with storage_errors("write preferences"), self.client.pipeline() as pipe:
                    outcome = self._attempt(
                        pipe, keys, idem, decide, extra_events, encode_result, cascade
                    )
                return outcome
            except redis.WatchError:
                continue
        raise ConcurrencyError(
            f"gave up after {self.settings.gate_retries} write conflicts for user "
            f"{keys.user_id!r}; nothing was stored, retry the write"
        )

    def _attempt(
        self,
        pipe: Any,
        keys: UserKeys,
        idem: str | None,
        decide: Callable[[ActiveSet], WritePlan],
        extra_events: list[ChangeEvent] | None,
        encode_result: Callable[[WritePlan], str] | None,
        cascade: Cascade | None = None,
    ) -> WritePlan | str:
        pipe.watch(keys.rev, *([idem] if idem else []))
        if idem:
            previous = pipe.get(idem)
            if previous is not None:
                pipe.unwatch()
                return str(previous.decode())
        rev = pipe.get(keys.rev) or b""
        active = self._active(pipe, keys, rev)
        plan = decide(active)
        events = [*(extra_events or []), *plan.events]
        if not (plan.upserts or plan.deletes or events):
            pipe.unwatch()
            self._remember(keys, rev, active)
            return plan
        observed = self._cascade(pipe, keys, plan, cascade)
        events += observed.events
        new_rev = uuid.uuid4().hex.encode()
        pipe.multi()
        self._queue_plan(pipe, keys, plan, events)
        self._queue_observations(pipe, keys, observed)
        pipe.set(keys.rev, new_rev)
        if idem and encode_result is not None:
            pipe.set(idem, encode_result(plan), ex=self.settings.idempotency_ttl_seconds)
        pipe.execute()
        if plan.after is None:
            plan.after = active.clone()
            for pref_id in plan.deletes:
                plan.after.remove(pref_id)
            for pref in plan.upserts.values():
                plan.after.add(pref)
        self._remember(keys, new_rev, plan.after)
        if plan.created and keys.tag not in self._known_users:
            self.client.sadd(USERS_KEY, keys.tag.split("{", 1)[1].rstrip("}"))
            self._known_users.add(keys.tag)
        return plan

    def _cascade(
        self, pipe: Any, keys: UserKeys, plan: WritePlan, cascade: Cascade | None
    ) -> ObservationPlan:
        """Observation changes of a preference write (read while the transaction watches)."""
        if cascade is None or not (plan.deletes or plan.merged):
            return ObservationPlan()
        pipe.watch(keys.observations)
        raw = pipe.hgetall(keys.observations)
        if not raw:
            return ObservationPlan()
        existing = {_text(k): Observation.from_json(v) for k, v in raw.items()}
        return cascade(plan, existing)

    @staticmethod
    def _queue_observations(pipe: Any, keys: UserKeys, plan: ObservationPlan) -> None:
        if plan.upserts:
            pipe.hset(keys.observations, mapping={k: o.to_json() for k, o in plan.upserts.items()})
        if plan.deletes:
            pipe.hdel(keys.observations, *plan.deletes)

    def _queue_plan(
        self, pipe: Any, keys: UserKeys, plan: WritePlan, events: list[ChangeEvent]
    ) -> None:
        if plan.upserts:
            pipe.hset(keys.prefs, mapping={k: p.to_json() for k, p in plan.upserts.items()})
            vectors = {k: p.embedding for k, p in plan.upserts.items() if p.embedding is not None}
            if vectors:
                pipe.hset(keys.vectors, mapping=vectors)  # type: ignore[arg-type]
        if plan.deletes:
            pipe.hdel(keys.prefs, *plan.deletes)
            pipe.hdel(keys.vectors, *plan.deletes)
        for event in events:
            self._queue_event(pipe, keys, event)

    def _queue_event(self, pipe: Any, keys: UserKeys, event: ChangeEvent) -> None:
        pipe.xadd(
            keys.changes,
            {"event": event.model_dump_json()},
            maxlen=self.settings.change_log_max,
            approximate=False,
        )

    def log_events(self, keys: UserKeys, events: list[ChangeEvent]) -> None:
        """Append change events outside a preference write (e.g. all candidates rejected)."""
        if not events:
            return
        with storage_errors("write the change log"), self.client.pipeline() as pipe:
            for event in events:
                self._queue_event(pipe, keys, event)
            pipe.execute()

    def replace_vectors(self, keys: UserKeys, updates: dict[str, Preference]) -> int:
        """Write new embeddings for existing preferences (re-embedding), atomically.

        A preference is updated only if it is still active with the same
        content as when it was embedded; only its vector fields change, so a
        gate write that happened meanwhile is never overwritten.

        Returns:
            How many preferences got their new vector.
        """
        for _attempt in range(self.settings.gate_retries):
            try:
                with storage_errors("write embeddings"), self.client.pipeline() as pipe:
                    pipe.watch(keys.rev)
                    current = pipe.hmget(keys.prefs, list(updates))
                    fresh = {}
                    for pref_id, raw in zip(updates, current, strict=True):
                        new = updates[pref_id]
                        if raw is None:
                            continue
                        stored = Preference.from_json(raw)
                        if stored.content == new.content:
                            fresh[pref_id] = stored.model_copy(update={
                                "embedding_model": new.embedding_model,
                                "embedding_dim": new.embedding_dim,
                                "embedding": new.embedding,
                            })
                    pipe.multi()
                    for pref_id, pref in fresh.items():
                        pipe.hset(keys.prefs, pref_id, pref.to_json())
                        pipe.hset(keys.vectors, pref_id, pref.embedding)  # type: ignore[arg-type]
                    pipe.set(keys.rev, uuid.uuid4().hex)
                    pipe.execute()
                return len(fresh)
            except redis.WatchError:
                continue
        raise ConcurrencyError(f"re-embedding {keys.user_id!r} kept colliding with writers")

    # -- observations (reflect) -----------------------------------------------------------------

    def observations(self, keys: UserKeys) -> list[Observation]:
        """The user's observations, most confident first."""
        with storage_errors("read observations"):
            raw: Any = self.client.hgetall(keys.observations)
        found = [Observation.from_json(v) for v in raw.values()]
        return sorted(found, key=lambda o: (-o.confidence, o.created_at, o.id))

    def apply_observations(
        self, keys: UserKeys, decide: Callable[[set[str], dict[str, Observation]], ObservationPlan]
    ) -> ObservationPlan:
        """Run ``decide`` against the active preference ids and the stored observations, and
        write its plan atomically (``WATCH`` of the revision and the observations).

        Args:
            keys: The user's keys.
            decide: Pure function ``(active preference ids, observations by id) → plan``;
                called again after every lost race.

        Returns:
            The plan that was written.

        Raises:
            ConcurrencyError: Lost the race ``settings.gate_retries`` times.
            StorageUnavailableError: Redis failed; nothing was written.
        """
        for _attempt in range(self.settings.gate_retries):
            try:
                with storage_errors("write observations"), self.client.pipeline() as pipe:
                    pipe.watch(keys.rev, keys.observations)
                    rev: Any = pipe.get(keys.rev) or b""
                    active = self._active(pipe, keys, rev)
                    raw = pipe.hgetall(keys.observations)
                    existing = {_text(k): Observation.from_json(v) for k, v in raw.items()}
                    plan = decide(set(active.prefs), existing)
                    if plan.empty:
                        pipe.unwatch()
                        return plan
                    pipe.multi()
                    self._queue_observations(pipe, keys, plan)
                    for event in plan.events:
                        self._queue_event(pipe, keys, event)
                    pipe.execute()
                return plan
            except redis.WatchError:
                continue
        raise ConcurrencyError(
            f"gave up after {self.settings.gate_retries} write conflicts on the observations "
            f"of {keys.user_id!r}; nothing was stored, retry"
        )

    # -- check-up: flags, leases, schedule ------------------------------------------------------

    def flags(self, keys: UserKeys) -> list[Flag]:
        """The user's open check-up flags, oldest first."""
        with storage_errors("read flags"):
            raw: Any = self.client.hgetall(keys.flags)
        return sorted((Flag.from_json(v) for v in raw.values()), key=lambda f: (f.created_at, f.id))

    def put_flags(
        self, keys: UserKeys, found: list[Flag], stale: set[str], events: list[ChangeEvent]
    ) -> list[Flag]:
        """Add new flags (an existing id is kept as it is), drop stale ones, log ``events``.

        Args:
            keys: The user's keys.
            found: Flags the check-up found now.
            stale: Ids of stored flags to remove (their preferences are gone).
            events: Change events for the flags that turn out to be new (filtered here).

        Returns:
            The flags that were new.
        """
        for _attempt in range(self.settings.gate_retries):
            try:
                with storage_errors("write flags"), self.client.pipeline() as pipe:
                    pipe.watch(keys.flags)
                    known = {_text(k) for k in pipe.hkeys(keys.flags)}
                    new = [f for f in found if f.id not in known]
                    new_ids = {f.id for f in new}
                    drop = sorted(stale & known)
                    if not new and not drop:
                        pipe.unwatch()
                        return []
                    pipe.multi()
                    if new:
                        pipe.hset(keys.flags, mapping={f.id: f.to_json() for f in new})
                    if drop:
                        pipe.hdel(keys.flags, *drop)
                    for event in events:
                        if (event.after or {}).get("id") in new_ids:
                            self._queue_event(pipe, keys, event)
                    pipe.execute()
                return new
            except redis.WatchError:
                continue
        raise ConcurrencyError(f"flags of {keys.user_id!r} kept changing; retry the check-up")

    def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Take a lease: ``SET key token NX PX ttl_ms``; False when someone else holds it."""
        with storage_errors("take a lease"):
            return bool(self.client.set(key, token, nx=True, px=ttl_ms))

    def release_lease(self, key: str, token: str) -> bool:
        """Give a lease back if it is still ours (compare-and-delete in one Lua script)."""
        with storage_errors("release a lease"):
            return bool(self.client.eval(_RELEASE_LEASE, 1, key, token))

    def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Extend a lease we still hold to ``ttl_ms`` from now; False when it is not ours."""
        with storage_errors("renew a lease"):
            return bool(self.client.eval(_RENEW_LEASE, 1, key, token, ttl_ms))

    def lease_holder(self, key: str) -> str | None:
        """The token of the lease's current holder, or None when it is free (or expired)."""
        with storage_errors("read a lease"):
            value: Any = self.client.get(key)
        return None if value is None else _text(value)

    def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        """Mark a user's check-up due at ``due_ms`` (epoch ms); an earlier due time is kept."""
        with storage_errors("schedule a check-up"):
            self.client.zadd(CHECKUP_DUE_KEY, {encode_user_id(user_id): due_ms}, lt=True)

    def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Users whose check-up is due by ``now_ms``, earliest first: ``[(user_id, due_ms)]``."""
        with storage_errors("read due check-ups"):
            rows: Any = self.client.zrangebyscore(
                CHECKUP_DUE_KEY, "-inf", now_ms, start=0, num=limit, withscores=True
            )
        return [(decode_user_id(_text(member)), int(score)) for member, score in rows]

    def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """Remove a done check-up from the schedule unless it was rescheduled meanwhile."""
        with storage_errors("complete a check-up"):
            member = encode_user_id(user_id)
            done = self.client.eval(_COMPLETE_DUE, 1, CHECKUP_DUE_KEY, member, due_ms)
        return bool(done)

    # -- history and transcripts ----------------------------------------------------------------

    def add_history(self, keys: UserKeys, snapshot: HistorySnapshot) -> None:
        """Store a history snapshot: newest first, bounded, last write wins per kind."""
        raw = snapshot.model_dump_json()
        with storage_errors("write history"), self.client.pipeline() as pipe:
            pipe.lpush(keys.history, raw)
            pipe.ltrim(keys.history, 0, self.settings.history_max - 1)
            pipe.hset(keys.history_last, snapshot.kind, raw)
            pipe.execute()

    def append_transcript(self, keys: UserKeys, thread_id: str, entry: dict[str, Any]) -> None:
        """Append one message to a thread's transcript, keeping the last 500."""
        key = keys.transcript(thread_id)
        with storage_errors("write the transcript"), self.client.pipeline() as pipe:
            pipe.rpush(key, json.dumps(entry, ensure_ascii=False, default=str))
            pipe.ltrim(key, -500, -1)
            pipe.execute()

    def transcript(self, keys: UserKeys, thread_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a thread, oldest first."""
        with storage_errors("read the transcript"):
            raw = self.client.lrange(keys.transcript(thread_id), -limit, -1)
        return [json.loads(r) for r in raw]

    def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(self.client.ping())
        except (redis.RedisError, OSError):
            return False

    def server_report(self) -> dict[str, Any]:
        """Version, persistence, schema, user count and Query Engine availability.

        Raises:
            StorageUnavailableError: Redis does not answer.
        """
        with storage_errors("read server info"):
            info: Any = self.client.info()
            persistence: Any = self.client.info("persistence")
            schema = self.client.hget(META_KEY, "schema_version")
            try:
                self.client.execute_command("FT._LIST")
                query_engine = True
            except redis.ResponseError:
                query_engine = False
        return {
            "server": f"{info.get('server_name', 'redis')} {info.get('redis_version')}",
            "aof_enabled": bool(persistence.get("aof_enabled")),
            "schema_version": int(schema) if schema is not None else None,
            "users": len(self.users()),
            "query_engine": query_engine,
        }

    def memory_usage(self, key: str) -> int:
        """Bytes Redis attributes to ``key`` (``MEMORY USAGE``)."""
        with storage_errors("measure memory"):
            return int(self.client.memory_usage(key, samples=0) or 0)


__all__ = ["RedisStorage", "client_retry", "open_client", "storage_errors"]
