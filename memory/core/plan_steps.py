"""The gate's plan-building steps: the operations of a write plan, of tombstones, of
observations, and the preparing of one candidate. Pure; used by :mod:`.planning`.
"""

from __future__ import annotations

import re
from datetime import datetime

from ..model import (
    ChangeEvent,
    PreferenceCandidate,
    Rejection,
    is_protected,
    normalise_keywords,
)
from .capture.categories import Glosses, category_for, glossed_category
from .matching import slot_key
from .objects import derive_objects, only_retracts, retracted_objects
from .observations import (
    ObservationPlan,
)
from .ops import (
    AppendEvent,
    DeleteObservation,
    DeletePreference,
    DeleteTombstone,
    Op,
    PutObservation,
    PutPreference,
    PutTombstone,
    PutVector,
)
from .resolution import PreparedCandidate, WritePlan
from .snapshot import UserSnapshot
from .tombstones import Tombstone, Tombstones, content_digest


def preference_ops(write: WritePlan) -> list[Op]:
    ops: list[Op] = []
    for pref_id, pref in write.upserts.items():
        ops.append(PutPreference(pref))
        if pref.embedding is not None:
            ops.append(PutVector(pref_id, pref.embedding))
    ops += [DeletePreference(pref_id) for pref_id in sorted(write.deletes)]
    ops += [AppendEvent(event) for event in write.events]
    return ops


def outlived(
    tombstones: Tombstones, prepared: list[PreparedCandidate]
) -> tuple[list[PreparedCandidate], list[Rejection]]:
    """Split off candidates stated before a forget that names them, or before a newer
    contradicting statement that has since been removed (:mod:`.tombstones`)."""
    if not tombstones.by_key:
        return prepared, []
    kept: list[PreparedCandidate] = []
    buried: list[Rejection] = []
    for item in prepared:
        cand = item.candidate
        if cand.at is None:
            kept.append(item)
            continue
        forget = tombstones.forgotten_after(cand.at, item.keywords, cand.content, cand.polarity)
        newer = None if forget else tombstones.conflict_after(item)
        if forget is not None:
            reason = f"forgotten after it was said (a forget at {forget.at:%Y-%m-%d %H:%M:%S} UTC)"
        elif newer is not None:
            reason = f"older than the statement {newer.pref_id}, since removed"
        else:
            kept.append(item)
            continue
        buried.append(Rejection(content=cand.content, reason=reason))
    return kept, buried


def tombstone_ops(
    snapshot: UserSnapshot, write: WritePlan, now: datetime, *extra: Tombstone
) -> list[Op]:
    """Tombstones of the preferences this write removes (and of the forget itself)."""
    stored = snapshot.active.prefs
    salt = snapshot.user_id
    removed = [stored[i] for i in sorted(write.deletes) if i in stored]
    added = [*extra, *(Tombstone.of_removed(p, now, salt) for p in removed)]
    if not added:
        return []
    tombs = snapshot.tombstones
    ops: list[Op] = []
    for key in sorted(tombs.legacy):  # rewrite older plaintext tombstones as digests
        ops += [DeleteTombstone(key), PutTombstone(tombs.by_key[key])]
    ops += [PutTombstone(t) for t in added]
    current = Tombstones({t.key: t for t in tombs.by_key.values()}, salt)
    ops += [DeleteTombstone(k) for k in current.evictions(added)]
    return ops


def tombstone_of(record: dict[str, object]) -> dict[str, object]:
    """A removed record's fields that carry no text (the change log's tombstone form)."""
    keep = ("id", "polarity", "category", "source", "created_at", "updated_at", "confidence",
            "sources", "mention_count")  # fmt: skip
    return {k: record[k] for k in keep if k in record}


def redacted(op: Op, salt: str) -> Op:
    """A cascade's ``dropped`` event as a tombstone event (a forget retires observations
    that name what it forgot; their text goes with them)."""
    if not isinstance(op, AppendEvent) or op.event.op != "dropped" or not op.event.before:
        return op
    before = op.event.before
    event = op.event.model_copy(update={
        "before": tombstone_of(before),
        "digest": content_digest(salt, str(before.get("content", ""))),
    })  # fmt: skip
    return AppendEvent(event)


def observation_ops(plan: ObservationPlan) -> list[Op]:
    ops: list[Op] = [PutObservation(o) for o in plan.upserts.values()]
    ops += [DeleteObservation(obs_id) for obs_id in sorted(plan.deletes)]
    ops += [AppendEvent(event) for event in plan.events]
    return ops


def rejected_event(rejection: Rejection, now: datetime, *, source: str | None) -> ChangeEvent:
    extra = {"source": source} if source else {}
    return ChangeEvent(
        op="rejected", content=printable(rejection.content[:200]), reason=rejection.reason,
        at=now, **extra,  # type: ignore[arg-type]
    )


_SLOT_HINT_RE = re.compile(
    r"\b(?:favou?rite|fave|fav|current|go-to)\b|最喜欢的|最爱的|现在的|目前的", re.IGNORECASE
)
"""Cheap test for a sentence that may fill a single-valued slot; only those are parsed."""


def objects_of(
    candidate: PreferenceCandidate, glosses: Glosses | None = None
) -> PreparedCandidate:
    """Normalised objects of a screened candidate, derived from content where missing.

    Keywords come from the candidate, or from its content (:func:`~.objects.derive_objects`,
    the extractor capture uses) when it has none; the slot likewise; a category of
    ``"other"`` (none given) becomes the objects' category as capture names it
    (:func:`~.capture.categories.category_for`: ``sushi`` → ``food``), and, for Chinese
    objects the lexicons lack, as their English ``glosses`` name it
    (:func:`~.capture.categories.glossed_category`: ``南瓜`` → ``food``); ``protected`` and
    the retracted objects from the retraction's own clause (:func:`~.objects.retracted_objects`),
    and whether the candidate does nothing but retract (:func:`~.objects.only_retracts`).
    """
    keywords = normalise_keywords(candidate.keywords)
    slot = candidate.slot
    if not keywords or (slot is None and _SLOT_HINT_RE.search(candidate.content)):
        derived = derive_objects(candidate.content, candidate.polarity)
        keywords = keywords or derived.keywords
        slot = slot if slot is not None else derived.slot
    protected = (
        candidate.protected
        if candidate.protected is not None
        else is_protected(candidate.content, candidate.polarity)
    )
    if candidate.category == "other" and keywords:  # none given: the objects' own category
        category = category_for(keywords)
        if category == "other" and glosses is not None:
            category = glossed_category(keywords, glosses)
        if category != "other":
            candidate = candidate.model_copy(update={"category": category})
    retracted = retracted_objects(candidate.content) if candidate.polarity == "like" else []
    return PreparedCandidate(
        candidate,
        keywords,
        slot=slot_key(slot),
        protected=protected and candidate.polarity == "dislike",
        retracted=retracted,
        retraction_only=bool(retracted) and only_retracts(candidate.content),
    )


def printable(text: str) -> str:
    """``text`` with anything that is not valid UTF-8 (lone surrogates) replaced."""
    return text.encode("utf-8", "replace").decode("utf-8")


__all__ = [
    "objects_of",
    "observation_ops",
    "outlived",
    "preference_ops",
    "printable",
    "redacted",
    "rejected_event",
    "tombstone_of",
    "tombstone_ops",
]
