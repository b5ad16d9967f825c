"""The sync Redis backend: with :mod:`.asyncio`, the only modules that import redis-py.

:class:`SyncBackend` offers what :class:`~penchant.memory.client.Memory` needs: ``read`` (one
user's snapshot and recent history in one round trip), ``commit`` (one atomic script, see
:mod:`.wire`), the other reads, the registry of users, leases and the check-up schedule.
Every redis-py error is translated here, once, into the :class:`~penchant.memory.errors
.PenchantError` tree (:func:`translate`), which the async backend reuses.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

from ..embeddings.base import CACHE_INDEX_KEY, CACHE_MODELS_KEY, cache_keys
from ..errors import (
    InvalidInputError,
    PenchantError,
    SchemaVersionError,
    StorageFullError,
    StorageUnavailableError,
)
from ..keys import CHECKUP_DUE_KEY, META_KEY, USERS_KEY, UserKeys, decode_user_id, encode_user_id
from ..ops import CommitResult, Idempotency, Op, UserSnapshot, touches_snapshot
from ..records import SCHEMA_VERSION, ChangeEvent, HistorySnapshot
from ..settings import Settings
from ..tombstones import Erasure
from . import cluster as clusters
from . import wire
from .scripts import ReloadingScript, is_noscript

logger = logging.getLogger(__name__)

REDIS_ERRORS = (
    redis.RedisError, redis.exceptions.RedisClusterException, OSError,
)
"""What redis-py raises when Redis fails: its errors, the cluster client's own (which are
not ``RedisError``s: no reachable node, a slot not covered) and socket errors."""

_RELEASE_LEASE = wire.RELEASE_LEASE_SCRIPT
_RENEW_LEASE = wire.RENEW_LEASE_SCRIPT
_COMPLETE_DUE = wire.COMPLETE_DUE_SCRIPT


def client_retry() -> Retry:
    """Retry policy of Penchant's own connections: 3 tries within about half a second.

    redis-py's default (10 tries, several seconds) would freeze a chat turn while Redis is
    down; the spool and the degraded status take over instead. (Write *conflicts* are not
    retried here but by the gate's loop, :class:`~penchant.memory.retry.RetryPolicy`.)
    """
    return Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.25), 3)


def client_options(name: str) -> dict[str, Any]:
    """Connection options of Penchant's own clients, sync and async."""
    return {
        "client_name": name, "socket_timeout": 5.0, "socket_connect_timeout": 2.0,
        "health_check_interval": 30,
    }  # fmt: skip


def open_client(url: str, name: str, *, cluster: bool | None = None) -> Any:
    """A client for ``url`` (``redis://``, ``rediss://``, ``unix://``) named ``name``.

    Args:
        url: The server (for a cluster, any node's address).
        name: The connections' ``CLIENT SETNAME``.
        cluster: ``True``: redis-py's ``RedisCluster``; ``False``: a single-node client;
            ``None``: a cluster client when the server's ``INFO cluster`` says
            ``cluster_enabled:1`` (``unix://`` is never a cluster).

    Returns:
        A ``redis.Redis`` or a ``redis.RedisCluster``.

    Raises:
        InvalidInputError: The URL is malformed, or ``cluster=True`` on ``unix://``.
        StorageUnavailableError: The server does not answer.
    """
    if cluster and url.startswith("unix:"):
        raise InvalidInputError(
            f"PENCHANT_REDIS_CLUSTER is true but {url!r} is a unix socket; a Redis Cluster "
            "is reached over TCP (redis:// or rediss://)"
        )
    if cluster:
        return _open_cluster(url, name)
    try:
        client = redis.Redis.from_url(url, retry=client_retry(), **client_options(name))
    except ValueError as exc:
        raise bad_url(url, exc) from exc
    try:
        with storage_errors(f"connect to {url}"):
            client.ping()
            detected = cluster is None and not url.startswith("unix:") and (
                clusters.cluster_enabled(client.info("cluster")))
    except StorageUnavailableError:
        client.close()
        raise
    if detected:
        client.close()
        return _open_cluster(url, name)
    return client


def _open_cluster(url: str, name: str) -> redis.RedisCluster:
    try:
        with storage_errors(f"connect to the cluster at {url}"):
            return clusters.open_sync_cluster(url, name)
    except ValueError as exc:
        raise bad_url(url, exc) from exc
    except StorageUnavailableError as exc:
        raise cluster_open_error(url, exc) from exc.__cause__


def cluster_open_error(url: str, exc: StorageUnavailableError) -> PenchantError:
    """The error for a cluster client that could not start: a URL naming a database other
    than 0 or a server that is not a cluster node is the caller's to fix (exit 2);
    anything else (no node answers) stays a :class:`StorageUnavailableError`."""
    reason = str(exc.__cause__ or exc)
    if "db" in reason and "only be 0" in reason:
        return InvalidInputError(
            f"PENCHANT_REDIS_URL {url!r} names a database other than 0; a Redis Cluster has "
            "only database 0: drop the /N from the URL"
        )
    if "Cluster mode is not enabled" in reason:
        return InvalidInputError(
            f"PENCHANT_REDIS_CLUSTER is true but the server at {url!r} is not a cluster node; "
            "unset PENCHANT_REDIS_CLUSTER (detect) or set it to false"
        )
    return exc


def bad_url(url: str, exc: Exception) -> InvalidInputError:
    """The error for a malformed ``PENCHANT_REDIS_URL``."""
    return InvalidInputError(
        f"PENCHANT_REDIS_URL {url!r} is not a Redis URL ({exc}); use redis://, rediss:// "
        "or unix://"
    )


def translate(exc: BaseException, action: str, location: str = "") -> StorageUnavailableError:
    """The Penchant error for a redis-py (or socket) error raised while doing ``action``.

    A server that refuses writes because it cannot persist (``MISCONF``: a full disk or an
    unwritable data directory) or is out of memory (``OOM``: ``maxmemory``) gets a
    :class:`StorageFullError` that names the place and the fix; the write was not stored.
    """
    reason = str(exc).rstrip(". ")
    where = f" at {location}" if location else ""
    if isinstance(exc, redis.ResponseError) and "MISCONF" in reason:
        return StorageFullError(
            f"Redis{where} refused to {action}: it cannot write its data to disk ({reason}). "
            "Nothing was stored. Free space on the disk of its data directory (the embedded "
            "server's is <PENCHANT_HOME>/redis; see CONFIG GET dir), then retry."
        )
    if isinstance(exc, redis.exceptions.OutOfMemoryError) or (
        isinstance(exc, redis.ResponseError) and ("OOM" in reason or "'maxmemory'" in reason)
    ):
        return StorageFullError(
            f"Redis{where} refused to {action}: it is out of memory ({reason}). Nothing was "
            "stored. Raise its 'maxmemory' setting or free memory, then retry."
        )
    return StorageUnavailableError(
        f"Redis{where} unavailable while trying to {action}: {reason}. Check "
        "PENCHANT_REDIS_URL, or run 'penchant doctor'."
    )


@contextmanager
def storage_errors(action: str, location: str = "") -> Iterator[None]:
    """Translate redis-py errors raised inside into the :class:`PenchantError` tree."""
    try:
        yield
    except REDIS_ERRORS as exc:
        raise translate(exc, action, location) from exc


def check_decoding(client: Any) -> None:
    """Refuse a client that decodes responses (stored vectors are raw bytes).

    Raises:
        InvalidInputError: The client was made with ``decode_responses=True``.
    """
    if (client.get_connection_kwargs() or {}).get("decode_responses"):
        raise InvalidInputError(
            "Penchant needs a redis client with decode_responses=False (the default); "
            "stored vectors are raw bytes"
        )


def not_a_cluster_client(exc: BaseException) -> InvalidInputError | None:
    """The error for a single-node client on a cluster node (a ``MOVED`` reply), else None."""
    cause = exc.__cause__
    if isinstance(cause, redis.exceptions.MovedError) or str(cause).startswith("MOVED"):
        return InvalidInputError(
            f"the Redis server is a cluster node and redirected a request ({cause}); set "
            "PENCHANT_REDIS_CLUSTER=true (or leave it unset to detect it), or pass a "
            "redis.RedisCluster client"
        )
    return None


def report(
    info: Any, persistence: Any, schema: Any, users: int, query_engine: bool,
    shape: dict[str, Any] | None,
) -> dict[str, Any]:
    """``doctor``'s server report (sync and async backends)."""
    out: dict[str, Any] = {
        "server": f"{info.get('server_name', 'redis')} "
                  f"{info.get('valkey_version') or info.get('redis_version')}",
        "aof_enabled": bool(persistence.get("aof_enabled")),
        "schema_version": int(schema) if schema is not None else None,
        "users": users,
        "query_engine": query_engine,
    }
    if shape is not None:
        out["cluster"] = shape
    return out


def schema_of(stored: Any) -> int:
    """Check a stored schema version against this release's.

    Raises:
        SchemaVersionError: The data was written by a newer, incompatible release.
    """
    version = int(stored or SCHEMA_VERSION)
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"stored schema version {version} is newer than this release's {SCHEMA_VERSION}; "
            "upgrade penchant"
        )
    return version


