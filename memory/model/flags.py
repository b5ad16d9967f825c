"""Flags: questions for the user, kept until they are answered.

A check-up flag names two active preferences that may contradict each other ("likes leather
jackets" vs "avoids animal products") or say the same thing twice. The check-up never
deletes a preference on its own (DESIGN.md §6: a semantic contradiction with no shared word
is *flagged for confirmation*); such a flag is only a question, and it closes when a
preference of its pair is no longer active.

A *held* flag (``kind="held"``, issue 19) is a candidate the persistence gate did not store
because it may be an instruction to the assistant (:data:`~penchant.memory.core.
directive_head.HOLD_LOGIT`): it names no preference, it is never recalled nor injected, and
it waits for the user to confirm it (then it goes through the gate as written) or dismiss
it (then its text is erased).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .echo import shorten
from .records import SCHEMA_VERSION, utcnow

FlagKind = Literal["contradiction", "duplicate", "held"]
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
        kind: ``contradiction`` (opposite polarity), ``duplicate`` (same polarity), or
            ``held`` (a candidate awaiting the user's confirmation).
        preference_ids: The two preferences concerned (none for ``held``).
        contents: Their contents, in the same order (for display); a held flag's one
            content.
        score: Cosine of their vectors (−1…1), or 0 when none was measured.
        signals: What found it: ``embedding``, ``lexicon`` and/or ``model``.
        reason: One line in words.
        created_at: When the check-up first found it (or the gate held it), UTC.
        candidate: A held flag's candidate as given to the gate
            (``PreferenceCandidate`` fields, JSON-ready), what confirming it stores.
    """

    model_config = ConfigDict(extra="ignore")

    id: str
    user_id: str
    kind: FlagKind
    preference_ids: list[str] = Field(max_length=2)
    contents: list[str] = Field(min_length=1, max_length=2)
    score: float = 0.0
    signals: list[Signal] = Field(default_factory=list)
    reason: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    candidate: dict[str, Any] | None = None
    schema_version: int = SCHEMA_VERSION

    @model_validator(mode="after")
    def _shape_of_kind(self) -> Flag:
        if self.kind == "held":
            if self.preference_ids or len(self.contents) != 1 or self.candidate is None:
                raise ValueError("a held flag has one content, its candidate, no preferences")
        elif len(self.preference_ids) != 2 or len(self.contents) != 2:
            raise ValueError(f"a {self.kind} flag names two preferences and their contents")
        return self

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
        if self.kind == "held":
            polarity = (self.candidate or {}).get("polarity", "like")
            said = (self.candidate or {}).get("said")
            source = f" (read from {shorten(said)!r})" if said and said != self.contents[0] else ""
            return (f"held {self.id[:8]}, awaiting your confirmation: {polarity} "
                    f"{self.contents[0]!r}{source}: {self.reason}")  # fmt: skip
        first, second = self.contents
        via = "+".join(self.signals) or "check-up"
        return f"{self.kind}? {first!r} vs {second!r} ({via}, cosine {self.score:.2f})"


__all__ = ["Flag", "FlagKind", "Signal", "flag_id"]
