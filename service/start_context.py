"""The context a client puts in front of a conversation: the user's preferences as the
agent's ``<user_preferences>`` block (hard constraints, the protected preferences such as
allergies, first; then dislikes as constraints; then the rest) and the recent history block.
The same text as the chat's inject step (:mod:`penchant.tools.prompt_blocks`), wrapped as
data, never as instructions.

Without a query (the start of a chat) every dislike is a constraint and every like is listed
after them. With one, the dislikes and likes recalled for it are the constraints and
leanings, and the rest follow (one round trip: :meth:`AsyncMemory.context`).
"""

from __future__ import annotations

from typing import Any

from penchant.memory import AsyncMemory, Preference
from penchant.tools.prompt_blocks import render_history, render_preferences

HISTORY_SHOWN = 5
"""Recent history snapshots in the context."""
RECALLED = 5
"""Preferences recalled for a query (``k``)."""


async def start_context(memory: AsyncMemory, user_id: str, query: str = "") -> dict[str, Any]:
    """The user's context, for the start of a chat or for one request.

    Args:
        memory: The memory to read.
        user_id: Whose context.
        query: Optional request text; ``""`` for the start of a chat.

    Returns:
        ``{"text": blocks, "preferences": [...], "history": [...]}``: ``text`` is the
        prompt blocks (``""`` for a user with nothing stored), ``preferences`` their JSON
        form in the order of the text, ``history`` newest first.

    Raises:
        InvalidInputError: A bad user id.
        StorageUnavailableError: Redis cannot be reached.
    """
    if query.strip():
        context = await memory.context(user_id, query, k=RECALLED, history_limit=HISTORY_SHOWN)
        prefs, history = context.preferences, context.history
        recalled = context.recall.items if context.recall is not None else []
        relevant = [item.preference for item in recalled]
    else:
        prefs = await memory.preferences(user_id)
        history = await memory.history(user_id, HISTORY_SHOWN)
        relevant = [p for p in prefs if p.polarity == "dislike"]
    chosen = {p.id for p in relevant}
    others = [p for p in prefs if p.id not in chosen]
    blocks = [render_preferences(relevant, others), render_history(history)]
    return {
        "text": "\n\n".join(b for b in blocks if b),
        "preferences": [p.public_dict() for p in _in_text_order(relevant, others)],
        "history": [h.model_dump(mode="json") for h in history],
    }


def _in_text_order(relevant: list[Preference], others: list[Preference]) -> list[Preference]:
    """The order of :func:`render_preferences`: protected, relevant dislikes, relevant likes,
    the rest."""
    every = [*relevant, *others]
    return (
        [p for p in every if p.protected]
        + [p for p in relevant if p.polarity == "dislike" and not p.protected]
        + [p for p in relevant if p.polarity == "like" and not p.protected]
        + [p for p in others if not p.protected]
    )
