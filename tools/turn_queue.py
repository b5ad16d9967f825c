"""The turn's queue of ``remember_preference`` calls: one gate write per agent turn.

Inside Penchant's chat graph (:func:`penchant.agent.graph.build_chat_graph`) the model's
``remember_preference`` call does not write: it returns a LangGraph
:class:`~langgraph.types.Command` that appends the candidate to the state key
:data:`QUEUE_KEY` (reducer :func:`queue_reducer`) and answers the model, truthfully, that the
preference is *queued* for the end of the turn. The end-of-turn node then writes the queued
candidates together with the rule capture of the user's message in one gate write
(:meth:`penchant.memory.Memory.capture` with ``queued=``), each statement once, and records the
outcome in the queued tool messages and in ``memory_changes``.

Outside such a graph (a tool invoked on its own, another host's graph, the MCP and HTTP
services) nothing is queued: the tools write at once (:func:`make_preference_tools`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from langchain_core.messages import BaseMessage, ToolMessage
from langgraph.types import Command

from penchant.memory import PreferenceCandidate

QUEUE_KEY = "queued_preferences"
"""The state key of the queue (a list of :class:`QueuedPreference`)."""
CLEAR_QUEUE = None
"""The update that empties the queue (the chat graph's first node sends it each turn)."""


class QueuedPreference(TypedDict):
    """One queued ``remember_preference`` call.

    Attributes:
        tool_call_id: The model's tool call id (a retried call replaces its entry).
        candidate: The candidate, as ``PreferenceCandidate.model_dump(mode="json")``.
    """

    tool_call_id: str
    candidate: dict[str, Any]


def queue_reducer(
    left: list[QueuedPreference] | None, right: list[QueuedPreference] | None
) -> list[QueuedPreference]:
    """LangGraph reducer of :data:`QUEUE_KEY`: append, one entry per tool call id;
    :data:`CLEAR_QUEUE` (``None``) empties the queue.

    Args:
        left: The queue so far.
        right: Entries to add, or ``None`` to clear.

    Returns:
        The new queue, in call order.
    """
    if right is None:
        return []
    merged = {entry["tool_call_id"]: entry for entry in left or []}
    for entry in right:
        merged.pop(entry["tool_call_id"], None)
        merged[entry["tool_call_id"]] = entry
    return list(merged.values())


QUEUED_NOTE = (
    "queued for the end of the turn, NOT stored yet: {polarity} {content!r}. Memory writes it "
    "after your reply, in one write with the rest of this turn's preferences, and records the "
    "result here. Tell the user you will remember it; do not say it is already saved."
)


def queued_reply(candidate: PreferenceCandidate, tool_call_id: str, tool_name: str) -> Command:
    """The queued tool call's answer: the queue entry and the tool message, as a ``Command``.

    Args:
        candidate: The validated candidate.
        tool_call_id: The model's tool call id.
        tool_name: The tool's name (the tool message's ``name``).

    Returns:
        ``Command(update={QUEUE_KEY: [entry], "messages": [ToolMessage]})``; the tool
        message's artifact is ``{"queued": [candidate JSON]}``.
    """
    data = candidate.model_dump(mode="json")
    message = ToolMessage(
        content=QUEUED_NOTE.format(polarity=candidate.polarity, content=candidate.content),
        artifact={"queued": [data]},
        tool_call_id=tool_call_id,
        name=tool_name,
    )
    entry = QueuedPreference(tool_call_id=tool_call_id, candidate=data)
    return Command(update={QUEUE_KEY: [entry], "messages": [message]})


def queued_candidates(state: Any) -> list[PreferenceCandidate]:
    """The candidates queued in ``state`` (any state; one without the key queues none)."""
    entries: Sequence[QueuedPreference] = (state.get(QUEUE_KEY) if hasattr(state, "get")
                                           else None) or []  # fmt: skip
    return [PreferenceCandidate.model_validate(e["candidate"]) for e in entries]


def with_outcome(messages: Sequence[BaseMessage], queued: Sequence[QueuedPreference],
                 outcome: str, result: dict[str, Any] | None) -> list[ToolMessage]:  # fmt: skip
    """The queued tool messages again, each with the end-of-turn write's outcome appended
    (same ids: LangGraph's ``add_messages`` replaces them in place), so the conversation
    records what became of the queued call.

    Args:
        messages: The turn's messages.
        queued: The queue of the turn.
        outcome: One paragraph: what the end-of-turn write did, or why it failed.
        result: The write's JSON form (``GateResult.public_dict``), or ``None`` on failure.

    Returns:
        The replacements, in order.
    """
    ids = {entry["tool_call_id"] for entry in queued}
    replaced: list[ToolMessage] = []
    for message in messages:
        if not isinstance(message, ToolMessage) or message.tool_call_id not in ids:
            continue
        artifact = message.artifact if isinstance(message.artifact, dict) else {}
        if "queued" not in artifact or "written" in artifact or "failed" in artifact:
            continue
        done = {"written": result} if result is not None else {"failed": outcome}
        replaced.append(message.model_copy(update={
            "content": f"{message.content}\nAt the end of the turn: {outcome}",
            "artifact": {**artifact, **done},
        }))  # fmt: skip
    return replaced


__all__ = [
    "CLEAR_QUEUE",
    "QUEUED_NOTE",
    "QUEUE_KEY",
    "QueuedPreference",
    "queue_reducer",
    "queued_candidates",
    "queued_reply",
    "with_outcome",
]
