"""The layer that embeds: one sentence vector per clause, read by the statement head.

:class:`ClauseReader` is the ``reader`` that
:func:`~..core.capture.extract.extract_preferences` takes: it embeds a message's clauses in one
batch with a USE-multilingual v3 embedder (the head's space) and returns each
clause's :class:`~..core.capture.statements.Kind`. The vectors of the last batch are kept
(:attr:`ClauseReader.last`) so a caller can pass them on instead of embedding the
clauses again.
"""

from __future__ import annotations

import threading

import numpy as np

from ..core import Kind, StatementHead, default_head
from ..embeddings import USE_MODEL, Embedder, USEEmbedder
from ..model import InvalidInputError


class ClauseReader:
    """Reads the kind of each clause of a message.

    Args:
        embedder: A USE-multilingual v3 embedder; default: the process's shared one
            (its weights load, after their digest check, on first use).
        head: The statement head; default: the shipped one (digest-checked).

    Raises:
        InvalidInputError: ``embedder`` is not in the head's vector space.
    """

    def __init__(self, embedder: Embedder | None = None, head: StatementHead | None = None):
        if embedder is not None and embedder.name != USE_MODEL:
            raise InvalidInputError(
                f"the statement head reads {USE_MODEL} vectors; embedder {embedder.name!r} "
                "is another space"
            )
        self._embedder = embedder
        self._head = head
        self.last: np.ndarray | None = None

    def __call__(self, clauses: list[str]) -> list[Kind]:
        """Kinds of ``clauses`` (one embedding each, one batch)."""
        if not clauses:
            return []
        embedder = self._embedder or shared_use_embedder()
        head = self._head or default_head()
        vectors = np.asarray(embedder.embed(list(clauses)), dtype=np.float32)
        self.last = vectors
        return head.read(vectors)


_LOCK = threading.Lock()
_USE: USEEmbedder | None = None


def shared_use_embedder() -> USEEmbedder:
    """One USE embedder per process for reading clauses (lazy: nothing loads here)."""
    global _USE
    with _LOCK:
        if _USE is None:
            _USE = USEEmbedder()
        return _USE


def reader_for(embedder: Embedder | None) -> ClauseReader:
    """A reader that reuses ``embedder`` when it is in the head's space, else the shared one."""
    if embedder is not None and embedder.name == USE_MODEL:
        return ClauseReader(embedder)
    return ClauseReader()


__all__ = ["ClauseReader", "reader_for", "shared_use_embedder"]
