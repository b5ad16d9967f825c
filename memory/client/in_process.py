"""Memories over another backend than Redis: :meth:`InProcessDoor.in_process` (a memory kept
in this process, for tests without Redis), and the choice between a redis-py client and a
ready backend that :class:`~.sync.Memory` and :class:`~.asyncio.AsyncMemory` make."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..model import Settings

if TYPE_CHECKING:
    from typing import Self

    from ..backends import AsyncBackend, Backend, InProcessStore
    from ..embeddings import Embedder
    from .spool import WriteSpool


class InProcessDoor:
    """What gives :class:`~.sync.Memory` and :class:`~.asyncio.AsyncMemory` their
    ``in_process`` constructor."""

    _async_door = False

    @classmethod
    def in_process(
        cls,
        store: InProcessStore | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        spool: WriteSpool | None = None,
    ) -> Self:
        """A memory kept in this process, in a dict, with no Redis: for tests of an
        application that embeds Penchant (as httpx's ``MockTransport`` or LangGraph's
        ``InMemoryStore``). Reads and commits behave as on Redis: revisions, conflicts and
        re-planning, idempotent replays, the capped change log, history, transcripts,
        erasure.

        Args:
            store: The :class:`~penchant.memory.InProcessStore` to keep the data in; share
                one between memories (sync and async) to share the data. A new one by
                default. It can also fail on purpose (``store.fail_next``,
                ``store.unavailable``) to test what an application does then.
            settings: Limits and configuration; ``Settings()`` by default.
            embedder: Optional embedder.
            spool: Optional local spool for writes made while the store is unavailable.

        Returns:
            A :class:`~penchant.memory.Memory` (or, called on it, an
            :class:`~penchant.memory.AsyncMemory`).
        """
        from ..backends import AsyncInProcessBackend, InProcessBackend, InProcessStore

        settings = settings or Settings()
        kind = AsyncInProcessBackend if cls._async_door else InProcessBackend
        backend = kind(store if store is not None else InProcessStore(), settings)
        made: Self = cast(Any, cls)(backend, settings=settings, embedder=embedder, spool=spool)
        return made


def sync_backend(client: Any, settings: Settings) -> Backend:
    """``client`` itself when it is a backend, else the redis-py backend over it."""
    from ..backends import Backend, SyncBackend

    return client if isinstance(client, Backend) else SyncBackend(client, settings)


def async_backend(client: Any, settings: Settings) -> AsyncBackend:
    """``client`` itself when it is an async backend, else the ``redis.asyncio`` one over it."""
    from ..backends import AsyncBackend, AsyncRedisBackend

    return client if isinstance(client, AsyncBackend) else AsyncRedisBackend(client, settings)


__all__ = ["InProcessDoor", "async_backend", "sync_backend"]
