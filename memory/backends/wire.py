"""What the sync and async backends share: the Lua scripts, and how operations and snapshots
travel to and from Redis. Pure (no redis-py import): each backend only does the I/O.

A commit is one ``EVALSHA`` of :data:`COMMIT_SCRIPT` over the user's keys (one hash tag, so
one Redis Cluster slot): it returns a stored idempotency record if there is one, refuses the
commit when the user's revision is not the expected one (``conflict``: the caller re-reads,
re-plans and retries), and otherwise runs every queued command, bumps the revision, pushes
the changed snapshot fields onto the user's capped revision log (``revlog``) and stores the
idempotency record — atomically, since Redis runs a script without interleaving other
clients. A refused write (``OOM``, ``MISCONF`` on a full disk) is refused at the script's
first write, so a commit is stored entirely or not at all.

A read (:func:`read_steps`, driven by a backend) starts with one ``EVALSHA`` of
:data:`READ_SCRIPT`, which returns the revision, the last history snapshots and:

- nothing more when the caller's cached revision is still current;
- a **delta** when the revision log reaches back to the caller's revision: only the fields
  changed since, at the current revision (``HMGET``; nil = deleted), which
  :func:`~..core.apply_delta` patches into the cached snapshot — a few fields whatever the
  size of the store;
- the whole store (``HGETALL`` of preferences, vectors, observations, flags, tombstones) when
  it is small (at most :data:`INLINE_READ_FIELDS` fields);
- else ``page``: the store is read outside any script in ``HSCAN`` pages of
  :data:`PAGE_FIELDS`, so that no single command holds the server for long, and then made
  consistent with a delta from the revision read at the start (every field changed during
  the paging is re-read at the final revision). When the log does not reach back (more than
  :data:`REVLOG_MAX` commits meanwhile, or a writer of an older release that keeps no log),
  the paging runs again; after :data:`PAGE_TRIES` tries one atomic script reads it all.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ..core import (
    AppendEvent,
    AppendTranscript,
    DeleteFlag,
    DeleteObservation,
    DeletePreference,
    DeleteTombstone,
    Idempotency,
    Op,
    PushHistory,
    PutFlag,
    PutObservation,
    PutPreference,
    PutTombstone,
    PutVector,
    SnapshotDelta,
    UserSnapshot,
    apply_delta,
    event_terms,
)
from ..model import ChangeEvent, HistorySnapshot, Settings, UserKeys
from .erasure import (
    TEXT_KEYS_COMPLETE,
    candidate_entries,
    erasure_query,
    erasure_texts,
    event_keys,
    events_to_erase,
    index_args,
    index_satisfies,
    messages_to_erase,
    record_names,
    snapshots_to_erase,
    text_key_kinds,
    user_pattern,
    xrange_entries,
)
from .scripts import (
    CHANGES_SCRIPT,
    COMMIT_SCRIPT,
    COMPLETE_DUE_SCRIPT,
    DROP_EVENTS_SCRIPT,
    ERASE_CANDIDATES_SCRIPT,
    LEGACY_ERASE_CANDIDATES_SCRIPT,
    READ_SCRIPT,
    RELEASE_LEASE_SCRIPT,
    RENEW_LEASE_SCRIPT,
    REWRITE_STREAM_SCRIPT,
)

logger = logging.getLogger(__name__)

TRANSCRIPT_MAX = 500
"""Default messages kept per thread (``Settings.transcript_max_messages``)."""

REVLOG_MAX = 64
"""Commits kept in a user's revision log: a reader more than this many commits behind reads
the whole store (paged). An entry of a one-preference write is ~140 bytes (two 32-hex
revisions, the preference's and its vector's field), so a busy user's log holds ~9 KB; at
most 64 × :data:`LOG_FIELDS_MAX` fields (~700 KB)."""
LOG_FIELDS_MAX = 256
"""Most changed fields one log entry lists; a bigger commit (an import, a batch of more than
128 preferences) is logged as ``*``, "everything may have changed", and readers behind it
read the whole store."""
DELTA_FIELDS_MAX = 1024
"""Most fields one delta read fetches inside the script (at 512-d vectors, about 2 MB); a
reader further behind reads the whole store (paged)."""
INLINE_READ_FIELDS = 1000
"""Largest store (fields of the five snapshot hashes together) read whole in the script; at
500 preferences with 512-d vectors about 1.3 MB, ~1 ms of server time."""
PAGE_FIELDS = 200
"""``HSCAN`` ``COUNT`` of a paged read (at 512-d vectors about 400 KB a page)."""
PAGE_TRIES = 3
"""Paged reads tried before one atomic script reads the whole store."""

SNAPSHOT_HASHES = ("p", "v", "o", "f", "t")
"""Codes of the snapshot hashes in the revision log: prefs, vectors, observations, flags,
tombstones."""

NO_REVISION = "\0none"
"""Known revision that never matches: read the whole snapshot."""


class _Commands:
    """Commands of one commit, with the keys they touch numbered for the script."""

    def __init__(self, keys: UserKeys, idem_key: str) -> None:
        self.keys: list[str] = [keys.rev, idem_key, keys.revlog]
        self.argv: list[Any] = []
        self.count = 0

    def index(self, key: str) -> int:
        """The 1-based ``KEYS`` index of ``key``, declared on first use."""
        if key not in self.keys:
            self.keys.append(key)
        return self.keys.index(key) + 1

    def add(self, name: str, key: str, *args: Any) -> None:
        self.argv += [name, self.index(key), len(args), *args]
        self.count += 1

    def log(self, keys: UserKeys, cap: int, event: ChangeEvent) -> None:
        """One change event: the script's ``LOGADD`` (:data:`COMMIT_SCRIPT`) under a fresh
        token (64 random bits, unique within a log of at most ``cap`` events)."""
        events, index = self.index(keys.change_events), self.index(keys.change_index)
        self.add("LOGADD", keys.changes, events, index, cap, event_token(),
                 event.model_dump_json(), event_terms(event))  # fmt: skip


def event_token() -> str:
    """A change event's token: its field in the events hash and the erasure index."""
    return secrets.token_hex(8)


