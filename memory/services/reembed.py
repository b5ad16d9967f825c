"""``penchant reembed``: move stored vectors to the configured embedding model.

Each vector is stored with the name and dimension of the model that made it; recall never
compares vectors of different models (it scores a foreign space with its own model when that
model ships with Penchant, and otherwise finds those preferences by their words only). When
``PENCHANT_EMBEDDINGS`` changes, this command re-embeds every preference whose vector is
missing or from another space, in batches, and verifies counts before and after: the same
number of active preferences, every stale vector rewritten, none left stale.

``--dry-run`` counts what would change (per user and per stored space) and writes nothing.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..client import Memory
from ..embeddings import Embedder, embedding_text
from ..model import InvalidInputError, PenchantError, Preference

logger = logging.getLogger(__name__)

BATCH = 64
"""Preferences embedded per call (one model batch, one storage transaction)."""


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
        ``{"model", "dim", "users", "preferences", "stale", "stale_by_model",
        "reembedded", "dry_run"}``: ``preferences`` active preferences seen, ``stale`` those
        whose vector is missing or of another space (``stale_by_model``: stored space →
        count, ``"(no vector)"`` for none), ``reembedded`` vectors rewritten (0 on a dry
        run).

    Raises:
        InvalidInputError: No embedder is configured.
        PenchantError: After writing, a user's count of active preferences changed, fewer
            vectors than stale ones were rewritten, or some vector is still stale (another
            writer raced the command): nothing is lost, run it again.
    """
    embedder = memory.embedder
    if embedder is None:
        raise InvalidInputError("no embedder configured; set PENCHANT_EMBEDDINGS")
    report: dict[str, Any] = {
        "model": embedder.name, "dim": embedder.dim, "users": len(users),
        "preferences": 0, "stale": 0, "stale_by_model": {}, "reembedded": 0, "dry_run": dry_run,
    }  # fmt: skip
    by_model: Counter[str] = Counter()
    for user in users:
        prefs = memory.preferences(user)
        stale = [p for p in prefs if not is_current(p, embedder)]
        report["preferences"] += len(prefs)
        report["stale"] += len(stale)
        by_model.update(p.embedding_model or "(no vector)" for p in stale)
        if dry_run or not stale:
            continue
        written = _rewrite(memory, embedder, user, stale, progress)
        report["reembedded"] += written
        _verify(memory, embedder, user, before=len(prefs), stale=len(stale), written=written)
    report["stale_by_model"] = dict(sorted(by_model.items()))
    return report


def vector_report(memory: Memory, users: Sequence[str] | None = None) -> dict[str, Any]:
    """What ``penchant doctor`` says about stored vectors: their spaces and what needs moving.

    Args:
        memory: The memory whose embedder is current.
        users: Users to count; every user by default.

    Returns:
        ``{"vectors": {"<model> (<dim>-d)": count, …}, "reembed_needed": n,
        "vectors_unusable": m}``: ``reembed_needed`` counts active preferences whose vector
        is not of the current embedder's space; ``vectors_unusable`` those among them that
        recall cannot score at all here (their model is not installed or not one Penchant
        ships), found by their words only until ``penchant reembed``.
    """
    from ..embeddings import embedder_for_space

    embedder = memory.embedder
    spaces: Counter[tuple[str | None, int | None]] = Counter()
    for user in memory.users() if users is None else users:
        spaces.update((p.embedding_model, p.embedding_dim) for p in memory.preferences(user))
    current = (embedder.name, embedder.dim) if embedder is not None else None
    needed = unusable = 0
    for (name, dim), count in spaces.items():
        if current is None or (name, dim) == current:
            continue
        needed += count
        if name is None or dim is None or embedder_for_space(name, dim) is None:
            unusable += count
    return {
        "vectors": {
            (f"{name} ({dim}-d)" if name else "(no vector)"): count
            for (name, dim), count in sorted(spaces.items(), key=lambda kv: -kv[1])
        },
        "reembed_needed": needed,
        "vectors_unusable": unusable,
    }


def is_current(pref: Preference, embedder: Embedder) -> bool:
    """Whether ``pref`` has a vector of ``embedder``'s space (name, width and byte length)."""
    return (
        pref.embedding is not None
        and pref.embedding_model == embedder.name
        and pref.embedding_dim == embedder.dim
        and len(pref.embedding) == 4 * embedder.dim
    )


def _rewrite(
    memory: Memory,
    embedder: Embedder,
    user: str,
    stale: list[Preference],
    progress: Callable[[str, int, int], None] | None,
) -> int:
    written = 0
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
        }  # fmt: skip
        written += memory.replace_vectors(user, updates)
        if progress:
            progress(user, min(start + BATCH, len(stale)), len(stale))
    return written


def _verify(
    memory: Memory, embedder: Embedder, user: str, *, before: int, stale: int, written: int
) -> None:
    after = memory.preferences(user)
    left = sum(1 for p in after if not is_current(p, embedder))
    problems = []
    if len(after) != before:
        problems.append(f"{before} active preferences before, {len(after)} after")
    if written != stale:
        problems.append(f"{stale} stale vectors but {written} rewritten")
    if left:
        problems.append(f"{left} still stale")
    if problems:
        raise PenchantError(
            f"re-embedding {user!r}: {'; '.join(problems)} (another writer changed the "
            "preferences meanwhile; nothing is lost): run 'penchant reembed' again"
        )
    logger.info("re-embedded %d of %d preferences of %r", written, before, user)


__all__ = ["BATCH", "is_current", "reembed", "vector_report"]
