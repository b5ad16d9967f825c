"""Observations: reflect's short synthesised statements about a user, and how evidence moves them.

An observation ("dislikes several materials: plastic, polyester") rests on the ids of the
preferences it was drawn from (``sources``) and carries a confidence in [0, 1]. Evidence
moves that confidence by a fixed step α (``Settings.observation_alpha``, default 0.1):

=============  ==========
evidence       change
=============  ==========
reinforce      ``+α``
weaken         ``−α``
contradict     ``−2α``
=============  ==========

clamped to [0, 1] — the opinion-update rule of Hindsight ("Hindsight: agent memory that
retains, recalls, and reflects", 2025), whose reflect step also keeps opinions apart from
world facts and lets a disposition (CARA) colour them.

Everything here is pure (no I/O): the gate decides an :class:`ObservationPlan` against the
stored observations and the active preference ids, and the storage layer writes it in one
transaction. Two rules keep observations honest:

* **No duplicates**: a proposal with the same normalised statement, or resting on the same
  set of preferences, as an existing observation merges into it (reinforce) instead.
* **No orphans**: an observation none of whose sources is still active is removed; a
  preference write that forgets or supersedes some of its sources weakens (forget) or
  contradicts (supersede) it, and a re-mentioned (merged) source reinforces it
  (:func:`plan_cascade`, run inside the gate's own transaction).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..model import (
    SCHEMA_VERSION,
    ChangeEvent,
    ChangeOp,
    Preference,
    Rejection,
    new_id,
    utcnow,
)
from .active_set import content_key
from .matching import forget_matches
from .resolution import WritePlan

Evidence = Literal["reinforce", "weaken", "contradict"]
"""How new evidence bears on an observation."""

EVIDENCE_STEPS: dict[str, int] = {"reinforce": 1, "weaken": -1, "contradict": -2}
"""Multiples of α per kind of evidence (Hindsight, 2025)."""

_EVIDENCE_OPS: dict[str, ChangeOp] = {
    "reinforce": "reinforced",
    "weaken": "weakened",
    "contradict": "contradicted",
}


def move_confidence(confidence: float, evidence: Evidence, alpha: float) -> float:
    """Apply one piece of evidence to a confidence.

    Args:
        confidence: Current confidence, 0–1.
        evidence: ``reinforce`` (+α), ``weaken`` (−α) or ``contradict`` (−2α).
        alpha: The step α (> 0).

    Returns:
        The new confidence, clamped to [0, 1] and rounded to 6 decimals (so repeated
        steps do not accumulate float noise such as 0.30000000000000004).

    Source: Hindsight ("Hindsight: agent memory that retains, recalls, and reflects", 2025).
    """
    moved = confidence + EVIDENCE_STEPS[evidence] * alpha
    return round(min(1.0, max(0.0, moved)), 6)


def statement_key(content: str) -> str:
    """A statement compared for duplicate detection (case, width, punctuation, plurals)."""
    return content_key(content)


class Observation(BaseModel):
    """A synthesised statement about one user, resting on some of their preferences.

    Attributes:
        id: 32 hex characters.
        user_id: Owner.
        content: One short sentence ("dislikes several materials: plastic, polyester").
        confidence: Belief in it, 0–1, moved by evidence (:func:`move_confidence`).
        sources: Ids of the active preferences it rests on (at least one).
        source: Write path; always ``"reflect"``.
        evidence_count: How many times evidence reinforced it (1 when created).
    """

    model_config = ConfigDict(extra="ignore")

    id: str = Field(default_factory=new_id)
    user_id: str
    content: str
    confidence: float = Field(ge=0.0, le=1.0)
    sources: list[str] = Field(min_length=1)
    source: Literal["reflect"] = "reflect"
    evidence_count: int = Field(default=1, ge=1)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    schema_version: int = SCHEMA_VERSION

    def to_json(self) -> str:
        """Serialise for storage."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, raw: str | bytes) -> Observation:
        """Rebuild from :meth:`to_json` output."""
        return cls.model_validate_json(raw)

    def public_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready."""
        return self.model_dump(mode="json")

    def brief(self) -> dict[str, Any]:
        """The CLI's reflect contract: ``{"content", "confidence", "sources"}``."""
        return {"content": self.content, "confidence": self.confidence, "sources": self.sources}


