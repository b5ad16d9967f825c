"""What :class:`~.sync.Memory` and :class:`~.asyncio.AsyncMemory` share: the write loop as a
generator of I/O requests, the planning of every write, the snapshot cache. No I/O.

Every write of a user's memory runs the same loop, written once
(:meth:`BaseMemory._write_steps`): take the user's snapshot (the cached one, or one
round-trip read), let the pure gate plan small typed operations, commit them in one atomic
script at the snapshot's revision, and on a conflict back off (:class:`~.retry.RetryPolicy`)
and plan again on fresh data. The loop *yields* its I/O (:class:`Read`, :class:`Commit`,
:class:`Sleep`); :class:`~.sync.Memory` answers with the sync backend, and
:class:`~.asyncio.AsyncMemory` with the async one, so the two share all logic and duplicate
only the I/O (httpx's ``BaseClient`` / ``Client`` / ``AsyncClient``; LangGraph's
``BaseStore.batch`` / ``abatch``).

One :class:`~..core.UserSnapshot` per user and revision is cached (LRU): after Penchant's own
commit it is updated in place from the committed operations; after another process's write
(or a conflict) the next read, given the cached snapshot, fetches only the fields changed
since its revision, from the user's revision log, in the same round trip (:mod:`~..backends.wire`).
"""

from __future__ import annotations

import logging
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel

from ..core import (
    CommitResult,
    CrossLanguage,
    Idempotency,
    IntentBank,
    PersistenceGate,
    Plan,
    PreparedCandidate,
    PutPreference,
    UserSnapshot,
    answered_ops,
    apply_ops,
    bank_texts,
    build_bank,
    default_directive_head,
    held_of,
    hold_doubtful,
    hold_ops,
    idempotency_key,
    payload_digest,
    touches_snapshot,
    turn_batch,
)
from ..embeddings import Embedder, embedding_text, glosses, primary_part, threshold
from ..model import (
    Flag,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    Polarity,
    Preference,
    PreferenceCandidate,
    ReplayedWrite,
    Settings,
    StorageFullError,
    UserKeys,
    utcnow,
    validate_user_id,
)
from .identity import ObjectVectors
from .reading import Captured, embed_prepared
from .recovery import RecoveryMixin, _decode_forget, _encode_forget, one_erase
from .retry import RetryPolicy, internal_idempotency_ttl
from .spool import WriteSpool
from .steps import Commit, Erase, Read, Sleep, Steps, T

if TYPE_CHECKING:
    from ..core import Observation, ObservationCandidate, ObservationUpdate
    from ..model import Flag
    from ..recall import RecallResult

logger = logging.getLogger(__name__)

_INTENT_BANKS: dict[tuple[str, int, float, int | None], IntentBank] = {}
"""Intent banks by (embedder name, width, threshold): embedded once per process and space."""
SNAPSHOT_CACHE_USERS = 256
"""Users whose snapshot is kept in-process (least recently used dropped first)."""


@dataclass
class MemoryContext:
    """Everything one turn's injection needs, read in one round trip.

    Attributes:
        snapshot: The user's memory at one revision.
        history: Recent history snapshots, newest first.
        recall: The preferences recalled for the query.
    """

    snapshot: UserSnapshot
    history: list[HistorySnapshot] = field(default_factory=list)
    recall: RecallResult | None = None

    @property
    def preferences(self) -> list[Preference]:
        """The active preferences, oldest first."""
        return self.snapshot.preferences()

    @property
    def observations(self) -> list[Observation]:
        """Reflect's observations, most confident first."""
        return self.snapshot.observations_by_confidence()


