"""``penchant doctor``: what Penchant sees of its Redis and configuration."""

from __future__ import annotations

from typing import Any

from ..client import Memory
from ..embeddings import missing_runtime
from ..model import StorageUnavailableError

VECTOR_SAMPLE_USERS = 1_000
"""Above this many users, ``doctor`` counts vector spaces over a random sample of this many
(reading every user's preferences would cost as much as a full export)."""


def diagnose(memory: Memory) -> dict[str, Any]:
    """A flat report: Redis reachability, version, persistence, schema, users, embedder.

    ``query_engine`` says whether the server has the Redis Query Engine
    (``FT.*``: Redis 8 / Redis Stack); Penchant works without it. ``vectors``,
    ``reembed_needed`` and ``vectors_unusable`` say which models made the stored vectors
    and how many need ``penchant reembed`` (:func:`~.reembed.vector_report`), over a random
    sample of :data:`VECTOR_SAMPLE_USERS` users when there are more (``vectors_sampled_users``
    then says how many). ``users`` is ``SCARD`` of the registry; on a cluster, ``cluster``
    gives its shape (:func:`~.backends.cluster.shape`). ``embedder_missing`` is present when
    the selected embedder's packages are not installed, with the command that installs them
    (:func:`~penchant.memory.embeddings.missing_runtime`; nothing is loaded to find out).
    """
    report: dict[str, Any] = {"redis_location": memory.redis_location}
    try:
        report.update(memory.server_report())
        report["redis"] = "ok"
    except StorageUnavailableError as exc:
        report["redis"] = f"unavailable: {exc}"
    report["embedder"] = getattr(memory.embedder, "name", None) or "none"
    if (missing := missing_runtime(memory.embedder)) is not None:
        report["embedder_missing"] = missing
    if report["redis"] == "ok":
        from .reembed import vector_report

        try:
            users = None
            if int(report.get("users") or 0) > VECTOR_SAMPLE_USERS:
                users = memory.sample_users(VECTOR_SAMPLE_USERS)
                report["vectors_sampled_users"] = len(users)
            report.update(vector_report(memory, users))
        except StorageUnavailableError as exc:
            report["redis"] = f"unavailable: {exc}"
    report["spooled_writes"] = memory.spool.pending() if memory.spool else 0
    report["penchant_home"] = str(memory.settings.home)
    return report


__all__ = ["diagnose"]
