"""What a forget scrubs and what delete-user finds, decided on raw replies (pure; the
backends do the I/O).
"""

from __future__ import annotations

import json
from typing import Any

from ..core import Erasure
from ..model import ChangeEvent, UserKeys, embedding_text


def user_pattern(keys: UserKeys) -> str:
    """``SCAN MATCH`` pattern of every key of one user (its hash tag; encoded ids hold no glob
    character, so no other user's key matches)."""
    return f"{keys.tag}:*"


def events_to_erase(entries: list[Any], erasure: Erasure) -> list[Any]:
    """Stream ids of the change events (an ``XRANGE`` reply) that copy the forgotten text."""
    if erasure.keep_history:
        return []
    found = []
    for entry_id, fields in entries:
        try:
            event = ChangeEvent.model_validate_json(fields[b"event"])
        except (KeyError, ValueError):
            continue
        if erasure.names_event(event):
            found.append(entry_id)
    return found


def record_names(raw: bytes | str, erasure: Erasure) -> bool:
    """Whether a stored JSON record (an idempotency record's result) names the forgotten."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return False
    return erasure.names_json(value)


def messages_to_erase(raw: list[Any], erasure: Erasure) -> list[Any]:
    """Transcript entries (an ``LRANGE`` reply) whose text names the forgotten."""
    if erasure.keep_history:
        return []
    found = []
    for item in raw:
        try:
            message = json.loads(item)
        except (ValueError, UnicodeDecodeError):
            continue
        if erasure.names_text(str(message.get("text", ""))):
            found.append(item)
    return found


def snapshots_to_erase(raw: list[Any], erasure: Erasure) -> list[Any]:
    """History snapshots (JSON, from the list or the last-per-kind hash) naming the forgotten."""
    if erasure.keep_history:
        return []
    found = []
    for item in raw:
        try:
            snap = json.loads(item)
        except (ValueError, UnicodeDecodeError):
            continue
        if erasure.names_text(str(snap.get("summary", ""))) or erasure.names_json(
            snap.get("payload") or {}
        ):
            found.append(item)
    return found


def erasure_texts(prefs: dict[str, Any]) -> list[str]:
    """The embedded texts (:func:`~penchant.memory.model.normalize.embedding_text`) of raw
    preference records."""

    texts = []
    for raw in prefs.values():
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        texts.append(embedding_text(str(record.get("content", "")), record.get("category")))
    return texts


__all__ = [
    "erasure_texts",
    "events_to_erase",
    "messages_to_erase",
    "record_names",
    "snapshots_to_erase",
    "user_pattern",
]