class ObservationCandidate(BaseModel):
    """A proposed observation on its way into the gate.

    Attributes:
        content: One short sentence about the user.
        confidence: Proposed confidence, 0–1.
        sources: Ids of the preferences it rests on; ids that are not active are dropped, and
            a candidate left with none is rejected.
    """

    model_config = ConfigDict(extra="forbid")

    content: str
    confidence: float = Field(ge=0.0, le=1.0)
    sources: list[str] = Field(default_factory=list)


class ObservationUpdate(BaseModel):
    """Evidence about an existing observation.

    Attributes:
        id: The observation's id.
        evidence: ``reinforce``, ``weaken`` or ``contradict``; ``None`` restates ``content``
            without moving the confidence (e.g. a summary that lost a forgotten object).
        sources: With ``reinforce``, further preference ids it now also rests on.
        content: A restatement that replaces its sentence (e.g. a category summary that now
            names one more object, or one fewer).
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    evidence: Evidence | None
    sources: list[str] = Field(default_factory=list)
    content: str | None = None


class ObservationResult(BaseModel):
    """Exactly what one observation write did.

    Attributes:
        created: New observations.
        merged: Existing observations a proposal merged into (reinforced), after state.
        updated: Existing observations whose confidence evidence moved, after state.
        removed: Observations dropped (no active source left, or confidence 0).
        rejected: Proposals refused, with reasons; nothing of them was stored.
    """

    created: list[Observation] = Field(default_factory=list)
    merged: list[Observation] = Field(default_factory=list)
    updated: list[Observation] = Field(default_factory=list)
    removed: list[Observation] = Field(default_factory=list)
    rejected: list[Rejection] = Field(default_factory=list)

    @property
    def stored(self) -> list[Observation]:
        """Observations this write created, merged into or updated (after state)."""
        return [*self.created, *self.merged, *self.updated]


@dataclass
class ObservationPlan:
    """What one observation write will change, decided against one state of the user's memory."""

    upserts: dict[str, Observation] = field(default_factory=dict)
    deletes: set[str] = field(default_factory=set)
    events: list[ChangeEvent] = field(default_factory=list)
    result: ObservationResult = field(default_factory=ObservationResult)

    @property
    def empty(self) -> bool:
        """True when nothing is to be written."""
        return not (self.upserts or self.deletes or self.events)


class _Working:
    """The user's observations as the plan changes them, with a statement index."""

    def __init__(self, existing: dict[str, Observation], plan: ObservationPlan) -> None:
        self.items = dict(existing)
        self.plan = plan
        self.kinds: dict[str, str] = {}

    def find(self, content: str, sources: Iterable[str]) -> Observation | None:
        key, source_set = statement_key(content), frozenset(sources)
        for obs in self.items.values():
            if statement_key(obs.content) == key or frozenset(obs.sources) == source_set:
                return obs
        return None

    def put(
        self,
        before: Observation | None,
        after: Observation,
        op: ChangeOp,
        reason: str,
        kind: Literal["created", "merged", "updated"] = "updated",
    ) -> None:
        self.kinds.setdefault(after.id, kind)
        self.items[after.id] = after
        self.plan.upserts[after.id] = after
        self.plan.events.append(_event(op, before, after, reason, after.updated_at))

    def drop(self, obs: Observation, reason: str, now: datetime) -> None:
        self.items.pop(obs.id, None)
        self.plan.upserts.pop(obs.id, None)
        self.plan.deletes.add(obs.id)
        self.plan.result.removed.append(obs)
        self.plan.events.append(_event("dropped", obs, None, reason, now))


