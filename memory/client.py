"""``Memory`` and ``AsyncMemory``: the gate's two doors, one sync and one async.

Every write of a user's memory is a method here — remember, capture, forget, import,
reflect's observations, the check-up's flags, re-embedded vectors, history, transcripts — and
every one runs the same loop, written once (:meth:`BaseMemory._write_steps`): take the user's
snapshot (the cached one, or one round-trip read), let the pure gate plan small typed
operations, commit them in one atomic script at the snapshot's revision, and on a conflict
back off (:class:`~.retry.RetryPolicy`) and plan again on fresh data. The loop is a generator
of I/O requests; :class:`Memory` drives it with the sync backend, :class:`AsyncMemory` with the
async one, so the two share all logic and duplicate only the I/O (httpx's ``BaseClient`` /
``Client`` / ``AsyncClient``; LangGraph's ``BaseStore.batch`` / ``abatch``).

One :class:`~.ops.UserSnapshot` per user and revision is cached (LRU): after Penchant's own
commit it is updated in place from the committed operations; after another process's write
the next read sees the new revision and reloads it, in the same round trip.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .embeddings import Embedder
from .errors import PenchantError, StorageFullError, StorageUnavailableError
from .gate import PersistenceGate, Plan, embed_prepared
from .keys import UserKeys
from .ops import (
    CommitResult,
    Idempotency,
    PutPreference,
    UserSnapshot,
    apply_ops,
    idempotency_key,
    payload_digest,
    touches_snapshot,
)
from .records import (
    ChangeEvent,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    Polarity,
    Preference,
    PreferenceCandidate,
    utcnow,
)
from .retry import RetryPolicy
from .settings import Settings
from .spool import WriteSpool

if TYPE_CHECKING:
    from .backends.asyncio import AsyncBackend
    from .backends.sync import SyncBackend
    from .flags import Flag
    from .observations import (
        Observation,
        ObservationCandidate,
        ObservationResult,
        ObservationUpdate,
    )
    from .recall import RecallResult
    from .reflect import Disposition, ReflectModel, ReflectResult
    from .server import EmbeddedRedis

logger = logging.getLogger(__name__)

T = TypeVar("T")
SNAPSHOT_CACHE_USERS = 256
"""Users whose snapshot is kept in-process (least recently used dropped first)."""


@dataclass(frozen=True)
class _Read:
    keys: UserKeys


@dataclass(frozen=True)
class _Commit:
    keys: UserKeys
    ops: list[Any]
    expected_revision: str | None
    idempotency: Idempotency | None


@dataclass(frozen=True)
class _Sleep:
    seconds: float


_Request = _Read | _Commit | _Sleep
Steps = Generator[_Request, Any, T]


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
        while True:
            snapshot = None if fresh else self._cached(keys)
            if snapshot is None:
                snapshot = self._keep(keys, (yield _Read(keys)))
            planned = plan(snapshot)
            if not planned.ops:
                return planned.result
            idem = None
            if idempotency is not None:
                key, encode, _decode = idempotency
                idem = Idempotency(
                    key, encode(planned.result), self.settings.idempotency_ttl_seconds
                )
            expected = snapshot.revision if planned.guarded else None
            outcome: CommitResult = yield _Commit(keys, planned.ops, expected, idem)
            if outcome.status == "committed":
                self._committed(keys, snapshot, planned, outcome.revision)
                return planned.result
            if outcome.status == "replayed" and idempotency is not None:
                logger.info("idempotent replay of a write for %s", keys.user_id)
                return idempotency[2](outcome.replay or "")
            fresh = True
            yield _Sleep(next(delays))

    def _committed(self, keys: UserKeys, snapshot: UserSnapshot, plan: Plan[Any], rev: str) -> None:
        if touches_snapshot(plan.ops):
            self._keep(keys, apply_ops(snapshot, plan.ops, rev))

    def _needs_registration(self, keys: UserKeys, plan_ops: Sequence[Any]) -> bool:
        return keys.tag not in self._registered and any(
            isinstance(op, PutPreference) for op in plan_ops
        )

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

    def _forget_steps(self, user_id: str, text: str, polarity: Polarity | None) -> Steps[Any]:
        keys = UserKeys.for_user(user_id)
        self.gate.check_forget(text, polarity)
        now = utcnow()
        return (yield from self._write_steps(
            keys, lambda s: self.gate.plan_forget(s, text, polarity, now),
            what=f"forget for {user_id!r}"))

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
        from .recall import Recaller

        if self._recaller is None:
            self._recaller = Recaller(self.embedder)
        result: RecallResult = self._recaller.recall(
            snapshot.preferences(), query, k=k, token_budget=token_budget, polarity=polarity,
            category=category, cache_key=(keys.tag, snapshot.revision),
        )  # fmt: skip
        return result


def idempotency_key_for(key: str, digest: str) -> str:
    """The stored idempotency key of a caller's key bound to its payload digest."""
    return idempotency_key(key, digest)