class BaseMemory(RecoveryMixin):
    """What :class:`Memory` and :class:`AsyncMemory` share: validation, planning, the write
    loop and the snapshot cache. No I/O.

    Args:
        settings: Limits and configuration; ``Settings()`` by default.
        embedder: Optional embedder; with one, preferences are stored with vectors and recall
            has a semantic channel.
        spool: Optional local spool for writes made while Redis is unreachable.
    """

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        spool: WriteSpool | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.embedder = embedder
        self.spool = spool
        self.gate = PersistenceGate(self.settings, glosses=glosses)
        self.retry = RetryPolicy(budget_seconds=self.settings.write_retry_seconds)
        self._snapshots: OrderedDict[str, UserSnapshot] = OrderedDict()
        self._registered: set[str] = set()
        self._recaller: Any = None
        self._replayed: list[ReplayedWrite] = []
        self._pending_erasures: list[Erase] = []
        self._object_vectors: ObjectVectors | None = None

    # -- the snapshot cache ---------------------------------------------------------------------

    def _cached(self, keys: UserKeys) -> UserSnapshot | None:
        snapshot = self._snapshots.get(keys.tag)
        if snapshot is not None:
            self._snapshots.move_to_end(keys.tag)
        return snapshot

    def _keep(self, keys: UserKeys, snapshot: UserSnapshot) -> UserSnapshot:
        self._snapshots[keys.tag] = snapshot
        self._snapshots.move_to_end(keys.tag)
        while len(self._snapshots) > SNAPSHOT_CACHE_USERS:
            self._snapshots.popitem(last=False)
        return snapshot

    # -- the write loop (sans I/O) --------------------------------------------------------------

    def _write_steps(
        self,
        keys: UserKeys,
        plan: Callable[[UserSnapshot], Plan[T]],
        *,
        what: str,
        idempotency: tuple[str, Callable[[T], str], Callable[[str], T]] | None = None,
    ) -> Steps[T]:
        """Plan against the snapshot and commit at its revision, re-planning after conflicts.

        Args:
            keys: The user's keys.
            plan: The gate's planning step for this write.
            what: The write, for a :class:`ConcurrencyError`.
            idempotency: ``(stored key, encode result, decode result)`` for a keyed write.
        """
        delays = self.retry.delays(what)
        fresh = False
        own_idem = self._own_idempotency()
        while True:
            snapshot = None if fresh else self._cached(keys)
            if snapshot is None:
                snapshot = self._keep(keys, (yield Read(keys)))
            planned = plan(snapshot)
            if not planned.ops:
                return planned.result
            idem = own_idem
            if idempotency is not None:
                key, encode, _decode = idempotency
                idem = Idempotency(
                    key, encode(planned.result), self.settings.idempotency_ttl_seconds
                )
            expected = snapshot.revision if planned.guarded else None
            outcome: CommitResult = yield Commit(keys, planned.ops, expected, idem)
            if outcome.status == "committed":
                self._committed(keys, snapshot, planned, outcome.revision)
                return planned.result
            if outcome.status == "replayed" and idempotency is not None:
                logger.info("idempotent replay of a write for %s", keys.user_id)
                return idempotency[2](outcome.replay or "")
            if outcome.status == "replayed":  # this very commit, resent after a lost reply
                logger.info("a resent write for %s had been stored already", keys.user_id)
                self._snapshots.pop(keys.tag, None)  # its new revision is unknown here
                return planned.result
            fresh = True
            yield Sleep(next(delays))

    def _own_idempotency(self) -> Idempotency:
        """The idempotency record of a write whose caller gave no key: unique to this call,
        so that a commit resent after a lost reply (a failover) is recognised and applied
        once (:mod:`..backends.cluster`)."""
        return Idempotency(
            f"call:{uuid.uuid4().hex}", "1",
            internal_idempotency_ttl(self.settings.write_retry_seconds), carries_text=False,
        )  # fmt: skip

    def _committed(self, keys: UserKeys, snapshot: UserSnapshot, plan: Plan[Any], rev: str) -> None:
        if touches_snapshot(plan.ops):
            self._keep(keys, apply_ops(snapshot, plan.ops, rev))

    def _needs_registration(self, keys: UserKeys, plan_ops: Sequence[Any]) -> bool:
        return keys.tag not in self._registered and any(
            isinstance(op, PutPreference) for op in plan_ops
        )

    def _intent_bank(self) -> IntentBank | None:
        """The injection-intent bank in this embedder's space (:mod:`..core.intent_screen`),
        of its primary part for a fused space (it reads the primary block of the fused
        vectors), embedded once per embedder name in this process, with the directive head
        trained in that space (:mod:`..core.directive_head`) when there is one; ``None``
        without an embedder or a calibrated ``injection_cosine``."""
        whole = self.embedder
        embedder = primary_part(whole)
        cosine = threshold(embedder, "injection_cosine") if embedder is not None else 0.0
        if embedder is None or cosine <= 0.0:
            return None
        fused = whole.dim if whole is not None and whole is not embedder else None
        key = (embedder.name, embedder.dim, cosine, fused)
        if key not in _INTENT_BANKS:
            head = default_directive_head()
            _INTENT_BANKS[key] = build_bank(
                embedder.embed(bank_texts()), cosine,
                head if head.space == embedder.name else None, fused,
            )
        return _INTENT_BANKS[key]

    # -- planning helpers -----------------------------------------------------------------------

    def _remember_steps(
        self,
        user_id: str,
        batch: list[PreferenceCandidate],
        *,
        idempotency_key: str | None,
        created_op: str = "created",
        known: Mapping[str, np.ndarray] | None = None,
        confirming: Flag | None = None,
        holding: str | None = None,
    ) -> Steps[GateResult]:
        """The gate's write of ``batch``, holding doubtful ones (:mod:`..core.holding`);
        with ``holding`` (an import's held items), every candidate the screens keep is held,
        for the screen's own doubt or else this reason."""
        keys = UserKeys.for_user(user_id)
        prepared, rejections = self.gate.prepare(batch)
        embed_prepared(self.embedder, prepared, known)
        bank = self._intent_bank()
        prepared, by_meaning = self.gate.screen_meaning(prepared, bank)
        for p in prepared if holding else ():
            p.doubt = p.doubt or holding
        rejections = [*rejections, *by_meaning]
        stored, held = hold_doubtful(prepared)
        prepared, held = (prepared, []) if confirming else (stored, held)
        now = utcnow()
        idem = None
        if idempotency_key:
            digest = payload_digest(created_op, *(c.model_dump_json() for c in batch))
            idem = (idempotency_key_for(idempotency_key, digest), _encode_gate, _decode_gate)

        def plan(snapshot: UserSnapshot) -> Plan[GateResult]:
            cross = self._cross_language(snapshot, prepared)
            planned = self.gate.plan_remember(
                snapshot, prepared, rejections, now, created_op=created_op, cross=cross
            )
            ops, planned.result.held, overflow = hold_ops(snapshot, held, now)
            planned.result.rejected += overflow
            if confirming is not None and not planned.result.rejected:
                ops += answered_ops(held_of(snapshot, confirming.id), "confirmed", now)
            planned.ops += ops
            return planned

        return (yield from self._write_steps(
            keys, plan, what=f"write preferences of {user_id!r}", idempotency=idem))

    def _cross_language(
        self, snapshot: UserSnapshot, prepared: list[PreparedCandidate]
    ) -> CrossLanguage | None:
        """Object-phrase vectors and glosses for this write's cross-language comparisons,
        computed here (the client) and handed to the pure gate; ``None`` when it has none."""
        vectors = self._object_vectors
        primary = primary_part(self.embedder)
        if vectors is None or vectors.embedder is not primary:
            vectors = self._object_vectors = ObjectVectors(primary)
        return vectors.for_write(snapshot.active, prepared)

    def _forget_steps(
        self, user_id: str, text: str, polarity: Polarity | None, at: datetime | None = None,
        idempotency_key: str | None = None,
    ) -> Steps[ForgetResult]:
        """The forget's commit (active set, vectors, observations, tombstones, tombstone
        events), then the scrub of the records that copy the text (:class:`Erase`).
        ``at``: when it was asked (a spooled forget replays at its own time). With an
        ``idempotency_key`` the commit stores the removed ids (no text), so a retry after a
        lost reply reports them and scrubs again instead of answering "removed nothing"."""
        keys = UserKeys.for_user(user_id)
        self.gate.check_forget(text, polarity)
        now = at or utcnow()
        idem = None
        if idempotency_key:
            digest = payload_digest("forget", text, polarity or "")
            idem = (idempotency_key_for(idempotency_key, digest), _encode_forget,
                    lambda raw: _decode_forget(raw, text, polarity, self.settings))  # fmt: skip
        result, erasure = yield from self._write_steps(
            keys, lambda s: self.gate.plan_forget(s, text, polarity, now),
            what=f"forget for {user_id!r}", idempotency=idem)
        if self._object_vectors is not None:
            self._object_vectors.forget(result.removed)
        texts = [embedding_text(p.content, p.category) for p in result.removed]
        scrubbed = yield Erase(keys, erasure, texts)
        result.scrub_pending = scrubbed is None
        return result

    def _forgot_user(self, keys: UserKeys) -> None:
        """Drop what this process keeps of a deleted user (snapshot, registration)."""
        self._snapshots.pop(keys.tag, None)
        self._registered.discard(keys.tag)

    def _observation_steps(
        self,
        user_id: str,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate],
    ) -> Steps[Any]:
        keys = UserKeys.for_user(user_id)
        accepted, kept, rejections = self.gate.screen_observations(candidates, updates)
        now = utcnow()
        return (yield from self._write_steps(
            keys, lambda s: self.gate.plan_observations(s, accepted, kept, rejections, now),
            what=f"write observations of {user_id!r}"))

    def _flag_steps(self, user_id: str, found: Sequence[Flag]) -> Steps[Any]:
        keys = UserKeys.for_user(user_id)
        now = utcnow()
        return (yield from self._write_steps(
            keys, lambda s: self.gate.plan_flags(s, found, now),
            what=f"write check-up flags of {user_id!r}"))

    def _vector_steps(self, user_id: str, updates: dict[str, Preference]) -> Steps[Any]:
        keys = UserKeys.for_user(user_id)
        now = utcnow()
        return (yield from self._write_steps(
            keys, lambda s: self.gate.plan_vectors(s, updates, now),
            what=f"write embeddings of {user_id!r}"))

    def _transcript_steps(self, user_id: str, thread_id: str, role: str, text: str) -> Steps[Any]:
        keys = UserKeys.for_user(user_id)
        planned = self.gate.plan_transcript(thread_id, role, text, utcnow())
        return (yield from self._write_steps(keys, lambda _s: planned, what="write transcript"))

    @staticmethod
    def _batch(candidates: PreferenceCandidate | Sequence[PreferenceCandidate]) -> list[
        PreferenceCandidate
    ]:
        return [candidates] if isinstance(candidates, PreferenceCandidate) else list(candidates)

    def _spool_remember(self, user_id: str, batch: list[PreferenceCandidate]) -> GateResult:
        """Save a write that cannot reach Redis, stamped with its original time."""
        assert self.spool is not None
        now = utcnow()
        stamped = [c.model_copy(update={"at": c.at or now}) for c in batch]
        try:
            self.spool.append(
                "remember", user_id, {"candidates": [c.model_dump(mode="json") for c in stamped]}
            )
        except OSError as exc:
            raise StorageFullError(
                f"Redis is unreachable and the local spool {self.spool.path} cannot be written "
                f"({exc.strerror or exc}); the write was NOT stored. Free space on that disk or "
                "set PENCHANT_HOME to a writable directory."
            ) from exc
        return GateResult(deferred=[c.content for c in batch])

    def _replay_steps(self, entry: dict[str, Any]) -> Steps[Any]:
        """Steps of one spooled write, at its original time (``PreferenceCandidate.at``, a
        forget's ``at``) and, for a remember, under its own idempotency key, so a replay
        interrupted and run again applies once (a forget is idempotent by nature)."""
        if entry.get("op") == "forget":
            payload = entry["payload"]
            return self._forget_steps(
                entry["user_id"], payload["text"], payload.get("polarity"),
                datetime.fromisoformat(payload["at"]),
            )  # fmt: skip
        batch = [PreferenceCandidate(**c) for c in entry["payload"]["candidates"]]
        return self._remember_steps(entry["user_id"], batch, idempotency_key=entry["key"])

    def _captured(
        self,
        user_id: str,
        text: str,
        also: Sequence[PreferenceCandidate] = (),
        stored: Sequence[Preference] = (),
        queued: Sequence[PreferenceCandidate] = (),
    ) -> Captured:
        """Capture of one message (after validating ``user_id``): ``queued`` (the model's
        tool calls of this turn) first, then the rule capture, then ``also``, less what
        duplicates another candidate or ``stored`` (:func:`turn_batch`). Rules cut clauses
        and pull objects; the statement head reads each clause's kind (one sentence
        embedding per clause, in one batch, with this client's embedder when it is
        USE-multilingual, else the process's shared one). The clause vectors come back in
        :attr:`Captured.known` when they are in this client's space, for the gate to reuse."""
        from ..core import extract_preferences
        from .reading import reader_for

        validate_user_id(user_id)
        reader = reader_for(primary_part(self.embedder))
        captured = extract_preferences(text or "", reader=reader)
        same_space = self.embedder is not None and reader.embedder is self.embedder
        known = reader.vectors() if same_space else {}
        return Captured(turn_batch([*queued, *captured, *also], stored), known)

    def _imported(self, candidates: Sequence[PreferenceCandidate]) -> list[PreferenceCandidate]:
        """The batch of an import, refused whole when it carries too many preferences.

        Raises:
            InvalidInputError: More than ``Settings.max_import_preferences``; nothing stored.
        """
        limit = self.settings.max_import_preferences
        if len(candidates) > limit:
            raise InvalidInputError(
                f"import refused, nothing was stored: the document carries {len(candidates)} "
                f"preferences; the limit is {limit} (PENCHANT_MAX_IMPORT_PREFERENCES)"
            )
        return [c.model_copy(update={"source": "import"}) for c in candidates]

    def _recall_on(
        self,
        keys: UserKeys,
        snapshot: UserSnapshot,
        query: str,
        *,
        k: int,
        token_budget: int | None,
        polarity: Polarity | None,
        category: str | None,
    ) -> RecallResult:
        from ..recall import Recaller

        if self._recaller is None:
            self._recaller = Recaller(self.embedder)
        result: RecallResult = self._recaller.recall(
            snapshot.ordered_preferences(), query, k=k, token_budget=token_budget,
            polarity=polarity, category=category, cache_key=keys.tag,
        )  # fmt: skip
        return result


