"""Contradiction resolution and deduplication: the gate's pure decision step.

Given a user's active preferences and screened, normalised candidates, decide
what to create, merge and supersede (DESIGN.md §6.3–6.4). No I/O: the storage
layer applies the resulting :class:`WritePlan` in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..model import (
    ChangeEvent,
    Preference,
    PreferenceCandidate,
    Superseded,
    has_cjk,
)
from .active_set import ActiveSet, content_key
from .identity import (
    CrossLanguage,
    cross_matches,
    form_supersedes,
    is_chinese,
    same_qualifiers,
    simple_form,
)
from .matching import (
    brand_covers,
    categories_compatible,
    keyword_covers,
    same_object,
)
from .objects import object_forms

MERGE_CONFIDENCE_STEP = 0.1
"""Confidence gained per repeated mention, capped at 1.0 (Penchant's heuristic)."""



@dataclass
class PreparedCandidate:
    """A candidate that passed screening, with normalised keywords.

    Attributes:
        candidate: The candidate as given (content already whitespace-cleaned).
        keywords: Normalised, de-duplicated keywords.
        embedding: ``float32[dim]`` bytes computed before the transaction, if any.
        embedding_model: Name of the model that produced ``embedding``.
        embedding_dim: Its length.
        piece_embeddings: ``float32[dim]`` bytes of each of the content's
            :func:`~.intent_screen.screening_pieces`, for screening by meaning only
            (never stored).
        piece_texts: Those pieces' texts, in the same order (for the directive head's
            lexical part), set with ``piece_embeddings``.
        said_embedding: ``float32[dim]`` bytes of the sentence a captured candidate was read
            from (:attr:`~penchant.memory.PreferenceCandidate.said`), when it is not the
            content or one of its pieces: screened by meaning, never stored.
        slot: Normalised single-valued slot (:func:`~.matching.slot_key`), if any.
        protected: An allergy or intolerance (:func:`~.protection.is_protected`).
        retracted: Normalised keywords of the allergies or intolerances this like
            explicitly takes back, read from the retraction's own clause
            (:func:`~.objects.retracted_objects`): a protected dislike gives way only
            when these cover every one of its keywords.
        doubt: Why it is held for the user's confirmation rather than stored (issue 19's
            band), set by :meth:`~.planning.PersistenceGate.prepare` (a standing order said
            for the user's own answers, :mod:`.standing_orders`) and
            :meth:`~.planning.PersistenceGate.screen_meaning`; ``None``: store.
        retraction_only: The candidate does nothing but take allergies back ("I'm
            not allergic to eggs anymore"): it supersedes the protected dislikes it
            retracts and is not stored itself (no like of the object, issue 17).
    """

    candidate: PreferenceCandidate
    keywords: list[str]
    embedding: bytes | None = None
    embedding_model: str | None = None
    embedding_dim: int = 0
    piece_embeddings: list[bytes] = field(default_factory=list)
    piece_texts: list[str] = field(default_factory=list)
    said_embedding: bytes | None = None
    slot: str | None = None
    protected: bool = False
    retracted: list[str] = field(default_factory=list)
    retraction_only: bool = False
    doubt: str | None = None


@dataclass
class WritePlan:
    """What one gate call will write, built against one revision of the active set.

    Attributes:
        upserts: Preferences to write (created or merged), by id.
        deletes: Ids to remove from the active set.
        events: Change events to append, in order.
        created / merged / superseded: For the caller's :class:`GateResult`.
        outdated: Candidates stated before a newer, conflicting stored preference (a spooled
            or imported statement), with that preference: not written (recency wins).
    """

    upserts: dict[str, Preference] = field(default_factory=dict)
    deletes: set[str] = field(default_factory=set)
    events: list[ChangeEvent] = field(default_factory=list)
    created: list[Preference] = field(default_factory=list)
    merged: list[Preference] = field(default_factory=list)
    superseded: list[Superseded] = field(default_factory=list)
    outdated: list[tuple[PreferenceCandidate, Preference]] = field(default_factory=list)
    after: ActiveSet | None = None
    flags: list[tuple[Preference, Preference, float, str]] = field(default_factory=list)
    """``(older, newer, cosine, reason)``: pairs for the user to confirm, nothing of them
    deleted: across languages, ones that may be one object (:mod:`.identity`'s middle band,
    :data:`CROSS_LANGUAGE_REASON`); a like of what a protected dislike names
    (:data:`BESIDE_ALLERGY_REASON`)."""


CROSS_LANGUAGE_REASON = (
    "may be the same object in two languages with opposite polarity; confirm which one stands"
)
BESIDE_ALLERGY_REASON = (
    "a like of what an allergy or intolerance names; the allergy stays protected until the user "
    "takes it back in so many words (\"no longer allergic to …\"); confirm which one stands"
)


def _is_same(pref: Preference, prepared: PreparedCandidate) -> bool:
    cand = prepared.candidate
    if pref.polarity != cand.polarity or not categories_compatible(pref.category, cand.category):
        return False
    if content_key(pref.content) == content_key(cand.content):
        return True
    if not same_object(pref.keywords, prepared.keywords):
        return False
    return same_qualifiers(
        object_forms(pref.content, pref.polarity, tuple(pref.keywords)),
        object_forms(cand.content, cand.polarity, tuple(prepared.keywords)),
    )


def _contradicts(pref: Preference, prepared: PreparedCandidate) -> bool:
    """Opposite polarity about the same or a narrower object; a protected dislike
    gives way only to an explicit retraction (DESIGN.md §6.3).

    A preference about several objects (``likes coffee and tea``) is superseded only
    when every one of them is covered by one object of the newer statement.
    """
    cand = prepared.candidate
    if pref.polarity == cand.polarity or not categories_compatible(pref.category, cand.category):
        return False
    if pref.protected:
        return _retracts(prepared.retracted, pref.keywords)
    if cand.category == "brand" and brand_covers(prepared.keywords, pref.keywords):
        return True  # "switched from Canon" covers "likes my Canon camera"
    new_objects = object_forms(cand.content, cand.polarity, tuple(prepared.keywords))
    old_objects = object_forms(pref.content, pref.polarity, tuple(pref.keywords))
    return all(any(form_supersedes(new, old) for new in new_objects) for old in old_objects)


def _retracts(retracted: list[str], protected_keywords: list[str]) -> bool:
    """Whether the retracted objects cover every keyword of a protected dislike.

    ``no longer allergic to tree nuts`` lifts ``allergic to tree nuts`` but not
    ``allergic to peanuts and tree nuts``: the peanut allergy was not taken back.
    """
    return bool(retracted) and all(
        any(keyword_covers(r, k) for r in retracted) for k in protected_keywords
    )


def _fills_same_slot(pref: Preference, prepared: PreparedCandidate) -> bool:
    """An older value of the single-valued slot this candidate fills (any object)."""
    return bool(prepared.slot) and pref.slot == prepared.slot and not pref.protected


def _merge(pref: Preference, prepared: PreparedCandidate, now: datetime) -> Preference:
    cand = prepared.candidate
    if cand.at is not None and cand.at < pref.updated_at:  # an older statement of the same
        now = pref.updated_at
        cand = cand.model_copy(update={"content": pref.content})
    if pref.protected and not prepared.protected:  # "I avoid kiwi" after "allergic to kiwi"
        cand = cand.model_copy(update={"content": pref.content})  # the allergy's words stay
    keywords = list(dict.fromkeys([*pref.keywords, *prepared.keywords]))
    merged = pref.model_copy(
        update={
            "content": cand.content,
            "keywords": keywords,
            "category": pref.category if cand.category == "other" else cand.category,
            "confidence": min(1.0, max(pref.confidence, cand.confidence) + MERGE_CONFIDENCE_STEP),
            "mention_count": pref.mention_count + 1,
            "slot": prepared.slot or pref.slot,
            "protected": pref.protected or prepared.protected,
            "updated_at": now,
            "last_seen_at": now,
        }
    )
    if prepared.embedding is not None and merged.content == prepared.candidate.content:
        merged.embedding = prepared.embedding
        merged.embedding_model = prepared.embedding_model
        merged.embedding_dim = prepared.embedding_dim
    else:
        merged.embedding = pref.embedding
    return merged


def _restore(pref: Preference, prepared: PreparedCandidate) -> Preference | None:
    """An imported record matched a stored one: keep the stored one, taking the larger count
    and the later times of the two; ``None`` when the backup adds nothing (idempotent import)."""
    cand = prepared.candidate
    update: dict[str, object] = {}
    if (cand.mention_count or 1) > pref.mention_count:
        update["mention_count"] = cand.mention_count
    if cand.last_seen_at is not None and cand.last_seen_at > pref.last_seen_at:
        update["last_seen_at"] = cand.last_seen_at
    if not update:
        return None
    restored = pref.model_copy(update=update)
    restored.embedding = pref.embedding
    return restored


def _create(user_id: str, prepared: PreparedCandidate, now: datetime) -> Preference:
    cand = prepared.candidate
    at = cand.at or now
    return Preference(
        user_id=user_id,
        content=cand.content,
        polarity=cand.polarity,
        category=cand.category,
        keywords=prepared.keywords,
        confidence=cand.confidence,
        source=cand.source,
        slot=prepared.slot,
        protected=prepared.protected,
        mention_count=cand.mention_count or 1,
        created_at=cand.created_at or at,
        updated_at=at,
        last_seen_at=cand.last_seen_at or at,
        embedding=prepared.embedding,
        embedding_model=prepared.embedding_model,
        embedding_dim=prepared.embedding_dim,
    )


def _drop_unwritten(plan: WritePlan, pref_id: str) -> None:
    plan.upserts.pop(pref_id, None)
    plan.created = [p for p in plan.created if p.id != pref_id]
    plan.events = [e for e in plan.events if (e.after or {}).get("id") != pref_id]


def plan_write(
    user_id: str,
    active: ActiveSet,
    candidates: list[PreparedCandidate],
    now: datetime,
    *,
    created_op: str = "created",
    cross: CrossLanguage | None = None,
) -> WritePlan:
    """Decide creates, merges and supersessions for ``candidates``, in order.

    Each candidate sees the effect of the ones before it, so one call with
    "likes X" then "dislikes X" ends with the dislike alone.

    Args:
        user_id: Owner of ``active``.
        active: The user's active preferences (not modified).
        candidates: Screened, normalised candidates.
        now: Timestamp for every record and event of this write.
        created_op: Change-log op for new preferences (``created`` or ``imported``).
        cross: Object-phrase vectors, glosses and thresholds for cross-language identity
            (:mod:`.identity`); ``None`` compares within one language only.

    Returns:
        The plan, with ``plan.after`` the active set once it is applied;
        ``plan.upserts`` and ``plan.deletes`` never share an id.
    """
    state = active.clone()
    plan = WritePlan(after=state)
    for prepared in candidates:
        source = prepared.candidate.source
        related = state.related(prepared.keywords, prepared.candidate.content, prepared.slot)
        newer = newer_conflict(related, prepared)
        if newer is not None:
            plan.outdated.append((prepared.candidate, newer))
            continue
        if prepared.retraction_only:
            _retract(plan, state, related, prepared, now)
            continue
        target = next((p for p in related if _is_same(p, prepared)), None)
        if target is not None and created_op == "imported":
            restored = _restore(target, prepared)
            if restored is None:
                continue
            _record_merge(plan, target, restored, source, now)
            state.add(restored)
            plan.upserts[restored.id] = restored
            continue
        if target is not None:
            winner = _merge(target, prepared, now)
            _record_merge(plan, target, winner, source, now)
        else:
            winner = _create(user_id, prepared, now)
            plan.created.append(winner)
            plan.events.append(
                ChangeEvent(op=created_op, after=winner.public_dict(), source=source, at=now)  # type: ignore[arg-type]
            )
        state.add(winner)
        plan.upserts[winner.id] = winner
        for old in related:
            if old.id == winner.id:
                continue
            if _contradicts(old, prepared):
                reason = _contradiction_reason(old, winner.id)
            elif _fills_same_slot(old, prepared):
                reason = f"slot {prepared.slot!r} filled by newer {winner.id}"
            else:
                continue
            _record_supersede(plan, old, winner.id, source, now, reason)
            state.remove(old.id)
        plan.flags += _beside_allergies(state, winner)
        if cross is not None and created_op != "imported":
            _cross_language(plan, state, prepared, winner, cross, now)
    return plan


def _beside_allergies(
    state: ActiveSet, winner: Preference
) -> list[tuple[Preference, Preference, float, str]]:
    """Flags for a like beside an allergy that names its object, whichever came first: a like
    is checked against the user's allergies, an allergy against their likes."""
    if winner.polarity == "like":
        pairs = [(a, winner) for a in state.in_group("protected")]
    elif winner.protected:  # every like, once per allergy written: a substring test first
        starts = _starts(winner)
        pairs = [(winner, like) for like in state.in_group("like") if _holds_any(like, starts)]
    else:
        return []
    return [
        (allergy, like, 0.0, BESIDE_ALLERGY_REASON) for allergy, like in pairs
        if _names_allergen(like, allergy)
    ]  # fmt: skip


def _holds_any(pref: Preference, starts: set[str]) -> bool:
    text = " ".join(pref.keywords)
    return any(start in text for start in starts)


def _starts(pref: Preference) -> set[str]:
    """The first three characters of each word of a preference's keywords, and each Chinese
    character: one is in the other's keywords wherever :func:`_names_allergen` can hold."""
    words = {w for k in pref.keywords for w in k.split()}
    return {c for w in words if has_cjk(w) for c in w} | {w[:3] for w in words if not has_cjk(w)}


def _names_allergen(like: Preference, allergy: Preference) -> bool:
    """Whether a like names what a protected dislike names: the same or a covered object, or
    a dish of it (``shrimp tempura``, ``菠萝包`` beside ``allergic to shrimp``, ``对菠萝过敏``)."""
    return any(
        keyword_covers(a, k) or keyword_covers(k, a) or a in (k if has_cjk(a) else k.split())
        for a in allergy.keywords for k in like.keywords
    )  # fmt: skip


def _cross_language(
    plan: WritePlan,
    state: ActiveSet,
    prepared: PreparedCandidate,
    winner: Preference,
    cross: CrossLanguage,
    now: datetime,
) -> None:
    """Supersede (or flag) the other language's statements of the same simple object."""
    cand = prepared.candidate
    new_form = simple_form(cand.content, cand.polarity, tuple(prepared.keywords))
    if new_form is None:
        return
    others = state.in_language(winner.category, not is_chinese(new_form))
    for old, verdict, cosine in cross_matches(new_form, winner, others, cross):
        if verdict == "same" and not old.protected:
            reason = f"{_contradiction_reason(old, winner.id)}: the same object in another "
            _record_supersede(plan, old, winner.id, cand.source, now, f"{reason}language")
            state.remove(old.id)
        else:
            plan.flags.append((old, winner, cosine, CROSS_LANGUAGE_REASON))


def _retract(
    plan: WritePlan,
    state: ActiveSet,
    related: list[Preference],
    prepared: PreparedCandidate,
    now: datetime,
) -> None:
    """Supersede the protected dislikes a pure retraction takes back; store nothing else."""
    for old in related:
        if old.protected and _contradicts(old, prepared):
            reason = f"retracted by {prepared.candidate.content!r}"
            _record_supersede(plan, old, "", prepared.candidate.source, now, reason)
            state.remove(old.id)


def newer_conflict(related: list[Preference], prepared: PreparedCandidate) -> Preference | None:
    """A stored preference the candidate would supersede but that was stated after it."""
    at = prepared.candidate.at
    if at is None:
        return None
    for old in related:
        if old.updated_at > at and (_contradicts(old, prepared) or _fills_same_slot(old, prepared)):
            return old
    return None


def _record_merge(
    plan: WritePlan, before: Preference, after: Preference, source: str, now: datetime
) -> None:
    if any(p.id == after.id for p in plan.created):
        plan.created = [after if p.id == after.id else p for p in plan.created]
    else:
        plan.merged = [p for p in plan.merged if p.id != after.id] + [after]
    plan.events.append(
        ChangeEvent(
            op="merged",
            before=before.public_dict(),
            after=after.public_dict(),
            source=source,
            at=now,
        )
    )


def _contradiction_reason(old: Preference, winner_id: str) -> str:
    if old.protected:
        return f"retracted by {winner_id}"
    newer = "dislike" if old.polarity == "like" else "like"
    return f"contradicted by newer {newer} {winner_id}"


def _record_supersede(
    plan: WritePlan, old: Preference, winner_id: str, source: str, now: datetime, reason: str
) -> None:
    if any(p.id == old.id for p in plan.created):
        _drop_unwritten(plan, old.id)  # created earlier in this same call: it never existed
        return
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
            reason=reason,
            source=source,
            at=now,
        )
    )


__all__ = [
    "MERGE_CONFIDENCE_STEP",
    "PreparedCandidate",
    "WritePlan",
    "newer_conflict",
    "plan_write",
]
