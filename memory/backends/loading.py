"""Waiting for the embedded server while it loads its data set (issue 19: a cold command gave up
after 10 s while a large AOF loaded), and asking a server for its pid."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

import redis

from .errors import StorageClientError

logger = logging.getLogger(__name__)

LOADING_STALL_SECONDS = 30.0
"""A loading server that reports no progress for this long is given up on."""


class LoadingProgress:
    """Progress of a server loading its data set (``INFO persistence``: ``loading``,
    ``loading_loaded_perc``, ``loading_eta_seconds``), shown on stderr when it is a terminal.

    Args:
        server: The embedded server being waited for.
    """

    def __init__(self, server: Any) -> None:
        self.server = server
        self._last: float | None = None
        self._moved = time.monotonic()
        self._shown = False
        self._next_look = 0.0

    def _loaded(self) -> tuple[float, float] | None:
        probe = redis.Redis(unix_socket_path=str(self.server.socket_path), socket_timeout=1.0,
                            socket_connect_timeout=0.5)  # fmt: skip
        try:
            info = probe.info("persistence")
        except (*StorageClientError,):
            return None
        finally:
            probe.close()
        if not int(info.get("loading", 0)):
            return None
        perc, eta = info.get("loading_loaded_perc", 0.0), info.get("loading_eta_seconds", 0)
        return float(perc), float(eta)

    def advancing(self, why: str) -> bool:
        """Whether the server is loading and its progress moved in the last
        :data:`LOADING_STALL_SECONDS`."""
        if "loading" not in why.lower():  # "Valkey is loading the dataset in memory"
            return False
        now = time.monotonic()
        if now >= self._next_look:
            self._next_look = now + 0.5
            loaded = self._loaded()
            if loaded is not None and loaded[0] != self._last:
                self._last, self._moved = loaded[0], now
                self._eta = loaded[1]
        return now - self._moved < LOADING_STALL_SECONDS

    def show(self, why: str) -> None:
        """One status line (rewritten in place) on a terminal."""
        if self._last is None or "loading" not in why.lower():
            return
        line = (f"penchant: the embedded Redis is loading its data: {self._last:.0f}% "
                f"(about {getattr(self, '_eta', 0):.0f} s left)")  # fmt: skip
        logger.info(line)
        if sys.stderr.isatty():
            sys.stderr.write("\r" + line)
            sys.stderr.flush()
            self._shown = True

    def done(self) -> None:
        """End the status line."""
        if self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()




def pid_from_server(socket_path: Path) -> int | None:
    """The pid of the server on ``socket_path`` as it reports it (``INFO server``): a
    daemonized server answers on its socket before it writes ``valkey.pid``, and a reaper
    started in that window watched pid 0, so the next command started a second one."""
    probe = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1.0,
                        socket_connect_timeout=0.5)  # fmt: skip
    try:
        return int(probe.info("server")["process_id"])
    except (*StorageClientError, KeyError, ValueError):
        return None
    finally:
        probe.close()


__all__ = ["LOADING_STALL_SECONDS", "LoadingProgress", "pid_from_server"]
