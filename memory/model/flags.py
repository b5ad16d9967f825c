"""Flags: the memory check-up's findings, kept until the user confirms or dismisses them.

A flag names two active preferences that may contradict each other ("likes leather jackets"
vs "avoids animal products") or say the same thing twice. The check-up never deletes a
preference on its own (DESIGN.md §6: a semantic contradiction with no shared word is
*flagged for confirmation*); a flag is only a question for the user.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .records import SCHEMA_VERSION, utcnow

FlagKind = Literal["contradiction", "duplicate"]
Signal = Literal["embedding", "lexicon", "model"]


def flag_id(kind: str, preference_ids: list[str]) -> str:
    """A stable id for a finding, so re-running the check-up never duplicates it.

    Returns:
        32 hex characters of SHA-256 over the kind and the sorted preference ids.
    """
    digest = hashlib.sha256("|".join([kind, *sorted(preference_ids)]).encode()).hexdigest()
    return digest[:32]


class Flag(BaseModel):
    """One check-up finding awaiting confirmation.

    Attributes:
        id: :func:`flag_id` of kind and preference ids.
        user_id: Owner.
        kind: ``contradiction`` (opposite polarity) or ``duplicate`` (same polarity).
        preference_ids: The two preferences concerned.
        contents: Their contents, in the same order (for display).
        score: Cosine of their vectors (−1…1), or 0 when none was measured.
        signals: What found it: ``embedding``, ``lexicon`` and/or ``model``.
        reason: One line in words.
        created_at: When the check-up first found it, UTC.
    """

    model_config = ConfigDict(extra="ignore")

    id: str
    user_id: str
    kind: FlagKind
    preference_ids: list[str] = Field(min_length=2, max_length=2)
    contents: list[str] = Field(min_length=2, max_length=2)
    score: float = 0.0
    signals: list[Signal] = Field(default_factory=list)
    reason: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    schema_version: int = SCHEMA_VERSION

    def to_json(self) -> str:
        """Serialise for storage."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, raw: str | bytes) -> Flag:
        """Rebuild from :meth:`to_json` output."""
        return cls.model_validate_json(raw)

    def public_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (the ``checkup --json`` contract's items)."""
        return self.model_dump(mode="json")

    def describe(self) -> str:
        """One human-readable line."""
        first, second = self.contents
        via = "+".join(self.signals) or "check-up"
        return f"{self.kind}? {first!r} vs {second!r} ({via}, cosine {self.score:.2f})"


__all__ = ["Flag", "FlagKind", "Signal", "flag_id"]
