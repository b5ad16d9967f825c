"""``AsyncMemory``: the gate's async door, driving :class:`~.base.BaseMemory`'s write loop
with the async backend (``redis.asyncio``): the same methods as :class:`~.sync.Memory`, as
coroutines. CPU work (screening, embedding, ranking) and small local file I/O (the spool,
the embedded server's start) run in worker threads."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core import UserSnapshot
from ..embeddings import Embedder
from ..model import (
    ChangeEvent,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    PenchantError,
    Polarity,
    Preference,
    PreferenceCandidate,
    Settings,
    StorageFullError,
    StorageUnavailableError,
    UserKeys,
    redacted_url,
    validate_user_id,
)
from .base import (
    BaseMemory,
    DeleteUserResult,
    MemoryContext,
    one_erase,
)
from .coordination import AsyncCoordination
from .holds import AsyncHolds, history_steps
from .in_process import InProcessDoor, async_backend
from .retry import failover_delays
from .spool import WriteSpool
from .steps import (
    Commit,
    Erase,
    Read,
    Sleep,
    Steps,
    T,
    prime,
    resume,
)

if TYPE_CHECKING:
    import numpy as np

    from ..backends import AsyncBackend, EmbeddedRedis
    from ..core import (
        Observation,
        ObservationCandidate,
        ObservationResult,
        ObservationUpdate,
    )
    from ..model import Flag
    from ..recall import RecallResult

logger = logging.getLogger(__name__)

class AsyncMemory(InProcessDoor, AsyncCoordination, AsyncHolds, BaseMemory):
    """The async twin of :class:`Memory`: the same methods as coroutines, over
    ``redis.asyncio``; the planning is shared, only the I/O differs.

    Args:
        client: A ``redis.asyncio`` client (borrowed unless built by :meth:`from_settings`),
            or an async backend (:meth:`in_process`: one with no Redis).
        settings: Limits and configuration.
        embedder: Optional embedder (its ``embed`` runs in a worker thread).
        spool: Optional local spool, as for :class:`Memory` (its file work runs in a worker
            thread).
    """

    _async_door = True

    def __init__(
        self,
        client: Any,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        spool: WriteSpool | None = None,
    ) -> None:
        super().__init__(settings=settings, embedder=embedder, spool=spool)
        self.backend: AsyncBackend = async_backend(client, self.settings)
        self.client: Any = None if self.backend is client else client
        self._server: EmbeddedRedis | None = None
        self._server_client: Any = None
        self._cache_client: Any = None

    @classmethod
    def from_settings(
        cls,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None | str = "auto",
        spool: bool = False,
    ) -> _AsyncMemoryOpener:
        """``async with AsyncMemory.from_settings(settings) as memory: …``

        Connects to ``PENCHANT_REDIS_URL`` or starts/attaches the embedded server (sharing it
        with the other Penchant processes), and releases it on exit. Arguments as for
        :meth:`Memory.from_settings`; the embedder's cache uses a sync client of the same
        server (the embedder runs in worker threads).
        """
        return _AsyncMemoryOpener(cls, settings or Settings(), embedder, spool)

    async def aclose(self) -> None:
        """Close an owned client (and release the embedded server)."""
        await self.backend.aclose()
        if self._cache_client is not None:
            cache, self._cache_client = self._cache_client, None
            await asyncio.to_thread(cache.close)
        if self._server is not None and self._server_client is not None:
            server, client = self._server, self._server_client
            self._server = self._server_client = None
            await asyncio.to_thread(server.release, client)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _run(self, steps: Steps[T]) -> T:
        reply: Any = None
        try:
            while True:
                request = steps.send(reply)
                if isinstance(request, Sleep):
                    await asyncio.sleep(request.seconds)
                    reply = None
                elif isinstance(request, Erase):
                    try:
                        reply = await self._riding_failover(request)
                    except StorageUnavailableError as exc:  # the forget itself is committed
                        self._erase_failed(request, exc)
                        reply = None
                else:
                    reply = await self._riding_failover(request)
                    if isinstance(request, Commit) and reply.status in ("committed", "replayed"):
                        await self._register(request.keys, request.ops)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def _request(self, request: Read | Commit | Erase) -> Any:
        if isinstance(request, Read):
            return (await self.backend.read(request.keys, self._cached(request.keys)))[0]
        if isinstance(request, Commit):
            return await self.backend.commit(
                request.keys, request.ops, request.expected_revision, request.idempotency
            )
        removed = await self.backend.erase(request.keys, request.erasure)
        await self.backend.drop_cached_embeddings(request.texts)
        await asyncio.to_thread(
            self.erasure_spool.erase, request.keys.user_id, request.erasure.names_text)
        return removed

    async def _riding_failover(self, request: Read | Commit | Erase) -> Any:
        """See :meth:`.sync.Memory._riding_failover`."""
        return await self._ride(lambda: self._request(request), type(request).__name__)

    async def _ride(self, call: Callable[[], Awaitable[T]], what: str) -> T:
        """See :meth:`.sync.Memory._ride`."""
        delays = failover_delays(self.settings.write_retry_seconds)
        revived = False
        while True:
            try:
                return await call()
            except StorageFullError:
                raise
            except StorageUnavailableError as exc:
                delay = next(delays, None) if self.backend.transient(exc) else None
                if delay is None:
                    if revived or not await self._revive():
                        raise
                    revived = True
                    logger.warning("embedded Redis restarted; retrying %s", what)
                    continue
                logger.info("retrying %s in %.2f s: %s", what, delay, exc)
                await asyncio.sleep(delay)

    async def _register(self, keys: UserKeys, ops: Sequence[Any]) -> None:
        if not self._needs_registration(keys, ops):
            return
        try:
            await self.backend.register_user(keys)
            self._registered.add(keys.tag)
        except PenchantError as exc:
            logger.warning("write committed, but the user registry was not updated: %s", exc)

    async def _snapshot(self, keys: UserKeys, history_limit: int = 0) -> tuple[
        UserSnapshot, list[HistorySnapshot]
    ]:
        snapshot, history = await self._ride(
            lambda: self.backend.read(keys, self._cached(keys), history_limit=history_limit),
            "read",
        )
        return self._keep(keys, snapshot), history

    async def _steps_embedded(self, make: Callable[[], Steps[T]]) -> T:
        """Build the steps (screening and embedding, CPU work) in a thread, then run them."""
        steps = make()
        first = await asyncio.to_thread(prime, steps)
        return await self._run(resume(steps, first))

    # -- writes ---------------------------------------------------------------------------------

    async def remember(
        self,
        user_id: str,
        candidates: PreferenceCandidate | Sequence[PreferenceCandidate],
        *,
        idempotency_key: str | None = None,
    ) -> GateResult:
        """See :meth:`Memory.remember`: with a spool, a write that cannot reach Redis (after
        an attempt to revive the embedded server) comes back in ``deferred``."""
        return await self._remember(user_id, self._batch(candidates), idempotency_key)

    async def _remember(
        self, user_id: str, batch: list[PreferenceCandidate], idempotency_key: str | None,
        known: Mapping[str, np.ndarray] | None = None,
    ) -> GateResult:
        """:meth:`remember` of a checked batch; ``known``: vectors computed already."""
        validate_user_id(user_id)
        await self.replay_spool()

        def steps() -> Steps[GateResult]:
            return self._remember_steps(
                user_id, batch, idempotency_key=idempotency_key, known=known)

        try:
            result = await self._steps_embedded(steps)
        except StorageFullError:
            raise
        except StorageUnavailableError:
            if self.spool is None:
                raise
            result = await asyncio.to_thread(self._spool_remember, user_id, batch)
        result.replayed = self._take_replayed()
        return result

    async def replay_spool(self) -> int:
        """See :meth:`Memory.replay_spool` (scrubs left pending by a failed forget run
        first)."""
        for erase in self._take_erasures():
            await self._run(one_erase(erase))
        if self.spool is None or not await asyncio.to_thread(self.spool.path.exists):
            return 0

        async def apply(entry: dict[str, Any]) -> None:
            self._note_replayed(entry, await self._steps_embedded(
                lambda: self._replay_steps(entry)))

        replayed = await self.spool.adrain(apply)
        if replayed:
            logger.info("replayed %d spooled writes", replayed)
        return replayed

    async def _revive(self) -> bool:
        """Restart the embedded server (in a thread) if it died; False without one."""
        server = self._server
        return server is not None and await asyncio.to_thread(server.revive)

    async def capture(
        self, user_id: str, text: str, *, idempotency_key: str | None = None,
        also: Sequence[PreferenceCandidate] = (), stored: Sequence[Preference] = (),
        queued: Sequence[PreferenceCandidate] = (),
    ) -> GateResult:
        """See :meth:`Memory.capture`."""
        captured = self._captured(user_id, text, also, stored, queued)
        if not captured.candidates:
            return GateResult()
        return await self._remember(
            user_id, captured.candidates, idempotency_key, captured.known)

    async def import_preferences(
        self, user_id: str, candidates: Sequence[PreferenceCandidate]
    ) -> GateResult:
        """See :meth:`Memory.import_preferences`."""
        batch = self._imported(candidates)
        return await self._steps_embedded(
            lambda: self._remember_steps(
                user_id, batch, idempotency_key=None, created_op="imported"
            )
        )

    async def forget(
        self, user_id: str, text: str, polarity: Polarity | None = None, *,
        idempotency_key: str | None = None,
    ) -> ForgetResult:
        """See :meth:`Memory.forget`."""
        self.gate.check_forget(text, polarity)
        UserKeys.for_user(user_id)
        await self.replay_spool()
        try:
            result: ForgetResult = await self._run(self._forget_steps(
                user_id, text, polarity, idempotency_key=idempotency_key))
        except StorageFullError:
            raise
        except StorageUnavailableError:
            if self.spool is None:
                raise
            result = await asyncio.to_thread(self._spool_forget, user_id, text, polarity)
        result.replayed = self._take_replayed()
        return result

    async def delete_user(self, user_id: str) -> DeleteUserResult:
        """See :meth:`Memory.delete_user`."""
        keys = UserKeys.for_user(user_id)
        dropped = await asyncio.to_thread(self.erasure_spool.erase, user_id)
        count, prefs, texts = await self._ride(lambda: self.backend.delete_user(keys), "delete")
        self._forgot_user(keys)
        cached = await self._ride(lambda: self.backend.drop_cached_embeddings(texts), "delete")
        return DeleteUserResult(
            user_id=user_id, keys_removed=count, preferences_removed=prefs,
            cached_embeddings_removed=cached, spooled_writes_dropped=dropped,
        )  # fmt: skip

    async def record_history(self, user_id: str, snapshot: HistorySnapshot) -> HistorySnapshot:
        """See :meth:`Memory.record_history`."""
        return await self._run(history_steps(self, user_id, snapshot))

    async def append_transcript(self, user_id: str, thread_id: str, role: str, text: str) -> None:
        """See :meth:`Memory.append_transcript`."""
        await self._run(self._transcript_steps(user_id, thread_id, role, text))

    async def write_observations(
        self,
        user_id: str,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate] = (),
    ) -> ObservationResult:
        """See :meth:`Memory.write_observations`."""
        result: ObservationResult = await self._run(
            self._observation_steps(user_id, candidates, updates)
        )
        return result

    async def write_flags(self, user_id: str, found: Sequence[Flag]) -> list[Flag]:
        """See :meth:`Memory.write_flags`."""
        result: list[Flag] = await self._run(self._flag_steps(user_id, found))
        return result

    async def replace_vectors(self, user_id: str, updates: dict[str, Preference]) -> int:
        """See :meth:`Memory.replace_vectors`."""
        result: int = await self._run(self._vector_steps(user_id, updates))
        return result

    # -- reads ----------------------------------------------------------------------------------

    async def snapshot(self, user_id: str) -> UserSnapshot:
        """See :meth:`Memory.snapshot`."""
        return (await self._snapshot(UserKeys.for_user(user_id)))[0]

    async def preferences(self, user_id: str) -> list[Preference]:
        """See :meth:`Memory.preferences`."""
        return (await self.snapshot(user_id)).preferences()

    async def history(self, user_id: str, limit: int = 20) -> list[HistorySnapshot]:
        """See :meth:`Memory.history`."""
        keys = UserKeys.for_user(user_id)
        return await self._ride(lambda: self.backend.history(keys, limit), "history")

    async def changes(self, user_id: str, limit: int = 50) -> list[ChangeEvent]:
        """See :meth:`Memory.changes`."""
        keys = UserKeys.for_user(user_id)
        return await self._ride(lambda: self.backend.changes(keys, limit), "changes")

    async def transcript(
        self, user_id: str, thread_id: str, limit: int = 200
    ) -> list[dict[str, Any]]:
        """See :meth:`Memory.transcript`."""
        keys = UserKeys.for_user(user_id)
        return await self._ride(
            lambda: self.backend.transcript(keys, thread_id, limit), "transcript")

    async def observations(self, user_id: str) -> list[Observation]:
        """See :meth:`Memory.observations`."""
        return (await self.snapshot(user_id)).observations_by_confidence()

    async def flags(self, user_id: str) -> list[Flag]:
        """See :meth:`Memory.flags`."""
        return (await self.snapshot(user_id)).open_flags()

    async def users(self) -> list[str]:
        """See :meth:`Memory.users`."""
        return await self._ride(self.backend.users, "list users")

    async def sample_users(self, limit: int) -> list[str]:
        """See :meth:`Memory.sample_users`."""
        return await self.backend.sample_users(limit)

    async def recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        polarity: Polarity | None = None,
        category: str | None = None,
    ) -> RecallResult:
        """See :meth:`Memory.recall` (the ranking runs in a worker thread)."""
        keys = UserKeys.for_user(user_id)
        snapshot = (await self._snapshot(keys))[0]
        return await asyncio.to_thread(
            self._recall_on, keys, snapshot, query, k=k, token_budget=token_budget,
            polarity=polarity, category=category,
        )  # fmt: skip

    async def context(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        history_limit: int = 5,
    ) -> MemoryContext:
        """See :meth:`Memory.context`: one round trip."""
        keys = UserKeys.for_user(user_id)
        snapshot, history = await self._snapshot(keys, history_limit)
        recalled = await asyncio.to_thread(
            self._recall_on, keys, snapshot, query, k=k, token_budget=token_budget,
            polarity=None, category=None,
        )  # fmt: skip
        return MemoryContext(snapshot, history, recalled)

    @property
    def redis_location(self) -> str:
        """See :attr:`Memory.redis_location`."""
        if self._server is not None:
            return f"embedded {self._server.socket_path}"
        return redacted_url(self.settings.redis_url) if self.settings.redis_url else \
            "borrowed client"

    async def ping(self) -> bool:
        """Whether Redis answers; restarts the embedded server (in a thread) if it died."""
        if await self.backend.ping():
            return True
        return await self._revive() and await self.backend.ping()

    async def server_report(self) -> dict[str, Any]:
        """See :meth:`Memory.server_report`."""
        return await self.backend.server_report()

    # -- check-up leases and schedule -----------------------------------------------------------


class _AsyncMemoryOpener:
    """The async context manager :meth:`AsyncMemory.from_settings` returns."""

    def __init__(
        self,
        cls: type[AsyncMemory],
        settings: Settings,
        embedder: Embedder | None | str,
        spool: bool,
    ) -> None:
        self._cls, self._settings, self._embedder, self._spool = cls, settings, embedder, spool
        self._memory: AsyncMemory | None = None

    async def __aenter__(self) -> AsyncMemory:
        from ..backends import AsyncRedisBackend, EmbeddedRedis, client_name, open_async_client

        settings = self._settings
        server: EmbeddedRedis | None = None
        server_client: Any = None
        if settings.redis_url:
            url = settings.redis_url
        else:
            server = EmbeddedRedis(settings.redis_dir, settings.embedded_linger_seconds)
            server_client = await asyncio.to_thread(server.connect)
            url = server.url
        cluster = settings.redis_cluster if settings.redis_url else False
        client = await open_async_client(url, client_name(), cluster=cluster)
        chosen: Embedder | None = None
        cache_client: Any = None
        backend = AsyncRedisBackend(client, settings)
        backend.owned = True
        if isinstance(self._embedder, str):
            from ..backends import open_client
            from ..embeddings import embedder_from_settings

            if server_client is None:  # by URL: the cache gets its own sync client
                cache_client = await asyncio.to_thread(
                    open_client, url, client_name(), cluster=cluster)
            backend.cache_client = server_client or cache_client
            cache = backend.embeddings_cache(
                settings.embeddings_cache_ttl_seconds, settings.embeddings_cache_max)
            chosen = embedder_from_settings(settings, cache=cache)
        else:
            chosen = self._embedder
        spool = WriteSpool(settings.home / "spool" / "writes.jsonl") if self._spool else None
        memory = self._cls(backend, settings=settings, embedder=chosen, spool=spool)
        memory.client = client
        memory._server, memory._server_client = server, server_client
        memory._cache_client = cache_client
        try:
            await memory._ride(memory.backend.ensure_schema, "schema check")
        except PenchantError:
            await memory.aclose()
            raise
        self._memory = memory
        return memory

    async def __aexit__(self, *exc: object) -> None:
        if self._memory is not None:
            await self._memory.aclose()
            self._memory = None



__all__ = ["AsyncMemory"]