def _encode_gate(result: GateResult) -> str:
    return result.model_dump_json()


def _decode_gate(raw: str) -> GateResult:
    return GateResult.model_validate_json(raw)


# -- sync -----------------------------------------------------------------------------------------


class Memory(BaseMemory):
    """Long-term preference memory of many users on one Redis (sync).

    Args:
        client: redis-py client; borrowed (not closed by :meth:`close`) unless built by
            :meth:`from_settings`.
        settings: Limits and configuration; defaults to ``Settings()``.
        embedder: Optional embedder; with one, preferences are stored with vectors and
            recall has a semantic channel.
        spool: Optional local spool: with one, a preference write that cannot reach Redis is
            saved there (reported as ``deferred``) with its original time, and replayed
            through the gate on the next successful write.
    """

    def __init__(
        self,
        client: Any,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        spool: WriteSpool | None = None,
    ) -> None:
        from .backends.sync import SyncBackend

        super().__init__(settings=settings, embedder=embedder, spool=spool)
        self.backend: SyncBackend = SyncBackend(client, self.settings)
        self.client = client
        self._server: EmbeddedRedis | None = None
        self._owns_client = False

    @classmethod
    def from_settings(
        cls,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None | str = "auto",
        spool: bool = False,
    ) -> Memory:
        """Connect to ``PENCHANT_REDIS_URL`` or start/attach the embedded server.

        Args:
            settings: Configuration; ``Settings()`` (the environment) by default.
            embedder: An embedder, ``None`` for none, or ``"auto"`` for the one
                ``settings.embeddings`` names (its model loads lazily on first use).
            spool: Keep writes made while Redis is down in
                ``<home>/spool/writes.jsonl`` (for agents; the CLI reports failure).

        Raises:
            StorageUnavailableError: Redis cannot be reached or started.
            SchemaVersionError: The data was written by an incompatible release.
        """
        from .backends.sync import open_client
        from .server import EmbeddedRedis, client_name

        settings = settings or Settings()
        server: EmbeddedRedis | None = None
        if settings.redis_url:
            client = open_client(settings.redis_url, client_name())
        else:
            server = EmbeddedRedis(settings.redis_dir)
            client = server.connect()
        chosen: Embedder | None
        if isinstance(embedder, str):
            from .embeddings import embedder_from_settings

            chosen = embedder_from_settings(settings, cache_redis=client)
        else:
            chosen = embedder
        memory = cls(
            client,
            settings=settings,
            embedder=chosen,
            spool=WriteSpool(settings.home / "spool" / "writes.jsonl") if spool else None,
        )
        memory._server, memory._owns_client = server, True
        memory.backend.ensure_schema()
        return memory

    @property
    def redis_location(self) -> str:
        """Where the data lives, for status lines (socket path or URL)."""
        if self._server is not None:
            return f"embedded {self._server.socket_path}"
        return self.settings.redis_url or "borrowed client"

    def close(self) -> None:
        """Release an owned client (stopping the embedded server if no one else uses it)."""
        if not self._owns_client:
            return
        self._owns_client = False
        if self._server is not None:
            self._server.release(self.client)
        else:
            self.client.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- driving the loop -----------------------------------------------------------------------

    def _run(self, steps: Steps[T]) -> T:
        reply: Any = None
        try:
            while True:
                request = steps.send(reply)
                if isinstance(request, _Read):
                    reply = self.backend.read(request.keys, None)[0]
                elif isinstance(request, _Commit):
                    reply = self.backend.commit(
                        request.keys, request.ops, request.expected_revision,
                        request.idempotency,
                    )  # fmt: skip
                    if reply.status == "committed":
                        self._register(request.keys, request.ops)
                else:
                    time.sleep(request.seconds)
                    reply = None
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    def _register(self, keys: UserKeys, ops: Sequence[Any]) -> None:
        """Record the user in the global registry; a failure is logged, never raised (the
        write itself is committed)."""
        if not self._needs_registration(keys, ops):
            return
        try:
            self.backend.register_user(keys)
            self._registered.add(keys.tag)
        except PenchantError as exc:
            logger.warning("write committed, but the user registry was not updated: %s", exc)

    def _snapshot(self, keys: UserKeys, history_limit: int = 0) -> tuple[
        UserSnapshot, list[HistorySnapshot]
    ]:
        snapshot, history = self.backend.read(keys, self._cached(keys), history_limit=history_limit)
        return self._keep(keys, snapshot), history

    # -- writes ---------------------------------------------------------------------------------

    def remember(
        self,
        user_id: str,
        candidates: PreferenceCandidate | Sequence[PreferenceCandidate],
        *,
        idempotency_key: str | None = None,
    ) -> GateResult:
        """Store preferences through the gate and report exactly what happened.

        Args:
            user_id: Owner of the preferences.
            candidates: One candidate or several, applied in order.
            idempotency_key: A retried call with the same key *and the same candidates*
                returns the first call's result and writes nothing; the same key with other
                candidates is another write.

        Returns:
            What was created, merged, superseded and rejected (with reasons); with a spool,
            a write that cannot reach Redis comes back in ``deferred``.

        Raises:
            InvalidInputError: ``user_id`` is invalid; nothing was stored.
            StorageUnavailableError: Redis failed; nothing was stored.
            ConcurrencyError: Other writers kept winning for the whole retry budget.
        """
        batch = self._batch(candidates)
        UserKeys.for_user(user_id)
        self.replay_spool()
        try:
            return self._run(self._remember_steps(user_id, batch, idempotency_key=idempotency_key))
        except StorageFullError:
            raise
        except StorageUnavailableError:
            if self._server is not None and self._server.revive():
                return self._run(
                    self._remember_steps(user_id, batch, idempotency_key=idempotency_key)
                )
            if self.spool is None:
                raise
            return self._spool_remember(user_id, batch)

    def capture(
        self, user_id: str, text: str, *, idempotency_key: str | None = None
    ) -> GateResult:
        """Rule capture of one user message (en + zh), through the gate.

        Our own injected blocks are stripped first, so a recalled memory is never stored
        again as a new one. A message with no first-person preference stores nothing.

        Args:
            user_id: Owner.
            text: The user's message.
            idempotency_key: The turn's key (e.g. ``capture:<thread>:<message id>``): a
                retried end-of-turn node does not count the mention twice.
        """
        from .capture import extract_preferences

        UserKeys.for_user(user_id)  # validate before doing any work
        candidates = extract_preferences(text or "")
        if not candidates:
            return GateResult()
        return self.remember(user_id, candidates, idempotency_key=idempotency_key)

    def import_preferences(
        self, user_id: str, candidates: Sequence[PreferenceCandidate]
    ) -> GateResult:
        """Restore preferences from a backup through the gate (``imported`` events).

        Idempotent by content against the current state: a record that is already active is
        left alone (or gets the backup's larger count and later times), a forgotten one is
        restored, and re-importing an unchanged backup creates nothing. Counts and times of
        the backup's records are kept.
        """
        batch = [c.model_copy(update={"source": "import"}) for c in candidates]
        return self._run(
            self._remember_steps(user_id, batch, idempotency_key=None, created_op="imported")
        )

    def replay_spool(self) -> int:
        """Write spooled preferences through the gate, oldest first, each at its original time.

        Returns:
            How many spooled writes were replayed (0 without a spool, or while Redis is still
            unreachable).
        """
        if self.spool is None or not self.spool.path.exists():
            return 0

        def apply(entry: dict[str, Any]) -> None:
            batch = [PreferenceCandidate(**c) for c in entry["payload"]["candidates"]]
            self._run(self._remember_steps(entry["user_id"], batch, idempotency_key=entry["key"]))

        replayed = self.spool.drain(apply)
        if replayed:
            logger.info("replayed %d spooled writes", replayed)
        return replayed

    def forget(self, user_id: str, text: str, polarity: Polarity | None = None) -> ForgetResult:
        """Remove what ``text`` names (DESIGN.md §7); observations that name it go too.

        Returns:
            Exactly the removed preferences; empty when nothing matched.

        Raises:
            InvalidInputError: Empty ``text`` or an unknown polarity.
        """
        result: ForgetResult = self._run(self._forget_steps(user_id, text, polarity))
        return result

    def record_history(self, user_id: str, snapshot: HistorySnapshot) -> None:
        """Store a behaviour history snapshot (never a preference).

        Raises:
            InvalidInputError: The summary is refused by the screen or the payload is bad.
        """
        self._run(self._history_steps(user_id, snapshot))

    def append_transcript(self, user_id: str, thread_id: str, role: str, text: str) -> None:
        """Append one message, screened (see :meth:`PersistenceGate.plan_transcript`)."""
        self._run(self._transcript_steps(user_id, thread_id, role, text))

    def write_observations(
        self,
        user_id: str,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate] = (),
    ) -> ObservationResult:
        """Store reflect's observations: screened, deduplicated, moved by evidence, one commit
        (see :meth:`PersistenceGate.plan_observations`)."""
        result: ObservationResult = self._run(
            self._observation_steps(user_id, candidates, updates)
        )
        return result

    def write_flags(self, user_id: str, found: Sequence[Flag]) -> list[Flag]:
        """Store the check-up's findings as flags; stale flags are dropped. Returns the new."""
        result: list[Flag] = self._run(self._flag_steps(user_id, found))
        return result

    def replace_vectors(self, user_id: str, updates: dict[str, Preference]) -> int:
        """Re-embedded vectors of still-active, unchanged preferences (``reembedded`` events).

        Returns:
            How many vectors were replaced.
        """
        result: int = self._run(self._vector_steps(user_id, updates))
        return result

    # -- reads ----------------------------------------------------------------------------------

    def snapshot(self, user_id: str) -> UserSnapshot:
        """The user's memory at its current revision (one round trip)."""
        return self._snapshot(UserKeys.for_user(user_id))[0]

    def preferences(self, user_id: str, *, with_embeddings: bool = False) -> list[Preference]:
        """The user's active preferences, oldest first (vectors attached when stored)."""
        del with_embeddings  # the snapshot always carries the vectors
        return self.snapshot(user_id).preferences()

    def history(self, user_id: str, limit: int = 20) -> list[HistorySnapshot]:
        """Recent behaviour history snapshots, newest first."""
        return self.backend.history(UserKeys.for_user(user_id), limit)

    def changes(self, user_id: str, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        return self.backend.changes(UserKeys.for_user(user_id), limit)

    def transcript(self, user_id: str, thread_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The last messages of a thread, oldest first: ``[{"role", "text", "at"}]``."""
        return self.backend.transcript(UserKeys.for_user(user_id), thread_id, limit)

    def observations(self, user_id: str) -> list[Observation]:
        """The user's observations, most confident first."""
        return self.snapshot(user_id).observations_by_confidence()

    def flags(self, user_id: str) -> list[Flag]:
        """The user's open check-up flags whose preferences are all still active."""
        return self.snapshot(user_id).open_flags()

    def users(self) -> list[str]:
        """Every user id that has stored something."""
        return self.backend.users()

    def recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        polarity: Polarity | None = None,
        category: str | None = None,
    ) -> RecallResult:
        """The user's preferences most relevant to ``query`` (see :mod:`.recall`).

        One round trip (the snapshot's revision check, or its reload) plus the ranking.

        Raises:
            InvalidInputError: Bad ``user_id``, ``k``, budget, polarity or category.
            StorageUnavailableError: Redis failed.
        """
        keys = UserKeys.for_user(user_id)
        snapshot = self._snapshot(keys)[0]
        return self._recall_on(
            keys, snapshot, query, k=k, token_budget=token_budget, polarity=polarity,
            category=category,
        )  # fmt: skip

    def context(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        history_limit: int = 5,
    ) -> MemoryContext:
        """What one turn's injection needs — snapshot, history and recall — in one round trip."""
        keys = UserKeys.for_user(user_id)
        snapshot, history = self._snapshot(keys, history_limit)
        recalled = self._recall_on(
            keys, snapshot, query, k=k, token_budget=token_budget, polarity=None, category=None
        )
        return MemoryContext(snapshot, history, recalled)

    # -- reflect and check-up -------------------------------------------------------------------

    def reflect(
        self,
        user_id: str,
        question: str,
        disposition: Disposition | None = None,
        model: ReflectModel | None = None,
    ) -> ReflectResult:
        """Answer a question about the user from memory and store observations.

        See :func:`penchant.memory.reflect.reflect`; offline (deterministic) without a model.
        """
        from .reflect import reflect

        return reflect(self, user_id, question, disposition, model)

    def acquire_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Take a check-up lease (``SET NX PX``); False when another worker holds it."""
        return self.backend.acquire_lease(key, token, ttl_ms)

    def renew_lease(self, key: str, token: str, ttl_ms: int) -> bool:
        """Extend a lease we hold; False when it is not ours any more."""
        return self.backend.renew_lease(key, token, ttl_ms)

    def release_lease(self, key: str, token: str) -> bool:
        """Give a lease back if it is still ours."""
        return self.backend.release_lease(key, token)

    def schedule_checkup(self, user_id: str, due_ms: int) -> None:
        """Put a user's check-up on the schedule (an earlier due time is kept)."""
        self.backend.schedule_checkup(user_id, due_ms)

    def due_checkups(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Users whose check-up is due: ``[(user_id, due_ms)]``, earliest first."""
        return self.backend.due_checkups(now_ms, limit)

    def complete_checkup(self, user_id: str, due_ms: int) -> bool:
        """Take a done check-up off the schedule unless it was rescheduled meanwhile."""
        return self.backend.complete_checkup(user_id, due_ms)

    def server_report(self) -> dict[str, Any]:
        """Server version, persistence, schema, users, Query Engine (for ``doctor``)."""
        return self.backend.server_report()

    def ping(self) -> bool:
        """Whether Redis answers; restarts the embedded server if it died meanwhile."""
        if self.backend.ping():
            return True
        return self._server is not None and self._server.revive() and self.backend.ping()

    def require(self) -> None:
        """Raise :class:`StorageUnavailableError` unless Redis answers."""
        if not self.ping():
            raise StorageUnavailableError(f"Redis at {self.redis_location} does not answer")


# -- async ----------------------------------------------------------------------------------------


class AsyncMemory(BaseMemory):
    """The async twin of :class:`Memory`: the same methods as coroutines, over
    ``redis.asyncio``; the planning is shared, only the I/O differs.

    Args:
        client: A ``redis.asyncio`` client (borrowed unless built by :meth:`from_settings`).
        settings: Limits and configuration.
        embedder: Optional embedder (its ``embed`` runs in a worker thread).
    """

    def __init__(
        self,
        client: Any,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        from .backends.asyncio import AsyncBackend

        super().__init__(settings=settings, embedder=embedder)
        self.backend: AsyncBackend = AsyncBackend(client, self.settings)
        self.client = client
        self._server: EmbeddedRedis | None = None
        self._server_client: Any = None

    @classmethod
    def from_settings(
        cls, settings: Settings | None = None, *, embedder: Embedder | None | str = "auto"
    ) -> _AsyncMemoryOpener:
        """``async with AsyncMemory.from_settings(settings) as memory: …``

        Connects to ``PENCHANT_REDIS_URL`` or starts/attaches the embedded server (sharing it
        with the other Penchant processes), and releases it on exit.
        """
        return _AsyncMemoryOpener(cls, settings or Settings(), embedder)

    async def aclose(self) -> None:
        """Close an owned client (and release the embedded server)."""
        await self.backend.aclose()
        if self._server is not None and self._server_client is not None:
            server, client = self._server, self._server_client
            self._server = self._server_client = None
            await asyncio.to_thread(server.release, client)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _run(self, steps: Steps[T]) -> T:
        reply: Any = None
        try:
            while True:
                request = steps.send(reply)
                if isinstance(request, _Read):
                    reply = (await self.backend.read(request.keys, None))[0]
                elif isinstance(request, _Commit):
                    reply = await self.backend.commit(
                        request.keys, request.ops, request.expected_revision,
                        request.idempotency,
                    )  # fmt: skip
                    if reply.status == "committed":
                        await self._register(request.keys, request.ops)
                else:
                    await asyncio.sleep(request.seconds)
                    reply = None
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def _register(self, keys: UserKeys, ops: Sequence[Any]) -> None:
        if not self._needs_registration(keys, ops):
            return
        try:
            await self.backend.register_user(keys)
            self._registered.add(keys.tag)
        except PenchantError as exc:
            logger.warning("write committed, but the user registry was not updated: %s", exc)

    async def _snapshot(self, keys: UserKeys, history_limit: int = 0) -> tuple[
        UserSnapshot, list[HistorySnapshot]
    ]:
        snapshot, history = await self.backend.read(
            keys, self._cached(keys), history_limit=history_limit
        )
        return self._keep(keys, snapshot), history

    async def _steps_embedded(self, make: Callable[[], Steps[T]]) -> T:
        """Build the steps (screening and embedding, CPU work) in a thread, then run them."""
        steps = make()
        first = await asyncio.to_thread(_prime, steps)
        return await self._run(_resume(steps, first))

    # -- writes ---------------------------------------------------------------------------------

    async def remember(
        self,
        user_id: str,
        candidates: PreferenceCandidate | Sequence[PreferenceCandidate],
        *,
        idempotency_key: str | None = None,
    ) -> GateResult:
        """See :meth:`Memory.remember` (no spool: a failed write raises)."""
        batch = self._batch(candidates)
        return await self._steps_embedded(
            lambda: self._remember_steps(user_id, batch, idempotency_key=idempotency_key)
        )

    async def capture(
        self, user_id: str, text: str, *, idempotency_key: str | None = None
    ) -> GateResult:
        """See :meth:`Memory.capture`."""
        from .capture import extract_preferences

        UserKeys.for_user(user_id)
        candidates = extract_preferences(text or "")
        if not candidates:
            return GateResult()
        return await self.remember(user_id, candidates, idempotency_key=idempotency_key)

    async def import_preferences(
        self, user_id: str, candidates: Sequence[PreferenceCandidate]
    ) -> GateResult:
        """See :meth:`Memory.import_preferences`."""
        batch = [c.model_copy(update={"source": "import"}) for c in candidates]
        return await self._steps_embedded(
            lambda: self._remember_steps(
                user_id, batch, idempotency_key=None, created_op="imported"
            )
        )

    async def forget(
        self, user_id: str, text: str, polarity: Polarity | None = None
    ) -> ForgetResult:
        """See :meth:`Memory.forget`."""
        result: ForgetResult = await self._run(self._forget_steps(user_id, text, polarity))
        return result

    async def record_history(self, user_id: str, snapshot: HistorySnapshot) -> None:
        """See :meth:`Memory.record_history`."""
        await self._run(self._history_steps(user_id, snapshot))

    async def append_transcript(self, user_id: str, thread_id: str, role: str, text: str) -> None:
        """See :meth:`Memory.append_transcript`."""
        await self._run(self._transcript_steps(user_id, thread_id, role, text))

    async def write_observations(
        self,
        user_id: str,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate] = (),
    ) -> ObservationResult:
        """See :meth:`Memory.write_observations`."""
        result: ObservationResult = await self._run(
            self._observation_steps(user_id, candidates, updates)
        )
        return result

    async def write_flags(self, user_id: str, found: Sequence[Flag]) -> list[Flag]:
        """See :meth:`Memory.write_flags`."""
        result: list[Flag] = await self._run(self._flag_steps(user_id, found))
        return result

    async def replace_vectors(self, user_id: str, updates: dict[str, Preference]) -> int:
        """See :meth:`Memory.replace_vectors`."""
        result: int = await self._run(self._vector_steps(user_id, updates))
        return result

    # -- reads ----------------------------------------------------------------------------------

    async def snapshot(self, user_id: str) -> UserSnapshot:
        """See :meth:`Memory.snapshot`."""
        return (await self._snapshot(UserKeys.for_user(user_id)))[0]

    async def preferences(
        self, user_id: str, *, with_embeddings: bool = False
    ) -> list[Preference]:
        """See :meth:`Memory.preferences`."""
        del with_embeddings
        return (await self.snapshot(user_id)).preferences()

    async def history(self, user_id: str, limit: int = 20) -> list[HistorySnapshot]:
        """See :meth:`Memory.history`."""
        return await self.backend.history(UserKeys.for_user(user_id), limit)

    async def changes(self, user_id: str, limit: int = 50) -> list[ChangeEvent]:
        """See :meth:`Memory.changes`."""
        return await self.backend.changes(UserKeys.for_user(user_id), limit)

    async def transcript(
        self, user_id: str, thread_id: str, limit: int = 200
    ) -> list[dict[str, Any]]:
        """See :meth:`Memory.transcript`."""
        return await self.backend.transcript(UserKeys.for_user(user_id), thread_id, limit)

    async def observations(self, user_id: str) -> list[Observation]:
        """See :meth:`Memory.observations`."""
        return (await self.snapshot(user_id)).observations_by_confidence()

    async def flags(self, user_id: str) -> list[Flag]:
        """See :meth:`Memory.flags`."""
        return (await self.snapshot(user_id)).open_flags()

    async def users(self) -> list[str]:
        """See :meth:`Memory.users`."""
        return await self.backend.users()

    async def recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        polarity: Polarity | None = None,
        category: str | None = None,
    ) -> RecallResult:
        """See :meth:`Memory.recall` (the ranking runs in a worker thread)."""
        keys = UserKeys.for_user(user_id)
        snapshot = (await self._snapshot(keys))[0]
        return await asyncio.to_thread(
            self._recall_on, keys, snapshot, query, k=k, token_budget=token_budget,
            polarity=polarity, category=category,
        )  # fmt: skip

    async def context(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        history_limit: int = 5,
    ) -> MemoryContext:
        """See :meth:`Memory.context`: one round trip."""
        keys = UserKeys.for_user(user_id)
        snapshot, history = await self._snapshot(keys, history_limit)
        recalled = await asyncio.to_thread(
            self._recall_on, keys, snapshot, query, k=k, token_budget=token_budget,
            polarity=None, category=None,
        )  # fmt: skip
        return MemoryContext(snapshot, history, recalled)

    async def ping(self) -> bool:
        """Whether Redis answers."""
        return await self.backend.ping()


def _prime(steps: Steps[Any]) -> Any:
    """Run a steps generator to its first I/O request (screening, embedding happen here)."""
    try:
        return ("request", steps.send(None))
    except StopIteration as stop:
        return ("done", stop.value)


def _resume(steps: Steps[T], first: tuple[str, Any]) -> Steps[T]:
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


class _AsyncMemoryOpener:
    """The async context manager :meth:`AsyncMemory.from_settings` returns."""

    def __init__(
        self, cls: type[AsyncMemory], settings: Settings, embedder: Embedder | None | str
    ) -> None:
        self._cls, self._settings, self._embedder = cls, settings, embedder
        self._memory: AsyncMemory | None = None

    async def __aenter__(self) -> AsyncMemory:
        from .backends.asyncio import open_async_client
        from .server import EmbeddedRedis, client_name

        settings = self._settings
        server: EmbeddedRedis | None = None
        server_client: Any = None
        if settings.redis_url:
            url = settings.redis_url
        else:
            server = EmbeddedRedis(settings.redis_dir)
            server_client = await asyncio.to_thread(server.connect)
            url = server.url
        client = await open_async_client(url, client_name())
        chosen: Embedder | None
        if isinstance(self._embedder, str):
            from .embeddings import embedder_from_settings

            chosen = embedder_from_settings(settings, cache_redis=server_client)
        else:
            chosen = self._embedder
        memory = self._cls(client, settings=settings, embedder=chosen)
        memory.backend.owned = True
        memory._server, memory._server_client = server, server_client
        try:
            await memory.backend.ensure_schema()
        except PenchantError:
            await memory.aclose()
            raise
        self._memory = memory
        return memory

    async def __aexit__(self, *exc: object) -> None:
        if self._memory is not None:
            await self._memory.aclose()
            self._memory = None


__all__ = ["AsyncMemory", "BaseMemory", "Memory", "MemoryContext"]
