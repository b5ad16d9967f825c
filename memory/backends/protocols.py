"""The backend seam: what :class:`~penchant.memory.Memory` and
:class:`~penchant.memory.AsyncMemory` ask of a backend, as Protocols.

:class:`~.sync.SyncBackend` and :class:`~.asyncio.AsyncBackend` (redis-py) satisfy them;
the client is typed against these, not against the drivers, so that another backend (an
in-process one for unit tests, as httpx's ``MockTransport`` or LangGraph's ``InMemoryStore``
behind ``BaseStore``) can answer the same ``read`` and ``commit``.

The two that carry a user's memory:

* ``read(keys, known, history_limit=n)``: the user's snapshot and last ``n`` history
  snapshots at one revision; ``known`` (the caller's cached snapshot) comes back as is when
  still current.
* ``commit(keys, ops, expected_revision, idempotency)``: the operations applied atomically
  if the revision is still ``expected_revision`` (``conflict`` otherwise, nothing written),
  or the stored result of an earlier identical write (``replayed``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..core import CommitResult, Erasure, Idempotency, Op, UserSnapshot
from ..model import ChangeEvent, HistorySnapshot, UserKeys


@runtime_checkable
class Backend(Protocol):
    """A sync backend (see the module docstring for ``read`` and ``commit``).

    Every method raises :class:`~penchant.memory.StorageUnavailableError` when the store
    fails (:class:`~penchant.memory.StorageFullError` when it refuses writes).
    """

    def read(
        self, keys: UserKeys, known: UserSnapshot | None = None, *, history_limit: int = 0
    ) -> tuple[UserSnapshot, list[HistorySnapshot]]: ...

    def commit(
        self,
        keys: UserKeys,
        ops: list[Op],
        expected_revision: str | None,
        idempotency: Idempotency | None = None,
    ) -> CommitResult: ...

    def transient(self, exc: BaseException) -> bool: ...

    def register_user(self, keys: UserKeys) -> None: ...

    def erase(self, keys: UserKeys, erasure: Erasure) -> int: ...

    def drop_cached_embeddings(self, texts: list[str]) -> int: ...

    def embeddings_cache(self, ttl_seconds: int, max_entries: int) -> Any:
        """A ready embeddings cache in this store (Redis: ``None`` when ``max_entries`` is 0).

        On Redis, redisvl's ``EmbeddingsCache`` (what the embedders take as ``cache=``); the
        in-process backend's :class:`~.inprocess_store.InProcessEmbeddingsCache` answers
        ``get_many`` / ``set_many`` instead.
        """
        ...

    def delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]: ...

    def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]: ...

    def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]: ...

    def transcript(
        self, keys: UserKeys, thread_id: str, limit: int = 200
    ) -> list[dict[str, Any]]: ...

    def users(self) -> list[str]: ...

    def sample_users(self, limit: int) -> list[str]: ...

    def ensure_schema(self) -> int: ...

    def ping(self) -> bool: ...

    def server_report(self) -> dict[str, Any]: ...

    def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool: ...

    def release_lease(self, key: str, token: str) -> bool: ...

    def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool: ...

    def schedule_checkup(self, user_id: str, due_ms: int) -> None: ...

    def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]: ...

    def complete_checkup(self, user_id: str, due_ms: int) -> bool: ...

    def close(self) -> None: ...


@runtime_checkable
class AsyncBackend(Protocol):
    """:class:`Backend` with coroutines (over ``redis.asyncio``)."""

    async def read(
        self, keys: UserKeys, known: UserSnapshot | None = None, *, history_limit: int = 0
    ) -> tuple[UserSnapshot, list[HistorySnapshot]]: ...

    async def commit(
        self,
        keys: UserKeys,
        ops: list[Op],
        expected_revision: str | None,
        idempotency: Idempotency | None = None,
    ) -> CommitResult: ...

    def transient(self, exc: BaseException) -> bool: ...

    async def register_user(self, keys: UserKeys) -> None: ...

    async def erase(self, keys: UserKeys, erasure: Erasure) -> int: ...

    async def drop_cached_embeddings(self, texts: list[str]) -> int: ...

    def embeddings_cache(self, ttl_seconds: int, max_entries: int) -> Any:
        """See :meth:`Backend.embeddings_cache` (sync: the embedders run sync)."""
        ...

    async def delete_user(self, keys: UserKeys) -> tuple[int, int, list[str]]: ...

    async def history(self, keys: UserKeys, limit: int = 20) -> list[HistorySnapshot]: ...

    async def changes(self, keys: UserKeys, limit: int = 50) -> list[ChangeEvent]: ...

    async def transcript(
        self, keys: UserKeys, thread_id: str, limit: int = 200
    ) -> list[dict[str, Any]]: ...

    async def users(self) -> list[str]: ...

    async def sample_users(self, limit: int) -> list[str]: ...

    async def ensure_schema(self) -> int: ...

    async def ping(self) -> bool: ...

    async def server_report(self) -> dict[str, Any]: ...

    async def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool: ...

    async def release_lease(self, key: str, token: str) -> bool: ...

    async def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool: ...

    async def schedule_checkup(self, user_id: str, due_ms: int) -> None: ...

    async def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]: ...

    async def complete_checkup(self, user_id: str, due_ms: int) -> bool: ...

    async def aclose(self) -> None: ...


__all__ = ["AsyncBackend", "Backend"]
