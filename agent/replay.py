"""Replaying a scripted conversation through the chat graph (``penchant replay``).

A conversation file is JSON::

    {"turns": ["I don't like plastic.", "Can you recommend a water bottle?"]}

Every turn is fed, in order and in one thread, through Penchant's chat graph
(:func:`~penchant.agent.graph.build_chat_graph`) with the model that settings
choose (:func:`~penchant.agent.models.choose_model`: the offline model unless
``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` is set), so what is stored is exactly
what a live chat would store. The whole file is validated before the first turn
runs: a bad file stores nothing. When the real model fails on a turn, the replay
stops there with :class:`~penchant.agent.models.ModelUnavailableError` (that
turn's rule capture has run, as in the chat; later turns are not sent).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from penchant.memory import InvalidInputError, validate_user_id

from .graph import build_chat_graph
from .hooks import CHANGE_KEYS, message_text, model_failure_in
from .models import (
    ModelUnavailableError,
    chat_model_from_settings,
    is_offline,
    kept_and_retried,
)

if TYPE_CHECKING:
    from penchant.memory import Memory

logger = logging.getLogger(__name__)

GATE_KEYS = ("created", "merged", "superseded", "rejected")
"""Keys every turn's ``memory`` has (the gate result of DESIGN.md §11)."""
MAX_TURNS = 1_000
"""Most turns one file may hold (a guard against feeding a log file by mistake)."""


def parse_turns(text: str, source: str = "conversation") -> list[str]:
    """The user messages of a conversation document.

    Args:
        text: The JSON text, ``{"turns": ["message", ...]}``.
        source: Name used in error messages (usually the file path).

    Returns:
        The turns, in order (1 to :data:`MAX_TURNS` non-blank strings).

    Raises:
        InvalidInputError: Not JSON, not an object with a ``turns`` list, an
            empty list, too many turns, or a turn that is not a non-blank string.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(
            f"{source} is not JSON ({exc.msg} at line {exc.lineno}); expected "
            '{"turns": ["message", ...]}'
        ) from exc
    if not isinstance(document, dict) or "turns" not in document:
        raise InvalidInputError(
            f'{source} has no "turns" key; expected {{"turns": ["message", ...]}}'
        )
    turns = document["turns"]
    if not isinstance(turns, list):
        raise InvalidInputError(
            f'{source}: "turns" must be a list of strings, got {type(turns).__name__}'
        )
    if not turns:
        raise InvalidInputError(f'{source}: "turns" is empty; give at least one message')
    if len(turns) > MAX_TURNS:
        raise InvalidInputError(f"{source}: {len(turns)} turns; at most {MAX_TURNS} per file")
    for index, turn in enumerate(turns, start=1):
        if not isinstance(turn, str):
            raise InvalidInputError(
                f"{source}: turn {index} is {type(turn).__name__}, not a string"
            )
        if not turn.strip():
            raise InvalidInputError(f"{source}: turn {index} is blank")
    return list(turns)


def load_turns(path: Path) -> list[str]:
    """Read and validate a conversation file (see :func:`parse_turns`).

    Raises:
        InvalidInputError: The file cannot be read as UTF-8 text or is invalid.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read conversation file {str(path)!r}: {exc}") from exc
    return parse_turns(text, source=str(path))


def turn_memory(changes: dict[str, Any]) -> dict[str, Any]:
    """A turn's ``memory_changes`` as the replay reports it.

    The four gate keys always; ``removed``, ``errors`` (and anything else the
    hooks add) only when non-empty.
    """
    report: dict[str, Any] = {key: list(changes.get(key) or []) for key in GATE_KEYS}
    for key in (*CHANGE_KEYS, "errors", *changes):
        if key not in report and changes.get(key):
            report[key] = changes[key]
    return report


def replay_turns(
    memory: Memory,
    turns: Sequence[str],
    user_id: str,
    *,
    model: BaseChatModel | None = None,
    thread_id: str | None = None,
) -> dict[str, Any]:
    """Feed user messages through the chat graph, one thread, in order.

    Args:
        memory: The memory to recall from and write to (borrowed).
        turns: The user messages.
        user_id: Whose memory.
        model: The chat model; ``chat_model_from_settings(memory.settings)``
            when ``None``. A real model also does the end-of-turn summary capture.
        thread_id: The conversation thread (a fresh ``replay-…`` id by default).

    Returns:
        ``{"turns": [{"user": text, "assistant": reply, "memory": changes}]}``
        where ``changes`` has ``created``/``merged``/``superseded``/``rejected``
        lists, plus ``removed``/``errors`` when non-empty.

    Raises:
        InvalidInputError: Bad ``user_id``.
        ModelUnavailableError: The real model failed on a turn (the replay stops there).
    """
    validate_user_id(user_id)
    chosen = model or chat_model_from_settings(memory.settings)
    graph = build_chat_graph(memory, chosen, summary_model=None if is_offline(chosen) else chosen)
    config: RunnableConfig = {
        "configurable": {"user_id": user_id, "thread_id": thread_id or _new_thread_id()}
    }
    replayed = []
    for number, text in enumerate(turns, start=1):
        state = graph.invoke({"messages": [HumanMessage(content=text)]}, config)
        failure = model_failure_in(state.get("messages") or [])
        if failure is not None:
            done = f"; turns 1-{number - 1} were replayed" if number > 1 else ""
            raise ModelUnavailableError(
                failure, f"replay stopped at turn {number} of {len(turns)}{done}; turn "
                f"{number}: {kept_and_retried(state.get('memory_changes'))}",
            )
        replayed.append(
            {
                "user": text,
                "assistant": _last_reply(state),
                "memory": turn_memory(state.get("memory_changes") or {}),
            }
        )
    logger.info("replayed %d turns for %s", len(replayed), user_id)
    return {"turns": replayed}


def replay_file(
    memory: Memory, path: Path | str, user_id: str, *, model: BaseChatModel | None = None
) -> dict[str, Any]:
    """Replay a conversation file (``penchant replay FILE --user ID``).

    The file is read and validated completely before the first turn runs.

    Args:
        memory: The memory (borrowed).
        path: A JSON file ``{"turns": ["message", ...]}``.
        user_id: Whose memory.
        model: The chat model; from settings when ``None``.

    Returns:
        See :func:`replay_turns`.

    Raises:
        InvalidInputError: Unreadable or invalid file, or bad ``user_id``.
        ModelUnavailableError: The real model failed on a turn (the replay stops there).
    """
    validate_user_id(user_id)
    turns = load_turns(Path(path))
    return replay_turns(memory, turns, user_id, model=model)


def _new_thread_id() -> str:
    return f"replay-{uuid.uuid4().hex[:12]}"


def _last_reply(state: dict[str, Any]) -> str:
    for message in reversed(state.get("messages") or []):
        if isinstance(message, AIMessage) and not message.tool_calls:
            return message_text(message)
    return ""


__all__ = [
    "GATE_KEYS",
    "MAX_TURNS",
    "load_turns",
    "parse_turns",
    "replay_file",
    "replay_turns",
    "turn_memory",
]