class SyncBackend:
    """One user's snapshot read and atomic commit, plus the other reads, over redis-py.

    Args:
        client: A redis-py client (borrowed: :meth:`close` closes it only when ``owned``),
            with ``decode_responses=False`` (redis-py's default).
        settings: Caps of the change log and the history, idempotency lifetime.
        owned: Close the client in :meth:`close`.

    Attributes:
        page_fields: ``HSCAN`` ``COUNT`` of a paged full read (:data:`.wire.PAGE_FIELDS`).
        inline_fields: Largest store (fields in all) read whole in one script
            (:data:`.wire.INLINE_READ_FIELDS`).

    Raises:
        InvalidInputError: The client decodes responses.
    """

    def __init__(self, client: redis.Redis, settings: Settings, *, owned: bool = False) -> None:
        check_decoding(client)
        self.client = client
        self.settings = settings
        self.owned = owned
        self._commit = ReloadingScript(client, wire.COMMIT_SCRIPT)
        self._read = ReloadingScript(client, wire.READ_SCRIPT)
        self._candidates = ReloadingScript(client, wire.ERASE_CANDIDATES_SCRIPT)
        self._rewrite = ReloadingScript(client, wire.REWRITE_STREAM_SCRIPT)
        self.page_fields = wire.PAGE_FIELDS
        self.inline_fields = wire.INLINE_READ_FIELDS
        self.cluster = clusters.is_cluster_client(client)
        self._nodes: Any = client  # the cluster client's node and slot API (cluster mode)

    @classmethod
    def from_url(cls, url: str, settings: Settings, name: str) -> SyncBackend:
        """An owned backend on a new client for ``url`` (see :func:`open_client`)."""
        return cls(open_client(url, name), settings, owned=True)

    def close(self) -> None:
        """Close the client if this backend owns it."""
        if self.owned:
            self.owned = False
            self.client.close()

    # -- the snapshot and the commit ------------------------------------------------------------

    def read(
        self, keys: UserKeys, known: UserSnapshot | None = None, *, history_limit: int = 0
    ) -> tuple[UserSnapshot, list[HistorySnapshot]]:
        """The user's snapshot and last history snapshots (see :mod:`.wire`).

        ``known`` (the caller's cached snapshot) comes back as is when still current, and is
        patched with only the changed fields when the revision log reaches back to it (one
        round trip either way); otherwise the whole store is read: in one script when small,
        else in ``HSCAN`` pages of :attr:`page_fields` made consistent by a final delta.

        Raises:
            StorageUnavailableError: Redis failed.
        """
        steps = wire.read_steps(
            keys, known, history_limit, page_fields=self.page_fields,
            inline_fields=self.inline_fields,
        )  # fmt: skip
        reply: Any = None
        with storage_errors("read memory"):
            while True:
                try:
                    step = steps.send(reply)
                except StopIteration as stop:
                    result: tuple[UserSnapshot, list[HistorySnapshot]] = stop.value
                    return result
                if isinstance(step, wire.ScriptRead):
                    reply = self._read(keys=wire.read_keys(keys), args=step.args)
                else:
                    reply = self.client.hscan(step.key, step.cursor, count=step.count)

    def commit(
        self,
        keys: UserKeys,
        ops: list[Op],
        expected_revision: str | None,
        idempotency: Idempotency | None = None,
    ) -> CommitResult:
        """Apply ``ops`` atomically if the user's revision is ``expected_revision``.

        Returns:
            ``committed`` with the new revision, ``conflict`` with the current one (nothing
            written), or ``replayed`` with an earlier identical write's result.

        Raises:
            StorageUnavailableError: Redis failed; nothing was written
                (:class:`StorageFullError` when it refuses writes: full disk, no memory).
        """
        new_rev = uuid.uuid4().hex if touches_snapshot(ops) else ""
        script_keys, args = wire.encode_commit(
            keys, ops, expected_revision=expected_revision, new_revision=new_rev,
            idempotency=idempotency, settings=self.settings,
        )  # fmt: skip
        with storage_errors("write memory"):
            reply = self._send_commit(keys, script_keys, args)
        status, value = wire.decode_commit(reply)
        if status == "replayed":
            return CommitResult(status, replay=value)
        return CommitResult(status, revision=value)

    def _send_commit(self, keys: UserKeys, script_keys: list[str], args: list[Any]) -> Any:
        """Run the commit script; with replica acknowledgement on, follow it on the same
        connection with ``WAIT`` (see :mod:`.cluster`). On a cluster that pipeline goes to
        the primary of the user's slot itself, so redirections are handled here: ``ASK``
        (the slot is migrating and the keys have moved) is followed once with ``ASKING``;
        ``MOVED`` and a dead primary refresh the slot table and raise, for the caller's
        retry."""
        replicas = clusters.replicas_of_slot(self.client, keys.rev) if self.cluster else None
        acks = clusters.ack_target(self.settings.redis_replica_acks, self.cluster, replicas)
        if acks == 0:
            return self._commit(keys=script_keys, args=args)
        if not self.cluster:
            return self._acked(self.client, keys, script_keys, args, acks)
        node = self._nodes.get_node_from_key(keys.rev)
        try:
            try:
                return self._acked(self._nodes.get_redis_connection(node), keys, script_keys,
                                   args, acks)  # fmt: skip
            except redis.exceptions.AskError as exc:
                target = self._nodes.get_node(host=exc.host, port=exc.port)
                if isinstance(exc, redis.exceptions.MovedError) or target is None:
                    raise
                return self._acked(self._nodes.get_redis_connection(target), keys, script_keys,
                                   args, acks, asking=True)  # fmt: skip
        except (redis.exceptions.AskError, redis.ConnectionError):
            self._nodes.nodes_manager.initialize()
            raise

    def _acked(
        self, node: Any, keys: UserKeys, script_keys: list[str], args: list[Any], acks: int,
        *, asking: bool = False,
    ) -> Any:
        """The commit script and ``WAIT`` in one pipeline on one node's connection."""
        def send(by_text: bool) -> list[Any]:
            pipe = node.pipeline(transaction=False)
            if asking:
                pipe.execute_command("ASKING")
            if by_text:
                self._commit.queue_text(pipe, script_keys, args)
            else:
                self._commit(keys=script_keys, args=args, client=pipe)
            pipe.execute_command("WAIT", acks, self.settings.redis_replica_ack_timeout_ms)
            replies: list[Any] = pipe.execute()
            return replies

        try:
            *_, reply, acked = send(by_text=False)
        except redis.ResponseError as exc:  # NOSCRIPT: nothing ran; send the text (.scripts)
            if not is_noscript(exc):
                raise
            *_, reply, acked = send(by_text=True)
        if int(acked) < acks and wire.text(reply[0]) == "committed":
            logger.warning(
                "write for %s committed on the primary but acknowledged by %s of %d replicas "
                "within %d ms; it is lost if that primary dies before replicating it",
                keys.user_id, acked, acks, self.settings.redis_replica_ack_timeout_ms,
            )
            if self.cluster:
                self._nodes.nodes_manager.initialize()  # a replica may have left the shard
        return reply

    def transient(self, exc: BaseException) -> bool:
        """Whether a failed request may succeed on retry because the cluster is failing over
        or moving slots (never on a single server: there the spool takes over at once)."""
        return self.cluster and clusters.is_transient(exc)

    def _user_node(self, keys: UserKeys) -> dict[str, Any]:
        """``SCAN`` arguments that scan only the node serving the user's slot (cluster)."""
        if not self.cluster:
            return {}
        return {"target_nodes": self._nodes.get_node_from_key(keys.rev)}

    def register_user(self, keys: UserKeys) -> None:
        """Add the user to ``penchant:users`` (a global key, so never inside a commit)."""
        with storage_errors("register the user"):
            self.client.sadd(USERS_KEY, encode_user_id(keys.user_id))

    # -- erasure --------------------------------------------------------------------------------

    def erase(self, keys: UserKeys, erasure: Erasure) -> int:
        """Scrub the forgotten text from the records that copy it, after a forget's commit:
        change events, idempotency records, transcript messages, history snapshots (see
        :class:`~..tombstones.Erasure`). The change log is searched through its index and
        rewritten without the scrubbed events (:meth:`_erase_events`); transcripts and
        idempotency records come from the user's text-key set (:attr:`~..keys.UserKeys
        .text_keys`), not a ``SCAN`` of the keyspace; each removal is by exact value
        (``LREM``, ``HDEL``, ``DEL`` of a record that names it), so a write that lands
        meanwhile is never lost.

        Returns:
            How many records were removed.
        """
        removed = 0
        with storage_errors("erase forgotten text"):
            removed += self._erase_events(keys, erasure)
            records, threads = wire.text_key_kinds(keys, self._text_keys(keys))
            gone: list[str] = []
            for key in [*threads, keys.history]:
                items: Any = self.client.lrange(key, 0, -1)
                if not items and key != keys.history:
                    gone.append(key)  # expired
                pick = wire.snapshots_to_erase if key == keys.history else wire.messages_to_erase
                for item in pick(items, erasure):
                    removed += int(self.client.lrem(key, 0, item))
            for i in range(0, len(records), 500):  # one MGET per 500
                batch = records[i : i + 500]
                values: Any = self.client.mget(batch)
                gone += [k for k, v in zip(batch, values, strict=True) if v is None]
                named = [k for k, v in zip(batch, values, strict=True)
                         if v is not None and wire.record_names(v, erasure)]  # fmt: skip
                if named:
                    removed += int(self.client.delete(*named))
                    gone += named
            if gone:
                self.client.srem(keys.text_keys, *gone)
            last: Any = self.client.hgetall(keys.history_last)
            stale = wire.snapshots_to_erase(list(last.values()), erasure)
            fields = [f for f, v in last.items() if v in stale]
            if fields:
                removed += int(self.client.hdel(keys.history_last, *fields))
        return removed

    def _text_keys(self, keys: UserKeys) -> list[Any]:
        """The user's transcripts and idempotency records that may copy its words: the
        members of its text-key set, or (data of an older release, no complete set) those a
        ``SCAN`` of its hash tag finds, which then complete the set."""
        members: Any = self.client.smembers(keys.text_keys)
        if wire.TEXT_KEYS_COMPLETE.encode() in members:
            return list(members)
        found = [k for k in self.client.scan_iter(
            match=wire.user_pattern(keys), count=1000, **self._user_node(keys))]  # fmt: skip
        records, threads = wire.text_key_kinds(keys, found)
        values: Any = self.client.mget(records) if records else []
        records = [k for k, v in zip(records, values, strict=True) if v not in (None, b"1")]
        self.client.sadd(keys.text_keys, wire.TEXT_KEYS_COMPLETE, *records, *threads)
        return [*records, *threads]

    def _erase_events(self, keys: UserKeys, erasure: Erasure) -> int:
        """Drop the change events that copy the forgotten text, found through the log's index
        (:data:`.wire.ERASE_CANDIDATES_SCRIPT`), and rewrite the log so that its serialized
        form holds none of their bytes (:data:`.wire.REWRITE_STREAM_SCRIPT`)."""
        if erasure.keep_history:
            return 0
        query = wire.erasure_query(erasure)
        if query is None:
            entries = wire.xrange_entries(self.client.xrange(keys.changes))
        else:
            entries = wire.candidate_entries(self._candidates(keys=[keys.changes], args=query))
        ids = wire.events_to_erase(entries, erasure)
        return int(self._rewrite(keys=[keys.changes], args=ids))

    def drop_cached_embeddings(self, texts: list[str]) -> int:
        """Delete the embeddings cache's entries of ``texts``, under every cached model."""
        if not texts:
            return 0
        with storage_errors("erase cached embeddings"):
            models = sorted(wire.text(m) for m in self.client.smembers(CACHE_MODELS_KEY))
            found = cache_keys(texts, models)
            if not found:
                return 0
            self.client.zrem(CACHE_INDEX_KEY, *found)
            return int(self.client.unlink(*found))

    def delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]:
        """Delete every key of one user (a ``SCAN`` of its hash tag), its registry entry and
        its check-up schedule.

        Returns:
            ``(keys removed, preferences removed, embedded texts of those preferences)``; the
            registry and the schedule count among the keys removed when the user was there.
        """
        member = encode_user_id(keys.user_id)
        with storage_errors("delete the user"):
            prefs: Any = self.client.hgetall(keys.prefs)
            found = list(self.client.scan_iter(
                match=wire.user_pattern(keys), count=1000, **self._user_node(keys)))
            deleted = 0
            for i in range(0, len(found), 500):
                deleted += int(self.client.unlink(*found[i : i + 500]))
            deleted += int(self.client.srem(USERS_KEY, member))
            deleted += int(self.client.zrem(CHECKUP_DUE_KEY, member))
        return deleted, len(prefs), wire.erasure_texts(prefs)

    # -- other reads ----------------------------------------------------------------------------

    def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]:
        """Recent history snapshots, newest first."""
        with storage_errors("read history"):
            raw = self.client.lrange(keys.history, 0, max(0, limit - 1))
        return [HistorySnapshot.model_validate_json(r) for r in raw]

    def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        with storage_errors("read the change log"):
            entries: Any = self.client.xrevrange(keys.changes, count=limit)
        return wire.decode_changes(entries)

    def change_count(self, keys: UserKeys) -> int:
        """Number of change events kept (bounded by ``settings.change_log_max``)."""
        with storage_errors("read the change log"):
            return int(self.client.xlen(keys.changes))

    def transcript(self, keys: UserKeys, thread_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a thread, oldest first."""
        with storage_errors("read the transcript"):
            raw: Any = self.client.lrange(keys.transcript(thread_id), -limit, -1)
        return wire.decode_transcript(raw)

    def users(self) -> list[str]:
        """Every user id that has stored something."""
        with storage_errors("list users"):
            members: Any = self.client.smembers(USERS_KEY)
        return sorted(decode_user_id(wire.text(u)) for u in members)

    def sample_users(self, limit: int) -> list[str]:
        """Up to ``limit`` distinct user ids, at random (``SRANDMEMBER``: O(limit), not the
        whole registry)."""
        with storage_errors("list users"):
            members: Any = self.client.srandmember(USERS_KEY, limit)
        return sorted(decode_user_id(wire.text(u)) for u in members or [])

    def ensure_schema(self) -> int:
        """Record the schema version on first use; refuse data of an unknown version.

        Raises:
            SchemaVersionError: The data was written by an incompatible release.
            StorageUnavailableError: Redis cannot be reached.
        """
        try:
            with storage_errors("check the schema version"):
                self.client.hsetnx(META_KEY, "schema_version", SCHEMA_VERSION)
                stored = self.client.hget(META_KEY, "schema_version")
        except StorageUnavailableError as exc:
            raise not_a_cluster_client(exc) or exc from exc.__cause__
        return schema_of(stored)

    def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(self.client.ping())
        except REDIS_ERRORS:
            return False

    def server_report(self) -> dict[str, Any]:
        """Version, persistence, schema, user count and Query Engine availability.

        Raises:
            StorageUnavailableError: Redis does not answer.
        """
        with storage_errors("read server info"):
            node: dict[str, Any] = {}
            if self.cluster:
                node = {"target_nodes": self._nodes.get_node_from_key(META_KEY)}
            info: Any = self.client.info(**node)
            persistence: Any = self.client.info("persistence", **node)
            schema = self.client.hget(META_KEY, "schema_version")
            users = int(self.client.scard(USERS_KEY))
            try:
                self.client.execute_command("FT._LIST", **node)
                query_engine = True
            except redis.ResponseError:
                query_engine = False
            shape = None
            if self.cluster:
                shape = clusters.shape(
                    self.client.execute_command("CLUSTER NODES", **node),
                    self.client.execute_command("CLUSTER INFO", **node),
                )
        return report(info, persistence, schema, users, query_engine, shape)

    def memory_usage(self, key: str) -> int:
        """Bytes Redis attributes to ``key`` (``MEMORY USAGE``)."""
        with storage_errors("measure memory"):
            return int(self.client.memory_usage(key, samples=0) or 0)

    # -- leases and the check-up schedule (global coordination keys) ----------------------------

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
        return None if value is None else wire.text(value)

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
        return [(decode_user_id(wire.text(member)), int(score)) for member, score in rows]

    def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """Remove a done check-up from the schedule unless it was rescheduled meanwhile."""
        with storage_errors("complete a check-up"):
            member = encode_user_id(user_id)
            done = self.client.eval(_COMPLETE_DUE, 1, CHECKUP_DUE_KEY, member, due_ms)
        return bool(done)


# -- the embedded server's process helpers --------------------------------------------------------


def probe_socket(socket_path: str) -> tuple[str, str]:
    """``("up", "")``, ``("unhealthy", why)`` (answers with an error: ``LOADING``,
    ``MISCONF``) or ``("down", why)`` for the server on a unix socket.

    Fails fast: no retries (redis-py's default retries three times with backoff: 2.5–8 s of
    a command's start against the dead socket a ``kill -9`` leaves behind, issue 12), 0.5 s
    to connect (a live server accepts on its unix socket at once), 1 s for the reply.
    """
    from redis.backoff import NoBackoff

    probe = redis.Redis(
        unix_socket_path=socket_path,
        socket_timeout=1.0,
        socket_connect_timeout=0.5,
        retry=Retry(NoBackoff(), 0),
    )
    try:
        probe.ping()
        return "up", ""
    except redis.ResponseError as exc:
        return "unhealthy", str(exc)
    except REDIS_ERRORS as exc:
        return "down", str(exc)
    finally:
        probe.close()


def client_names(client: redis.Redis) -> set[str]:
    """Names of the connections the server has (``CLIENT LIST``)."""
    return {str(entry.get("name", "")) for entry in client.client_list()}


def shutdown(client: redis.Redis, *, save: bool = True) -> str:
    """Ask the server to stop, saving an RDB snapshot first when ``save`` (else ``NOSAVE``:
    an AOF is still flushed and fsynced).

    Returns:
        ``""`` when it is stopping, else why it refused (e.g. it cannot save on a full disk).
    """
    try:
        client.shutdown(save=save, nosave=not save)
    except redis.ConnectionError:
        pass  # the server closes the connection as it exits
    except redis.ResponseError as exc:
        return str(exc)
    return ""


StorageClientError = REDIS_ERRORS
"""Errors of a raw client, for callers that must not fail (logging paths)."""


__all__ = [
    "StorageClientError",
    "SyncBackend",
    "bad_url",
    "check_decoding",
    "client_names",
    "client_options",
    "client_retry",
    "not_a_cluster_client",
    "report",
    "open_client",
    "probe_socket",
    "schema_of",
    "shutdown",
    "storage_errors",
    "translate",
]
