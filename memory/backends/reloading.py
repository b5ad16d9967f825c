"""Lua scripts that survive a failover: ``NOSCRIPT`` is answered by running the script's text.

A script runs by ``EVALSHA`` (its SHA-1; the text travels once per server). Redis does not
replicate its script cache, so a replica promoted by a failover has never seen Penchant's
scripts and answers ``NOSCRIPT``. redis-py's own ``Script`` then sends ``SCRIPT LOAD`` and
tries again, but on a cluster that load goes to the primaries the client *believes* in: right
after a graceful failover that view is stale, the load lands on the demoted node, and the
second ``EVALSHA`` fails too (issue 19: a recall reported "Redis unavailable … No matching
script"). Here a ``NOSCRIPT`` is answered by ``EVAL`` of the text, routed by the script's
keys like any command, which also caches the script on the node that serves them, so the
next ``EVALSHA`` there succeeds. Nothing ran when ``NOSCRIPT`` came back, so running it again
applies it once.

Every script call of the sync and async backends goes through :class:`ReloadingScript` /
:class:`AsyncReloadingScript`, reads and writes alike; a pipeline (a commit followed by
``WAIT``) that fails on ``NOSCRIPT`` is sent again with ``EVAL`` by the backend
(:func:`is_noscript`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import redis

logger = logging.getLogger(__name__)


def is_noscript(exc: BaseException) -> bool:
    """Whether ``exc`` is a server's ``NOSCRIPT`` reply (redis-py's ``NoScriptError``, or a
    plain ``ResponseError`` carrying it, as a cluster pipeline reports it)."""
    if isinstance(exc, redis.exceptions.NoScriptError):
        return True
    return isinstance(exc, redis.ResponseError) and str(exc).startswith(
        ("NOSCRIPT", "No matching script")
    )


class ReloadingScript:
    """One Lua script of a sync client: ``EVALSHA``, and ``EVAL`` of its text on ``NOSCRIPT``.

    Args:
        client: The redis-py client (single node or cluster) it runs on by default.
        text: The script.
    """

    def __init__(self, client: Any, text: str) -> None:
        self.client = client
        self.text = text
        self._script = client.register_script(text)

    def __call__(self, keys: Sequence[Any], args: Sequence[Any], client: Any = None) -> Any:
        """Run the script on ``client`` (the registered client by default); a pipeline only
        queues it (its ``execute`` loads the script on that connection first)."""
        target = self.client if client is None else client
        try:
            return self._script(keys=list(keys), args=list(args), client=target)
        except redis.ResponseError as exc:
            if not is_noscript(exc):
                raise
            logger.info("script cache empty on the serving node (a failover?): sending the text")
            return target.eval(self.text, len(keys), *keys, *args)

    def queue_text(self, pipe: Any, keys: Sequence[Any], args: Sequence[Any]) -> None:
        """Queue the script by its text (``EVAL``) on a pipeline, for a resend after
        ``NOSCRIPT``."""
        pipe.eval(self.text, len(keys), *keys, *args)


class AsyncReloadingScript(ReloadingScript):
    """:class:`ReloadingScript` of a ``redis.asyncio`` client (``await`` the call)."""

    async def __call__(  # type: ignore[override]
        self, keys: Sequence[Any], args: Sequence[Any], client: Any = None
    ) -> Any:
        target = self.client if client is None else client
        try:
            return await self._script(keys=list(keys), args=list(args), client=target)
        except redis.ResponseError as exc:
            if not is_noscript(exc):
                raise
            logger.info("script cache empty on the serving node (a failover?): sending the text")
            return await target.eval(self.text, len(keys), *keys, *args)


__all__ = ["AsyncReloadingScript", "ReloadingScript", "is_noscript"]