class DeleteUserResult(BaseModel):
    """What :meth:`Memory.delete_user` removed.

    Attributes:
        user_id: The user.
        keys_removed: Redis keys deleted: every key under the user's hash tag, plus the
            user's entry in the registry and in the check-up schedule.
        preferences_removed: Active preferences among them.
        cached_embeddings_removed: Embedding cache entries of those preferences' texts.
        spooled_writes_dropped: Writes of the user waiting in the local spool (and torn
            entries set aside from it), dropped so that none comes back after the delete.
    """

    user_id: str
    keys_removed: int = 0
    preferences_removed: int = 0
    cached_embeddings_removed: int = 0
    spooled_writes_dropped: int = 0

    @property
    def removed(self) -> bool:
        """Whether anything was there to remove."""
        return self.keys_removed > 0 or self.spooled_writes_dropped > 0

    def public_dict(self) -> dict[str, Any]:
        """The CLI's JSON contract of ``delete-user``."""
        return {**self.model_dump(), "removed": self.removed}

    def describe(self) -> str:
        """One line for people."""
        if not self.removed:
            return f"nothing stored for user {self.user_id!r}; nothing was removed"
        return (
            f"deleted user {self.user_id!r}: {self.keys_removed} keys, "
            f"{self.preferences_removed} preferences, {self.cached_embeddings_removed} cached "
            f"embeddings, {self.spooled_writes_dropped} spooled writes"
        )


def idempotency_key_for(key: str, digest: str) -> str:
    """The stored idempotency key of a caller's key bound to its payload digest."""
    return idempotency_key(key, digest)


def _encode_gate(result: GateResult) -> str:
    return result.model_dump_json()


def _decode_gate(raw: str) -> GateResult:
    return GateResult.model_validate_json(raw)



__all__ = [
    "BaseMemory",
    "DeleteUserResult",
    "MemoryContext",
    "idempotency_key_for",
    "one_erase",
]
