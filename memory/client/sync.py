"""``Memory``: the gate's sync door, driving :class:`~.base.BaseMemory`'s write loop with the
sync backend (redis-py), the embedded server's revive and the local spool."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core import UserSnapshot
from ..embeddings import Embedder
from ..model import (
    ChangeEvent,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    PenchantError,
    Polarity,
    Preference,
    PreferenceCandidate,
    Settings,
    StorageFullError,
    StorageUnavailableError,
    UserKeys,
    redacted_url,
    validate_user_id,
)
from .base import (
    BaseMemory,
    DeleteUserResult,
    MemoryContext,
    one_erase,
)
from .coordination import SyncCoordination
from .holds import SyncHolds, history_steps
from .in_process import InProcessDoor, sync_backend
from .spool import WriteSpool
from .steps import (
    Commit,
    Erase,
    Read,
    Sleep,
    Steps,
    T,
)

if TYPE_CHECKING:
    import numpy as np

    from ..backends import Backend, EmbeddedRedis
    from ..core import (
        Observation,
        ObservationCandidate,
        ObservationResult,
        ObservationUpdate,
    )
    from ..model import Flag
    from ..recall import RecallResult

logger = logging.getLogger(__name__)

class Memory(InProcessDoor, SyncCoordination, SyncHolds, BaseMemory):
    """Long-term preference memory of many users on one Redis (sync).

    Args:
        client: redis-py client, borrowed (not closed by :meth:`close`) unless built by
            :meth:`from_settings`; or a backend (:meth:`in_process`: one with no Redis).
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
        super().__init__(settings=settings, embedder=embedder, spool=spool)
        self.backend: Backend = sync_backend(client, self.settings)
        self.client: Any = None if self.backend is client else client
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
        from ..backends import EmbeddedRedis, client_name, open_client

        settings = settings or Settings()
        server: EmbeddedRedis | None = None
        if settings.redis_url:
            client = open_client(
                settings.redis_url, client_name(), cluster=settings.redis_cluster)
        else:
            server = EmbeddedRedis(settings.redis_dir, settings.embedded_linger_seconds)
            client = server.connect()
        memory = cls(
            client,
            settings=settings,
            embedder=None if isinstance(embedder, str) else embedder,
            spool=WriteSpool(settings.home / "spool" / "writes.jsonl") if spool else None,
        )
        if isinstance(embedder, str):
            from ..embeddings import embedder_from_settings

            cache = memory.backend.embeddings_cache(
                settings.embeddings_cache_ttl_seconds, settings.embeddings_cache_max)
            memory.embedder = embedder_from_settings(settings, cache=cache)
        memory._server, memory._owns_client = server, True
        memory._ride(memory.backend.ensure_schema, "schema check")
        return memory

    @property
    def redis_location(self) -> str:
        """Where the data lives, for status lines: the socket path, or the URL without its
        credentials (:func:`~..model.redacted_url`)."""
        if self._server is not None:
            return f"embedded {self._server.socket_path}"
        held = "borrowed client" if self.client is not None else "in-process store"
        return redacted_url(self.settings.redis_url) if self.settings.redis_url else held

    def close(self) -> None:
        """Release an owned client; the embedded server stops once no process has used it for
        ``Settings.embedded_linger_seconds`` (see :class:`~..backends.EmbeddedRedis`)."""
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
                if isinstance(request, Sleep):
                    time.sleep(request.seconds)
                    reply = None
                elif isinstance(request, Erase):
                    try:
                        reply = self._riding_failover(request)
                    except StorageUnavailableError as exc:  # the forget itself is committed
                        self._erase_failed(request, exc)
                        reply = None
                else:
                    reply = self._riding_failover(request)
                    if isinstance(request, Commit) and reply.status in ("committed", "replayed"):
                        self._register(request.keys, request.ops)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    def _request(self, request: Read | Commit | Erase) -> Any:
        if isinstance(request, Read):
            return self.backend.read(request.keys, self._cached(request.keys))[0]
        if isinstance(request, Commit):
            return self.backend.commit(
                request.keys, request.ops, request.expected_revision, request.idempotency
            )
        removed = self.backend.erase(request.keys, request.erasure)
        self.backend.drop_cached_embeddings(request.texts)
        self.erasure_spool.erase(request.keys.user_id, request.erasure.names_text)
        return removed

    def _riding_failover(self, request: Read | Commit | Erase) -> Any:
        """Do one I/O request of the write loop, riding out a failover (:meth:`_ride`).

        A retried commit is safe: it carries the same idempotency record, so one that was
        stored before its reply was lost answers ``replayed`` (see :mod:`..backends.cluster`).
        """
        return self._ride(lambda: self._request(request), type(request).__name__)

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
        snapshot, history = self._ride(
            lambda: self.backend.read(keys, self._cached(keys), history_limit=history_limit),
            "read",
        )
        return self._keep(keys, snapshot), history

    # -- writes ---------------------------------------------------------------------------------

    def remember(
        self, user_id: str, candidates: PreferenceCandidate | Sequence[PreferenceCandidate], *,
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
        return self._remember(user_id, self._batch(candidates), idempotency_key)

    def _remember(self, user_id: str, batch: list[PreferenceCandidate],
                  idempotency_key: str | None, known: Mapping[str, np.ndarray] | None = None,
                  ) -> GateResult:  # fmt: skip
        """:meth:`remember` of a checked batch; ``known``: vectors computed already."""
        validate_user_id(user_id)
        self.replay_spool()
        steps = self._remember_steps(user_id, batch, idempotency_key=idempotency_key, known=known)
        try:
            result = self._run(steps)
        except StorageFullError:
            raise
        except StorageUnavailableError:
            if self.spool is None:
                raise
            result = self._spool_remember(user_id, batch)
        result.replayed = self._take_replayed()
        return result

    def capture(
        self, user_id: str, text: str, *, idempotency_key: str | None = None,
        also: Sequence[PreferenceCandidate] = (), stored: Sequence[Preference] = (),
        queued: Sequence[PreferenceCandidate] = (),
    ) -> GateResult:
        """Rule capture of one user message (en + zh), through the gate, in one write.

        Injected blocks are stripped first; a message with no first-person preference stores
        nothing. ``queued`` (this turn's ``remember_preference`` calls that queued) leads the
        batch, then the rule capture, then ``also`` (a summary model's): each statement once,
        less what ``stored`` (tool calls that wrote already) holds (:func:`~..core.turn_batch`);
        a candidate text the statement head embedded is not embedded again.
        ``idempotency_key``: the turn's (``capture:<thread>:<message id>``).
        """
        captured = self._captured(user_id, text, also, stored, queued)
        if not captured.candidates:
            return GateResult()
        return self._remember(user_id, captured.candidates, idempotency_key, captured.known)

    def import_preferences(
        self, user_id: str, candidates: Sequence[PreferenceCandidate]
    ) -> GateResult:
        """Restore preferences from a backup through the gate (``imported`` events).

        Idempotent by content against the current state: a record that is already active is
        left alone (or gets the backup's larger count and later times), a forgotten one is
        restored, and re-importing an unchanged backup creates nothing. Counts and times of
        the backup's records are kept.
        """
        batch = self._imported(candidates)
        return self._run(
            self._remember_steps(user_id, batch, idempotency_key=None, created_op="imported")
        )

    def replay_spool(self) -> int:
        """Write spooled preferences (and forgets) through the gate, oldest first, each at its
        original time. Their outcomes reach the result of this process's next ``remember``,
        ``capture`` or ``forget`` (``replayed``), refusals included.

        Returns:
            How many spooled writes were replayed (0 without a spool, or while Redis is still
            unreachable).
        """
        for erase in self._take_erasures():  # a failed forget's scrub, first
            self._run(one_erase(erase))
        if self.spool is None or not self.spool.path.exists():
            return 0
        replayed = self.spool.drain(
            lambda entry: self._note_replayed(entry, self._run(self._replay_steps(entry))))
        if replayed:
            logger.info("replayed %d spooled writes", replayed)
        return replayed

    def forget(
        self, user_id: str, text: str, polarity: Polarity | None = None, *,
        idempotency_key: str | None = None,
    ) -> ForgetResult:
        """Remove what ``text`` names (DESIGN.md §7), and its text from what copies it.

        One commit removes the matching preferences and their vectors, retires the
        observations that name them (weakening the others that rested on them), writes the
        tombstones and ``forgotten`` events (id, time, salted digest; the full record only
        with ``Settings.keep_full_history``). Then the text is scrubbed from the change log's
        older events, the idempotency records, transcripts and behaviour history
        (:class:`~..core.Erasure`), and the cached embeddings of the removed texts
        are dropped.

        Spooled writes are replayed first. With ``idempotency_key`` (e.g. the tool call's id)
        a retry after a lost reply reports what the first attempt removed
        (``already_removed``) instead of "nothing matched". If Redis fails while the text is
        being scrubbed, the forget still stands and says so (``scrub_pending``); the scrub
        runs again on the next call. With a spool, a forget that cannot reach Redis is
        spooled in order after them (``deferred``), and runs at its own time on reconnect.

        Returns:
            Exactly the removed preferences; empty when nothing matched.

        Raises:
            InvalidInputError: Empty ``text`` or an unknown polarity.
            StorageUnavailableError: Redis failed (without a spool).
        """
        self.gate.check_forget(text, polarity)
        UserKeys.for_user(user_id)
        self.replay_spool()  # spooled writes first: the order they were made in
        try:
            result: ForgetResult = self._run(self._forget_steps(
                user_id, text, polarity, idempotency_key=idempotency_key))
        except StorageFullError:
            raise
        except StorageUnavailableError:
            if self.spool is None:
                raise
            result = self._spool_forget(user_id, text, polarity)
        result.replayed = self._take_replayed()
        return result

    def delete_user(self, user_id: str) -> DeleteUserResult:
        """Delete every key of one user and nothing of any other (DESIGN.md §7).

        Removes every key under the user's hash tag (found by ``SCAN``: preferences, vectors,
        change log, history, observations, flags, tombstones, transcripts, idempotency
        records, lease), the user's entry in ``penchant:users`` and in the check-up
        schedule, and the embedding cache's entries of the user's preference texts; and the
        user's writes waiting in the local spool under ``PENCHANT_HOME`` (any process's), so
        that none is replayed after the delete. Idempotent: a second call removes nothing and
        says so.

        A write of the same user racing with the delete can re-create keys after the scan;
        stop the user's agents first.

        Returns:
            The counts of what was removed.

        Raises:
            InvalidInputError: ``user_id`` is invalid.
            StorageUnavailableError: Redis failed (part of the keys may be deleted; run it
                again).
        """
        keys = UserKeys.for_user(user_id)
        dropped = self.erasure_spool.erase(user_id)  # nothing spooled comes back afterwards
        count, prefs, texts = self._ride(lambda: self.backend.delete_user(keys), "delete")
        self._forgot_user(keys)
        cached = self._ride(lambda: self.backend.drop_cached_embeddings(texts), "delete")
        return DeleteUserResult(
            user_id=user_id, keys_removed=count, preferences_removed=prefs,
            cached_embeddings_removed=cached, spooled_writes_dropped=dropped,
        )  # fmt: skip

    def record_history(self, user_id: str, snapshot: HistorySnapshot) -> HistorySnapshot:
        """Store a behaviour history snapshot (never a preference); returns it as stored
        (``unverified`` set when it is kept but never injected).

        Raises:
            InvalidInputError: The summary is refused by the screen or the payload is bad.
        """
        return self._run(history_steps(self, user_id, snapshot))

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

    def preferences(self, user_id: str) -> list[Preference]:
        """The user's active preferences, oldest first (vectors attached when stored)."""
        return self.snapshot(user_id).preferences()

    def history(self, user_id: str, limit: int = 20) -> list[HistorySnapshot]:
        """Recent behaviour history snapshots, newest first."""
        keys = UserKeys.for_user(user_id)
        return self._ride(lambda: self.backend.history(keys, limit), "read history")

    def changes(self, user_id: str, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        keys = UserKeys.for_user(user_id)
        return self._ride(lambda: self.backend.changes(keys, limit), "read changes")

    def transcript(self, user_id: str, thread_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The last messages of a thread, oldest first: ``[{"role", "text", "at"}]``."""
        keys = UserKeys.for_user(user_id)
        return self._ride(lambda: self.backend.transcript(keys, thread_id, limit), "transcript")

    def observations(self, user_id: str) -> list[Observation]:
        """The user's observations, most confident first."""
        return self.snapshot(user_id).observations_by_confidence()

    def flags(self, user_id: str) -> list[Flag]:
        """The user's open check-up flags whose preferences are all still active."""
        return self.snapshot(user_id).open_flags()

    def users(self) -> list[str]:
        """Every user id that has stored something."""
        return self._ride(self.backend.users, "list users")

    def sample_users(self, limit: int) -> list[str]:
        """About ``limit`` user ids from the registry (one ``SSCAN`` page, not the whole
        registry); ``doctor`` samples with it."""
        return self.backend.sample_users(limit)

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

    def ping(self) -> bool:
        """Whether Redis answers; restarts the embedded server if it died meanwhile."""
        if self.backend.ping():
            return True
        return self._revive() and self.backend.ping()


__all__ = ["Memory"]
