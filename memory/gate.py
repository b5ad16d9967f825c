"""The persistence gate: the one way preferences get written (DESIGN.md §6).

screen → normalise → embed (outside the transaction) → resolve contradictions
and merge duplicates (:mod:`.resolution`) → atomic write with change events
(:meth:`.storage.RedisStorage.apply`). Tools, hooks, import, reflect and the
CLI all call :meth:`PersistenceGate.write`; forget and history snapshots go
through the gate too, so every change of a user's memory is screened and logged.

No LLM runs here: candidates arrive structured, and contradiction resolution is
set arithmetic on keywords (microseconds) on every turn's hot path.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import numpy as np

from .embeddings import Embedder, embedding_text
from .errors import InvalidInputError
from .keys import UserKeys
from .matching import forget_matches, slot_key
from .normalize import clean_text, normalise_keywords
from .objects import derive_objects, retracted_objects
from .observations import (
    Observation,
    ObservationCandidate,
    ObservationPlan,
    ObservationResult,
    ObservationUpdate,
    plan_cascade,
    plan_observations,
)
from .protection import is_protected
from .records import (
    MAX_SUMMARY_CHARS,
    ChangeEvent,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    Polarity,
    PreferenceCandidate,
    Rejection,
    Superseded,
    check_payload,
    utcnow,
)
from .resolution import ActiveSet, PreparedCandidate, WritePlan, plan_write
from .screen import screen_content, screen_keywords
from .settings import Settings
from .storage import RedisStorage

logger = logging.getLogger(__name__)


class PersistenceGate:
    """Screens, normalises, resolves and atomically writes preferences.

    Args:
        storage: Where preferences live.
        settings: Limits (content length, keyword count).
        embedder: Optional; when given, each accepted candidate is embedded
            before the transaction and stored with its vector.
    """

    def __init__(
        self, storage: RedisStorage, settings: Settings, embedder: Embedder | None = None
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.embedder = embedder

    # -- preferences ----------------------------------------------------------------------------

    def write(
        self,
        user_id: str,
        candidates: PreferenceCandidate | Sequence[PreferenceCandidate],
        *,
        idempotency_key: str | None = None,
        created_op: str = "created",
    ) -> GateResult:
        """Pass candidates through the gate and report exactly what happened.

        Args:
            user_id: Owner of the preferences.
            candidates: One candidate or several, applied in order.
            idempotency_key: Makes a retried call (same key) a no-op that
                returns the first call's result.
            created_op: Change-log op for new records (``imported`` for import).

        Returns:
            What was created, merged, superseded and rejected (with reasons).

        Raises:
            InvalidInputError: ``user_id`` is invalid; nothing was stored.
            StorageUnavailableError: Redis failed; nothing was stored.
            ConcurrencyError: Too many concurrent writers; nothing was stored.
        """
        keys = UserKeys.for_user(user_id)
        batch = [candidates] if isinstance(candidates, PreferenceCandidate) else list(candidates)
        prepared, rejections = self._prepare(batch)
        self._embed(prepared)
        now = utcnow()
        rejected_events = [
            ChangeEvent(op="rejected", content=_printable(r.content[:200]), reason=r.reason, at=now)
            for r in rejections
        ]
        if not prepared:
            self.storage.log_events(keys, rejected_events)
            return GateResult(rejected=rejections)

        def decide(active: ActiveSet) -> WritePlan:
            return plan_write(user_id, active, prepared, now, created_op=created_op)

        def encode(plan: WritePlan) -> str:
            return _result(plan, rejections).model_dump_json()

        outcome = self.storage.apply(
            keys,
            decide,
            extra_events=rejected_events,
            idempotency_key=idempotency_key,
            encode_result=encode,
            cascade=self._cascade,
        )
        if isinstance(outcome, str):
            logger.info("gate: idempotent replay for %s", user_id)
            return GateResult.model_validate_json(outcome)
        return _result(outcome, rejections)

    def _prepare(
        self, batch: list[PreferenceCandidate]
    ) -> tuple[list[PreparedCandidate], list[Rejection]]:
        prepared: list[PreparedCandidate] = []
        rejections: list[Rejection] = []
        for candidate in batch:
            content = clean_text(candidate.content)
            reason = screen_content(content, max_chars=self.settings.max_content_chars)
            reason = reason or screen_keywords(
                candidate.keywords, max_keywords=self.settings.max_keywords
            )
            if reason:
                rejections.append(Rejection(content=_printable(candidate.content), reason=reason))
                continue
            cleaned = candidate.model_copy(update={"content": content})
            prepared.append(_objects_of(cleaned))
        return prepared, rejections

    def _embed(self, prepared: list[PreparedCandidate]) -> None:
        if self.embedder is None or not prepared:
            return
        vectors = self.embedder.embed(
            [embedding_text(p.candidate.content, p.candidate.category) for p in prepared]
        )
        for item, vector in zip(prepared, vectors, strict=True):
            item.embedding = np.asarray(vector, dtype=np.float32).tobytes()
            item.embedding_model = self.embedder.name
            item.embedding_dim = self.embedder.dim

    # -- forget ---------------------------------------------------------------------------------

    def forget(self, user_id: str, text: str, polarity: Polarity | None = None) -> ForgetResult:
        """Remove the preferences that ``text`` names (DESIGN.md §7).

        Args:
            user_id: Owner.
            text: Keywords or a description (``"coffee"``, ``"塑料"``).
            polarity: Only remove preferences of this polarity.

        Returns:
            Exactly the removed preferences; empty when nothing matched.

        Raises:
            InvalidInputError: Empty ``text`` or an unknown polarity.
        """
        keys = UserKeys.for_user(user_id)
        if not clean_text(text or ""):
            raise InvalidInputError("forget needs a description, e.g. 'coffee'; got empty text")
        if polarity not in (None, "like", "dislike"):
            raise InvalidInputError(f"polarity {polarity!r} is not 'like' or 'dislike'")
        now = utcnow()

        def decide(active: ActiveSet) -> WritePlan:
            plan = WritePlan()
            for pref in active.prefs.values():
                if polarity and pref.polarity != polarity:
                    continue
                if forget_matches(text, pref.keywords, pref.content):
                    plan.deletes.add(pref.id)
                    plan.superseded.append(Superseded(preference=pref, replaced_by=""))
                    plan.events.append(
                        ChangeEvent(
                            op="forgotten",
                            before=pref.public_dict(),
                            reason=f"forget {text!r}",
                            at=now,
                        )
                    )
            return plan

        outcome = self.storage.apply(keys, decide, cascade=self._cascade)
        assert isinstance(outcome, WritePlan)
        return ForgetResult(removed=[s.preference for s in outcome.superseded])

    # -- observations (reflect) -----------------------------------------------------------------

    def write_observations(
        self,
        user_id: str,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate] = (),
    ) -> ObservationResult:
        """Store reflect's observations: screened like preference content, deduplicated.

        A proposal with the same normalised statement or the same set of sources as a stored
        observation merges into it (+α); ``updates`` move existing observations by evidence
        (+α, −α, −2α; :func:`~.observations.move_confidence`). Source ids that are not active
        preferences are dropped, and a proposal left with none is rejected; stored
        observations with no active source left are removed. One transaction, with
        ``observed`` / ``reinforced`` / ``weakened`` / ``contradicted`` / ``dropped`` /
        ``rejected`` change events (``source = reflect``).

        Args:
            user_id: Owner.
            candidates: Proposed observations.
            updates: Evidence about existing observations, by id.

        Returns:
            What was created, merged, updated, removed and rejected.

        Raises:
            InvalidInputError: ``user_id`` is invalid.
            StorageUnavailableError: Redis failed; nothing was stored.
            ConcurrencyError: Too many concurrent writers; nothing was stored.
        """
        keys = UserKeys.for_user(user_id)
        accepted, rejections = self._screen_observations(candidates)
        updates = self._screen_updates(updates, rejections)
        now = utcnow()
        alpha = self.settings.observation_alpha

        def decide(active_ids: set[str], existing: dict[str, Observation]) -> ObservationPlan:
            plan = plan_observations(
                user_id, existing, active_ids, accepted, updates, alpha=alpha, now=now,
                max_observations=self.settings.max_observations,
            )
            plan.result.rejected[:0] = rejections
            plan.events += [
                ChangeEvent(
                    op="rejected", content=_printable(r.content[:200]), reason=r.reason,
                    source="reflect", at=now,
                )
                for r in plan.result.rejected
            ]
            return plan

        return self.storage.apply_observations(keys, decide).result

    def _screen_observations(
        self, candidates: Sequence[ObservationCandidate]
    ) -> tuple[list[ObservationCandidate], list[Rejection]]:
        accepted: list[ObservationCandidate] = []
        rejections: list[Rejection] = []
        for candidate in candidates:
            content = clean_text(candidate.content)
            reason = screen_content(content, max_chars=self.settings.max_content_chars)
            if reason:
                rejections.append(Rejection(content=_printable(candidate.content), reason=reason))
            else:
                accepted.append(candidate.model_copy(update={"content": content}))
        return accepted, rejections

    def _screen_updates(
        self, updates: Sequence[ObservationUpdate], rejections: list[Rejection]
    ) -> list[ObservationUpdate]:
        """Updates whose restated content (if any) passes the screen; the rest rejected."""
        kept: list[ObservationUpdate] = []
        for update in updates:
            if update.content is None:
                kept.append(update)
                continue
            content = clean_text(update.content)
            reason = screen_content(content, max_chars=self.settings.max_content_chars)
            if reason:
                rejections.append(Rejection(content=_printable(update.content), reason=reason))
            else:
                kept.append(update.model_copy(update={"content": content}))
        return kept

    def _cascade(self, plan: WritePlan, existing: dict[str, Observation]) -> ObservationPlan:
        """Forget/supersede/merge → observations, inside the preference write's transaction."""
        return plan_cascade(
            plan, existing, alpha=self.settings.observation_alpha, now=utcnow()
        )

    # -- history --------------------------------------------------------------------------------

    def record_history(self, user_id: str, snapshot: HistorySnapshot) -> None:
        """Store what the user did (never mixed into preferences).

        Raises:
            InvalidInputError: The summary is empty, too long or instruction-like,
                or the payload is not JSON text or over 16 KiB.
        """
        keys = UserKeys.for_user(user_id)
        summary = clean_text(snapshot.summary)
        reason = screen_content(summary, max_chars=MAX_SUMMARY_CHARS)
        if reason:
            raise InvalidInputError(f"history snapshot refused: {reason}")
        check_payload(snapshot.payload)
        self.storage.add_history(keys, snapshot.model_copy(update={"summary": summary}))


