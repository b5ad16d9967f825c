"""Redis key names (DESIGN.md §5).

Every key of one user shares the hash tag ``{<encoded user>}`` so that the
user's keys live in one Redis Cluster slot and a gate write is one
transaction. User ids are percent-encoded: only ``A-Z a-z 0-9 _ . -`` pass
through, so no id can contain ``*``, ``:``, ``{``, ``}``, spaces or non-ASCII
and reach another user's keys; the encoding is injective, so two ids never
share keys.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

from .errors import InvalidInputError

PREFIX = "penchant"
META_KEY = f"{PREFIX}:meta"
USERS_KEY = f"{PREFIX}:users"
CHECKUP_DUE_KEY = f"{PREFIX}:checkup:due"
"""ZSET encoded user id → when its memory check-up is due (epoch milliseconds)."""
MAX_USER_ID_CHARS = 128

_SAFE = "_.-"
_ENCODED_RE = re.compile(r"^[A-Za-z0-9_.%-]+$")
_DIGEST_KEY_RE = re.compile(r"^[0-9a-f]{64}(?::[0-9a-f]{64})?$")


def encode_user_id(user_id: str) -> str:
    """Encode a user id for use inside a key.

    Args:
        user_id: Any non-empty string of at most 128 characters.

    Returns:
        The percent-encoded id (``"alice"`` → ``"alice"``,
        ``"a:b*"`` → ``"a%3Ab%2A"``, ``"张三"`` → ``"%E5%BC%A0%E4%B8%89"``).

    Raises:
        InvalidInputError: Empty, too long, or containing control, invisible,
            surrogate or line/paragraph-separator characters.
    """
    if not isinstance(user_id, str) or not user_id.strip():
        raise InvalidInputError("user id is empty; pass a non-empty id such as 'alice'")
    if len(user_id) > MAX_USER_ID_CHARS:
        raise InvalidInputError(
            f"user id is {len(user_id)} characters; the limit is {MAX_USER_ID_CHARS}"
        )
    if any(unicodedata.category(c)[0] in "CZ" and c != " " for c in user_id):
        raise InvalidInputError(
            f"user id {ascii(user_id)} contains a control, invisible or separator character"
        )
    return quote(user_id, safe=_SAFE).replace("~", "%7E")


def validate_user_id(user_id: str) -> str:
    """Check that ``user_id`` can be used as a user id, before any work is done for it.

    Returns:
        ``user_id`` unchanged.

    Raises:
        InvalidInputError: As :func:`encode_user_id`: empty, too long, or containing
            control, invisible, surrogate or separator characters.
    """
    encode_user_id(user_id)
    return user_id


def decode_user_id(encoded: str) -> str:
    """Inverse of :func:`encode_user_id`."""
    if not _ENCODED_RE.match(encoded):
        raise InvalidInputError(f"{encoded!r} is not an encoded user id")
    return unquote(encoded)


@dataclass(frozen=True)
class UserKeys:
    """All key names of one user.

    Attributes:
        prefs: HASH preference id → preference JSON (the active set).
        vectors: HASH preference id → float32 embedding bytes.
        rev: STRING counter bumped by every write; gate transactions WATCH it.
        changes: STREAM of the change log's order, capped: one entry per event, whose field
            ``ek`` is the event's token (no text; an older release's entries hold the event
            JSON inline, field ``event``).
        change_events: HASH event token → change event JSON (its text lives here, so that a
            forget's ``HDEL`` leaves no byte of it behind, unlike ``XDEL`` on a stream).
        change_index: HASH event token → ``"<stream id> <index terms>"`` (the erasure
            index, :func:`~..core.erasure_index.event_terms`; no text).
        history: LIST of recent history snapshots (newest first), capped.
        history_last: HASH snapshot kind → latest snapshot JSON.
        transcripts: prefix of per-thread LIST keys.
        observations: HASH observation id → observation JSON (reflect's synthesised statements).
        flags: HASH flag id → flag JSON (the check-up's findings awaiting confirmation).
        checkup_lease: STRING lease token of the worker running this user's check-up (``PX``).
        revlog: LIST of the last commits' changed snapshot fields, newest first, capped
            (``new revision \\n previous revision \\n JSON [hash code, field, ...]``): lets
            a reader with an older revision read only what changed (:mod:`.backends.wire`).
    """

    user_id: str
    tag: str

    @classmethod
    def for_user(cls, user_id: str) -> UserKeys:
        """Build the key set for ``user_id`` (validated and encoded)."""
        return cls(user_id=user_id, tag=f"{PREFIX}:{{{encode_user_id(user_id)}}}")

    @property
    def prefs(self) -> str:
        return f"{self.tag}:prefs"

    @property
    def vectors(self) -> str:
        return f"{self.tag}:vectors"

    @property
    def rev(self) -> str:
        return f"{self.tag}:rev"

    @property
    def changes(self) -> str:
        return f"{self.tag}:changes"

    @property
    def change_events(self) -> str:
        return f"{self.tag}:changes:events"

    @property
    def change_index(self) -> str:
        return f"{self.tag}:changes:ix"

    @property
    def history(self) -> str:
        return f"{self.tag}:history"

    @property
    def history_last(self) -> str:
        return f"{self.tag}:history:last"

    @property
    def observations(self) -> str:
        return f"{self.tag}:observations"

    @property
    def flags(self) -> str:
        return f"{self.tag}:flags"

    @property
    def tombstones(self) -> str:
        return f"{self.tag}:tombstones"

    @property
    def revlog(self) -> str:
        return f"{self.tag}:revlog"

    @property
    def checkup_lease(self) -> str:
        return f"{self.tag}:lease:checkup"

    def idempotency(self, key: str) -> str:
        """STRING remembering the result of a write with this idempotency key.

        ``key`` is the digest form of :func:`~.ops.idempotency_key` (never truncated); any
        other key is hashed here, whole.
        """
        if not _DIGEST_KEY_RE.match(key):
            key = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        return f"{self.tag}:idem:{key}"

    @property
    def text_keys(self) -> str:
        """SET of the user's keys outside the snapshot that may copy its words: transcripts
        and idempotency records that hold a result. A forget scrubs these (no ``SCAN`` of
        the keyspace); the member ``*`` says the set is complete (older releases kept none)."""
        return f"{self.tag}:textkeys"

    def transcript(self, thread_id: str) -> str:
        """LIST of one conversation thread's messages (a long thread id is hashed, whole)."""
        encoded = quote(thread_id, safe=_SAFE)
        if len(encoded) > 200:
            encoded = "sha256-" + hashlib.sha256(encoded.encode()).hexdigest()
        return f"{self.tag}:thread:{encoded}"

    def all_fixed(self) -> list[str]:
        """Every fixed-name key of the user (for export, delete and tests)."""
        return [
            self.prefs,
            self.vectors,
            self.rev,
            self.changes,
            self.change_events,
            self.change_index,
            self.history,
            self.history_last,
            self.observations,
            self.flags,
            self.tombstones,
            self.revlog,
        ]

CACHE_NAME = "penchant:embcache"
"""Key prefix of the embeddings cache (the embeddings' private cache; MiniLM and OpenAI)."""
CACHE_INDEX_KEY = f"{CACHE_NAME}:index"
"""ZSET cache key → when it was stored (epoch seconds): the bound's eviction order."""
CACHE_MODELS_KEY = f"{CACHE_NAME}:models"
"""SET of the model names with cached entries (a forget drops a text's entry for each)."""


def cache_entry_id(model_name: str, content: str) -> str:
    """The cache's entry id: ``sha256("penchant-embcache\0<model>\0<text>")`` (64 hex), so
    no key or value holds the embedded text."""
    raw = f"penchant-embcache\0{model_name}\0{content}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()


def cache_keys(texts: Sequence[str], models: Sequence[str]) -> list[str]:
    """Keys of the cached embeddings of ``texts`` under each of ``models`` (for erasure)."""
    return [f"{CACHE_NAME}:{cache_entry_id(m, t)}" for m in models for t in texts]


__all__ = [
    "CACHE_INDEX_KEY",
    "CACHE_MODELS_KEY",
    "CACHE_NAME",
    "CHECKUP_DUE_KEY",
    "MAX_USER_ID_CHARS",
    "META_KEY",
    "PREFIX",
    "USERS_KEY",
    "UserKeys",
    "cache_entry_id",
    "cache_keys",
    "decode_user_id",
    "encode_user_id",
    "validate_user_id",
]
