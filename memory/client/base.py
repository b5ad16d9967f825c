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
since its revision, from the user's revision log, in the same round trip
(:mod:`~..backends.wire`).
"""

from __future__ import annotations

import logging
import uuid
from collections import OrderedDict
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from pydantic import BaseModel

from ..core import (
    CommitResult,
    Erasure,
    Idempotency,
    IntentBank,
    PersistenceGate,
    Plan,
    PreparedCandidate,
    PutPreference,
    UserSnapshot,
    apply_ops,
    bank_texts,
    build_bank,
    idempotency_key,
    payload_digest,
    touches_snapshot,
    turn_batch,
)
from ..embeddings import Embedder, embedding_text, threshold
from ..model import (
    ForgetResult,
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    Polarity,
    Preference,
    PreferenceCandidate,
    Settings,
    StorageFullError,
    UserKeys,
    utcnow,
    validate_user_id,
)
from .retry import RetryPolicy, internal_idempotency_ttl
from .spool import WriteSpool

if TYPE_CHECKING:
    from ..core import Observation, ObservationCandidate, ObservationUpdate
    from ..model import Flag
    from ..recall import RecallResult

logger = logging.getLogger(__name__)

T = TypeVar("T")
_INTENT_BANKS: dict[tuple[str, int, float], IntentBank] = {}
"""Intent banks by (embedder name, width, threshold): embedded once per process and space."""
SNAPSHOT_CACHE_USERS = 256
"""Users whose snapshot is kept in-process (least recently used dropped first)."""


@dataclass(frozen=True)
class Read:
    """Read the user's snapshot at its current revision (the driver passes the cached one as
    ``known``, so only what changed since is fetched)."""

    keys: UserKeys


@dataclass(frozen=True)
class Commit:
    keys: UserKeys
    ops: list[Any]
    expected_revision: str | None
    idempotency: Idempotency | None


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Erase:
    """Scrub a forget's text from the records that copy it, and drop the cached embeddings
    of ``texts`` (after the forget's commit)."""

    keys: UserKeys
    erasure: Erasure
    texts: list[str]


Request = Read | Commit | Sleep | Erase
Steps = Generator[Request, Any, T]


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


class BaseMemory:
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
        self.gate = PersistenceGate(self.settings)
        self.retry = RetryPolicy(budget_seconds=self.settings.write_retry_seconds)
        self._snapshots: OrderedDict[str, UserSnapshot] = OrderedDict()
        self._registered: set[str] = set()
        self._recaller: Any = None

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
            internal_idempotency_ttl(self.settings.write_retry_seconds),
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
        embedded once per embedder name in this process; ``None`` without an embedder or a
        calibrated ``injection_cosine``."""
        embedder = self.embedder
        cosine = threshold(embedder, "injection_cosine") if embedder is not None else 0.0
        if embedder is None or cosine <= 0.0:
            return None
        key = (embedder.name, embedder.dim, cosine)
        if key not in _INTENT_BANKS:
            _INTENT_BANKS[key] = build_bank(embedder.embed(bank_texts()), cosine)
        return _INTENT_BANKS[key]

    # -- planning helpers -----------------------------------------------------------------------

    def _remember_steps(
        self,
        user_id: str,
        batch: list[PreferenceCandidate],
        *,
        idempotency_key: str | None,
        created_op: str = "created",
    ) -> Steps[GateResult]:
        keys = UserKeys.for_user(user_id)
        prepared, rejections = self.gate.prepare(batch)
        embed_prepared(self.embedder, prepared)
        prepared, by_meaning = self.gate.screen_meaning(prepared, self._intent_bank())
        rejections = [*rejections, *by_meaning]
        now = utcnow()
        idem = None
        if idempotency_key:
            digest = payload_digest(created_op, *(c.model_dump_json() for c in batch))
            idem = (idempotency_key_for(idempotency_key, digest), _encode_gate, _decode_gate)

        def plan(snapshot: UserSnapshot) -> Plan[GateResult]:
            return self.gate.plan_remember(
                snapshot, prepared, rejections, now, created_op=created_op
            )

        return (yield from self._write_steps(
            keys, plan, what=f"write preferences of {user_id!r}", idempotency=idem))

    def _forget_steps(
        self, user_id: str, text: str, polarity: Polarity | None
    ) -> Steps[ForgetResult]:
        """The forget's commit (active set, vectors, observations, tombstones, tombstone
        events), then the scrub of the records that copy the text (:class:`Erase`)."""
        keys = UserKeys.for_user(user_id)
        self.gate.check_forget(text, polarity)
        now = utcnow()
        result, erasure = yield from self._write_steps(
            keys, lambda s: self.gate.plan_forget(s, text, polarity, now),
            what=f"forget for {user_id!r}")
        texts = [embedding_text(p.content, p.category) for p in result.removed]
        yield Erase(keys, erasure, texts)
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

    def _history_steps(self, user_id: str, snapshot: HistorySnapshot) -> Steps[Any]:
        keys = UserKeys.for_user(user_id)
        planned = self.gate.plan_history(snapshot)
        return (yield from self._write_steps(keys, lambda _s: planned, what="write history"))

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

    def _replay_steps(self, entry: dict[str, Any]) -> Steps[GateResult]:
        """Steps of one spooled write, at its original time (``PreferenceCandidate.at``) and
        under its own idempotency key, so a replay interrupted and run again applies once."""
        batch = [PreferenceCandidate(**c) for c in entry["payload"]["candidates"]]
        return self._remember_steps(entry["user_id"], batch, idempotency_key=entry["key"])

    @staticmethod
    def _captured(
        user_id: str,
        text: str,
        also: Sequence[PreferenceCandidate] = (),
        stored: Sequence[Preference] = (),
    ) -> list[PreferenceCandidate]:
        """Rule capture of one message (after validating ``user_id``), plus ``also``, less
        what duplicates another candidate or ``stored`` (:func:`turn_batch`)."""
        from ..core import extract_preferences

        validate_user_id(user_id)
        return turn_batch([*extract_preferences(text or ""), *also], stored)

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
    """

    user_id: str
    keys_removed: int = 0
    preferences_removed: int = 0
    cached_embeddings_removed: int = 0

    @property
    def removed(self) -> bool:
        """Whether anything was there to remove."""
        return self.keys_removed > 0

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
            "embeddings"
        )


