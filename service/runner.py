"""Running the two faces: ``penchant mcp`` (stdio) and ``penchant serve`` (HTTP).

Both open one :class:`AsyncMemory` from the settings (``PENCHANT_REDIS_URL`` or the embedded
server) before taking any request, so a storage problem stops the start with its reason.
``penchant serve`` checks its options and binds its socket before that, and announces only
an address it holds (with the port the system gave, for ``--port 0``): a port in use or a
host that does not resolve stops it with one line and exit status 2, before anything else.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import socket
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

from penchant.memory import AsyncMemory, InvalidInputError, Settings, validate_user_id

from .guard import (
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PORT,
    check_host_name,
    check_origin,
)
from .tokens import DEFAULT_TOKEN_CACHE_SECONDS, AsyncTokenStore

logger = logging.getLogger(__name__)

T = TypeVar("T")


def run_on_fast_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on uvloop's event loop where it is installed (a dependency
    on CPython off Windows), else on asyncio's own: what ``uvicorn.run`` would pick, for the
    two commands that run their own loop (``penchant serve`` and ``penchant mcp``)."""
    try:
        import uvloop
    except ImportError:  # Windows, PyPy: the standard loop
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` listens on loopback only (``127.0.0.1``, ``::1``,
    ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` and listening, for uvicorn to serve on.

    ``host`` is resolved as uvicorn would (its first address); ``port`` 0 takes a free port,
    which ``getsockname()`` tells. It listens from here, so a client that connects as soon as
    the port is announced waits in the backlog until uvicorn accepts; bound alone, it was
    refused (a fresh-clone CI run caught it on ``serve --port 0``).

    Raises:
        InvalidInputError: ``host`` does not resolve or is not an address of this machine,
            the port is in use, or binding it is not permitted; the message says which.
    """
    shown = f"[{host}]" if ":" in host else host
    if not host.strip():
        raise InvalidInputError("--host is empty; give an address to bind, e.g. 127.0.0.1")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise InvalidInputError(
            f"--host {host!r} does not resolve to an address ({getattr(exc, 'strerror', exc)}); "
            f"give an IP address or a name this machine resolves ({DEFAULT_HOST} is the default)"
        ) from exc
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:  # as asyncio's create_server: IPv6 only
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(socket.SOMAXCONN)
    except OSError as exc:
        sock.close()
        raise InvalidInputError(f"cannot listen on {shown}:{port}: {_bind_reason(exc)}") from exc
    return sock


def _bind_reason(exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return ("the port is already in use (another server listens there); stop it or pick "
                "another with --port N (0: any free port)")
    if exc.errno == errno.EADDRNOTAVAIL:
        return "that is not an address of this machine; pick one of its own with --host"
    if exc.errno == errno.EACCES:
        return "permission denied (a port below 1024 needs privileges); pick --port 1024 or above"
    return exc.strerror or str(exc)


async def run_stdio(user_id: str, settings: Settings) -> None:
    """Serve MCP over stdin/stdout for one user until the client closes the pipe.

    Raises:
        InvalidInputError: A bad user id (checked before the first message).
        StorageUnavailableError: Redis cannot be reached or started.
    """
    validate_user_id(user_id)  # before any client waits on a server that cannot serve it
    from .mcp_server import build_mcp, fixed_user  # the MCP SDK: ~1 s, after the checks

    async with AsyncMemory.from_settings(settings) as memory:
        await build_mcp(lambda: memory, fixed_user(user_id)).run_stdio_async()


async def serve(
    settings: Settings,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    allow_hosts: list[str] | None = None,
    allow_origins: list[str] | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    token_cache_seconds: float = DEFAULT_TOKEN_CACHE_SECONDS,
) -> None:
    """Serve the REST API and ``/mcp`` on ``host:port`` until stopped (SIGINT/SIGTERM).

    ``token_cache_seconds`` is how long a verified token is trusted before Redis is asked
    again: the longest a revoked token keeps working (``0``: refused from the next request).

    Raises:
        InvalidInputError: A bad ``--allow-host`` or ``--allow-origin``; ``host`` does not
            resolve or ``port`` cannot be bound (:func:`bind`); ``host`` is beyond loopback
            and no token exists (refused before listening).
        StorageUnavailableError: Redis cannot be reached or started.
    """
    hosts = [check_host_name(h) for h in allow_hosts or []]
    origins = [check_origin(o) for o in allow_origins or []]
    with bind(host, port) as sock:
        # FastAPI, uvicorn and the MCP SDK take ~2 s to import: a bad option, host or port is
        # refused before that
        import uvicorn

        from .http_app import allowed_hosts_for, create_app

        async with AsyncMemory.from_settings(settings) as memory:
            tokens = await AsyncTokenStore(memory.client).count()
            if not is_loopback(host) and tokens == 0:
                raise InvalidInputError(
                    f"refusing to listen on {host}, beyond loopback, with no token: every "
                    "request needs one; create one first with 'penchant token create --user "
                    f"ID' (or bind {DEFAULT_HOST}, the default)"
                )
            if tokens == 0:
                logger.warning("no token exists: every request will get 401; create one with "
                               "'penchant token create --user ID'")
            app = create_app(
                memory, allowed_hosts=allowed_hosts_for(host, hosts), allowed_origins=origins,
                max_body_bytes=max_body_bytes, token_cache_seconds=token_cache_seconds,
            )  # fmt: skip
            config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False,
                                    server_header=False)
            server = uvicorn.Server(config)
            shown = f"[{host}]" if ":" in host else host
            sys.stderr.write(f"penchant: serving http://{shown}:{sock.getsockname()[1]} (REST "
                             f"under /v1/users/ID/, MCP at /mcp; {tokens} token(s); Ctrl-C "
                             "stops)\n")
            await server.serve(sockets=[sock])
            if not server.started:
                raise InvalidInputError(f"could not serve on {shown}:{sock.getsockname()[1]} "
                                        "(see the log above)")
