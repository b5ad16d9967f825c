"""Pydantic records: what Penchant stores and what its operations return.

Each record owns its encoding (``to_json`` / ``from_json``); the storage layer
never builds record dictionaries by hand. Layouts follow DESIGN.md §4.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from .echo import EchoedText, shorten

if TYPE_CHECKING:
    from .outcomes import Held, ReplayedWrite

SCHEMA_VERSION = 1
"""Layout version of every record written by this release (``penchant:meta``)."""

Polarity = Literal["like", "dislike"]
Source = Literal["tool", "rule", "summary", "import", "reflect"]
ChangeOp = Literal[
    "created",
    "merged",
    "superseded",
    "forgotten",
    "rejected",
    "imported",
    # reflect's observations (core/observations.py) and the check-up's flags (model/flags.py)
    "observed",
    "reinforced",
    "weakened",
    "contradicted",
    "dropped",
    "flagged",
    "unflagged",
    "reembedded",
    # held for the user's confirmation (model/flags.py, issue 19)
    "held",
    "confirmed",
    "dismissed",
]

_CATEGORY_RE = re.compile(r"^[^\W\d_][\w-]{0,31}$")

MAX_CLOCK_SKEW = timedelta(days=1)
"""How far ahead of now (UTC) a given time may be: a clock a little fast is tolerated, a
statement dated in the future is refused (it would outrank every later statement)."""


def describe_validation_error(exc: Any, *, where: str = "") -> str:
    """One line for a pydantic ``ValidationError``: the field, the value given and the rule.

    Example: ``preferences.2.polarity = 'meh': Input should be 'like' or 'dislike'``.

    Args:
        exc: The ``pydantic.ValidationError``.
        where: A prefix such as ``"import document"``.

    Returns:
        The first error, one line; the value shortened (:func:`shorten`).
    """
    errors = exc.errors()
    first = errors[0] if errors else {}
    field = ".".join(str(p) for p in first.get("loc", ())) or "input"
    if getattr(exc, "title", "") == "Settings" and field.isidentifier():
        field = f"PENCHANT_{field.upper()}"  # the environment variable the user set
    message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    given = ""  # our own validators' messages (value_error) name the value already
    if "input" in first and first.get("type") not in ("missing", "extra_forbidden",
                                                      "value_error"):
        value = first["input"]
        if not isinstance(value, dict | list):
            given = f" = {shorten(repr(value))}"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    line = " ".join(f"{field}{given}: {message}{more}".split())
    return f"{where}: {line}" if where else line


def check_unit_interval(value: float) -> float:
    """Refuse a value outside 0–1, NaN and infinity included (a NaN compares false to both
    bounds, so ``ge``/``le`` alone would call it "not ≤ 1").

    Raises:
        ValueError: Naming the value and the range (pydantic adds the field).
    """
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"must be a number from 0 to 1, got {value!r}")
    return value


def check_not_future(value: datetime | None) -> datetime | None:
    """Make ``value`` aware (naive means UTC) and refuse a time after now + :data:`MAX_CLOCK_SKEW`.

    Raises:
        ValueError: Naming the time and the latest allowed (pydantic adds the field).
    """
    if value is None:
        return None
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    latest = utcnow() + MAX_CLOCK_SKEW
    if aware > latest:
        raise ValueError(
            f"{aware.isoformat()} is in the future; times may be at most "
            f"{MAX_CLOCK_SKEW.days} day ahead of now (UTC), i.e. until {latest:%Y-%m-%d %H:%M}"
        )
    return aware


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


def new_id() -> str:
    """Return a fresh preference id (32 hex characters)."""
    return uuid.uuid4().hex


def normalise_category(value: str | None, *, field: str = "category") -> str:
    """Lower-case a category (or history kind) and check its shape.

    Args:
        value: A category such as ``"Food"`` or ``"饮料"``; empty or ``None``
            means ``"other"``.
        field: Name of the field, for the error message.

    Returns:
        The category as a lower-case slug (letters of any script allowed).

    Raises:
        ValueError: The value is not 1–32 letters, digits, ``-`` or ``_``
            starting with a letter.
    """
    text = (value or "other").strip().casefold().replace(" ", "_")
    if not _CATEGORY_RE.match(text):
        raise ValueError(
            f"{field} {value!r} is not a short slug; use 1-32 letters, digits, '-' or '_' "
            "starting with a letter, e.g. 'material', 'food', 'brand', 'style', 'other'"
        )
    return text


MAX_MENTION_COUNT = 1_000_000
"""Largest mention count a write (an import) may state (once a minute for a year: 525,600)."""


class PreferenceCandidate(BaseModel):
    """A structured preference on its way into the persistence gate.

    Attributes:
        content: The preference as a short sentence in the user's words.
        polarity: ``"like"`` or ``"dislike"``.
        keywords: Objects the preference is about (``["plastic"]``); the gate
            normalises them and derives them from ``content`` when empty.
        category: Kind of object (``material``, ``food``, ``brand`` …).
        confidence: Belief in the preference, 0–1.
        source: Which write path produced it.
        slot: A single-valued slot the preference fills (``"favourite author"``,
            ``"current phone"``): a newer value in the same slot supersedes the
            older one whatever its object (DESIGN.md §6.3). ``None``: the gate
            derives it from content ("my favourite X is Y"), else there is none.
        protected: An allergy or intolerance, a hard constraint that a like of a
            broader or overlapping object never supersedes. ``None``: the gate
            derives it from content (``allergic to``, ``intolerant``, ``过敏``).
        at: When the user said it (UTC); ``None``: now. A spooled write keeps its
            original time, so an older statement never beats a newer one.
        mention_count: A restored record's count (import); ``None``: 1.
        created_at: A restored record's creation time (import); ``None``: ``at``.
        last_seen_at: A restored record's last mention (import); ``None``: ``at``.
        said: The user's sentence rule capture read the candidate from, never stored: the
            gate screens it too, by its words and its meaning, since capture rewrites the
            sentence ("I'd love to be called Overseer" → ``favourite form of address is
            Overseer``) and the rewrite can hide what the sentence asks. ``None``: the
            content is the user's words.
    """

    model_config = ConfigDict(extra="forbid")

    content: str
    polarity: Polarity
    keywords: list[str] = Field(default_factory=list)
    category: str = "other"
    confidence: float = 0.7
    source: Source = "tool"
    slot: str | None = None
    protected: bool | None = None
    at: datetime | None = None
    mention_count: int | None = Field(default=None, ge=1, le=MAX_MENTION_COUNT)
    created_at: datetime | None = None
    last_seen_at: datetime | None = None
    said: str | None = None

    @field_validator("category", mode="before")
    @classmethod
    def _category(cls, value: Any) -> str:
        return normalise_category(value if isinstance(value, str) or value is None else str(value))

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, value: float) -> float:
        return check_unit_interval(value)

    @field_validator("at", "created_at", "last_seen_at")
    @classmethod
    def _aware_times(cls, value: datetime | None) -> datetime | None:
        return check_not_future(value)


class Preference(BaseModel):
    """An active preference of one user (DESIGN.md §4).

    Attributes:
        embedding_model: Name of the model that produced ``embedding``, if any.
        embedding_dim: Length of ``embedding`` (e.g. 384), 0 when absent.
        embedding: ``float32[embedding_dim]`` as raw bytes; never serialised
            into JSON outputs (see :meth:`public_dict`).
        slot: The normalised single-valued slot it fills (``"favorite author"``), if any.
        protected: An allergy or intolerance: injected as a hard constraint and never
            superseded by a like, only by an explicit retraction ("no longer allergic to X").
    """

    model_config = ConfigDict(extra="ignore")

    id: str = Field(default_factory=new_id)
    user_id: str
    content: str
    polarity: Polarity
    category: str = "other"
    keywords: list[str] = Field(default_factory=list)
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    mention_count: int = Field(default=1, ge=1)
    source: Source = "tool"
    slot: str | None = None
    protected: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    last_seen_at: datetime = Field(default_factory=utcnow)
    embedding_model: str | None = None
    embedding_dim: int = 0
    embedding: bytes | None = Field(default=None, exclude=True, repr=False)
    schema_version: int = SCHEMA_VERSION

    @model_validator(mode="before")
    @classmethod
    def _protected_of_older_records(cls, data: Any) -> Any:
        """Records stored before ``protected`` existed: an allergy is still protected."""
        if isinstance(data, dict) and "protected" not in data and "content" in data:
            from .protection import is_protected

            data = {**data, "protected": is_protected(
                str(data["content"]), str(data.get("polarity", "")))}
        return data

    def to_json(self) -> str:
        """Serialise everything but the embedding bytes (stored separately)."""
        return self.model_dump_json(exclude={"embedding"})

    @classmethod
    def from_json(cls, raw: str | bytes, embedding: bytes | None = None) -> Preference:
        """Rebuild a preference from :meth:`to_json` output plus its vector bytes."""
        pref = cls.model_validate_json(raw)
        pref.embedding = embedding
        return pref

    def public_dict(self) -> dict[str, Any]:
        """The JSON-ready fields of DESIGN.md §4, without the embedding."""
        return self.model_dump(mode="json", exclude={"embedding"})


MAX_SUMMARY_CHARS = 500
"""Longest history snapshot summary, in characters."""
MAX_PAYLOAD_BYTES = 16_384
"""Largest history snapshot payload, as UTF-8 JSON."""


def check_payload(payload: dict[str, Any], *, where: str = "history payload") -> None:
    """Refuse a history payload nested too deeply (:mod:`.payload`), not JSON or too large.

    Raises:
        InvalidInputError: Naming ``where``, the depth or size, and the limit."""
    from .errors import InvalidInputError
    from .payload import MAX_PAYLOAD_DEPTH, payload_depth

    depth = payload_depth(payload)
    if depth > MAX_PAYLOAD_DEPTH:
        raise InvalidInputError(
            f"{where}: nested more than {MAX_PAYLOAD_DEPTH} levels deep (lists and objects); "
            f"the limit is {MAX_PAYLOAD_DEPTH}"
        )
    try:
        size = len(json.dumps(payload, ensure_ascii=False).encode("utf-8", "strict"))
    except (TypeError, ValueError, UnicodeError, RecursionError) as exc:
        raise InvalidInputError(f"{where}: not JSON-serialisable text ({exc})") from exc
    if size > MAX_PAYLOAD_BYTES:
        raise InvalidInputError(f"{where}: {size} bytes; the limit is {MAX_PAYLOAD_BYTES}")


class HistorySnapshot(BaseModel):
    """What the user last *did* (search, view, choice, purchase …), never a preference.

    Attributes:
        kind: Kind of action, a short slug such as ``"search"``.
        summary: One line describing the action.
        payload: Free-form JSON-serialisable details (query, product id …).
        at: When it happened, UTC.
        unverified: Why the summary is kept but never injected into a prompt: it may be an
            instruction to the assistant (the band below the refusal threshold, issue 19);
            ``None`` for an ordinary snapshot.
    """

    model_config = ConfigDict(extra="ignore")

    kind: str
    summary: str
    payload: dict[str, Any] = Field(default_factory=dict)
    at: datetime = Field(default_factory=utcnow)
    unverified: str | None = None

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, value: Any) -> str:
        return normalise_category(str(value) if value is not None else None, field="kind")

    @field_validator("at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        aware = check_not_future(value)
        assert aware is not None
        return aware


class ChangeEvent(BaseModel):
    """One entry of a user's bounded change log.

    Attributes:
        op: What happened.
        before: The preference before the change (merged, superseded, forgotten).
        after: The preference after the change (created, merged, imported).
        reason: Why, in words (e.g. the rejection reason or the superseding id).
        replaced_by: For ``superseded``, the id of the preference that won.
        digest: A tombstone event (a forgotten preference, a retired observation, unless
            ``Settings.keep_full_history``): the salted digest of the removed content
            (:func:`~.tombstones.content_digest`), whose text the event does not carry.
    """

    op: ChangeOp
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    reason: str = ""
    replaced_by: str | None = None
    source: str = ""
    at: datetime = Field(default_factory=utcnow)
    content: str | None = None
    digest: str | None = None


class Rejection(BaseModel):
    """A candidate the gate refused, and why.

    Attributes:
        content: The refused text as echoed: hidden characters named, not kept
            and shortened (:func:`~.echo.echoed`), so a 10 MB content never reaches stdout
            or the change log.
        reason: Why, in words.
    """

    content: EchoedText
    reason: str


class Superseded(BaseModel):
    """A preference removed from the active set because a newer one contradicts it."""

    preference: Preference
    replaced_by: str

    def public_dict(self) -> dict[str, Any]:
        """JSON-ready form: the old preference's fields plus ``replaced_by``."""
        return {**self.preference.public_dict(), "replaced_by": self.replaced_by}


