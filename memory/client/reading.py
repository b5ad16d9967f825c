"""The layer that embeds: one sentence vector per clause, read by the statement head, and
the gate's vectors of a write, which reuse any text embedded already.

:class:`ClauseReader` is the ``reader`` that
:func:`~..core.capture.extract.extract_preferences` takes: it embeds a message's clauses in one
batch with a USE-multilingual v3 embedder (the head's space) and returns each
clause's :class:`~..core.capture.statements.Kind`. The vectors of the last batch are kept
(:attr:`ClauseReader.last`) so a caller can pass them on instead of embedding the
clauses again.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core import (
    Kind,
    StatementHead,
    default_head,
    default_structure_head,
    default_verdict_head,
    read_kinds,
    screening_pieces,
)
from ..embeddings import USE_MODEL, Embedder, USEEmbedder, embedding_text
from ..model import InvalidInputError, PreferenceCandidate

if TYPE_CHECKING:
    from ..core import PreparedCandidate


class ClauseReader:
    """Reads the kind of each clause of a message.

    Args:
        embedder: A USE-multilingual v3 embedder; default: the process's shared one
            (its weights load, after their digest check, on first use).
        head: The statement head; default: the shipped one (digest-checked).
        structure_head: The structure head each kind also carries (:meth:`Kind.for_structure`);
            default: the shipped one, where ``head`` is the shipped one too.
        verdict_head: The verdict head :meth:`judge` reads with; default: the shipped one
            (loaded on the first :meth:`judge`).

    Raises:
        InvalidInputError: ``embedder`` is not in the head's vector space.
    """

    def __init__(
        self, embedder: Embedder | None = None, head: StatementHead | None = None,
        structure_head: StatementHead | None = None, verdict_head: StatementHead | None = None,
    ):
        if embedder is not None and embedder.name != USE_MODEL:
            raise InvalidInputError(
                f"the statement head reads {USE_MODEL} vectors; embedder {embedder.name!r} "
                "is another space"
            )
        self._embedder = embedder
        self._head = head
        self._structure_head = structure_head
        self._verdict_head = verdict_head
        self.last: np.ndarray | None = None
        self._known: dict[str, np.ndarray] = {}

    @property
    def embedder(self) -> Embedder | None:
        """The embedder given (``None``: the process's shared one is used)."""
        return self._embedder

    def __call__(self, clauses: list[str]) -> list[Kind]:
        """Kinds of ``clauses`` (one embedding each, one batch; a text this reader embedded
        already is not embedded again)."""
        if not clauses:
            return []
        head = self._head or default_head()
        vectors = self._embedded(clauses)
        self.last = vectors
        structure = self._structure_head
        if structure is None and self._head is None:
            structure = default_structure_head()
        return read_kinds(head, structure, vectors, clauses)

    def judge(self, texts: list[str]) -> list[tuple[float, ...]]:
        """The verdict head's reading of each text (favourable, unfavourable, neutral:
        :data:`~..core.capture.verdicts.VERDICTS`), embedded as :meth:`__call__` embeds; asked
        only of the few pieces :mod:`~..core.capture.alternatives` weighs, not of every
        clause."""
        if not texts:
            return []
        head = self._verdict_head or default_verdict_head()
        probs = head.probabilities(self._embedded(texts), texts=texts)
        return [tuple(float(p) for p in row) for row in probs]

    def _embedded(self, texts: list[str]) -> np.ndarray:
        """``(len(texts), 512)`` vectors of ``texts``; a text embedded before is not again."""
        embedder = self._embedder or shared_use_embedder()
        missing = [t for t in dict.fromkeys(texts) if t not in self._known]
        if missing:
            made = np.asarray(embedder.embed(missing), dtype=np.float32)
            self._known.update(zip(missing, made, strict=True))
        return np.stack([self._known[t] for t in texts])

    def vectors(self) -> dict[str, np.ndarray]:
        """Every vector this reader computed, by clause text (``float32[512]`` each; empty
        before any batch), for a caller that embeds the same text in the same space. Every
        batch counts, not only the last: capture reads a message's clauses in one batch, then
        may read single clauses (a past clause, an exception's class clause), and the gate
        reuses all of them. A reader serves one capture (:func:`reader_for`)."""
        return dict(self._known)


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


def _said(candidate: PreferenceCandidate, pieces: list[str]) -> list[str]:
    """The sentence a captured candidate was read from
    (:attr:`~penchant.memory.PreferenceCandidate.said`), when it is not its content or one of
    its ``pieces``, as a list of at most one text."""
    said = candidate.said
    return [said] if said and said != candidate.content and said not in pieces else []


def embed_prepared(
    embedder: Embedder | None,
    prepared: list[PreparedCandidate],
    known: Mapping[str, np.ndarray] | None = None,
) -> None:
    """Give each prepared candidate its vector (content plus category), and the vectors of
    its :func:`~penchant.memory.core.screening_pieces` (for the screen by meaning), in one batch.

    A text embedded already in this space (``known``: the statement head's clause vectors of
    the same call) is reused, and a text twice in the batch is embedded once, so the gate
    never computes a sentence embedding this call has.
    """
    if embedder is None or not prepared:
        return
    pieces = [screening_pieces(p.candidate.content) for p in prepared]
    texts = [embedding_text(p.candidate.content, p.candidate.category) for p in prepared]
    said = [_said(p.candidate, found) for p, found in zip(prepared, pieces, strict=True)]
    wanted = texts + [piece for found in pieces for piece in found] + [t for s in said for t in s]
    vectors: dict[str, np.ndarray] = {t: known[t] for t in wanted if known and t in known}
    missing = list(dict.fromkeys(t for t in wanted if t not in vectors))
    if missing:
        vectors.update(zip(missing, embedder.embed(missing), strict=True))
    for item, text, found in zip(prepared, texts, pieces, strict=True):
        item.embedding = np.asarray(vectors[text], dtype=np.float32).tobytes()
        item.embedding_model = embedder.name
        item.embedding_dim = embedder.dim
        item.piece_texts = found
        item.piece_embeddings = [
            np.asarray(vectors[piece], dtype=np.float32).tobytes() for piece in found
        ]
    for item, sentence in zip(prepared, said, strict=True):
        if sentence:
            item.said_embedding = np.asarray(vectors[sentence[0]], dtype=np.float32).tobytes()


@dataclass(frozen=True)
class Captured:
    """One message's capture, ready for its gate write.

    Attributes:
        candidates: The turn's batch (:func:`turn_batch`), in order.
        known: Sentence vectors this capture computed, by text (the clause vectors, when
            they are in the memory's space): ``float32[dim]`` each.
    """

    candidates: list[PreferenceCandidate]
    known: Mapping[str, np.ndarray] = field(default_factory=dict)


__all__ = ["Captured", "ClauseReader", "embed_prepared", "reader_for", "shared_use_embedder"]
