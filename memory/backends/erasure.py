"""What a forget scrubs and what delete-user finds, decided on raw replies (pure; the
backends do the I/O).
"""

from __future__ import annotations

import json
from typing import Any

from ..core import Erasure
from ..model import ChangeEvent, UserKeys, embedding_text


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def user_pattern(keys: UserKeys) -> str:
    """``SCAN MATCH`` pattern of every key of one user (its hash tag; encoded ids hold no glob
    character, so no other user's key matches)."""
    return f"{keys.tag}:*"


TEXT_KEYS_COMPLETE = "*"
"""Member of :attr:`~..keys.UserKeys.text_keys` that says every such key is listed."""


def text_key_kinds(keys: UserKeys, members: list[Any]) -> tuple[list[str], list[str]]:
    """``(idempotency records, transcripts)`` among the members of the user's text-key set
    (or the keys a ``SCAN`` of the user found)."""
    records, threads = [], []
    for member in members:
        key = _text(member)
        if key.startswith(f"{keys.tag}:idem:"):
            records.append(key)
        elif key.startswith(f"{keys.tag}:thread:"):
            threads.append(key)
    return records, threads


def erasure_query(erasure: Erasure) -> list[str] | None:
    """ARGV of :data:`ERASE_CANDIDATES_SCRIPT` for ``erasure``; ``None`` when every event is
    a candidate (read the whole log)."""
    clauses = erasure.index_query()
    if clauses is None:
        return None
    return ["\n".join("\t".join(group) for group in clause) for clause in clauses]


def candidate_entries(reply: list[Any]) -> list[tuple[Any, bytes]]:
    """``[(id or token, event JSON)]`` of a flat ``[id, event JSON, …]`` reply (of
    :data:`LEGACY_ERASE_CANDIDATES_SCRIPT`, or the second part of
    :data:`ERASE_CANDIDATES_SCRIPT`'s)."""
    return [(reply[i], reply[i + 1]) for i in range(0, len(reply), 2)]


def event_keys(keys: UserKeys) -> list[str]:
    """KEYS of the change-log scripts: the stream, the events hash, the erasure index."""
    return [keys.changes, keys.change_events, keys.change_index]


def index_args(erasure: Erasure) -> list[str]:
    """ARGV of :data:`ERASE_CANDIDATES_SCRIPT`: the clauses, or ``["*"]`` (every event)."""
    query = erasure_query(erasure)
    return ["*"] if query is None else query


def index_satisfies(terms: str, query: list[str]) -> bool:
    """Whether index terms (``" t1 t2 … "``) satisfy one clause of an :func:`index_args`
    query: the script's test, for the in-process backend."""
    if query == ["*"]:
        return True
    for clause in query:
        groups = [[f" {t} " for t in part.split("\t") if t] for part in clause.split("\n") if part]
        if all(any(t in terms for t in alts) for alts in groups):
            return True
    return False


def xrange_entries(entries: Any) -> list[tuple[Any, bytes]]:
    """``[(id, event JSON)]`` of an ``XRANGE`` reply."""
    return [(entry_id, (fields or {}).get(b"event", b"")) for entry_id, fields in entries or []]


def events_to_erase(entries: list[tuple[Any, bytes]], erasure: Erasure) -> list[Any]:
    """Stream ids of the change events (``[(id, event JSON)]``) that copy the forgotten text."""
    if erasure.keep_history:
        return []
    found = []
    for entry_id, raw in entries:
        try:
            event = ChangeEvent.model_validate_json(raw)
        except ValueError:
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
    "TEXT_KEYS_COMPLETE",
    "candidate_entries",
    "erasure_query",
    "event_keys",
    "index_args",
    "index_satisfies",
    "text_key_kinds",
    "xrange_entries",
    "erasure_texts",
    "events_to_erase",
    "messages_to_erase",
    "record_names",
    "snapshots_to_erase",
    "user_pattern",
]