def _event(
    op: ChangeOp, before: Observation | None, after: Observation | None, reason: str, at: datetime
) -> ChangeEvent:
    return ChangeEvent(
        op=op,
        before=before.public_dict() if before else None,
        after=after.public_dict() if after else None,
        reason=reason,
        source="reflect",
        at=at,
    )


def plan_observations(
    user_id: str,
    existing: dict[str, Observation],
    active_ids: set[str],
    candidates: Sequence[ObservationCandidate],
    updates: Sequence[ObservationUpdate] = (),
    *,
    alpha: float,
    now: datetime,
    max_observations: int = 200,
) -> ObservationPlan:
    """Decide how proposals and evidence change a user's observations.

    Args:
        user_id: Owner.
        existing: Stored observations by id.
        active_ids: Ids of the user's active preferences.
        candidates: Screened proposals (content already cleaned).
        updates: Evidence about existing observations.
        alpha: Confidence step α.
        now: Timestamp of the write.
        max_observations: Most observations kept; the least confident are dropped.

    Returns:
        The plan; ``plan.result`` says what it does.
    """
    plan = ObservationPlan()
    work = _Working(existing, plan)
    _drop_orphans(work, active_ids, now)
    for candidate in candidates:
        _apply_candidate(work, user_id, candidate, active_ids, alpha, now)
    for update in updates:
        _apply_update(work, update, active_ids, alpha, now)
    _enforce_limit(work, max_observations, now)
    _collect_stored(work)
    return plan


def _drop_orphans(work: _Working, active_ids: set[str], now: datetime) -> None:
    for obs in list(work.items.values()):
        if not set(obs.sources) & active_ids:
            work.drop(obs, "no source preference is active any more", now)


def _apply_candidate(
    work: _Working,
    user_id: str,
    candidate: ObservationCandidate,
    active_ids: set[str],
    alpha: float,
    now: datetime,
) -> None:
    sources = [s for s in dict.fromkeys(candidate.sources) if s in active_ids]
    if not sources:
        reason = "rests on no active preference (sources must be ids of stored preferences)"
        work.plan.result.rejected.append(Rejection(content=candidate.content, reason=reason))
        return
    twin = work.find(candidate.content, sources)
    if twin is None:
        created = Observation(
            user_id=user_id,
            content=candidate.content,
            confidence=round(candidate.confidence, 6),
            sources=sources,
            created_at=now,
            updated_at=now,
        )
        work.put(None, created, "observed", "proposed by reflect", "created")
        return
    same_statement = statement_key(twin.content) == statement_key(candidate.content)
    merged = twin.model_copy(
        update={
            "content": twin.content if same_statement else candidate.content,
            "confidence": move_confidence(twin.confidence, "reinforce", alpha),
            "sources": list(dict.fromkeys([*twin.sources, *sources])),
            "evidence_count": twin.evidence_count + 1,
            "updated_at": now,
        }
    )
    work.put(twin, merged, "reinforced", "proposed again by reflect", "merged")


def _apply_update(
    work: _Working, update: ObservationUpdate, active_ids: set[str], alpha: float, now: datetime
) -> None:
    obs = work.items.get(update.id)
    if obs is None:
        reason = f"no observation with id {update.id!r}"
        work.plan.result.rejected.append(Rejection(content=update.id, reason=reason))
        return
    evidence = update.evidence
    confidence = obs.confidence if evidence is None else move_confidence(
        obs.confidence, evidence, alpha
    )
    if confidence <= 0.0:
        work.drop(obs, f"{evidence} brought its confidence to 0", now)
        return
    reinforce = evidence == "reinforce"
    extra = [s for s in update.sources if s in active_ids] if reinforce else []
    after = obs.model_copy(
        update={
            "content": update.content or obs.content,
            "confidence": confidence,
            "sources": list(dict.fromkeys([*obs.sources, *extra])),
            "evidence_count": obs.evidence_count + reinforce,
            "updated_at": now,
        }
    )
    if after.content == obs.content and evidence is None:
        return
    op: ChangeOp = "reinforced" if evidence is None else _EVIDENCE_OPS[evidence]
    work.put(obs, after, op, f"{evidence or 'restated'} by reflect")


