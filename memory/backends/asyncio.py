"""The async Redis backend (``redis.asyncio``): the twin of :mod:`.sync`.

Same scripts, encodings and error translation (:mod:`.wire`, :func:`.errors.translate`); only
the I/O is awaited.
"""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING, Any

import redis
import redis.asyncio as aioredis

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
    InvalidInputError,
    Settings,
    StorageUnavailableError,
    UserKeys,
    cache_keys,
    decode_user_id,
    encode_user_id,
    redacted_url,
)
from . import cluster as clusters
from . import wire
from .connect import client_options, report
from .embeddings_cache import redis_embeddings_cache
from .errors import (
    REDIS_ERRORS,
    bad_url,
    check_decoding,
    cluster_open_error,
    not_a_cluster_client,
    schema_of,
    translate,
)
from .reloading import AsyncReloadingScript, is_noscript

logger = logging.getLogger(__name__)


async def open_async_client(url: str, name: str, *, cluster: bool | None = None) -> Any:
    """An async client for ``url`` named ``name``, checked with a ``PING``.

    Args:
        url: The server (for a cluster, any node's address).
        name: The connections' name.
        cluster: As :func:`.connect.open_client`: ``None`` detects a cluster node.

    Returns:
        A ``redis.asyncio.Redis`` or a ``redis.asyncio.cluster.RedisCluster``.

    Raises:
        InvalidInputError: The URL is malformed, or ``cluster=True`` on ``unix://``.
        StorageUnavailableError: The server does not answer.
    """
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialWithJitterBackoff

    if cluster and url.startswith("unix:"):
        raise InvalidInputError(
            f"PENCHANT_REDIS_CLUSTER is true but {redacted_url(url)!r} is a unix socket; a Redis "
            "Cluster is reached over TCP (redis:// or rediss://)"
        )
    if cluster:
        return await _open_cluster(url, name)
    retry = Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.25), 3)
    try:
        client = aioredis.Redis.from_url(url, retry=retry, **client_options(name))
    except ValueError as exc:
        raise bad_url(url, exc) from exc
    try:
        await client.ping()
        detected = cluster is None and not url.startswith("unix:") and (
            clusters.cluster_enabled(await client.info("cluster")))
    except REDIS_ERRORS as exc:
        await client.aclose()
        raise translate(exc, f"connect to {redacted_url(url)}") from exc
    if detected:
        await client.aclose()
        return await _open_cluster(url, name)
    return client


async def _open_cluster(url: str, name: str) -> Any:
    try:
        client = clusters.open_async_cluster(url, name)
    except ValueError as exc:
        raise bad_url(url, exc) from exc
    except REDIS_ERRORS as exc:
        error = translate(exc, f"connect to the cluster at {redacted_url(url)}")
        error.__cause__ = exc
        raise cluster_open_error(url, error) from exc
    try:
        await client.initialize()
    except REDIS_ERRORS as exc:
        await client.aclose()
        error = translate(exc, f"connect to the cluster at {redacted_url(url)}")
        error.__cause__ = exc
        raise cluster_open_error(url, error) from exc
    return client


