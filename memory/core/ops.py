"""The pure core's vocabulary: small typed write operations (the snapshot is :mod:`.snapshot`).

Every change of a user's memory is planned (by :class:`~.gate.PersistenceGate`) as a list of
the operations below, then committed by a backend in one transaction (DESIGN.md §2, §6).
Nothing here does I/O or imports redis-py: a backend encodes the operations into Redis
commands, and :func:`apply_ops` replays committed operations onto a cached
:class:`UserSnapshot` so that Penchant's own writes update the snapshot in place instead of
reloading it; :func:`apply_delta` patches it with the fields another process changed (read
from the user's revision log), sharing every unchanged record with the older snapshot.

Operation → what it changes (all keys of one user, one hash tag):

=====================  ============================================================
``PutPreference``      the active set (``prefs`` hash), record without its vector
``DeletePreference``   the active set and the vector of that id
``PutVector``          the ``vectors`` hash (``float32[dim]`` bytes)
``AppendEvent``        the capped change stream
``PutObservation``     reflect's observations
``DeleteObservation``  reflect's observations
``PutFlag``            the check-up's open flags
``DeleteFlag``         the check-up's open flags
``PushHistory``        the bounded history list and the last snapshot per kind
``AppendTranscript``   one thread's bounded transcript
``PutTombstone``       the bounded map of forgets and removed statements
``DeleteTombstone``    the bounded map of forgets and removed statements
=====================  ============================================================

The revision bump and the idempotency record are arguments of the commit, not operations:
a backend bumps the revision exactly when an operation touches the snapshot
(:func:`touches_snapshot`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, TypeVar

from ..model import ChangeEvent, Flag, HistorySnapshot, Preference
from .observations import Observation
from .tombstones import Tombstone

T = TypeVar("T")


@dataclass(frozen=True)
class PutPreference:
    """Write a preference record (its vector travels in :class:`PutVector`)."""

    preference: Preference


@dataclass(frozen=True)
class DeletePreference:
    """Remove a preference and its vector from the active set."""

    preference_id: str


@dataclass(frozen=True)
class PutVector:
    """Store a preference's embedding: ``vector`` is ``float32[dim]`` as raw bytes."""

    preference_id: str
    vector: bytes


@dataclass(frozen=True)
class AppendEvent:
    """Append a change event to the user's capped change stream."""

    event: ChangeEvent


@dataclass(frozen=True)
class PutObservation:
    """Write one of reflect's observations."""

    observation: Observation


@dataclass(frozen=True)
class DeleteObservation:
    """Remove an observation."""

    observation_id: str


@dataclass(frozen=True)
class PutFlag:
    """Write a check-up flag."""

    flag: Flag


@dataclass(frozen=True)
class DeleteFlag:
    """Remove a check-up flag."""

    flag_id: str


@dataclass(frozen=True)
class PushHistory:
    """Push a behaviour history snapshot (newest first, bounded; last write wins per kind)."""

    snapshot: HistorySnapshot


@dataclass(frozen=True)
class AppendTranscript:
    """Append one message ``{"role", "text", "at"}`` to a thread's bounded transcript."""

    thread_id: str
    entry: dict[str, Any]


@dataclass(frozen=True)
class PutTombstone:
    """Remember a forget or a removed statement (:mod:`.tombstones`)."""

    tombstone: Tombstone


@dataclass(frozen=True)
class DeleteTombstone:
    """Drop a tombstone (the map is bounded)."""

    key: str


Op = (
    PutPreference
    | DeletePreference
    | PutVector
    | AppendEvent
    | PutObservation
    | DeleteObservation
    | PutFlag
    | DeleteFlag
    | PushHistory
    | AppendTranscript
    | PutTombstone
    | DeleteTombstone
)
"""One small write operation of a plan."""

_SNAPSHOT_OPS = (
    PutPreference, DeletePreference, PutVector, PutObservation, DeleteObservation, PutFlag,
    DeleteFlag, PutTombstone, DeleteTombstone,
)  # fmt: skip


def touches_snapshot(ops: list[Op]) -> bool:
    """Whether committing ``ops`` changes the user's snapshot (and so bumps its revision)."""
    return any(isinstance(op, _SNAPSHOT_OPS) for op in ops)


@dataclass(frozen=True)
class Idempotency:
    """The idempotency record of one write.

    Attributes:
        key: ``sha256(caller's key) : sha256(payload)`` in hex, never truncated: the same key
            with another payload is another write (:func:`idempotency_for`).
        result: The write's encoded result, returned instead of writing again.
        ttl_seconds: How long the record is kept.
    """

    key: str
    result: str
    ttl_seconds: int


def idempotency_key(key: str, payload_digest: str) -> str:
    """The stored form of a caller's idempotency key bound to its payload.

    Args:
        key: The caller's key (a tool-call id, ``thread:turn``, a spool entry id), any length.
        payload_digest: SHA-256 hex digest of the write's canonical payload.

    Returns:
        ``"<sha256(key)>:<payload_digest>"`` (129 characters).
    """
    return f"{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()}:{payload_digest}"


def payload_digest(*parts: str) -> str:
    """SHA-256 hex digest of a write's canonical payload parts (joined with NUL)."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class CommitResult:
    """How one commit ended.

    Attributes:
        status: ``committed``; ``conflict`` (the revision moved: re-read, re-plan, retry);
            ``replayed`` (an idempotency record of the same write exists: nothing written).
        revision: The user's revision after the commit (``committed``) or the one found.
        replay: The stored result of the earlier write (``replayed``).
    """

    status: str
    revision: str = ""
    replay: str | None = None


__all__ = [
    "AppendEvent",
    "AppendTranscript",
    "CommitResult",
    "DeleteFlag",
    "DeleteObservation",
    "DeletePreference",
    "DeleteTombstone",
    "Idempotency",
    "Op",
    "PushHistory",
    "PutFlag",
    "PutObservation",
    "PutPreference",
    "PutTombstone",
    "PutVector",
    "idempotency_key",
    "payload_digest",
    "touches_snapshot",
]