def _enforce_limit(work: _Working, max_observations: int, now: datetime) -> None:
    surplus = len(work.items) - max_observations
    if surplus <= 0:
        return
    weakest = sorted(work.items.values(), key=lambda o: (o.confidence, o.updated_at))[:surplus]
    for obs in weakest:
        work.drop(obs, f"over the limit of {max_observations} observations", now)


def _collect_stored(work: _Working) -> None:
    result = work.plan.result
    for obs_id, obs in work.plan.upserts.items():
        if obs_id not in work.plan.deletes:
            getattr(result, work.kinds.get(obs_id, "updated")).append(obs)


def _names(obs: Observation, pref: Preference) -> bool:
    """Whether an observation's statement names what a (forgotten) preference is about."""
    objects = pref.keywords or [pref.content]
    return any(forget_matches(obj, [], obs.content) for obj in objects)


def plan_cascade(
    write: WritePlan, existing: dict[str, Observation], *, alpha: float, now: datetime
) -> ObservationPlan:
    """How a preference write bears on the observations that rest on what it touched.

    * A source that was **forgotten** is removed from the observation, which is weakened (−α);
      when the statement itself names what was forgotten, the observation is retired instead,
      so no forgotten text survives in a derived one (DESIGN.md §7).
    * A source that was **superseded** (a newer preference contradicts it) is removed, and the
      observation is contradicted (−2α).
    * An observation left with no source is removed (no orphans).
    * A source that was **merged** (the user said it again) reinforces it (+α).

    Args:
        write: The gate's plan for the preference write.
        existing: The user's stored observations by id.
        alpha: Confidence step α.
        now: Timestamp of the write.

    Returns:
        The observation changes, empty when no observation rests on what the write touched.
    """
    plan = ObservationPlan()
    if not existing:
        return plan
    superseded = {s.preference.id for s in write.superseded if s.replaced_by}
    forgotten = {s.preference.id: s.preference for s in write.superseded if not s.replaced_by}
    deleted = set(write.deletes)
    merged = {p.id for p in write.merged}
    work = _Working(existing, plan)
    for obs in list(existing.values()):
        sources = set(obs.sources)
        gone = sources & deleted
        if gone and not sources - deleted:
            reason = "every source preference was " + (
                "superseded" if gone <= superseded else "forgotten or superseded"
            )
            work.drop(obs, reason, now)
        elif any(_names(obs, forgotten[g]) for g in gone if g in forgotten):
            work.drop(obs, "its statement names a forgotten preference", now)
        elif gone:
            evidence: Evidence = "contradict" if gone & superseded else "weaken"
            after = obs.model_copy(
                update={
                    "confidence": move_confidence(obs.confidence, evidence, alpha),
                    "sources": [s for s in obs.sources if s not in deleted],
                    "updated_at": now,
                }
            )
            why = "superseded" if evidence == "contradict" else "forgotten"
            work.put(obs, after, _EVIDENCE_OPS[evidence], f"a source preference was {why}")
        elif sources & merged:
            after = obs.model_copy(
                update={
                    "confidence": move_confidence(obs.confidence, "reinforce", alpha),
                    "evidence_count": obs.evidence_count + 1,
                    "updated_at": now,
                }
            )
            work.put(obs, after, "reinforced", "a source preference was mentioned again")
    _collect_stored(work)
    return plan


__all__ = [
    "EVIDENCE_STEPS",
    "Evidence",
    "Observation",
    "ObservationCandidate",
    "ObservationPlan",
    "ObservationResult",
    "ObservationUpdate",
    "move_confidence",
    "plan_cascade",
    "plan_observations",
    "statement_key",
]
