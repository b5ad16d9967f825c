"""The persistence gate: the pure planner of every write (DESIGN.md §6).

screen → normalise → (the caller embeds) → resolve contradictions and merge duplicates
(:mod:`.resolution`) → a list of small typed operations (:mod:`.ops`) plus the result that
says exactly what they do. No I/O happens here: :class:`~.client.Memory` and
:class:`~.client.AsyncMemory` read a :class:`~.ops.UserSnapshot`, ask the gate for a plan,
and commit it in one transaction, planning again on fresh data when another writer won the
race. Every write path has a planning method here: preferences (remember, capture, import,
spool replay), forget, reflect's observations, the check-up's flags, re-embedded vectors,
history snapshots and transcripts.

No LLM runs here: candidates arrive structured, and contradiction resolution is set
arithmetic on keywords (microseconds) on every turn's hot path.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

from ..model import (
    MAX_SUMMARY_CHARS,
    ChangeEvent,
    Flag,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    Polarity,
    Preference,
    PreferenceCandidate,
    Rejection,
    Settings,
    Superseded,
    check_payload,
    clean_lines,
    clean_text,
)
from .blocks import strip_injected_blocks
from .capture.categories import Glosses
from .erasure_index import may_forget
from .flag_plans import cross_language_flag_ops, scrubbed_flags
from .holding import meaning_verdicts
from .identity import CrossLanguage
from .intent_screen import IntentBank
from .matching import forget_matches, names_protection
from .observations import (
    ObservationCandidate,
    ObservationResult,
    ObservationUpdate,
    plan_cascade,
    plan_observations,
)
from .ops import (
    AppendEvent,
    AppendTranscript,
    DeleteFlag,
    DeleteObservation,
    Op,
    PushHistory,
    PutFlag,
    PutPreference,
    PutVector,
)
from .plan_steps import (
    objects_of,
    observation_ops,
    outlived,
    preference_ops,
    printable,
    redacted,
    rejected_event,
    tombstone_of,
    tombstone_ops,
)
from .resolution import PreparedCandidate, WritePlan, plan_write
from .screen import MAX_SLOT_CHARS, screen_content, screen_keywords, screen_label
from .snapshot import UserSnapshot
from .standing_orders import standing_order_doubt
from .tombstones import Erasure, Tombstone, content_digest

logger = logging.getLogger(__name__)

T = TypeVar("T")

MAX_TRANSCRIPT_CHARS = 8_000
"""Longest transcript message kept, in characters (longer ones are cut, marked ``…``)."""
TRANSCRIPT_ROLES = ("user", "assistant", "system", "tool")
EARLIEST_TIME = datetime(2000, 1, 1, tzinfo=UTC)
"""No stated time (a preference's ``at``, a history snapshot's ``at``) lies before this:
an earlier one is a bad clock or a forged record."""
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass
class Plan(Generic[T]):
    """One write, planned against one snapshot.

    Attributes:
        ops: What to commit, in order.
        result: What the write does, for the caller (a :class:`GateResult`, …).
        guarded: Commit only if the user's revision is still the snapshot's (the plan read
            the snapshot); unguarded writes (history, transcripts) never conflict.
    """

    ops: list[Op] = field(default_factory=list)
    result: T = None  # type: ignore[assignment]
    guarded: bool = True


MAX_SAID_CHARS = 2_000
"""Longest sentence a captured candidate may come from (:attr:`PreferenceCandidate.said`); a
longer one is refused, not screened (the patterns are not linear on long runs)."""


class PersistenceGate:
    """Plans every write of a user's memory; holds no storage and does no I/O.

    Args:
        settings: Limits (content length, keyword count, caps, α).
        glosses: English dictionary glosses of a Chinese word, read by the client
            (:func:`penchant.memory.embeddings.glosses`); with them a Chinese object the
            lexicons lack gets the category its English names have
            (:func:`~.capture.categories.glossed_category`). ``None``: lexicons only.
    """

    def __init__(self, settings: Settings | None = None, glosses: Glosses | None = None) -> None:
        self.settings = settings or Settings()
        self.glosses = glosses

    # -- preferences ----------------------------------------------------------------------------

    def prepare(
        self, batch: Sequence[PreferenceCandidate]
    ) -> tuple[list[PreparedCandidate], list[Rejection]]:
        """Screen and normalise candidates; refused ones come back as rejections."""
        prepared: list[PreparedCandidate] = []
        rejections: list[Rejection] = []
        for candidate in batch:
            content = clean_text(candidate.content)
            # screened with its line breaks: a role header after one starts a line
            reason = screen_content(
                clean_lines(candidate.content), max_chars=self.settings.max_content_chars
            )
            reason = reason or screen_keywords(
                candidate.keywords, max_keywords=self.settings.max_keywords
            )
            reason = reason or screen_label("category", candidate.category, max_chars=32)
            reason = reason or screen_label("slot", candidate.slot, max_chars=MAX_SLOT_CHARS)
            if not reason and candidate.said and clean_text(candidate.said) != content:
                said = screen_content(clean_lines(candidate.said), max_chars=MAX_SAID_CHARS)
                if said:
                    reason = f"the sentence it was captured from {said.removeprefix('content ')}"
            reason = reason or self.time_problem(
                ("at", candidate.at), ("created_at", candidate.created_at),
                ("last_seen_at", candidate.last_seen_at),
            )
            if reason:
                rejections.append(Rejection(content=printable(candidate.content), reason=reason))
                continue
            cleaned = candidate.model_copy(update={"content": content})
            prepared.append(objects_of(cleaned, self.glosses))
            prepared[-1].doubt = standing_order_doubt(candidate.content, candidate.said)
        return prepared, rejections

    @staticmethod
    def screen_meaning(
        prepared: list[PreparedCandidate], bank: IntentBank | None
    ) -> tuple[list[PreparedCandidate], list[Rejection]]:
        """Refuse prepared candidates whose embedding reads as an injection intent
        (:mod:`.intent_screen`), whole, in a piece or in the sentence it was captured from
        (``said_embedding``, named so in the reason). Runs after the caller embedded
        them (:func:`embed_prepared`), on those very vectors: each candidate is embedded once,
        for this and for storing; a candidate of several sentences also has its pieces
        embedded (``piece_embeddings``), for this only.

        Args:
            prepared: Screened, embedded candidates.
            bank: The intent bank in the embedder's space; ``None`` (no embedder, or one
                without a calibrated threshold) refuses nothing.

        Returns:
            The candidates kept, each with its ``doubt`` set when it falls in the band
            below the refusal threshold (:func:`~.holding.hold_doubtful`), and a rejection
            for each refused one.
        """
        verdicts = meaning_verdicts(prepared, bank)
        for p, (_refusal, doubt) in zip(prepared, verdicts, strict=True):
            p.doubt = p.doubt or doubt  # a standing order's doubt (:meth:`prepare`) first
        kept = [p for p, (why, _) in zip(prepared, verdicts, strict=True) if not why]
        refused = [Rejection(content=printable(p.candidate.content), reason=why)
                   for p, (why, _) in zip(prepared, verdicts, strict=True) if why]  # fmt: skip
        return kept, refused

    def time_problem(self, *stamps: tuple[str, datetime | None]) -> str:
        """Why a stated time is refused, or ``""``: none may lie before :data:`EARLIEST_TIME`
        or more than ``Settings.clock_skew_seconds`` in the future."""
        latest = datetime.now(UTC) + timedelta(seconds=self.settings.clock_skew_seconds)
        for name, stamp in stamps:
            if stamp is None:
                continue
            if stamp < EARLIEST_TIME:
                return f"{name} {stamp.isoformat()} is before {EARLIEST_TIME:%Y}; give a real time"
            if stamp > latest:
                return (
                    f"{name} {stamp.isoformat()} is in the future (more than "
                    f"{self.settings.clock_skew_seconds} s ahead, PENCHANT_CLOCK_SKEW_SECONDS)"
                )
        return ""

    def plan_remember(
        self,
        snapshot: UserSnapshot,
        prepared: list[PreparedCandidate],
        rejections: list[Rejection],
        now: datetime,
        *,
        created_op: str = "created",
        cross: CrossLanguage | None = None,
    ) -> Plan[GateResult]:
        """Creates, merges and supersessions of prepared candidates, with their events.

        Args:
            snapshot: The user's memory the plan is decided against (not modified).
            prepared: Screened candidates (:meth:`prepare`), embedded when an embedder is set.
            rejections: Candidates :meth:`prepare` refused (logged as ``rejected``).
            now: Time of the write.
            created_op: ``created``, or ``imported`` (import restores records by content).
            cross: Object-phrase vectors, glosses and thresholds computed by the client for
                cross-language identity (:mod:`.identity`); pairs in its middle band become
                check-up flags (``flagged`` events, ``source`` of the write), never deletions.
        """
        ops: list[Op] = [
            AppendEvent(rejected_event(r, now, source=None)) for r in rejections
        ]
        if created_op != "imported":  # a restore after a forget restores
            prepared, buried = outlived(snapshot.tombstones, prepared)
            ops += [AppendEvent(rejected_event(r, now, source=None)) for r in buried]
            rejections = [*rejections, *buried]
        write = plan_write(
            snapshot.user_id, snapshot.active, prepared, now, created_op=created_op, cross=cross
        )
        over = self._over_limit(snapshot, write)
        if over:
            if created_op == "imported":
                raise InvalidInputError(f"import refused, nothing was stored: {over}")
            refused = [Rejection(content=p.candidate.content, reason=over) for p in prepared]
            refused = [*rejections, *refused]
            ops = [AppendEvent(rejected_event(r, now, source=None)) for r in refused]
            return Plan(ops, GateResult(rejected=refused))
        outdated = [
            Rejection(
                content=cand.content,
                reason=f"older than the stored statement {newer.id} ({newer.content!r}); "
                "the newer one stands",
            )
            for cand, newer in write.outdated
        ]
        ops += [AppendEvent(rejected_event(r, now, source=None)) for r in outdated]
        ops += preference_ops(write)
        ops += cross_language_flag_ops(snapshot, write, now)
        ops += self._cascade_ops(write, snapshot, now)
        ops += tombstone_ops(snapshot, write, now)
        result = GateResult(
            created=list(write.created), merged=list(write.merged),
            superseded=list(write.superseded), rejected=[*rejections, *outdated],
        )  # fmt: skip
        return Plan(ops, result)

    def _over_limit(self, snapshot: UserSnapshot, write: WritePlan) -> str:
        """Why a write that grows the active set past ``Settings.max_preferences`` is refused."""
        limit = self.settings.max_preferences
        before = len(snapshot.active.prefs)
        after = len(write.after.prefs) if write.after is not None else before
        if after <= limit or after <= before:
            return ""
        return (
            f"the user would hold {after} active preferences; the limit is {limit} "
            "(PENCHANT_MAX_PREFERENCES). Forget some first, or raise the limit"
        )

    def _cascade_ops(self, write: WritePlan, snapshot: UserSnapshot, now: datetime) -> list[Op]:
        if not snapshot.observations or not (write.deletes or write.merged):
            return []
        cascade = plan_cascade(
            write, snapshot.observations, alpha=self.settings.observation_alpha, now=now
        )
        return observation_ops(cascade)

    # -- forget ---------------------------------------------------------------------------------

    @staticmethod
    def check_forget(text: str, polarity: Polarity | None) -> None:
        """Refuse an empty description or an unknown polarity.

        Raises:
            InvalidInputError: Naming the bad value.
        """
        if not clean_text(text or ""):
            raise InvalidInputError("forget needs a description, e.g. 'coffee'; got empty text")
        if polarity not in (None, "like", "dislike"):
            raise InvalidInputError(f"polarity {polarity!r} is not 'like' or 'dislike'")

    def plan_forget(
        self, snapshot: UserSnapshot, text: str, polarity: Polarity | None, now: datetime
    ) -> Plan[tuple[ForgetResult, Erasure]]:
        """Remove the preferences that ``text`` names (DESIGN.md §7), cascading into
        observations; exactly the removed ones are reported. The forget itself is kept as a
        tombstone (even when it removed nothing), so an older spooled statement of what it
        names is not re-created later (:mod:`.tombstones`).

        Unless ``Settings.keep_full_history``, the ``forgotten`` events (and the ``dropped``
        events of observations the forget retires) are tombstone events: the id, the time and
        a salted digest of the content, not the text. The result carries the
        :class:`~.tombstones.Erasure` the client then applies to the records that copy the
        text (the change log's older events, idempotency records, transcripts, history).
        """
        self.check_forget(text, polarity)
        keep = self.settings.keep_full_history
        salt = snapshot.user_id
        write = WritePlan()
        protected_only = names_protection(text)  # "allergic to shrimp": not a like of shrimp
        for pref in snapshot.preferences():
            if (polarity and pref.polarity != polarity) or (protected_only and not pref.protected):
                continue
            if may_forget(text, pref.keywords, pref.content) and forget_matches(
                text, pref.keywords, pref.content
            ):
                write.deletes.add(pref.id)
                write.superseded.append(Superseded(preference=pref, replaced_by=""))
                write.events.append(
                    ChangeEvent(
                        op="forgotten", before=pref.public_dict(), reason=f"forget {text!r}",
                        at=now,
                    )
                    if keep
                    else ChangeEvent(
                        op="forgotten", before=tombstone_of(pref.public_dict()),
                        reason=f"forgotten on request; its text is erased (preference {pref.id})",
                        at=now,
                        digest=content_digest(salt, pref.content),
                    )
                )
        cascade = self._cascade_ops(write, snapshot, now)
        retired = {op.observation_id for op in cascade if isinstance(op, DeleteObservation)}
        if not keep:
            cascade = [redacted(op, salt) for op in cascade]
        ops = preference_ops(write) + cascade
        ops += tombstone_ops(snapshot, write, now, Tombstone.of_forget(text, polarity, now, salt))
        removed = [s.preference for s in write.superseded]
        erasure = Erasure(
            text=text, polarity=polarity, ids=frozenset({p.id for p in removed} | retired),
            contents=tuple(p.content for p in removed),
            keywords=tuple(dict.fromkeys(k for p in removed for k in p.keywords)),
            keep_history=keep,
        )  # fmt: skip
        scrubbed = scrubbed_flags(snapshot, erasure, write.deletes)
        held = [op.flag_id for op in scrubbed if snapshot.flags[op.flag_id].kind == "held"]
        return Plan([*ops, *scrubbed], (ForgetResult(removed=removed, dropped_held=held),
                                        erasure))  # fmt: skip

    # -- observations (reflect) -----------------------------------------------------------------

    def screen_observations(
        self,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate] = (),
    ) -> tuple[list[ObservationCandidate], list[ObservationUpdate], list[Rejection]]:
        """Screen proposals and restated updates like preference content."""
        accepted: list[ObservationCandidate] = []
        kept: list[ObservationUpdate] = []
        rejections: list[Rejection] = []
        for candidate in candidates:
            content = clean_text(candidate.content)
            reason = screen_content(
                clean_lines(candidate.content), max_chars=self.settings.max_content_chars
            )
            if reason:
                rejections.append(Rejection(content=printable(candidate.content), reason=reason))
            else:
                accepted.append(candidate.model_copy(update={"content": content}))
        for update in updates:
            if update.content is None:
                kept.append(update)
                continue
            content = clean_text(update.content)
            reason = screen_content(
                clean_lines(update.content), max_chars=self.settings.max_content_chars
            )
            if reason:
                rejections.append(Rejection(content=printable(update.content), reason=reason))
            else:
                kept.append(update.model_copy(update={"content": content}))
        return accepted, kept, rejections

    def plan_observations(
        self,
        snapshot: UserSnapshot,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate],
        rejections: list[Rejection],
        now: datetime,
    ) -> Plan[ObservationResult]:
        """Reflect's observations: deduplicated, moved by evidence, orphans dropped
        (:func:`~.observations.plan_observations`), with ``source = reflect`` events."""
        plan = plan_observations(
            snapshot.user_id, snapshot.observations, set(snapshot.active.prefs), candidates,
            updates, alpha=self.settings.observation_alpha, now=now,
            max_observations=self.settings.max_observations,
        )  # fmt: skip
        plan.result.rejected[:0] = rejections
        plan.events += [
            rejected_event(r, now, source="reflect") for r in plan.result.rejected
        ]
        return Plan(observation_ops(plan), plan.result)

    # -- check-up flags -------------------------------------------------------------------------

    def plan_flags(
        self, snapshot: UserSnapshot, found: Sequence[Flag], now: datetime
    ) -> Plan[list[Flag]]:
        """Store the check-up's new flags (a known id keeps its first record) and drop the
        flags whose preferences are no longer all active; ``flagged`` / ``unflagged`` events
        (``source = checkup``). The result is the flags that were new."""
        active = set(snapshot.active.prefs)
        new = [f for f in found if f.id not in snapshot.flags]
        ops: list[Op] = []
        for flag in new:
            ops.append(PutFlag(flag))
            ops.append(AppendEvent(ChangeEvent(
                op="flagged", after=flag.public_dict(), content=flag.describe(),
                reason=flag.reason, source="checkup", at=now,
            )))  # fmt: skip
        for flag in snapshot.flags.values():
            if not set(flag.preference_ids) <= active:
                ops.append(DeleteFlag(flag.id))
                ops.append(AppendEvent(ChangeEvent(
                    op="unflagged", before=flag.public_dict(), content=flag.describe(),
                    reason="a preference of the pair is no longer active", source="checkup",
                    at=now,
                )))  # fmt: skip
        return Plan(ops, new)

    # -- re-embedding ---------------------------------------------------------------------------

    def plan_vectors(
        self, snapshot: UserSnapshot, updates: dict[str, Preference], now: datetime
    ) -> Plan[int]:
        """Replace vectors of preferences that are still active with the same content.

        Only the vector fields change, so a write that happened meanwhile is never
        overwritten; each rewritten vector is logged as a ``reembedded`` event. The result is
        how many vectors were replaced.

        Args:
            snapshot: The user's memory now.
            updates: Preference id → the preference as embedded (content it was embedded
                from, new ``embedding``, ``embedding_model``, ``embedding_dim``).
            now: Time of the write.
        """
        ops: list[Op] = []
        for pref_id, new in updates.items():
            stored = snapshot.active.prefs.get(pref_id)
            if stored is None or stored.content != new.content or new.embedding is None:
                continue
            fresh = stored.model_copy(update={
                "embedding_model": new.embedding_model, "embedding_dim": new.embedding_dim,
            })  # fmt: skip
            fresh.embedding = new.embedding
            ops += [PutPreference(fresh), PutVector(pref_id, new.embedding)]
            ops.append(AppendEvent(ChangeEvent(
                op="reembedded", before={"id": pref_id, "embedding_model": stored.embedding_model,
                                         "embedding_dim": stored.embedding_dim},
                after={"id": pref_id, "embedding_model": new.embedding_model,
                       "embedding_dim": new.embedding_dim},
                reason="vector moved to the configured embedding model", at=now,
            )))  # fmt: skip
        return Plan(ops, sum(isinstance(op, PutVector) for op in ops))

    # -- history and transcripts ----------------------------------------------------------------

    def plan_history(self, snapshot: HistorySnapshot) -> Plan[None]:
        """Store what the user did (never mixed into preferences).

        Raises:
            InvalidInputError: The summary is empty, too long or instruction-like, the
                kind a disguised or instruction-like label, or the payload is not JSON
                text, nested too deeply or over 16 KiB.
        """
        summary = clean_text(snapshot.summary)
        reason = screen_content(clean_lines(snapshot.summary), max_chars=MAX_SUMMARY_CHARS)
        reason = reason or screen_label("kind", snapshot.kind, max_chars=32)
        if reason:
            raise InvalidInputError(f"history snapshot refused: {reason}")
        check_payload(snapshot.payload)
        when = self.time_problem(("at", snapshot.at))
        if when:
            raise InvalidInputError(f"history snapshot refused: {when}")
        cleaned = snapshot.model_copy(update={"summary": summary})
        return Plan([PushHistory(cleaned)], None, guarded=False)

    def plan_transcript(
        self, thread_id: str, role: str, text: str, now: datetime
    ) -> Plan[dict[str, str] | None]:
        """One transcript message, screened: our injected blocks stripped (a recalled memory
        is never kept as the user's words), control characters removed (line breaks kept), at most
        :data:`MAX_TRANSCRIPT_CHARS`. The result is the stored entry, ``None`` when nothing
        is left to store.

        Raises:
            InvalidInputError: An empty thread id or an unknown role.
        """
        if not (thread_id or "").strip():
            raise InvalidInputError("transcript needs a thread id, e.g. 'default'")
        if role not in TRANSCRIPT_ROLES:
            raise InvalidInputError(f"transcript role {role!r} is not one of {TRANSCRIPT_ROLES}")
        cleaned = _CONTROL_RE.sub("", strip_injected_blocks(printable(text or ""))).strip()
        if len(cleaned) > MAX_TRANSCRIPT_CHARS:
            cleaned = cleaned[: MAX_TRANSCRIPT_CHARS - 1] + "…"
        if not cleaned:
            return Plan([], None, guarded=False)
        entry = {"role": role, "text": cleaned, "at": now.isoformat()}
        return Plan([AppendTranscript(thread_id, entry)], entry, guarded=False)


__all__ = ["EARLIEST_TIME", "MAX_TRANSCRIPT_CHARS", "PersistenceGate", "Plan"]