def encode_commit(
    keys: UserKeys,
    ops: list[Op],
    *,
    expected_revision: str | None,
    new_revision: str,
    idempotency: Idempotency | None,
    settings: Settings,
) -> tuple[list[str], list[Any]]:
    """``(KEYS, ARGV)`` of :data:`COMMIT_SCRIPT` for ``ops``.

    Args:
        keys: The user's keys.
        ops: The planned operations.
        expected_revision: Commit only at this revision; ``None``: whatever it is.
        new_revision: The revision to set (``""``: leave it, the ops touch no snapshot data).
        idempotency: The write's idempotency record, if any.
        settings: Caps of the change log and the history.
    """
    cmds = _Commands(keys, keys.idempotency(idempotency.key) if idempotency else keys.rev)
    for op in ops:
        _encode(cmds, keys, op, settings)
    if idempotency is not None and idempotency.carries_text:
        cmds.add("SADD", keys.text_keys, keys.idempotency(idempotency.key))
    head = [
        "guard" if expected_revision is not None else "free",
        expected_revision or "",
        new_revision,
        str(idempotency.ttl_seconds) if idempotency else "",
        idempotency.result if idempotency else "",
        cmds.count,
        changed_fields(ops),
        REVLOG_MAX,
    ]
    return cmds.keys, head + cmds.argv


def changed_fields(ops: list[Op]) -> str:
    """The revision log's body of a commit of ``ops``: the snapshot fields it changes.

    Returns:
        JSON ``[code, field, code, field, …]`` (codes of :data:`SNAPSHOT_HASHES`; a
        preference write names its vector too, so a reader re-reads both), or ``"*"`` when
        more than :data:`LOG_FIELDS_MAX` fields change.
    """
    found: dict[tuple[str, str], None] = {}
    for op in ops:
        for code, name in _fields_of(op):
            found[(code, name)] = None
    if len(found) > LOG_FIELDS_MAX:
        return "*"
    flat = [part for pair in found for part in pair]
    return json.dumps(flat, ensure_ascii=False, separators=(",", ":"))