class GateResult(BaseModel):
    """Exactly what one persistence-gate call did.

    Attributes:
        created: Preferences newly added to the active set.
        merged: Existing preferences that absorbed a candidate (after state).
        superseded: Preferences removed as contradicted, with the winner's id.
        rejected: Candidates refused, with reasons; nothing of them was stored.
        deferred: Contents saved to the local spool because Redis was
            unreachable; they are written through the gate on reconnect.
        replayed: What became of earlier spooled writes of this process that this call
            replayed first (oldest first): stored, merged, or refused with the reason.
        held: Candidates held for the user's confirmation (not stored as preferences,
            never recalled nor injected) because they may be instructions to the assistant.
        unchanged: True when the call stored no preference.
    """

    created: list[Preference] = Field(default_factory=list)
    merged: list[Preference] = Field(default_factory=list)
    superseded: list[Superseded] = Field(default_factory=list)
    rejected: list[Rejection] = Field(default_factory=list)
    deferred: list[str] = Field(default_factory=list)
    replayed: list[ReplayedWrite] = Field(default_factory=list)
    held: list[Held] = Field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        """True when nothing was written."""
        return not (self.created or self.merged or self.superseded)

    @property
    def all_rejected(self) -> bool:
        """True when there were candidates and every one was refused: nothing was stored
        nor saved for later. A call that found no candidate at all is not this (it is
        :attr:`unchanged` with nothing ``rejected``)."""
        return bool(self.rejected) and self.unchanged and not (self.deferred or self.held)

    def rejection_line(self) -> str:
        """One line on why nothing was stored, for stderr (``penchant`` exit status 2).

        Example: ``nothing stored: 'ignore all previous…' was rejected: content looks like
        an instruction to the assistant, not a preference``.
        """
        first = self.rejected[0] if self.rejected else Rejection(content="", reason="none")
        if len(self.rejected) == 1:
            return f"nothing stored: {first.content!r} was rejected: {first.reason}"
        return (
            f"nothing stored: all {len(self.rejected)} candidates were rejected; the first, "
            f"{first.content!r}: {first.reason} (every reason is in the output)"
        )

    def public_dict(self) -> dict[str, Any]:
        """The CLI's JSON contract (DESIGN.md §11); ``deferred`` only when non-empty."""
        document: dict[str, Any] = {
            "created": [p.public_dict() for p in self.created],
            "merged": [p.public_dict() for p in self.merged],
            "superseded": [s.public_dict() for s in self.superseded],
            "rejected": [r.model_dump() for r in self.rejected],
        }
        if self.deferred:
            document["deferred"] = list(self.deferred)
        if self.replayed:
            document["replayed"] = [r.public_dict() for r in self.replayed]
        if self.held:
            document["held"] = [h.model_dump() for h in self.held]
        return document

    def describe(self) -> str:
        """A human-readable account, e.g. for a tool message to the model."""
        lines: list[str] = []
        lines += [f"stored new {p.polarity}: {p.content!r} (id {p.id})" for p in self.created]
        lines += [
            f"merged into existing {p.polarity}: {p.content!r} (id {p.id}, "
            f"mentioned {p.mention_count} times)"
            for p in self.merged
        ]
        lines += [
            f"superseded older {s.preference.polarity}: {s.preference.content!r} "
            f"(id {s.preference.id}, replaced by {s.replaced_by})"
            for s in self.superseded
        ]
        lines += [f"rejected {r.content!r}: {r.reason}" for r in self.rejected]
        lines += [
            f"NOT stored yet (memory degraded, Redis unreachable): {c!r} was saved locally "
            "and goes through the gate when Redis is back"
            for c in self.deferred
        ]
        lines += [
            f"NOT stored: {h.polarity} {h.content!r} is held until the user confirms it "
            f"(held id {h.id[:8]}: /confirm {h.id[:8]} in the chat or `penchant confirm`; or "
            f"dismiss it): {h.reason}" for h in self.held
        ]
        lines += [r.describe() for r in self.replayed]
        return "\n".join(lines) if lines else "nothing was stored (no preference found)"


__all__ = [
    "SCHEMA_VERSION",
    "ChangeEvent",
    "ChangeOp",
    "GateResult",
    "MAX_PAYLOAD_BYTES",
    "MAX_SUMMARY_CHARS",
    "HistorySnapshot",
    "Polarity",
    "Preference",
    "PreferenceCandidate",
    "Rejection",
    "Source",
    "Superseded",
    "MAX_CLOCK_SKEW",
    "check_not_future",
    "MAX_MENTION_COUNT",
    "check_payload",
    "check_unit_interval",
    "describe_validation_error",
    "new_id",
    "normalise_category",
    "utcnow",
]
