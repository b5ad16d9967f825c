"""Who a request is: its bearer token, looked up in :class:`~.tokens.AsyncTokenStore`.

No token, a malformed one, an unknown or revoked one: 401 (``WWW-Authenticate: Bearer``).
A valid token for a user it does not cover: 403. Neither body says whether the user exists
or what the token covers.
"""

from __future__ import annotations

from typing import Any

from penchant.memory import StorageUnavailableError

from .guard import send_json
from .tokens import AsyncTokenStore, TokenScope

UNAUTHORIZED = {"error": "unauthorized", "message":
                "a valid 'Authorization: Bearer <token>' header is required "
                "(make one with 'penchant token create --user ID')"}
FORBIDDEN = {"error": "forbidden", "message": "this token does not cover that user"}
CHALLENGE = [(b"www-authenticate", b'Bearer realm="penchant"')]


class Unauthorized(Exception):
    """No valid token: 401."""


class Forbidden(Exception):
    """A valid token for a user it does not cover: 403."""


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, else ``None``."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def scope_of(store: AsyncTokenStore, authorization: str | None) -> TokenScope:
    """The scope of a request's token.

    Raises:
        Unauthorized: No valid token.
        StorageUnavailableError: Redis did not answer.
    """
    token = bearer(authorization)
    scope = await store.scope_of(token) if token else None
    if scope is None:
        raise Unauthorized
    return scope


async def authorize(store: AsyncTokenStore, authorization: str | None, user_id: str) -> None:
    """Allow a request on ``user_id``, or raise.

    Raises:
        Unauthorized: No valid token.
        Forbidden: The token does not cover ``user_id``.
        StorageUnavailableError: Redis did not answer.
    """
    if not (await scope_of(store, authorization)).covers(user_id):
        raise Forbidden


USER_SCOPE_KEY = "penchant.user"
"""Where :class:`McpAuth` leaves the token's user in the ASGI scope for the MCP tools."""


class McpAuth:
    """ASGI middleware in front of ``/mcp``: a user token is required, and its user is the
    user of every tool call of the request (:data:`USER_SCOPE_KEY`). A tenant token covers
    many users and names none, so over MCP it gets 403: the user comes from the token alone.

    Args:
        app: The MCP streamable HTTP app.
        store: The token store.
    """

    def __init__(self, app: Any, store: AsyncTokenStore) -> None:
        self.app, self.store = app, store

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        headers = dict(scope.get("headers") or [])
        raw = headers.get(b"authorization")
        try:
            token_scope = await scope_of(self.store, raw.decode("latin-1") if raw else None)
        except Unauthorized:
            await send_json(send, 401, UNAUTHORIZED, CHALLENGE)
            return
        except StorageUnavailableError as exc:
            await send_json(send, 503, {"error": "storage_unavailable", "message": str(exc)})
            return
        if token_scope.user is None:
            await send_json(send, 403, {"error": "forbidden", "message":
                            "over MCP the user comes from the token alone; use a token made "
                            "with 'penchant token create --user ID'"})
            return
        scope[USER_SCOPE_KEY] = token_scope.user
        await self.app(scope, receive, send)
