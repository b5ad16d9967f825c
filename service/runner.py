"""Running the two faces: ``penchant mcp`` (stdio) and ``penchant serve`` (HTTP).

Both open one :class:`AsyncMemory` from the settings (``PENCHANT_REDIS_URL`` or the embedded
server) before taking any request, so a storage problem stops the start with its reason.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

from penchant.memory import AsyncMemory, InvalidInputError, Settings, validate_user_id

from .guard import DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT
from .http_app import allowed_hosts_for, create_app
from .mcp_server import build_mcp, fixed_user
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


async def run_stdio(user_id: str, settings: Settings) -> None:
    """Serve MCP over stdin/stdout for one user until the client closes the pipe.

    Raises:
        InvalidInputError: A bad user id (checked before the first message).
        StorageUnavailableError: Redis cannot be reached or started.
    """
    validate_user_id(user_id)  # before any client waits on a server that cannot serve it
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
        InvalidInputError: ``host`` is beyond loopback and no token exists (refused before
            listening), or a bad argument.
        StorageUnavailableError: Redis cannot be reached or started.
    """
    import uvicorn

    async with AsyncMemory.from_settings(settings) as memory:
        tokens = await AsyncTokenStore(memory.client).count()
        if not is_loopback(host) and tokens == 0:
            raise InvalidInputError(
                f"refusing to listen on {host}, beyond loopback, with no token: every request "
                "needs one; create one first with 'penchant token create --user ID' (or bind "
                f"{DEFAULT_HOST}, the default)"
            )
        if tokens == 0:
            logger.warning("no token exists: every request will get 401; create one with "
                           "'penchant token create --user ID'")
        app = create_app(
            memory, allowed_hosts=allowed_hosts_for(host, allow_hosts or []),
            allowed_origins=allow_origins or [], max_body_bytes=max_body_bytes,
            token_cache_seconds=token_cache_seconds,
        )  # fmt: skip
        config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                lifespan="on", access_log=False, server_header=False)
        server = uvicorn.Server(config)
        shown = f"[{host}]" if ":" in host else host
        sys.stderr.write(f"penchant: serving http://{shown}:{port} (REST under /v1/users/ID/, "
                         f"MCP at /mcp; {tokens} token(s); Ctrl-C stops)\n")
        await server.serve()
        if not server.started:
            raise InvalidInputError(f"could not listen on {host}:{port} (see the log above)")