_SLOT_HINT_RE = re.compile(
    r"\b(?:favou?rite|fave|fav|current|go-to)\b|最喜欢的|最爱的|现在的|目前的", re.IGNORECASE
)
"""Cheap test for a sentence that may fill a single-valued slot; only those are parsed."""


def _objects_of(candidate: PreferenceCandidate) -> PreparedCandidate:
    """Normalised objects of a screened candidate, derived from content where missing.

    Keywords come from the candidate, or from its content (:func:`~.objects.derive_objects`,
    the extractor capture uses) when it has none; the slot likewise; ``protected`` and
    the retracted objects from the retraction's own clause (:func:`~.objects.retracted_objects`).
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
    return PreparedCandidate(
        candidate,
        keywords,
        slot=slot_key(slot),
        protected=protected and candidate.polarity == "dislike",
        retracted=retracted_objects(candidate.content) if candidate.polarity == "like" else [],
    )


def _printable(text: str) -> str:
    """``text`` with anything that is not valid UTF-8 (lone surrogates) replaced."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _result(plan: WritePlan, rejections: list[Rejection]) -> GateResult:
    return GateResult(
        created=list(plan.created),
        merged=list(plan.merged),
        superseded=list(plan.superseded),
        rejected=list(rejections),
    )


__all__ = ["PersistenceGate"]
