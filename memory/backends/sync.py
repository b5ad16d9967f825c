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
from .errors import (
    REDIS_ERRORS,
    check_decoding,
    not_a_cluster_client,
    schema_of,
    storage_errors,
)

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
        self._commit = client.register_script(wire.COMMIT_SCRIPT)
        self._read = client.register_script(wire.READ_SCRIPT)
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
        pipe = node.pipeline(transaction=False)
        if asking:
            pipe.execute_command("ASKING")
        self._commit(keys=script_keys, args=args, client=pipe)
        pipe.execute_command("WAIT", acks, self.settings.redis_replica_ack_timeout_ms)
        *_, reply, acked = pipe.execute()
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
        :class:`~..core.Erasure`). One ``SCAN`` of the user's keys; each removal is by
        stream id or by exact value (``XDEL``, ``LREM``, ``HDEL``), so a write that lands
        meanwhile is never lost.

        Returns:
            How many records were removed.
        """
        removed = 0
        with storage_errors("erase forgotten text"):
            entries: Any = self.client.xrange(keys.changes)
            ids = wire.events_to_erase(entries, erasure)
            if ids:
                removed += int(self.client.xdel(keys.changes, *ids))
            for raw_key in self.client.scan_iter(
                match=wire.user_pattern(keys), count=1000, **self._user_node(keys)
            ):
                key = wire.text(raw_key)
                if key.startswith(f"{keys.tag}:idem:"):
                    record: Any = self.client.get(key)
                    if record is not None and wire.record_names(record, erasure):
                        removed += int(self.client.delete(key))
                elif key.startswith(f"{keys.tag}:thread:") or key == keys.history:
                    items: Any = self.client.lrange(key, 0, -1)
                    history = key == keys.history
                    pick = wire.snapshots_to_erase if history else wire.messages_to_erase
                    for item in pick(items, erasure):
                        removed += int(self.client.lrem(key, 0, item))
            last: Any = self.client.hgetall(keys.history_last)
            gone = wire.snapshots_to_erase(list(last.values()), erasure)
            fields = [f for f, v in last.items() if v in gone]
            if fields:
                removed += int(self.client.hdel(keys.history_last, *fields))
        return removed

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


if TYPE_CHECKING:  # mypy checks that the driver answers the client's Protocol
    from .protocols import Backend

    _driver: type[Backend] = SyncBackend


__all__ = ["SyncBackend"]
