"""Parts of :class:`~.sync.Memory` and :class:`~.asyncio.AsyncMemory` around the backend: the
sync request loop that rides out failovers and revives the embedded server, and the
check-up's coordination calls (leases, the schedule, the server report)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..model import Settings, StorageFullError, StorageUnavailableError
from .retry import failover_delays

logger = logging.getLogger(__name__)
T = TypeVar("T")


class SyncCoordination:
    """The request loop, leases and the check-up schedule over a sync backend."""

    backend: Any
    settings: Settings
    _server: Any

    def _ride(self, call: Callable[[], T], what: str) -> T:
        """``call()``; on a cluster, retried with backoff while the error is one a failover or
        a slot move causes, for ``Settings.write_retry_seconds``
        (:func:`~..backends.cluster.failover_delays`). Reads (recall, the schema check at
        start) ride out a failover too, not only writes. Every command goes through here, so
        an embedded server killed meanwhile is started again (:meth:`_revive`) and the
        request sent once more, whatever the command (issue 19)."""
        delays = failover_delays(self.settings.write_retry_seconds)
        revived = False
        while True:
            try:
                return call()
            except StorageFullError:
                raise
            except StorageUnavailableError as exc:
                delay = next(delays, None) if self.backend.transient(exc) else None
                if delay is None:
                    if revived or not self._revive():
                        raise
                    revived = True  # the embedded server was dead: started again, retry once
                    logger.warning("embedded Redis restarted; retrying %s", what)
                    continue
                logger.info("retrying %s in %.2f s: %s", what, delay, exc)
                time.sleep(delay)

    def _revive(self) -> bool:
        """Start the embedded server again if it died (the one path every command takes,
        through :meth:`_ride`); False without an embedded server or when it stays down."""
        return self._server is not None and self._server.revive()

    def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Take a check-up lease (``SET NX PX``); False when another worker holds it."""
        return self.backend.acquire_lease(key, token, ttl_ms)

    def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Extend a lease we hold; False when it is not ours any more."""
        return self.backend.renew_lease(key, token, ttl_ms)

    def release_lease(self, key: str, token: str) -> bool:
        """Give a lease back if it is still ours."""
        return self.backend.release_lease(key, token)

    def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        """Put a user's check-up on the schedule (an earlier due time is kept)."""
        self.backend.schedule_checkup(user_id, due_ms)

    def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Users whose check-up is due: ``[(user_id, due_ms)]``, earliest first."""
        return self.backend.due_checkups(now_ms, limit)

    def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """Take a done check-up off the schedule unless it was rescheduled meanwhile."""
        return self.backend.complete_checkup(user_id, due_ms)

    def server_report(self) -> dict[str, Any]:
        """Server version, persistence, schema, users, Query Engine (for ``doctor``)."""
        return self.backend.server_report()



class AsyncCoordination:
    """:class:`SyncCoordination` over an async backend."""

    backend: Any

    async def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """See :meth:`Memory.acquire_lease`."""
        return await self.backend.acquire_lease(key, token, ttl_ms)

    async def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """See :meth:`Memory.renew_lease`."""
        return await self.backend.renew_lease(key, token, ttl_ms)

    async def release_lease(self, key: str, token: str) -> bool:
        """See :meth:`Memory.release_lease`."""
        return await self.backend.release_lease(key, token)

    async def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        """See :meth:`Memory.schedule_checkup`."""
        await self.backend.schedule_checkup(user_id, due_ms)

    async def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """See :meth:`Memory.due_checkups`."""
        return await self.backend.due_checkups(now_ms, limit)

    async def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """See :meth:`Memory.complete_checkup`."""
        return await self.backend.complete_checkup(user_id, due_ms)


__all__ = ["AsyncCoordination", "SyncCoordination"]
