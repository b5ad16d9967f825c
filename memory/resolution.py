"""Contradiction resolution and deduplication: the gate's pure decision step.

Given a user's active preferences and screened, normalised candidates, decide
what to create, merge and supersede (DESIGN.md §6.3–6.4). No I/O: the storage
layer applies the resulting :class:`WritePlan` in one transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from .matching import categories_compatible, same_object, supersedes
from .normalize import normalise_keyword
from .records import ChangeEvent, Preference, PreferenceCandidate, Superseded

MERGE_CONFIDENCE_STEP = 0.1
"""Confidence gained per repeated mention, capped at 1.0 (Penchant's heuristic)."""

_PUNCT_RE = re.compile(r"[^\w\s-]+")


@dataclass
class PreparedCandidate:
    """A candidate that passed screening, with normalised keywords.

    Attributes:
        candidate: The candidate as given (content already whitespace-cleaned).
        keywords: Normalised, de-duplicated keywords.
        embedding: ``float32[dim]`` bytes computed before the transaction, if any.
        embedding_model: Name of the model that produced ``embedding``.
        embedding_dim: Its length.
    """

    candidate: PreferenceCandidate
    keywords: list[str]
    embedding: bytes | None = None
    embedding_model: str | None = None
    embedding_dim: int = 0


@dataclass
class WritePlan:
    """What one gate call will write, built against one revision of the active set.

    Attributes:
        upserts: Preferences to write (created or merged), by id.
        deletes: Ids to remove from the active set.
        events: Change events to append, in order.
        created / merged / superseded: For the caller's :class:`GateResult`.
    """

    upserts: dict[str, Preference] = field(default_factory=dict)
    deletes: set[str] = field(default_factory=set)
    events: list[ChangeEvent] = field(default_factory=list)
    created: list[Preference] = field(default_factory=list)
    merged: list[Preference] = field(default_factory=list)
    superseded: list[Superseded] = field(default_factory=list)


def content_key(content: str) -> str:
    """Content compared for exact-duplicate detection (case, width, punctuation)."""
    return normalise_keyword(_PUNCT_RE.sub(" ", content))


def _is_same(pref: Preference, prepared: PreparedCandidate) -> bool:
    cand = prepared.candidate
    if pref.polarity != cand.polarity or not categories_compatible(pref.category, cand.category):
        return False
    if same_object(pref.keywords, prepared.keywords):
        return True
    return content_key(pref.content) == content_key(cand.content)


def _contradicts(pref: Preference, prepared: PreparedCandidate) -> bool:
    cand = prepared.candidate
    return (
        pref.polarity != cand.polarity
        and categories_compatible(pref.category, cand.category)
        and supersedes(prepared.keywords, pref.keywords)
    )


def _merge(pref: Preference, prepared: PreparedCandidate, now: datetime) -> Preference:
    cand = prepared.candidate
    keywords = list(dict.fromkeys([*pref.keywords, *prepared.keywords]))
    merged = pref.model_copy(
        update={
            "content": cand.content,
            "keywords": keywords,
            "category": pref.category if cand.category == "other" else cand.category,
            "confidence": min(1.0, max(pref.confidence, cand.confidence) + MERGE_CONFIDENCE_STEP),
            "mention_count": pref.mention_count + 1,
            "updated_at": now,
            "last_seen_at": now,
        }
    )
    if prepared.embedding is not None:
        merged.embedding = prepared.embedding
        merged.embedding_model = prepared.embedding_model
        merged.embedding_dim = prepared.embedding_dim
    else:
        merged.embedding = pref.embedding
    return merged


def _create(user_id: str, prepared: PreparedCandidate, now: datetime) -> Preference:
    cand = prepared.candidate
    return Preference(
        user_id=user_id,
        content=cand.content,
        polarity=cand.polarity,
        category=cand.category,
        keywords=prepared.keywords,
        confidence=cand.confidence,
        source=cand.source,
        created_at=now,
        updated_at=now,
        last_seen_at=now,
        embedding=prepared.embedding,
        embedding_model=prepared.embedding_model,
        embedding_dim=prepared.embedding_dim,
    )


def plan_write(
    user_id: str,
    active: dict[str, Preference],
    candidates: list[PreparedCandidate],
    now: datetime,
    *,
    created_op: str = "created",
) -> WritePlan:
    """Decide creates, merges and supersessions for ``candidates``, in order.

    Each candidate sees the effect of the ones before it, so one call with
    "likes X" then "dislikes X" ends with the dislike alone.

    Args:
        user_id: Owner of ``active``.
        active: The user's active preferences by id (not modified).
        candidates: Screened, normalised candidates.
        now: Timestamp for every record and event of this write.
        created_op: Change-log op for new preferences (``created`` or ``imported``).

    Returns:
        The plan; ``plan.upserts`` and ``plan.deletes`` never share an id.
    """
    state = dict(active)
    plan = WritePlan()
    for prepared in candidates:
        source = prepared.candidate.source
        target = next((p for p in state.values() if _is_same(p, prepared)), None)
        if target is not None:
            winner = _merge(target, prepared, now)
            _record_merge(plan, target, winner, source, now)
        else:
            winner = _create(user_id, prepared, now)
            plan.created.append(winner)
            plan.events.append(
                ChangeEvent(op=created_op, after=winner.public_dict(), source=source, at=now)  # type: ignore[arg-type]
            )
        state[winner.id] = winner
        plan.upserts[winner.id] = winner
        for old in [p for p in state.values() if _contradicts(p, prepared)]:
            _record_supersede(plan, old, winner.id, source, now)
            del state[old.id]
    return plan


def _record_merge(
    plan: WritePlan, before: Preference, after: Preference, source: str, now: datetime
) -> None:
    if any(p.id == after.id for p in plan.created):
        plan.created = [after if p.id == after.id else p for p in plan.created]
    else:
        plan.merged = [p for p in plan.merged if p.id != after.id] + [after]
    plan.events.append(
        ChangeEvent(
            op="merged", before=before.public_dict(), after=after.public_dict(), source=source, at=now
        )
    )


def _record_supersede(
    plan: WritePlan, old: Preference, winner_id: str, source: str, now: datetime
) -> None:
    plan.upserts.pop(old.id, None)
    plan.created = [p for p in plan.created if p.id != old.id]
    plan.merged = [p for p in plan.merged if p.id != old.id]
    plan.deletes.add(old.id)
    plan.superseded.append(Superseded(preference=old, replaced_by=winner_id))
    plan.events.append(
        ChangeEvent(
            op="superseded",
            before=old.public_dict(),
            replaced_by=winner_id,
            reason=f"contradicted by newer {('dislike' if old.polarity == 'like' else 'like')} "
            f"{winner_id}",
            source=source,
            at=now,
        )
    )


__all__ = ["MERGE_CONFIDENCE_STEP", "PreparedCandidate", "WritePlan", "content_key", "plan_write"]