class AsyncRedisBackend:
    """Async twin of :class:`~.sync.SyncBackend` (the parts :class:`AsyncMemory` uses).

    Args:
        client: A ``redis.asyncio`` client (borrowed unless ``owned``), with
            ``decode_responses=False``.
        settings: Caps and idempotency lifetime.
        owned: Close the client in :meth:`aclose`.

    Attributes:
        page_fields: See :class:`~.sync.SyncBackend`.
        inline_fields: See :class:`~.sync.SyncBackend`.
    """

    def __init__(self, client: aioredis.Redis, settings: Settings, *, owned: bool = False) -> None:
        check_decoding(client)
        self.client = client
        self.settings = settings
        self.owned = owned
        self._commit = AsyncReloadingScript(client, wire.COMMIT_SCRIPT)
        self._read = AsyncReloadingScript(client, wire.READ_SCRIPT)
        self._candidates = AsyncReloadingScript(client, wire.ERASE_CANDIDATES_SCRIPT)
        self._drop_events = AsyncReloadingScript(client, wire.DROP_EVENTS_SCRIPT)
        self._legacy_candidates = AsyncReloadingScript(client, wire.LEGACY_ERASE_CANDIDATES_SCRIPT)
        self._rewrite = AsyncReloadingScript(client, wire.REWRITE_STREAM_SCRIPT)
        self._changes = AsyncReloadingScript(client, wire.CHANGES_SCRIPT)
        self.page_fields = wire.PAGE_FIELDS
        self.inline_fields = wire.INLINE_READ_FIELDS
        self.cluster = clusters.is_cluster_client(client)
        self._nodes: Any = client  # the cluster client's node and slot API (cluster mode)
        self._node_clients: dict[str, aioredis.Redis] = {}
        self.cache_client: Any = None  # a sync redis-py client for the embeddings cache

    async def aclose(self) -> None:
        """Close the client if this backend owns it (and the per-node ``WAIT`` clients)."""
        for node_client in self._node_clients.values():
            await node_client.aclose()
        self._node_clients.clear()
        if self.owned:
            self.owned = False
            await self.client.aclose()

    def transient(self, exc: BaseException) -> bool:
        """See :meth:`.sync.SyncBackend.transient`."""
        return self.cluster and clusters.is_transient(exc)

    def _user_node(self, keys: UserKeys) -> dict[str, Any]:
        if not self.cluster:
            return {}
        return {"target_nodes": self._nodes.get_node_from_key(keys.rev)}

    async def _send_commit(self, keys: UserKeys, script_keys: list[str], args: list[Any]) -> Any:
        """See :meth:`.sync.SyncBackend._send_commit`. An async cluster node has no
        single-node client, so ``WAIT`` goes through one made here per primary."""
        replicas = clusters.replicas_of_slot(self.client, keys.rev) if self.cluster else None
        acks = clusters.ack_target(self.settings.redis_replica_acks, self.cluster, replicas)
        if acks == 0:
            return await self._commit(keys=script_keys, args=args)
        if not self.cluster:
            return await self._acked(self.client, keys, script_keys, args, acks)
        node = self._nodes.get_node_from_key(keys.rev)
        try:
            try:
                return await self._acked(self._node_client(node), keys, script_keys, args, acks)
            except redis.exceptions.AskError as exc:
                target = self._nodes.get_node(host=exc.host, port=exc.port)
                if isinstance(exc, redis.exceptions.MovedError) or target is None:
                    raise
                return await self._acked(self._node_client(target), keys, script_keys, args,
                                         acks, asking=True)  # fmt: skip
        except (redis.exceptions.AskError, redis.ConnectionError):
            await self._nodes.nodes_manager.initialize()
            raise

    def _node_client(self, node: Any) -> aioredis.Redis:
        found = self._node_clients.get(node.name)
        if found is None:
            found = clusters.async_node_client(node, self.client.get_connection_kwargs())
            self._node_clients[node.name] = found
        return found

    async def _acked(
        self, node: Any, keys: UserKeys, script_keys: list[str], args: list[Any], acks: int,
        *, asking: bool = False,
    ) -> Any:
        """See :meth:`.sync.SyncBackend._acked`."""
        async def send(by_text: bool) -> list[Any]:
            pipe = node.pipeline(transaction=False)
            if asking:
                pipe.execute_command("ASKING")
            if by_text:
                self._commit.queue_text(pipe, script_keys, args)
            else:
                await self._commit(keys=script_keys, args=args, client=pipe)
            pipe.execute_command("WAIT", acks, self.settings.redis_replica_ack_timeout_ms)
            replies: list[Any] = await pipe.execute()
            return replies

        try:
            *_, reply, acked = await send(by_text=False)
        except redis.ResponseError as exc:  # NOSCRIPT: nothing ran; send the text (.scripts)
            if not is_noscript(exc):
                raise
            *_, reply, acked = await send(by_text=True)
        if int(acked) < acks and wire.text(reply[0]) == "committed":
            logger.warning(
                "write for %s committed on the primary but acknowledged by %s of %d replicas "
                "within %d ms; it is lost if that primary dies before replicating it",
                keys.user_id, acked, acks, self.settings.redis_replica_ack_timeout_ms,
            )
            if self.cluster:
                await self._nodes.nodes_manager.initialize()
        return reply

    async def _run(self, action: str, call: Any) -> Any:
        try:
            return await call
        except REDIS_ERRORS as exc:
            raise translate(exc, action) from exc

    async def read(
        self, keys: UserKeys, known: UserSnapshot | None = None, *, history_limit: int = 0
    ) -> tuple[UserSnapshot, list[HistorySnapshot]]:
        """See :meth:`.sync.SyncBackend.read`."""
        steps = wire.read_steps(
            keys, known, history_limit, page_fields=self.page_fields,
            inline_fields=self.inline_fields,
        )  # fmt: skip
        reply: Any = None
        while True:
            try:
                step = steps.send(reply)
            except StopIteration as stop:
                result: tuple[UserSnapshot, list[HistorySnapshot]] = stop.value
                return result
            if isinstance(step, wire.ScriptRead):
                reply = await self._run("read memory", self._read(
                    keys=wire.read_keys(keys), args=step.args))
            else:
                reply = await self._run("read memory", self.client.hscan(
                    step.key, step.cursor, count=step.count))

    async def commit(
        self,
        keys: UserKeys,
        ops: list[Op],
        expected_revision: str | None,
        idempotency: Idempotency | None = None,
    ) -> CommitResult:
        """See :meth:`.sync.SyncBackend.commit`."""
        new_rev = uuid.uuid4().hex if touches_snapshot(ops) else ""
        script_keys, args = wire.encode_commit(
            keys, ops, expected_revision=expected_revision, new_revision=new_rev,
            idempotency=idempotency, settings=self.settings,
        )  # fmt: skip
        reply = await self._run("write memory", self._send_commit(keys, script_keys, args))
        status, value = wire.decode_commit(reply)
        if status == "replayed":
            return CommitResult(status, replay=value)
        return CommitResult(status, revision=value)

    async def register_user(self, keys: UserKeys) -> None:
        """Add the user to ``penchant:users`` (a global key, never inside a commit)."""
        await self._run("register the user",
                        self.client.sadd(USERS_KEY, encode_user_id(keys.user_id)))

    async def _errors(self, action: str, work: Any) -> Any:
        """Await a coroutine of several calls, translating redis-py errors once."""
        try:
            return await work
        except REDIS_ERRORS as exc:
            raise translate(exc, action) from exc

    async def erase(self, keys: UserKeys, erasure: Erasure) -> int:
        """See :meth:`.sync.SyncBackend.erase`."""
        return int(await self._errors("erase forgotten text", self._erase(keys, erasure)))

    async def _erase(self, keys: UserKeys, erasure: Erasure) -> int:
        client = self.client
        removed = await self._erase_events(keys, erasure)
        records, threads = wire.text_key_kinds(keys, await self._text_keys(keys))
        gone: list[str] = []
        for key in [*threads, keys.history]:
            items = await client.lrange(key, 0, -1)
            if not items and key != keys.history:
                gone.append(key)
            pick = wire.snapshots_to_erase if key == keys.history else wire.messages_to_erase
            for item in pick(items, erasure):
                removed += int(await client.lrem(key, 0, item))
        for i in range(0, len(records), 500):
            batch = records[i : i + 500]
            values = await client.mget(batch)
            gone += [k for k, v in zip(batch, values, strict=True) if v is None]
            named = [k for k, v in zip(batch, values, strict=True)
                     if v is not None and wire.record_names(v, erasure)]  # fmt: skip
            if named:
                removed += int(await client.delete(*named))
                gone += named
        if gone:
            await client.srem(keys.text_keys, *gone)
        last = await client.hgetall(keys.history_last)
        stale = wire.snapshots_to_erase(list(last.values()), erasure)
        fields = [f for f, v in last.items() if v in stale]
        if fields:
            removed += int(await client.hdel(keys.history_last, *fields))
        return removed

    async def _text_keys(self, keys: UserKeys) -> list[Any]:
        """See :meth:`.sync.SyncBackend._text_keys`."""
        members = await self.client.smembers(keys.text_keys)
        if wire.TEXT_KEYS_COMPLETE.encode() in members:
            return list(members)
        found = [k async for k in self.client.scan_iter(
            match=wire.user_pattern(keys), count=1000, **self._user_node(keys))]  # fmt: skip
        records, threads = wire.text_key_kinds(keys, found)
        values = await self.client.mget(records) if records else []
        records = [k for k, v in zip(records, values, strict=True) if v not in (None, b"1")]
        await self.client.sadd(keys.text_keys, wire.TEXT_KEYS_COMPLETE, *records, *threads)
        return [*records, *threads]

    async def _erase_events(self, keys: UserKeys, erasure: Erasure) -> int:
        """See :meth:`.sync.SyncBackend._erase_events`."""
        if erasure.keep_history:
            return 0
        log = wire.event_keys(keys)
        legacy, flat = await self._candidates(keys=log, args=wire.index_args(erasure))
        tokens = wire.events_to_erase(wire.candidate_entries(flat), erasure)
        removed = int(await self._drop_events(keys=log, args=tokens)) if tokens else 0
        if int(legacy):
            removed += await self._erase_legacy_events(keys, erasure)
        return removed

    async def _erase_legacy_events(self, keys: UserKeys, erasure: Erasure) -> int:
        """See :meth:`.sync.SyncBackend._erase_legacy_events`."""
        query = wire.erasure_query(erasure)
        if query is None:
            entries = wire.xrange_entries(await self.client.xrange(keys.changes))
        else:
            entries = wire.candidate_entries(
                await self._legacy_candidates(keys=[keys.changes], args=query))
        ids = wire.events_to_erase(entries, erasure)
        return int(await self._rewrite(keys=[keys.changes], args=ids)) if ids else 0

    async def drop_cached_embeddings(self, texts: list[str]) -> int:
        """See :meth:`.sync.SyncBackend.drop_cached_embeddings`."""
        if not texts:
            return 0
        return int(await self._errors("erase cached embeddings", self._drop_cached(texts)))

    async def _drop_cached(self, texts: list[str]) -> int:
        models = sorted(wire.text(m) for m in await self.client.smembers(CACHE_MODELS_KEY))
        found = cache_keys(texts, models)
        if not found:
            return 0
        await self.client.zrem(CACHE_INDEX_KEY, *found)
        return int(await self.client.unlink(*found))

    def embeddings_cache(self, ttl_seconds: int, max_entries: int) -> Any:
        """The embeddings cache on :attr:`cache_client` (embedders run sync, in threads), a
        borrowed sync client the opener sets; ``None`` without one or when ``max_entries``
        is 0."""
        return redis_embeddings_cache(self.cache_client, ttl_seconds, max_entries)

    async def delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]:
        """See :meth:`.sync.SyncBackend.delete_user`."""
        result: tuple[int, int, list[str]] = await self._errors(
            "delete the user", self._delete_user(keys)
        )
        return result

    async def _delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]:
        client = self.client
        member = encode_user_id(keys.user_id)
        prefs: Any = await client.hgetall(keys.prefs)
        found = [k async for k in client.scan_iter(
            match=wire.user_pattern(keys), count=1000, **self._user_node(keys))]
        deleted = 0
        for i in range(0, len(found), 500):
            deleted += int(await client.unlink(*found[i : i + 500]))
        deleted += int(await client.srem(USERS_KEY, member))
        deleted += int(await client.zrem(CHECKUP_DUE_KEY, member))
        return deleted, len(prefs), wire.erasure_texts(prefs)

    async def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]:
        """Recent history snapshots, newest first."""
        raw = await self._run("read history",
                              self.client.lrange(keys.history, 0, max(0, limit - 1)))
        return [HistorySnapshot.model_validate_json(r) for r in raw]

    async def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        raw = await self._run("read the change log", self._changes(
            keys=wire.event_keys(keys)[:2], args=[max(0, limit)]))
        return wire.decode_changes(raw)

    async def transcript(
        self, keys: UserKeys, thread_id: str, limit: int = 200
    ) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a thread, oldest first."""
        raw = await self._run("read the transcript",
                              self.client.lrange(keys.transcript(thread_id), -limit, -1))
        return wire.decode_transcript(raw)

    async def users(self) -> list[str]:
        """Every user id that has stored something."""
        members = await self._run("list users", self.client.smembers(USERS_KEY))
        return sorted(decode_user_id(wire.text(u)) for u in members)

    async def sample_users(self, limit: int) -> list[str]:
        """See :meth:`.sync.SyncBackend.sample_users`."""
        members = await self._run("list users", self.client.srandmember(USERS_KEY, limit))
        return sorted(decode_user_id(wire.text(u)) for u in members or [])

    async def ensure_schema(self) -> int:
        """See :meth:`.sync.SyncBackend.ensure_schema`."""
        try:
            await self._run("check the schema version",
                            self.client.hsetnx(META_KEY, "schema_version", SCHEMA_VERSION))
            stored = await self._run("check the schema version",
                                     self.client.hget(META_KEY, "schema_version"))
        except StorageUnavailableError as exc:
            raise not_a_cluster_client(exc) or exc from exc.__cause__
        return schema_of(stored)

    async def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(await self.client.ping())
        except (*REDIS_ERRORS, StorageUnavailableError):
            return False

    async def server_report(self) -> dict[str, Any]:
        """See :meth:`.sync.SyncBackend.server_report`."""
        return dict(await self._errors("read server info", self._server_report()))

    async def _server_report(self) -> dict[str, Any]:
        client = self.client
        node: dict[str, Any] = {}
        if self.cluster:
            node = {"target_nodes": self._nodes.get_node_from_key(META_KEY)}
        info: Any = await client.info(**node)
        persistence: Any = await client.info("persistence", **node)
        schema = await client.hget(META_KEY, "schema_version")
        users = int(await client.scard(USERS_KEY))
        try:
            await client.execute_command("FT._LIST", **node)
            query_engine = True
        except redis.ResponseError:
            query_engine = False
        shape = None
        if self.cluster:
            shape = clusters.shape(await client.execute_command("CLUSTER NODES", **node),
                                   await client.execute_command("CLUSTER INFO", **node))
        return report(info, persistence, schema, users, query_engine, shape)

    # -- leases and the check-up schedule (global coordination keys) ----------------------------

    async def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """See :meth:`.sync.SyncBackend.acquire_lease`."""
        return bool(await self._run("take a lease", self.client.set(key, token, nx=True,
                                                                     px=ttl_ms)))

    async def release_lease(self, key: str, token: str) -> bool:
        """See :meth:`.sync.SyncBackend.release_lease`."""
        return bool(await self._run("release a lease", self.client.eval(
            wire.RELEASE_LEASE_SCRIPT, 1, key, token)))  # type: ignore[misc]

    async def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """See :meth:`.sync.SyncBackend.renew_lease`."""
        return bool(await self._run("renew a lease", self.client.eval(
            wire.RENEW_LEASE_SCRIPT, 1, key, token, ttl_ms)))  # type: ignore[misc]

    async def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        """See :meth:`.sync.SyncBackend.schedule_checkup`."""
        await self._run("schedule a check-up", self.client.zadd(
            CHECKUP_DUE_KEY, {encode_user_id(user_id): due_ms}, lt=True))

    async def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """See :meth:`.sync.SyncBackend.due_checkups`."""
        rows: Any = await self._run("read due check-ups", self.client.zrangebyscore(
            CHECKUP_DUE_KEY, "-inf", now_ms, start=0, num=limit, withscores=True))
        return [(decode_user_id(wire.text(member)), int(score)) for member, score in rows]

    async def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """See :meth:`.sync.SyncBackend.complete_checkup`."""
        done = await self._run("complete a check-up", self.client.eval(
            wire.COMPLETE_DUE_SCRIPT, 1, CHECKUP_DUE_KEY, encode_user_id(user_id),
            due_ms))  # type: ignore[misc]
        return bool(done)


if TYPE_CHECKING:  # mypy checks that the driver answers the client's Protocol
    from .protocols import AsyncBackend

    _driver: type[AsyncBackend] = AsyncRedisBackend


__all__ = ["AsyncRedisBackend", "open_async_client"]