def _fields_of(op: Op) -> tuple[tuple[str, str], ...]:
    if isinstance(op, (PutPreference, DeletePreference)):
        pid = op.preference.id if isinstance(op, PutPreference) else op.preference_id
        return (("p", pid), ("v", pid))
    if isinstance(op, PutVector):
        return (("v", op.preference_id),)
    if isinstance(op, PutObservation):
        return (("o", op.observation.id),)
    if isinstance(op, DeleteObservation):
        return (("o", op.observation_id),)
    if isinstance(op, PutFlag):
        return (("f", op.flag.id),)
    if isinstance(op, DeleteFlag):
        return (("f", op.flag_id),)
    if isinstance(op, PutTombstone):
        return (("t", op.tombstone.key),)
    if isinstance(op, DeleteTombstone):
        return (("t", op.key),)
    return ()


def _encode(cmds: _Commands, keys: UserKeys, op: Op, settings: Settings) -> None:
    if isinstance(op, PutPreference):
        cmds.add("HSET", keys.prefs, op.preference.id, op.preference.to_json())
    elif isinstance(op, PutVector):
        cmds.add("HSET", keys.vectors, op.preference_id, op.vector)
    elif isinstance(op, DeletePreference):
        cmds.add("HDEL", keys.prefs, op.preference_id)
        cmds.add("HDEL", keys.vectors, op.preference_id)
    elif isinstance(op, AppendEvent):
        cmds.log(keys, settings.change_log_max, op.event)
    elif isinstance(op, PutObservation):
        cmds.add("HSET", keys.observations, op.observation.id, op.observation.to_json())
    elif isinstance(op, DeleteObservation):
        cmds.add("HDEL", keys.observations, op.observation_id)
    elif isinstance(op, PutFlag):
        cmds.add("HSET", keys.flags, op.flag.id, op.flag.to_json())
    elif isinstance(op, DeleteFlag):
        cmds.add("HDEL", keys.flags, op.flag_id)
    elif isinstance(op, PutTombstone):
        cmds.add("HSET", keys.tombstones, op.tombstone.key, op.tombstone.to_json())
    elif isinstance(op, DeleteTombstone):
        cmds.add("HDEL", keys.tombstones, op.key)
    elif isinstance(op, PushHistory):
        raw = op.snapshot.model_dump_json()
        cmds.add("LPUSH", keys.history, raw)
        cmds.add("LTRIM", keys.history, 0, settings.history_max - 1)
        cmds.add("HSET", keys.history_last, op.snapshot.kind, raw)
    elif isinstance(op, AppendTranscript):
        key = keys.transcript(op.thread_id)
        cmds.add("RPUSH", key, json.dumps(op.entry, ensure_ascii=False, default=str))
        cmds.add("SADD", keys.text_keys, key)
        cmds.add("LTRIM", key, -settings.transcript_max_messages, -1)
        cmds.add("EXPIRE", key, settings.transcript_ttl_seconds)
    else:  # pragma: no cover - the Op union is closed
        raise TypeError(f"unknown operation {op!r}")


def read_keys(keys: UserKeys) -> list[str]:
    """KEYS of :data:`READ_SCRIPT`."""
    return [
        keys.rev, keys.prefs, keys.vectors, keys.observations, keys.flags, keys.history,
        keys.tombstones, keys.revlog,
    ]  # fmt: skip


def read_args(
    known: UserSnapshot | None, history_limit: int, inline_fields: int = INLINE_READ_FIELDS
) -> list[Any]:
    """ARGV of :data:`READ_SCRIPT`: the cached revision, how many history snapshots, the
    delta cap and the largest store read inline."""
    if known is None or not known.revision:
        return [NO_REVISION, max(0, history_limit), 0, inline_fields]
    return [known.revision, max(0, history_limit), DELTA_FIELDS_MAX, inline_fields]


