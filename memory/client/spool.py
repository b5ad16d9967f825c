"""A durable local spool for writes made while Redis is unreachable (DESIGN.md §6.5).

When the agent's memory write fails because Redis is down, the turn goes on:
the write is appended to a JSON-lines file under ``PENCHANT_HOME`` (flushed and
``fsync``-ed before the call returns) and replayed, in order and through the
persistence gate, on the next successful contact with Redis. Each spooled write
carries its own idempotency key, so a replay interrupted half-way and run again
never applies a write twice.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from ..backends import exclusive_lock
from ..model import StorageUnavailableError

logger = logging.getLogger(__name__)


class WriteSpool:
    """Append-only file of pending writes, shared safely between processes.

    Args:
        path: The spool file (created on first append), e.g.
            ``<PENCHANT_HOME>/spool/writes.jsonl``.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_suffix(".lock")

    def append(self, op: str, user_id: str, payload: dict[str, Any]) -> str:
        """Durably record one write; returns its idempotency key.

        Args:
            op: ``"remember"``, ``"capture"`` or ``"forget"``.
            user_id: Owner.
            payload: JSON-serialisable arguments of the write.
        """
        key = f"spool-{uuid.uuid4().hex}"
        line = json.dumps({"op": op, "user_id": user_id, "key": key, "payload": payload},
                          ensure_ascii=False)
        with exclusive_lock(self.lock_path), open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        logger.warning("memory degraded: spooled a %s for %s to %s", op, user_id, self.path)
        return key

    def pending(self) -> int:
        """Number of writes waiting for Redis."""
        try:
            with open(self.path, encoding="utf-8") as handle:
                return sum(1 for line in handle if line.strip())
        except FileNotFoundError:
            return 0

    def drain(self, apply: Callable[[dict[str, Any]], object]) -> int:
        """Replay pending writes in order; stop at the first that cannot reach Redis.

        Args:
            apply: Performs one spooled write (raises
                :class:`StorageUnavailableError` while Redis is still down).

        Returns:
            How many writes were replayed and removed from the spool.
        """
        with exclusive_lock(self.lock_path):
            lines = self._lines()
            done = 0
            try:
                for line in lines:
                    entry = self._entry(line)
                    if entry is not None:
                        apply(entry)
                    done += 1
            except StorageUnavailableError:
                logger.info("spool replay paused after %d writes: Redis still unavailable", done)
            finally:
                if lines:
                    self._rewrite(lines[done:])
            return done

    async def adrain(self, apply: Callable[[dict[str, Any]], Awaitable[object]]) -> int:
        """:meth:`drain` for an event loop: ``apply`` is awaited, the file work (lock, read,
        rewrite; small and local) runs in a worker thread."""
        async with _held(self.lock_path):
            lines = await asyncio.to_thread(self._lines)
            done = 0
            try:
                for line in lines:
                    entry = await asyncio.to_thread(self._entry, line)
                    if entry is not None:
                        await apply(entry)
                    done += 1
            except StorageUnavailableError:
                logger.info("spool replay paused after %d writes: Redis still unavailable", done)
            finally:
                if lines:
                    await asyncio.to_thread(self._rewrite, lines[done:])
            return done

    def _lines(self) -> list[str]:
        try:
            return [ln for ln in self.path.read_text(encoding="utf-8").splitlines() if ln]
        except FileNotFoundError:
            return []

    def _entry(self, line: str) -> dict[str, Any] | None:
        """The parsed entry, or ``None`` (the line is set aside) when it is unreadable."""
        try:
            entry: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError:
            self._set_aside(line)
            return None
        return entry

    def _set_aside(self, line: str) -> None:
        aside = self.path.with_suffix(".unreadable")
        logger.error("spool: unreadable entry moved to %s", aside)
        with open(aside, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")

    def _rewrite(self, remaining: list[str]) -> None:
        if not remaining:
            self.path.unlink(missing_ok=True)
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in remaining))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)


@asynccontextmanager
async def _held(path: Path) -> AsyncIterator[None]:
    """:func:`~.filelock.exclusive_lock` for an event loop: the wait runs in a thread (an
    ``flock`` belongs to the open file, not the thread, so it is released here)."""
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        await asyncio.to_thread(fcntl.flock, handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


__all__ = ["WriteSpool"]
