"""``penchant reembed``: move stored vectors to the configured embedding model.

Each vector is stored with the name and dimension of the model that made it;
recall never compares vectors of different models. When ``PENCHANT_EMBEDDINGS``
changes, this command re-embeds every preference whose vector is missing or
from another model, in batches, and verifies the counts afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .client import Memory
from .embeddings import embedding_text
from .errors import InvalidInputError, PenchantError
from .keys import UserKeys

logger = logging.getLogger(__name__)

BATCH = 64


def reembed(
    memory: Memory,
    users: Sequence[str],
    *,
    dry_run: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Re-embed stale vectors of ``users`` with ``memory.embedder``.

    Args:
        memory: A memory with an embedder.
        users: User ids to process.
        dry_run: Count what would change, write nothing.
        progress: Called as ``progress(user_id, done, total)`` after each batch.

    Returns:
        ``{"model", "dim", "users", "preferences", "stale", "reembedded",
        "dry_run"}``; ``reembedded`` is 0 on a dry run.

    Raises:
        InvalidInputError: No embedder is configured.
        PenchantError: After writing, some preference still has a stale vector.
    """
    embedder = memory.embedder
    if embedder is None:
        raise InvalidInputError("no embedder configured; set PENCHANT_EMBEDDINGS")
    report: dict[str, Any] = {
        "model": embedder.name, "dim": embedder.dim, "users": len(users),
        "preferences": 0, "stale": 0, "reembedded": 0, "dry_run": dry_run,
    }
    for user in users:
        prefs = memory.preferences(user, with_embeddings=True)
        stale = [p for p in prefs if not _current(p, embedder.name, embedder.dim)]
        report["preferences"] += len(prefs)
        report["stale"] += len(stale)
        if dry_run or not stale:
            continue
        for start in range(0, len(stale), BATCH):
            batch = stale[start : start + BATCH]
            vectors = embedder.embed([embedding_text(p.content, p.category) for p in batch])
            updates = {
                p.id: p.model_copy(update={
                    "embedding": np.asarray(v, dtype=np.float32).tobytes(),
                    "embedding_model": embedder.name,
                    "embedding_dim": embedder.dim,
                })
                for p, v in zip(batch, vectors, strict=True)
            }
            report["reembedded"] += memory.storage.replace_vectors(UserKeys.for_user(user), updates)
            if progress:
                progress(user, min(start + BATCH, len(stale)), len(stale))
        left = [p for p in memory.preferences(user, with_embeddings=True)
                if not _current(p, embedder.name, embedder.dim)]
        if left:
            raise PenchantError(
                f"re-embedding {user!r}: {len(left)} preferences still have stale vectors; "
                "run 'penchant reembed' again"
            )
    return report


def _current(pref: Any, name: str, dim: int) -> bool:
    return (
        pref.embedding is not None
        and pref.embedding_model == name
        and pref.embedding_dim == dim
        and len(pref.embedding) == 4 * dim
    )


__all__ = ["reembed"]
