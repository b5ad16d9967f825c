"""What kind of statement a clause is: a small learned head over its sentence embedding.

Rules cut a message into clauses and pull objects out of them; the kind of each
clause (a like, a dislike, a change of mind, quitting, a switch, an exception, a
comparison, a slot value, an allergy retracted, an amount limit, or no preference at
all) is decided here, by multinomial logistic regression over the clause's
USE-multilingual v3 embedding (512-d, L2-normalised), so phrasings no rule was
written for are read in English and Chinese alike.

The weights ship in ``statements.npz`` beside this module; its SHA-256 is pinned in
:data:`HEAD_SHA256` and checked before the file is read. Prediction is pure numpy
and deterministic. Retrain with ``python bench/train_statements.py`` (corpus:
``bench/corpus/statements/``), which rewrites the file and the pinned digest.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...model import ModelIntegrityError
from ..pinned_weights import read_pinned_weights

KINDS: tuple[str, ...] = (
    "like", "dislike", "flip_like", "flip_dislike", "quit", "switch", "exception",
    "comparative", "slot", "allergy_retraction", "limit", "none",
)  # fmt: skip
"""The kinds the head tells apart, in the order of its outputs."""

HEAD_PATH = Path(__file__).resolve().with_name("statements.npz")
"""The shipped weights (``W`` (512, k) float32, ``b`` (k,) float32, ``kinds``)."""
HEAD_SHA256 = "37f51ea26e59802680efe58ceb9f0b055ba4c7826ebfec5d915bc6c6e03a942a"
"""SHA-256 of :data:`HEAD_PATH`, rewritten by ``bench/train_statements.py``."""
HEAD_SPACE = "universal-sentence-encoder-multilingual-3"
"""The vector space the head was trained in (the default embedder's)."""


@dataclass(frozen=True)
class Kind:
    """The head's reading of one clause.

    Attributes:
        kind: One of :data:`KINDS`.
        p: Its probability (0..1).
        probs: Every kind's probability, in :data:`KINDS` order.
    """

    kind: str
    p: float
    probs: tuple[float, ...]

    def of(self, kind: str) -> float:
        """The probability of ``kind``."""
        return self.probs[KINDS.index(kind)]


class StatementHead:
    """Softmax regression from a sentence vector to a statement kind.

    Args:
        weights: ``(dim, len(kinds))`` matrix.
        bias: ``(len(kinds),)`` vector.
        kinds: Output names; must equal :data:`KINDS`.

    Raises:
        ModelIntegrityError: Shapes or kinds do not fit.
    """

    def __init__(self, weights: np.ndarray, bias: np.ndarray, kinds: Sequence[str]) -> None:
        if tuple(kinds) != KINDS:
            raise ModelIntegrityError(f"statement head kinds {tuple(kinds)} != {KINDS}")
        if weights.ndim != 2 or weights.shape[1] != len(KINDS) or bias.shape != (len(KINDS),):
            raise ModelIntegrityError(
                f"statement head has shapes W{weights.shape} b{bias.shape}, expected "
                f"(dim, {len(KINDS)}) and ({len(KINDS)},)"
            )
        self.weights = np.ascontiguousarray(weights, dtype=np.float32)
        self.bias = np.ascontiguousarray(bias, dtype=np.float32)

    @property
    def dim(self) -> int:
        """Width of the vectors it reads."""
        return int(self.weights.shape[0])

    @classmethod
    def load(cls, path: Path = HEAD_PATH, sha256: str = HEAD_SHA256) -> StatementHead:
        """Read the weights after checking the file's SHA-256.

        Raises:
            ModelIntegrityError: The file is missing, its digest differs from ``sha256``
                (both named, with the fix), or it does not hold a head.
        """
        data = read_pinned_weights(
            path, sha256, "statement head", "python bench/train_statements.py"
        )
        return cls(data["W"], data["b"], [str(k) for k in data["kinds"]])

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """Kind probabilities of each vector.

        Args:
            vectors: ``(n, dim)`` float array (L2-normalised sentence embeddings).

        Returns:
            ``(n, len(KINDS))`` float64 array; rows sum to 1.

        Raises:
            ValueError: ``vectors`` is not ``(n, dim)``.
        """
        x = np.asarray(vectors, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"vectors have shape {x.shape}, expected (n, {self.dim})")
        logits = (x @ self.weights + self.bias).astype(np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)

    def read(self, vectors: np.ndarray) -> list[Kind]:
        """The most probable kind of each vector (see :meth:`probabilities`)."""
        found = []
        for row in self.probabilities(vectors):
            best = int(np.argmax(row))
            found.append(Kind(KINDS[best], float(row[best]), tuple(float(p) for p in row)))
        return found


_LOCK = threading.Lock()
_HEAD: StatementHead | None = None


def default_head() -> StatementHead:
    """The shipped head, loaded (and its digest checked) once per process."""
    global _HEAD
    with _LOCK:
        if _HEAD is None:
            _HEAD = StatementHead.load()
        return _HEAD


__all__ = ["HEAD_PATH", "HEAD_SHA256", "HEAD_SPACE", "KINDS", "Kind", "StatementHead",
           "default_head"]  # fmt: skip