@dataclass(frozen=True)
class ScriptRead:
    """A read step: one ``EVALSHA`` of :data:`READ_SCRIPT` over :func:`read_keys` with ``args``."""

    args: list[Any]


@dataclass(frozen=True)
class ScanPage:
    """A read step: ``HSCAN key cursor COUNT count``; the reply is redis-py's
    ``(next cursor, {field: value})``."""

    key: str
    cursor: int
    count: int


ReadStep = ScriptRead | ScanPage
ReadSteps = Generator[ReadStep, Any, tuple[UserSnapshot, list[HistorySnapshot]]]


@dataclass
class _Reply:
    revision: str
    history: list[HistorySnapshot]
    kind: str
    rest: list[Any]


def _decode(reply: list[Any]) -> _Reply:
    return _Reply(
        text(reply[0]), [HistorySnapshot.model_validate_json(r) for r in reply[1]],
        text(reply[2]), list(reply[3:]),
    )  # fmt: skip


def read_steps(
    keys: UserKeys,
    known: UserSnapshot | None,
    history_limit: int,
    *,
    page_fields: int = PAGE_FIELDS,
    inline_fields: int = INLINE_READ_FIELDS,
) -> ReadSteps:
    """The steps of one read (see the module's docstring); a backend answers each step.

    Args:
        keys: The user's keys.
        known: The caller's cached snapshot, if any (returned as is when still current,
            patched when behind; never modified).
        history_limit: History snapshots wanted, newest first.
        page_fields: ``HSCAN`` ``COUNT`` of a paged read.
        inline_fields: Largest store read whole by the script.

    Returns:
        ``(snapshot at the current revision, history)``.
    """
    first = _decode((yield ScriptRead(read_args(known, history_limit, inline_fields))))
    if first.kind == "current" and known is not None:
        return known, first.history
    if first.kind == "delta" and known is not None:
        return apply_delta(known, _delta_of(first.rest), first.revision), first.history
    if first.kind == "full":
        return _full_snapshot(keys, first.revision, first.rest), first.history
    reply = first
    for _try in range(PAGE_TRIES):
        raw = yield from _scan_all(keys, page_fields)
        since = [reply.revision, max(0, history_limit), DELTA_FIELDS_MAX, inline_fields]
        after = _decode((yield ScriptRead(since)))
        if after.kind == "full":  # the store shrank meanwhile: read whole, at one revision
            return _full_snapshot(keys, after.revision, after.rest), after.history
        if after.kind in ("current", "delta"):
            if after.kind == "delta":
                _patch(raw, _delta_of(after.rest))
            return _raw_snapshot(keys, after.revision, raw), after.history
        reply = after
    logger.warning(
        "user %r changed too fast for %d paged reads; reading it in one script",
        keys.user_id, PAGE_TRIES,
    )  # fmt: skip
    whole = _decode((yield ScriptRead([NO_REVISION, history_limit, 0, -1])))
    return _full_snapshot(keys, whole.revision, whole.rest), whole.history


def _scan_all(keys: UserKeys, page_fields: int) -> Generator[ReadStep, Any, dict[str, dict]]:
    raw: dict[str, dict[str, Any]] = {}
    for code, key in zip(SNAPSHOT_HASHES, _hash_keys(keys), strict=True):
        found: dict[str, Any] = {}
        cursor = 0
        while True:
            cursor, page = yield ScanPage(key, cursor, page_fields)
            found.update((text(k), v) for k, v in page.items())
            if not cursor:
                break
        raw[code] = found
    return raw


def _hash_keys(keys: UserKeys) -> tuple[str, ...]:
    return keys.prefs, keys.vectors, keys.observations, keys.flags, keys.tombstones


