"""``Memory``: the library's front door, one object per Redis connection.

It wires storage, the persistence gate, rule capture and recall together and
is what the tools, the agent, the chat and the CLI hold. The Redis client and
the embedder are constructor arguments; :meth:`Memory.from_settings` builds
and owns them (and starts or attaches the embedded server).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import redis

from .embeddings import Embedder
from .errors import StorageUnavailableError
from .gate import PersistenceGate
from .keys import UserKeys
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
from .server import EmbeddedRedis, client_name
from .settings import Settings
from .spool import WriteSpool
from .storage import RedisStorage, open_client

if TYPE_CHECKING:
    from .flags import Flag
    from .observations import (
        Observation,
        ObservationCandidate,
        ObservationResult,
        ObservationUpdate,
    )
    from .recall import RecallResult
    from .reflect import Disposition, ReflectModel, ReflectResult

logger = logging.getLogger(__name__)


class Memory:
    """Long-term preference memory of many users on one Redis.

    Args:
        client: redis-py client; borrowed (not closed by :meth:`close`)
            unless built by :meth:`from_settings`.
        settings: Limits and configuration; defaults to ``Settings()``.
        embedder: Optional embedder; with one, preferences are stored with
            vectors and recall has a semantic channel.
        spool: Optional local spool: with one, a preference write that cannot
            reach Redis is saved there (reported as ``deferred``) instead of
            raising, and replayed through the gate on the next successful write.
    """

    def __init__(
        self,
        client: redis.Redis,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        spool: WriteSpool | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.spool = spool
        self.client = client
        self.embedder = embedder
        self.storage = RedisStorage(client, self.settings)
        self.gate = PersistenceGate(self.storage, self.settings, embedder)
        self._server: EmbeddedRedis | None = None
        self._owns_client = False
        self._recaller: Any = None
        self._recall_cache: dict[str, tuple[bytes, list[Preference]]] = {}

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
        memory.storage.ensure_schema()
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

    # -- writes ---------------------------------------------------------------------------------

    def remember(
        self,
        user_id: str,
        candidates: PreferenceCandidate | Sequence[PreferenceCandidate],
        *,
        idempotency_key: str | None = None,
    ) -> GateResult:
        """Store preferences through the persistence gate (see :meth:`PersistenceGate.write`).

        With a spool, a write that cannot reach Redis comes back with its
        contents in ``deferred`` (saved locally, written on reconnect).
        """
        batch = [candidates] if isinstance(candidates, PreferenceCandidate) else list(candidates)
        UserKeys.for_user(user_id)
        self.replay_spool()
        try:
            return self.gate.write(user_id, batch, idempotency_key=idempotency_key)
        except StorageUnavailableError:
            if self._server is not None and self._server.revive():
                return self.gate.write(user_id, batch, idempotency_key=idempotency_key)
            if self.spool is None:
                raise
            self.spool.append(
                "remember", user_id, {"candidates": [c.model_dump() for c in batch]}
            )
            return GateResult(deferred=[c.content for c in batch])

    def capture(self, user_id: str, text: str) -> GateResult:
        """Rule capture of one user message (en + zh), through the gate.

        Our own injected blocks are stripped first, so a recalled memory is
        never stored again as a new one. A message with no first-person
        preference stores nothing and returns an empty result.
        """
        from .capture import extract_preferences

        UserKeys.for_user(user_id)  # validate before doing any work
        candidates = extract_preferences(text or "")
        if not candidates:
            return GateResult()
        return self.remember(user_id, candidates)

    def replay_spool(self) -> int:
        """Write spooled preferences through the gate, oldest first.

        Returns:
            How many spooled writes were replayed (0 without a spool, or while
            Redis is still unreachable).
        """
        if self.spool is None or not self.spool.path.exists():
            return 0

        def apply(entry: dict[str, Any]) -> None:
            batch = [PreferenceCandidate(**c) for c in entry["payload"]["candidates"]]
            self.gate.write(entry["user_id"], batch, idempotency_key=entry["key"])

        replayed = self.spool.drain(apply)
        if replayed:
            logger.info("replayed %d spooled writes", replayed)
        return replayed

    def forget(self, user_id: str, text: str, polarity: Polarity | None = None) -> ForgetResult:
        """Remove what ``text`` names; see :meth:`PersistenceGate.forget`."""
        return self.gate.forget(user_id, text, polarity)

    def record_history(self, user_id: str, snapshot: HistorySnapshot) -> None:
        """Store a behaviour history snapshot (never a preference)."""
        self.gate.record_history(user_id, snapshot)

    def append_transcript(self, user_id: str, thread_id: str, role: str, text: str) -> None:
        """Append one message to a conversation thread's bounded transcript."""
        entry = {"role": role, "text": text, "at": utcnow().isoformat()}
        self.storage.append_transcript(UserKeys.for_user(user_id), thread_id, entry)

    # -- reads ----------------------------------------------------------------------------------

    def preferences(self, user_id: str, *, with_embeddings: bool = False) -> list[Preference]:
        """The user's active preferences, oldest first."""
        return self.storage.preferences(UserKeys.for_user(user_id), with_embeddings=with_embeddings)

    def history(self, user_id: str, limit: int = 20) -> list[HistorySnapshot]:
        """Recent behaviour history snapshots, newest first."""
        return self.storage.history(UserKeys.for_user(user_id), limit)

    def changes(self, user_id: str, limit: int = 50) -> list[ChangeEvent]:
        """Recent change events, newest first."""
        return self.storage.changes(UserKeys.for_user(user_id), limit)

    def transcript(self, user_id: str, thread_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The last messages of a thread, oldest first: ``[{"role", "text", "at"}]``."""
        return self.storage.transcript(UserKeys.for_user(user_id), thread_id, limit)

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

        The user's preferences and vectors are cached in-process per revision:
        while nothing is written, a recall costs one ``GET`` plus the ranking.

        Args:
            user_id: Whose preferences.
            query: The request, in any language.
            k: Most items returned (≥ 1).
            token_budget: Most estimated tokens of content returned.
            polarity: Only ``like`` or ``dislike``.
            category: Only this category.

        Raises:
            InvalidInputError: Bad ``user_id``, ``k``, budget, polarity or category.
            StorageUnavailableError: Redis failed.
        """
        from .recall import Recaller

        if self._recaller is None:
            self._recaller = Recaller(self.embedder)
        keys = UserKeys.for_user(user_id)
        rev, prefs = self._recall_pool(keys)
        result: RecallResult = self._recaller.recall(
            prefs, query, k=k, token_budget=token_budget, polarity=polarity, category=category,
            cache_key=(keys.tag, rev),
        )
        return result

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

    def write_observations(
        self,
        user_id: str,
        candidates: Sequence[ObservationCandidate],
        updates: Sequence[ObservationUpdate] = (),
    ) -> ObservationResult:
        """Store observations through the gate (see :meth:`PersistenceGate.write_observations`)."""
        return self.gate.write_observations(user_id, candidates, updates)

    def observations(self, user_id: str) -> list[Observation]:
        """The user's observations, most confident first."""
        return self.storage.observations(UserKeys.for_user(user_id))

    def flags(self, user_id: str) -> list[Flag]:
        """The user's open check-up flags whose preferences are both still active."""
        keys = UserKeys.for_user(user_id)
        active = {p.id for p in self.storage.preferences(keys)}
        return [f for f in self.storage.flags(keys) if set(f.preference_ids) <= active]

    def _recall_pool(self, keys: UserKeys) -> tuple[bytes, list[Preference]]:
        cached = self._recall_cache.get(keys.tag)
        if cached is not None and cached[0] == self.storage.revision(keys):
            return cached
        pool = self.storage.preferences_at_revision(
            keys, with_embeddings=self.embedder is not None
        )
        self._recall_cache[keys.tag] = pool
        while len(self._recall_cache) > 32:
            self._recall_cache.pop(next(iter(self._recall_cache)))
        return pool

    def ping(self) -> bool:
        """Whether Redis answers; restarts the embedded server if it died meanwhile."""
        if self.storage.ping():
            return True
        return self._server is not None and self._server.revive() and self.storage.ping()

    def require(self) -> None:
        """Raise :class:`StorageUnavailableError` unless Redis answers."""
        if not self.ping():
            raise StorageUnavailableError(f"Redis at {self.redis_location} does not answer")


__all__ = ["Memory"]
