"""Tombstones: what was forgotten or superseded, and when, so an older statement replayed late
(a spooled write) never beats a newer one (issue 10; DESIGN.md §6.5).

A spooled write carries the time it was said (``PreferenceCandidate.at``). Comparing it with
the active preferences catches a newer contradicting statement that still stands, but not
one that is gone: "I like coffee" spooled at 10:00, then "forget coffee" at 10:05 (which
found nothing to remove, the like being still in the spool), would re-create the like on
replay. So each user's snapshot keeps a small map of tombstones, written by the same commit
as the forget or the supersession:

* a **forget** tombstone per forget request (its text, its polarity filter, its time), kept
  even when the forget removed nothing;
* a **statement** tombstone per removed preference (forgotten or superseded): the record as
  it was, at the time it was last stated.

A candidate with an ``at`` is *outdated* when a forget made after ``at`` would have removed
it, or a statement made after ``at`` that it contradicts (or whose single-valued slot it
fills) has since been removed. The map is bounded (:data:`TOMBSTONES_MAX`, the oldest
removals go first). Imports are exempt: a restore after a forget restores.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from .matching import forget_matches
from .normalize import clean_text
from .records import Polarity, Preference

TOMBSTONES_MAX = 100
"""Tombstones kept per user, newest removals first. A spool holds the writes of one outage
(minutes to hours of one agent's turns), far fewer forgets and supersessions than this; a
tombstone older than the oldest spooled write is never consulted again."""


class Tombstone(BaseModel):
    """A forget request, or a preference that no longer stands.

    Attributes:
        kind: ``forget`` or ``statement``.
        at: When the forget was made, or when the removed statement was last made
            (its ``updated_at``).
        removed_at: When it was written (eviction order).
        text: The forget's description (``forget`` only).
        polarity: The forget's polarity filter, ``None`` for both (``forget`` only).
        preference: The removed record, without its vector (``statement`` only).
    """

    kind: Literal["forget", "statement"]
    at: datetime
    removed_at: datetime
    text: str = ""
    polarity: Polarity | None = None
    preference: Preference | None = None

    @property
    def key(self) -> str:
        """Field of the user's tombstone hash: one per forget wording, one per preference id."""
        if self.preference is not None:
            return f"pref:{self.preference.id}"
        wording = f"{self.polarity or '*'}\0{clean_text(self.text).lower()}"
        return "forget:" + hashlib.sha256(wording.encode("utf-8", "surrogatepass")).hexdigest()

    def to_json(self) -> str:
        """The stored form (a preference's vector is never serialised)."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, raw: str | bytes) -> Tombstone:
        """Parse a stored tombstone."""
        return cls.model_validate_json(raw)

    @classmethod
    def of_forget(cls, text: str, polarity: Polarity | None, now: datetime) -> Tombstone:
        """The tombstone of a forget request made at ``now``."""
        return cls(kind="forget", at=now, removed_at=now, text=text, polarity=polarity)

    @classmethod
    def of_removed(cls, pref: Preference, now: datetime) -> Tombstone:
        """The tombstone of a preference removed at ``now`` (forgotten or superseded)."""
        ghost = pref.model_copy()
        ghost.embedding = None
        return cls(kind="statement", at=pref.updated_at, removed_at=now, preference=ghost)

    def forgets(self, keywords: list[str], content: str, polarity: str) -> bool:
        """Whether this forget would have removed a preference like that."""
        return self.kind == "forget" and (self.polarity in (None, polarity)) and forget_matches(
            self.text, keywords, content
        )


@dataclass
class Tombstones:
    """A user's tombstones by key (part of :class:`~.ops.UserSnapshot`)."""

    by_key: dict[str, Tombstone] = field(default_factory=dict)

    def forgotten_after(
        self, at: datetime, keywords: list[str], content: str, polarity: str
    ) -> Tombstone | None:
        """The newest forget made after ``at`` that would have removed such a statement."""
        found = [
            t for t in self.by_key.values() if t.at > at and t.forgets(keywords, content, polarity)
        ]
        return max(found, key=lambda t: t.at, default=None)

    def removed_after(self, at: datetime) -> list[Preference]:
        """Removed preferences last stated after ``at`` (to test for a contradiction)."""
        return [
            t.preference for t in self.by_key.values()
            if t.preference is not None and t.at > at
        ]  # fmt: skip

    def evictions(self, added: Iterable[Tombstone]) -> list[str]:
        """Keys to delete so that, with ``added`` written, at most :data:`TOMBSTONES_MAX`
        remain (the oldest removals go first)."""
        merged = dict(self.by_key)
        for tomb in added:
            merged[tomb.key] = tomb
        if len(merged) <= TOMBSTONES_MAX:
            return []
        oldest = sorted(merged.values(), key=lambda t: (t.removed_at, t.key))
        return [t.key for t in oldest[: len(merged) - TOMBSTONES_MAX]]

    def clone(self) -> Tombstones:
        """A copy whose map can be changed without touching this one."""
        return Tombstones(dict(self.by_key))

    @classmethod
    def from_records(cls, raw: dict[str, str | bytes]) -> Tombstones:
        """Parse the user's tombstone hash (key → JSON)."""
        return cls({k: Tombstone.from_json(v) for k, v in raw.items()})


__all__ = ["TOMBSTONES_MAX", "Tombstone", "Tombstones"]
