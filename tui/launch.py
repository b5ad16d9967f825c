"""``penchant chat``'s entry: it builds ``Settings()`` once, opens the memory inside the
app's event loop (``redis.asyncio`` clients belong to one loop), runs
:class:`~penchant.tui.app.ChatApp` with ``run_async`` and closes the memory after it.

Its own module because it is the one place that needs both the app and
:mod:`.wiring`, which the app imports.
"""

from __future__ import annotations

import asyncio
import logging

from penchant.memory import AsyncMemory, Settings, validate_user_id

from .app import ChatApp
from .wiring import (
    EXIT_INTERRUPTED,
    THREAD_JOIN_SECONDS,
    ChatAgent,
    CountingExecutor,
    leave_now,
    log_to_file,
    report_unsaved_turn,
)

logger = logging.getLogger(__name__)


def run_chat(user_id: str = "me") -> int:
    """Run ``penchant chat``: the real memory and agent from ``Settings()``.

    Args:
        user_id: The user to start as.

    Returns:
        The exit status (0 after a normal quit, :data:`EXIT_INTERRUPTED` after a Ctrl+C
        before the app took the terminal).

    Raises:
        InvalidInputError: ``user_id`` cannot be used as a user id.
        StorageUnavailableError: Redis cannot be reached or started.
    """
    validate_user_id(user_id)
    settings = Settings()
    with log_to_file(settings.home / "chat.log"):
        try:
            return asyncio.run(_chat(settings, user_id))
        except KeyboardInterrupt:  # Ctrl+C before the app owns the terminal
            return EXIT_INTERRUPTED


async def _chat(settings: Settings, user_id: str) -> int:
    executor = CountingExecutor()
    asyncio.get_running_loop().set_default_executor(executor)
    async with AsyncMemory.from_settings(settings) as memory:
        app = ChatApp(memory, lambda: ChatAgent.from_settings(memory, settings), user_id=user_id)
        status = await app.run_async()
        logger.info("chat screen closed")
        report_unsaved_turn(app)
    logger.info("memory closed")
    code = status if status is not None else (app.return_code or 0)
    if not await executor.wait_idle(THREAD_JOIN_SECONDS):
        leave_now(code)
    return code


__all__ = ["run_chat"]