def idempotency_key_for(key: str, digest: str) -> str:
    """The stored idempotency key of a caller's key bound to its payload digest."""
    return idempotency_key(key, digest)


def _encode_gate(result: GateResult) -> str:
    return result.model_dump_json()


def _decode_gate(raw: str) -> GateResult:
    return GateResult.model_validate_json(raw)



def prime(steps: Steps[Any]) -> Any:
    """Run a steps generator to its first I/O request (screening, embedding happen here)."""
    try:
        return ("request", steps.send(None))
    except StopIteration as stop:
        return ("done", stop.value)


def resume(steps: Steps[T], first: tuple[str, Any]) -> Steps[T]:
    kind, value = first
    if kind == "done":
        return value  # type: ignore[no-any-return]
    reply = yield value
    while True:
        try:
            request = steps.send(reply)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        reply = yield request


def embed_prepared(embedder: Embedder | None, prepared: list[PreparedCandidate]) -> None:
    """Give each prepared candidate its vector (content plus category), in one batch."""
    if embedder is None or not prepared:
        return
    vectors = embedder.embed(
        [embedding_text(p.candidate.content, p.candidate.category) for p in prepared]
    )
    for item, vector in zip(prepared, vectors, strict=True):
        item.embedding = np.asarray(vector, dtype=np.float32).tobytes()
        item.embedding_model = embedder.name
        item.embedding_dim = embedder.dim


__all__ = [
    "BaseMemory",
    "Commit",
    "DeleteUserResult",
    "Erase",
    "MemoryContext",
    "Read",
    "Request",
    "Sleep",
    "Steps",
    "idempotency_key_for",
    "prime",
    "resume",
]
