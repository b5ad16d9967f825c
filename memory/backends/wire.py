"""What the sync and async backends share: the Lua scripts, and how operations and snapshots
travel to and from Redis. Pure (no redis-py import): each backend only does the I/O.

A commit is one ``EVALSHA`` of :data:`COMMIT_SCRIPT` over the user's keys (one hash tag, so
one Redis Cluster slot): it returns a stored idempotency record if there is one, refuses the
commit when the user's revision is not the expected one (``conflict``: the caller re-reads,
re-plans and retries), and otherwise runs every queued command, bumps the revision and stores
the idempotency record — atomically, since Redis runs a script without interleaving other
clients. A refused write (``OOM``, ``MISCONF`` on a full disk) is refused at the script's
first write, so a commit is stored entirely or not at all.

A read is one ``EVALSHA`` of :data:`READ_SCRIPT`: the revision, the last history snapshots
and, unless the caller's cached revision is still current, the user's preferences, vectors,
observations, flags and tombstones, all at one revision.
"""

from __future__ import annotations

import json
from typing import Any

from ..keys import UserKeys
from ..ops import (
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
    UserSnapshot,
)
from ..records import ChangeEvent, HistorySnapshot
from ..settings import Settings
from ..tombstones import Erasure

TRANSCRIPT_MAX = 500
"""Default messages kept per thread (``Settings.transcript_max_messages``)."""

COMMIT_SCRIPT = """
local idem_ttl = ARGV[4]
if idem_ttl ~= '' then
  local prev = redis.call('GET', KEYS[2])
  if prev then return {'replayed', prev} end
end
local cur = redis.call('GET', KEYS[1]) or ''
if ARGV[1] == 'guard' and cur ~= ARGV[2] then return {'conflict', cur} end
local i = 7
for _ = 1, tonumber(ARGV[6]) do
  local key = KEYS[tonumber(ARGV[i + 1])]
  local n = tonumber(ARGV[i + 2])
  redis.call(ARGV[i], key, unpack(ARGV, i + 3, i + 2 + n))
  i = i + 3 + n
end
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[1], ARGV[3])
  cur = ARGV[3]
end
if idem_ttl ~= '' then redis.call('SET', KEYS[2], ARGV[5], 'EX', idem_ttl) end
return {'committed', cur}
"""

READ_SCRIPT = """
local cur = redis.call('GET', KEYS[1]) or ''
local n = tonumber(ARGV[2])
local hist = {}
if n > 0 then hist = redis.call('LRANGE', KEYS[6], 0, n - 1) end
if cur ~= '' and cur == ARGV[1] then return {cur, hist} end
return {cur, hist, redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]),
        redis.call('HGETALL', KEYS[4]), redis.call('HGETALL', KEYS[5]),
        redis.call('HGETALL', KEYS[7])}
"""

RELEASE_LEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
RENEW_LEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
COMPLETE_DUE_SCRIPT = """
local score = redis.call('zscore', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('zrem', KEYS[1], ARGV[1])
end
return 0
"""
"""Lease and check-up schedule scripts: compare-and-delete, compare-and-extend,
remove-if-unchanged (the coordination keys are global, outside any commit)."""

NO_REVISION = "\0none"
"""Known revision that never matches: read the whole snapshot."""


class _Commands:
    """Commands of one commit, with the keys they touch numbered for the script."""

    def __init__(self, keys: UserKeys, idem_key: str) -> None:
        self.keys: list[str] = [keys.rev, idem_key]
        self.argv: list[Any] = []
        self.count = 0

    def add(self, name: str, key: str, *args: Any) -> None:
        if key not in self.keys:
            self.keys.append(key)
        self.argv += [name, self.keys.index(key) + 1, len(args), *args]
        self.count += 1


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
    head = [
        "guard" if expected_revision is not None else "free",
        expected_revision or "",
        new_revision,
        str(idempotency.ttl_seconds) if idempotency else "",
        idempotency.result if idempotency else "",
        cmds.count,
    ]
    return cmds.keys, head + cmds.argv


