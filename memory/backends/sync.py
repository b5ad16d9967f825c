"""The sync Redis backend: with :mod:`.asyncio`, the only modules that import redis-py.

:class:`SyncBackend` offers what :class:`~penchant.memory.client.Memory` needs: ``read`` (one
user's snapshot and recent history in one round trip), ``commit`` (one atomic script, see
:mod:`.wire`), the other reads, the registry of users, leases and the check-up schedule.
Every redis-py error is translated here, once, into the :class:`~penchant.memory.model.errors
.PenchantError` tree (:func:`translate`), which the async backend reuses.
"""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING, Any

import redis

from ..core import CommitResult, Erasure, Idempotency, Op, UserSnapshot, touches_snapshot
from ..model import (
    CACHE_INDEX_KEY,
    CACHE_MODELS_KEY,
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
from . import cluster as clusters
from . import wire
from .connect import open_client, report
from .embeddings_cache import redis_embeddings_cache
from .errors import (
    REDIS_ERRORS,
    check_decoding,
    not_a_cluster_client,
    schema_of,
    storage_errors,
)
from .reloading import ReloadingScript, is_noscript

logger = logging.getLogger(__name__)

_RELEASE_LEASE = wire.RELEASE_LEASE_SCRIPT
_RENEW_LEASE = wire.RENEW_LEASE_SCRIPT
_COMPLETE_DUE = wire.COMPLETE_DUE_SCRIPT


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
        self._drop_events = ReloadingScript(client, wire.DROP_EVENTS_SCRIPT)
        self._legacy_candidates = ReloadingScript(client, wire.LEGACY_ERASE_CANDIDATES_SCRIPT)
        self._rewrite = ReloadingScript(client, wire.REWRITE_STREAM_SCRIPT)
        self._changes = ReloadingScript(client, wire.CHANGES_SCRIPT)
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
        """Drop the change events that copy the forgotten text: the candidates come from the
        erasure index (:data:`.wire.ERASE_CANDIDATES_SCRIPT`, no event text read but theirs),
        the exact rules pick among them, and each picked event is removed alone
        (:data:`.wire.DROP_EVENTS_SCRIPT`): O(events removed), whatever the log's length.
        An older release's inline events are searched and the stream rewritten without them
        (:meth:`_erase_legacy_events`), as long as the stream holds any."""
        if erasure.keep_history:
            return 0
        log = wire.event_keys(keys)
        legacy, flat = self._candidates(keys=log, args=wire.index_args(erasure))
        tokens = wire.events_to_erase(wire.candidate_entries(flat), erasure)
        removed = int(self._drop_events(keys=log, args=tokens)) if tokens else 0
        if int(legacy):
            removed += self._erase_legacy_events(keys, erasure)
        return removed

    def _erase_legacy_events(self, keys: UserKeys, erasure: Erasure) -> int:
        """Inline events of an older release (the stream's field ``event``): found through
        their ``ix`` field (:data:`.wire.LEGACY_ERASE_CANDIDATES_SCRIPT`), and the stream
        rewritten so that its serialized form holds none of their bytes
        (:data:`.wire.REWRITE_STREAM_SCRIPT`; ``XDEL`` leaves them in ``DUMP``)."""
        query = wire.erasure_query(erasure)
        if query is None:
            entries = wire.xrange_entries(self.client.xrange(keys.changes))
        else:
            entries = wire.candidate_entries(
                self._legacy_candidates(keys=[keys.changes], args=query))
        ids = wire.events_to_erase(entries, erasure)
        return int(self._rewrite(keys=[keys.changes], args=ids)) if ids else 0

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

    def embeddings_cache(self, ttl_seconds: int, max_entries: int) -> Any:
        """The embeddings cache on this client (:func:`.embeddings_cache.redis_embeddings_cache`;
        ``None`` when ``max_entries`` is 0); nothing is sent to Redis until it is used."""
        return redis_embeddings_cache(self.client, ttl_seconds, max_entries)

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
            raw: Any = self._changes(keys=wire.event_keys(keys)[:2], args=[max(0, limit)])
        return wire.decode_changes(raw)

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


if TYPE_CHECKING:  # mypy checks that the driver answers the client's Protocol
    from .protocols import Backend

    _driver: type[Backend] = SyncBackend


__all__ = ["SyncBackend"]
