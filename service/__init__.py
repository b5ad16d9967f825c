"""Penchant as a service: an MCP server (stdio and streamable HTTP) and an HTTP API, over
:class:`penchant.memory.AsyncMemory`, with the user of every request taken from its
credential (``--user`` on stdio, a bearer token on HTTP), never from an argument.

The names load lazily, so the command line's other commands never import the MCP SDK or
FastAPI.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .http_app import create_app
    from .mcp_server import build_mcp, fixed_user
    from .runner import run_stdio, serve
    from .tokens import AsyncTokenStore, TokenInfo, TokenScope, TokenStore, check_scope

logging.getLogger(__name__).addHandler(logging.NullHandler())

_WHERE = {
    "AsyncTokenStore": "tokens", "TokenInfo": "tokens", "TokenScope": "tokens",
    "TokenStore": "tokens", "check_scope": "tokens", "build_mcp": "mcp_server",
    "fixed_user": "mcp_server", "create_app": "http_app", "run_stdio": "runner",
    "serve": "runner",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)


__all__ = [
    "AsyncTokenStore",
    "TokenInfo",
    "TokenScope",
    "TokenStore",
    "build_mcp",
    "check_scope",
    "create_app",
    "fixed_user",
    "run_stdio",
    "serve",
]