def _encode(cmds: _Commands, keys: UserKeys, op: Op, settings: Settings) -> None:
    if isinstance(op, PutPreference):
        cmds.add("HSET", keys.prefs, op.preference.id, op.preference.to_json())
    elif isinstance(op, PutVector):
        cmds.add("HSET", keys.vectors, op.preference_id, op.vector)
    elif isinstance(op, DeletePreference):
        cmds.add("HDEL", keys.prefs, op.preference_id)
        cmds.add("HDEL", keys.vectors, op.preference_id)
    elif isinstance(op, AppendEvent):
        cmds.add("XADD", keys.changes, "MAXLEN", settings.change_log_max, "*", "event",
                 op.event.model_dump_json())
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
        cmds.add("LTRIM", key, -settings.transcript_max_messages, -1)
        cmds.add("EXPIRE", key, settings.transcript_ttl_seconds)
    else:  # pragma: no cover - the Op union is closed
        raise TypeError(f"unknown operation {op!r}")


def read_keys(keys: UserKeys) -> list[str]:
    """KEYS of :data:`READ_SCRIPT`."""
    return [
        keys.rev, keys.prefs, keys.vectors, keys.observations, keys.flags, keys.history,
        keys.tombstones,
    ]  # fmt: skip


def read_args(known: UserSnapshot | None, history_limit: int) -> list[Any]:
    """ARGV of :data:`READ_SCRIPT`: the cached revision and how many history snapshots."""
    return [known.revision if known and known.revision else NO_REVISION, max(0, history_limit)]


def decode_read(
    keys: UserKeys, reply: list[Any], known: UserSnapshot | None
) -> tuple[UserSnapshot, list[HistorySnapshot]]:
    """The snapshot (``known`` itself when still current) and the history of a read reply."""
    revision = text(reply[0])
    history = [HistorySnapshot.model_validate_json(r) for r in reply[1]]
    if len(reply) == 2 and known is not None:
        return known, history
    prefs, vectors, observations, flags, tombstones = (_pairs(part) for part in reply[2:7])
    snapshot = UserSnapshot.from_records(
        keys.user_id, revision, prefs, {k: bytes(v) for k, v in vectors.items()},
        observations, flags, tombstones,
    )  # fmt: skip
    return snapshot, history


def _pairs(flat: list[Any]) -> dict[str, Any]:
    return {text(flat[i]): flat[i + 1] for i in range(0, len(flat), 2)}


def decode_commit(reply: list[Any]) -> tuple[str, str]:
    """``(status, value)`` of a commit reply: revision, or the stored idempotency result."""
    return text(reply[0]), text(reply[1])


def decode_changes(entries: list[Any]) -> list[ChangeEvent]:
    """Change events of an ``XREVRANGE`` reply."""
    return [ChangeEvent.model_validate_json(fields[b"event"]) for _id, fields in entries]


def decode_transcript(raw: list[Any]) -> list[dict[str, Any]]:
    """Messages of a transcript ``LRANGE`` reply."""
    return [json.loads(r) for r in raw]


# -- erasure: what a forget scrubs and what delete-user finds (pure; the backends do the I/O) -----


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
    """The embedded texts (:func:`~..embeddings.embedding_text`) of raw preference records."""
    from ..embeddings.base import embedding_text

    texts = []
    for raw in prefs.values():
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        texts.append(embedding_text(str(record.get("content", "")), record.get("category")))
    return texts


def text(value: bytes | str) -> str:
    """A reply value as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


__all__ = [
    "COMMIT_SCRIPT",
    "COMPLETE_DUE_SCRIPT",
    "READ_SCRIPT",
    "RELEASE_LEASE_SCRIPT",
    "RENEW_LEASE_SCRIPT",
    "TRANSCRIPT_MAX",
    "decode_changes",
    "decode_commit",
    "decode_read",
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
    "text",
]