def _delta_of(rest: list[Any]) -> SnapshotDelta:
    """A ``delta`` reply's ``code, fields, values`` triples as a :class:`SnapshotDelta`."""
    parts: dict[str, dict[str, bytes | None]] = {code: {} for code in SNAPSHOT_HASHES}
    for i in range(0, len(rest), 3):
        code, fields, values = text(rest[i]), rest[i + 1], rest[i + 2]
        parts[code].update(
            (text(f), None if v is None else bytes(v)) for f, v in zip(fields, values, strict=True)
        )
    return SnapshotDelta(
        prefs=parts["p"], vectors=parts["v"], observations=parts["o"], flags=parts["f"],
        tombstones=parts["t"],
    )  # fmt: skip


def _patch(raw: dict[str, dict[str, Any]], delta: SnapshotDelta) -> None:
    for code, changed in zip(SNAPSHOT_HASHES, delta.parts(), strict=True):
        for name, value in changed.items():
            if value is None:
                raw[code].pop(name, None)
            else:
                raw[code][name] = value


def _full_snapshot(keys: UserKeys, revision: str, rest: list[Any]) -> UserSnapshot:
    raw = {code: _pairs(part) for code, part in zip(SNAPSHOT_HASHES, rest, strict=True)}
    return _raw_snapshot(keys, revision, raw)


def _raw_snapshot(keys: UserKeys, revision: str, raw: dict[str, dict[str, Any]]) -> UserSnapshot:
    return UserSnapshot.from_records(
        keys.user_id, revision, raw["p"], {k: bytes(v) for k, v in raw["v"].items()},
        raw["o"], raw["f"], raw["t"],
    )  # fmt: skip


def _pairs(flat: list[Any]) -> dict[str, Any]:
    return {text(flat[i]): flat[i + 1] for i in range(0, len(flat), 2)}


def decode_commit(reply: list[Any]) -> tuple[str, str]:
    """``(status, value)`` of a commit reply: revision, or the stored idempotency result."""
    return text(reply[0]), text(reply[1])


def decode_changes(raw: list[Any]) -> list[ChangeEvent]:
    """Change events of a :data:`CHANGES_SCRIPT` reply (event JSON, newest first)."""
    return [ChangeEvent.model_validate_json(r) for r in raw]


def decode_transcript(raw: list[Any]) -> list[dict[str, Any]]:
    """Messages of a transcript ``LRANGE`` reply."""
    return [json.loads(r) for r in raw]


def text(value: bytes | str) -> str:
    """A reply value as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


__all__ = [
    "CHANGES_SCRIPT",
    "COMMIT_SCRIPT",
    "DROP_EVENTS_SCRIPT",
    "LEGACY_ERASE_CANDIDATES_SCRIPT",
    "event_keys",
    "event_token",
    "index_args",
    "index_satisfies",
    "COMPLETE_DUE_SCRIPT",
    "ERASE_CANDIDATES_SCRIPT",
    "REWRITE_STREAM_SCRIPT",
    "TEXT_KEYS_COMPLETE",
    "candidate_entries",
    "erasure_query",
    "text_key_kinds",
    "xrange_entries",
    "DELTA_FIELDS_MAX",
    "INLINE_READ_FIELDS",
    "LOG_FIELDS_MAX",
    "PAGE_FIELDS",
    "PAGE_TRIES",
    "READ_SCRIPT",
    "REVLOG_MAX",
    "SNAPSHOT_HASHES",
    "ReadStep",
    "ReadSteps",
    "ScanPage",
    "ScriptRead",
    "RELEASE_LEASE_SCRIPT",
    "RENEW_LEASE_SCRIPT",
    "TRANSCRIPT_MAX",
    "decode_changes",
    "decode_commit",
    "changed_fields",
    "decode_transcript",
    "encode_commit",
    "erasure_texts",
    "events_to_erase",
    "messages_to_erase",
    "record_names",
    "snapshots_to_erase",
    "user_pattern",
    "read_args",
    "read_keys",
    "read_steps",
    "text",
]
