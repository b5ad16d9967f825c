"""Configuration, read from the environment once at the entry point.

Nothing here runs at import: build :class:`Settings` in the CLI, the chat or a
test and pass it down.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return Path.home() / ".local" / "share" / "penchant"


class Settings(BaseSettings):
    """Penchant's settings (environment prefix ``PENCHANT_``; a variable set to the empty
    string counts as unset).

    Attributes:
        home: Data directory; the embedded server keeps its AOF/RDB files and
            unix socket under ``home / "redis"``.
        redis_url: Use this Redis instead of the embedded one
            (``redis://``, ``rediss://`` or ``unix://``).
        redis_cluster: ``PENCHANT_REDIS_CLUSTER``: use redis-py's cluster client
            (``RedisCluster``) for ``redis_url``. ``None`` (default): automatic, a cluster
            client when the server's ``INFO cluster`` reports ``cluster_enabled:1`` (one
            round trip at connect; never for ``unix://``).
        redis_replica_acks: ``PENCHANT_REDIS_REPLICA_ACKS``: replicas that must acknowledge a
            commit (``WAIT``) before it is reported committed. ``None`` (default): 1 in
            cluster mode when the user's shard has a replica, else 0 (see
            :mod:`~.backends.cluster`; a standalone primary with replicas can set 1).
        redis_replica_ack_timeout_ms: How long a commit waits for those acknowledgements; a
            commit whose ``WAIT`` timed out is still reported committed, with a warning.
        embeddings: Embedding model selector (``PENCHANT_EMBEDDINGS``): unset or ``default``
            (USE multilingual v3 fused with all-MiniLM-L6-v2 on numpy, no torch),
            ``use-multilingual`` (USE alone), ``minilm-int8``, ``minilm``
            (extra ``penchant[minilm]``), ``use-multilingual+e5`` (extra ``penchant[e5]``),
            ``openai:<model>``, ``hash``, or a sentence-transformers name or directory; see
            :mod:`penchant.memory.embeddings`.
        model: Chat model name for an OpenAI-compatible endpoint.
        openai_api_key: ``OPENAI_API_KEY``; with it (or ``openai_base_url``) the agent uses
            a real model instead of the offline one.
        openai_base_url: ``OPENAI_BASE_URL`` of an OpenAI-compatible server (Ollama,
            llama.cpp, vLLM); alone, without a key, it selects that server.
        max_content_chars: Longest preference sentence the gate accepts.
        max_keywords: Most keywords one preference may carry.
        change_log_max: Entries kept in each user's change stream.
        history_max: History snapshots kept per user.
        write_retry_seconds: How long a write that keeps losing its optimistic lock to other
            writers backs off and retries before it gives up (:class:`~.retry.RetryPolicy`).
        idempotency_ttl_seconds: How long a retried write with the same key is
            recognised as a duplicate.
        observation_alpha: Step α by which evidence moves an observation's confidence:
            +α reinforce, −α weaken, −2α contradict, clamped to [0, 1] (Hindsight: "agent
            memory that retains, recalls, and reflects", 2025).
        max_observations: Most observations kept per user (lowest confidence dropped first).
        contradiction_cosine: Check-up: cosine of two opposite-polarity preference vectors at
            or above which they are flagged as a possible contradiction. ``None`` (default):
            the embedder's measured floor (USE 0.60, all-MiniLM-L6-v2 0.60; the figures are
            in each embedder's ``contradiction_cosine``).
        duplicate_cosine: Check-up: cosine of two same-polarity preference vectors at or
            above which they are flagged as near-duplicates. ``None`` (default): the
            embedder's measured floor (USE 0.75, all-MiniLM-L6-v2 0.80).
        checkup_lease_ms: How long a check-up worker holds a user's lease; a crashed worker's
            lease expires after this and another worker takes the user.
        checkup_attempts: Tries of one check-up job before it is left for the next run.
        checkup_backoff_seconds: First retry delay; doubled after each failed try.
        checkup_try_seconds: Longest one try of a check-up may run: past it the lease is no
            longer renewed (another worker can take the user once it expires) and the async
            job stops waiting for it (a judge or embedder that never answers).
        max_preferences: Most active preferences one user may hold (default 5,000: about 25
            times the largest PrefEval user; a write that would go past it is rejected whole,
            an import that would go past it stores nothing).
        max_import_bytes: Largest import document, in UTF-8 bytes (default 5 MiB: an export
            of 5,000 preferences with history is about 2 MiB).
        max_import_preferences: Most preferences one import document may carry.
        transcript_max_messages: Messages kept per conversation thread (oldest dropped first).
        transcript_ttl_seconds: A thread's transcript expires this long after its last
            message (default 30 days).
        keep_full_history: Keep the text of forgotten preferences in the change log and in
            transcripts (off by default: a forget leaves a tombstone event with the
            preference's id, time and a salted digest of its content, and scrubs the text from
            the log, idempotency records, transcripts and behaviour history).
        embeddings_cache_ttl_seconds: Lifetime of one cached embedding (MiniLM and OpenAI
            embedders only; default 1 day).
        embeddings_cache_max: Most cached embeddings kept in all (oldest dropped first).
        clock_skew_seconds: How far in the future a stated time (a preference's ``at``, a
            history snapshot's ``at``) may lie before the gate refuses it (default 1 day, the
            records' own bound, :data:`~.records.MAX_CLOCK_SKEW`); no time before 2000 is
            accepted either.
        embedded_linger_seconds: How long the embedded server stays up after the last
            Penchant process left it (default 300 s), so that the next command attaches to a
            running server instead of loading the whole dataset again (about 6 s at 10k users
            × 20 preferences, measured); 0 stops it with its last user. A detached reaper stops
            it after this long, even when the last user was killed.
    """

    model_config = SettingsConfigDict(env_prefix="PENCHANT_", extra="ignore", env_ignore_empty=True)

    home: Path = Field(default_factory=_default_home)
    redis_url: str | None = None
    redis_cluster: bool | None = None
    redis_replica_acks: int | None = Field(default=None, ge=0)
    redis_replica_ack_timeout_ms: int = Field(default=1_000, ge=1)
    embeddings: str = "default"
    model: str = "gpt-4o-mini"
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "PENCHANT_OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_BASE_URL", "PENCHANT_OPENAI_BASE_URL")
    )
    max_content_chars: int = Field(default=500, ge=10)
    max_keywords: int = Field(default=12, ge=1)
    change_log_max: int = Field(default=1000, ge=10)
    history_max: int = Field(default=50, ge=1)
    write_retry_seconds: float = Field(default=10.0, gt=0.0)
    idempotency_ttl_seconds: int = Field(default=86_400, ge=1)
    observation_alpha: float = Field(default=0.1, gt=0.0, le=0.5)
    max_observations: int = Field(default=200, ge=1)
    contradiction_cosine: float | None = Field(default=None, ge=-1.0, le=1.0)
    duplicate_cosine: float | None = Field(default=None, ge=-1.0, le=1.0)
    checkup_lease_ms: int = Field(default=60_000, ge=10)
    checkup_attempts: int = Field(default=3, ge=1)
    checkup_backoff_seconds: float = Field(default=1.0, ge=0.0)
    checkup_try_seconds: float = Field(default=600.0, gt=0.0, le=86_400.0)
    max_preferences: int = Field(default=5_000, ge=1)
    max_import_bytes: int = Field(default=5 * 1024 * 1024, ge=1024)
    max_import_preferences: int = Field(default=5_000, ge=1)
    transcript_max_messages: int = Field(default=500, ge=1)
    transcript_ttl_seconds: int = Field(default=30 * 86_400, ge=60)
    keep_full_history: bool = False
    embeddings_cache_ttl_seconds: int = Field(default=86_400, ge=1)
    embeddings_cache_max: int = Field(default=10_000, ge=0)
    clock_skew_seconds: int = Field(default=86_400, ge=0)
    embedded_linger_seconds: float = Field(default=300.0, ge=0.0, le=86_400.0)

    @property
    def redis_dir(self) -> Path:
        """Directory of the embedded server's data files and socket."""
        return self.home / "redis"


__all__ = ["Settings"]
