"""What a client sends, checked once for both faces (MCP tools and REST): each error is a
:class:`FieldError`, the library's own :class:`~penchant.memory.InvalidInputError` message
naming the field, the value and the allowed range, which also carries the field and the
value (as echoed) for the REST 400 body; nothing is stored."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from pydantic import ValidationError

from penchant.memory import (
    HistorySnapshot,
    InvalidInputError,
    PreferenceCandidate,
    describe_validation_error,
    echoed,
    validate_user_id,
)

MAX_RECALL_K = 50
"""Largest ``k`` a client may ask recall for."""
MAX_LIMIT = 1_000
"""Largest ``limit`` of history and changes."""

JsonScalar = str | int | float | bool | None


def shown_value(value: Any) -> JsonScalar:
    """A refused value as a 400 body's ``value``: a number or boolean as given, text as
    echoed (hidden characters named, shortened: :func:`penchant.memory.echoed`), bytes
    decoded first; ``None`` for an object or a list (the message names the field)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, bytes):
        return echoed(value.decode("utf-8", "replace"))
    return echoed(value) if isinstance(value, str) else None


class FieldError(InvalidInputError):
    """A client's field is invalid.

    Args:
        message: One line naming the field, the value and the rule.
        field: The field (``polarity``, ``k``, ``user_id``, ``body`` for the whole body).
        value: The value given (kept as :func:`shown_value` shows it).
    """

    def __init__(self, message: str, field: str, value: Any = None) -> None:
        super().__init__(message)
        self.field = field
        self.value = shown_value(value)

    @classmethod
    def of(cls, exc: ValidationError) -> FieldError:
        """The error of a pydantic ``ValidationError``: its first error's field and input."""
        errors = exc.errors()
        field = ".".join(str(p) for p in errors[0]["loc"]) if errors else ""
        value = errors[0].get("input") if errors and errors[0]["type"] != "missing" else None
        return cls(describe_validation_error(exc), field or "input", value)


@contextlib.contextmanager
def about(field: str, value: Any = None) -> Iterator[None]:
    """Name ``field`` as the culprit of a library :class:`InvalidInputError` raised inside
    (one that is not already a :class:`FieldError`)."""
    try:
        yield
    except FieldError:
        raise
    except InvalidInputError as exc:
        raise FieldError(str(exc), field, value) from exc


def checked_user_id(value: str) -> str:
    """``value`` if it is a user id the library accepts (:func:`validate_user_id`).

    Raises:
        FieldError: It is not (field ``user_id``).
    """
    with about("user_id", value):
        return validate_user_id(value)


def preference_candidate(
    content: str, polarity: str, keywords: list[str] | None = None, category: str | None = None
) -> PreferenceCandidate:
    """A candidate from a client's tool call or request (``source = tool``).

    Raises:
        FieldError: A field is invalid; the message names it, its value and the rule.
    """
    fields: dict[str, Any] = {"content": content, "polarity": polarity, "source": "tool",
                              "keywords": keywords or []}
    if category is not None:
        fields["category"] = category
    try:
        return PreferenceCandidate(**fields)
    except ValidationError as exc:
        raise FieldError.of(exc) from exc


def history_snapshot(
    kind: str, summary: str, payload: dict[str, Any] | None = None
) -> HistorySnapshot:
    """A history snapshot from a client (now, UTC).

    Raises:
        FieldError: A field is invalid.
    """
    try:
        return HistorySnapshot(kind=kind, summary=summary, payload=payload or {})
    except ValidationError as exc:
        raise FieldError.of(exc) from exc


def whole(name: str, value: int, low: int, high: int) -> int:
    """``value`` if ``low <= value <= high``.

    Raises:
        FieldError: Out of range; the message names ``name``, the value and the range.
    """
    if not low <= value <= high:
        raise FieldError(f"{name} = {value} is out of range; use {low} to {high}", name, value)
    return value
