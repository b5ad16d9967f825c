"""What a client sends, checked once for both faces (MCP tools and REST): each error is the
library's own :class:`~penchant.memory.InvalidInputError` message, naming the field, the
value and the allowed range, and nothing is stored."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from penchant.memory import (
    HistorySnapshot,
    InvalidInputError,
    PreferenceCandidate,
    describe_validation_error,
)

MAX_RECALL_K = 50
"""Largest ``k`` a client may ask recall for."""
MAX_LIMIT = 1_000
"""Largest ``limit`` of history and changes."""


def preference_candidate(
    content: str, polarity: str, keywords: list[str] | None = None, category: str | None = None
) -> PreferenceCandidate:
    """A candidate from a client's tool call or request (``source = tool``).

    Raises:
        InvalidInputError: A field is invalid; the message names it, its value and the rule.
    """
    fields: dict[str, Any] = {"content": content, "polarity": polarity, "source": "tool",
                              "keywords": keywords or []}
    if category is not None:
        fields["category"] = category
    try:
        return PreferenceCandidate(**fields)
    except ValidationError as exc:
        raise InvalidInputError(describe_validation_error(exc)) from exc


def history_snapshot(
    kind: str, summary: str, payload: dict[str, Any] | None = None
) -> HistorySnapshot:
    """A history snapshot from a client (now, UTC).

    Raises:
        InvalidInputError: A field is invalid.
    """
    try:
        return HistorySnapshot(kind=kind, summary=summary, payload=payload or {})
    except ValidationError as exc:
        raise InvalidInputError(describe_validation_error(exc)) from exc


def whole(name: str, value: int, low: int, high: int) -> int:
    """``value`` if ``low <= value <= high``.

    Raises:
        InvalidInputError: Out of range; the message names ``name``, the value and the range.
    """
    if not low <= value <= high:
        raise InvalidInputError(f"{name} = {value} is out of range; use {low} to {high}")
    return value
