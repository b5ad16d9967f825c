"""What kind of statement a clause is: a small learned head over its sentence embedding.

Rules cut a message into clauses and pull objects out of them; the kind of each
clause (a like, a dislike, a change of mind, quitting, a switch, an exception, a
comparison, a slot value, an allergy retracted, an amount limit, or no preference at
all) is decided here, by multinomial logistic regression mixed with a one-hidden-layer
network, both over the clause's USE-multilingual v3 embedding (512-d, L2-normalised), so
phrasings no rule was written for are read in English and Chinese alike.

The weights ship in ``statements.npz`` beside this module; its SHA-256 is pinned in
:data:`HEAD_SHA256` and checked before the file is read. Prediction is pure numpy
and deterministic. Retrain with ``python bench/train_statements.py`` (corpus:
``bench/corpus/statements/``), which rewrites the file and the pinned digest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Self

import numpy as np

from ...model import ModelIntegrityError
from ..ngrams import BUCKETS, batch, batch_logits
from ..pinned_weights import loaded_once, read_pinned_weights

KINDS: tuple[str, ...] = (
    "like", "dislike", "flip_like", "flip_dislike", "quit", "switch", "exception",
    "comparative", "slot", "allergy_retraction", "limit", "none",
)  # fmt: skip
"""The kinds the head tells apart, in the order of its outputs."""

HEAD_PATH = Path(__file__).resolve().with_name("statements.npz")
"""The shipped weights: the linear part (``W`` (512, k) float32, ``b`` (k,)), the hidden-layer
part (``W1`` (512, h), ``b1`` (h,), ``W2`` (h, k), ``b2`` (k,)), the linear part's share of
the mixture (``mix``, a scalar) and ``kinds``."""
HEAD_SHA256 = "6a37aeb87b844b398450a6e099ac19965b85206330d52949b407d38a676988f3"
"""SHA-256 of :data:`HEAD_PATH`, rewritten by ``bench/train_statements.py``."""
HEAD_SPACE = "universal-sentence-encoder-multilingual-3"
"""The vector space the head was trained in (the default embedder's)."""
STRUCTURE_HEAD_PATH = Path(__file__).resolve().with_name("structures.npz")
"""A second head of the same shape, for the structural kinds only (:meth:`Kind.for_structure`):
trained as the first, plus the kinds sets' development messages (``bench/train_statements.py
--structure``). Learned into the first head, those messages took probability from the plain
likes and dislikes of other authors' messages; read apart, they decide only which structure a
sentence is tried for, and whether an allergy is said to be over."""
STRUCTURE_HEAD_SHA256 = "18f0d622a5d8c34e1737f922f400a5ed992792e118dd32579b385dc81fba0577"
"""SHA-256 of :data:`STRUCTURE_HEAD_PATH`, rewritten by ``bench/train_statements.py
--structure``."""


@dataclass(frozen=True)
class Kind:
    """The head's reading of one clause.

    Attributes:
        kind: One of :data:`KINDS`.
        p: Its probability (0..1).
        probs: Every kind's probability, in :data:`KINDS` order.
        linear: The linear part's probabilities alone, when the head has a hidden layer:
            less sure of itself on phrasings unlike the corpus's (the network reads
            ``我最近不怎么喜欢芹菜了`` as coming round to celery at 0.98, the linear part at
            0.51), so a reading the rules made is overturned on these only
            (:func:`~.kinds.overturns`).
        structure: The structure head's probabilities of the same clause, in :data:`KINDS`
            order, where the reader has that head (:meth:`for_structure`).
    """

    kind: str
    p: float
    probs: tuple[float, ...]
    linear: tuple[float, ...] | None = None
    structure: tuple[float, ...] | None = None

    def of(self, kind: str) -> float:
        """The probability of ``kind``."""
        return self.probs[KINDS.index(kind)]

    def for_structure(self) -> Kind:
        """The structure head's reading of the same clause (:data:`STRUCTURE_HEAD_PATH`), or
        this one where the reader has none."""
        if self.structure is None:
            return self
        best = int(np.argmax(self.structure))
        return Kind(KINDS[best], self.structure[best], self.structure)


class StatementHead:
    """Softmax regression from a sentence vector to a statement kind, optionally mixed with
    a one-hidden-layer network (ReLU) over the same vector.

    Probabilities are ``mix · softmax(x W + b) + (1 − mix) · softmax(relu(x W1 + b1) W2 + b2)``.
    The linear part reads the phrasings of the corpus's frames as well as it did alone; the
    hidden layer reads idioms a linear boundary in the sentence space cannot
    (``Karaoke is my absolute nightmare``); their mixture is less sure of itself than the
    network alone, which matters for the thresholds of :mod:`.kinds`.

    Args:
        weights: ``(dim, len(kinds))`` matrix of the linear part.
        bias: ``(len(kinds),)`` vector.
        kinds: Output names; must equal :attr:`OUTPUTS` (:data:`KINDS` here).
        hidden: ``(W1, b1, W2, b2)`` of the network, shapes ``(dim, h)``, ``(h,)``,
            ``(h, len(kinds))``, ``(len(kinds),)``; ``None``: linear only.
        mix: The linear part's share, 0..1 (1 when ``hidden`` is ``None``).

    Raises:
        ModelIntegrityError: Shapes, kinds or the share do not fit.
    """

    OUTPUTS: tuple[str, ...] = KINDS
    """What the head tells apart, in the order of its outputs (a subclass reads others)."""

    def __init__(
        self,
        weights: np.ndarray,
        bias: np.ndarray,
        kinds: Sequence[str],
        hidden: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
        mix: float = 1.0,
        lexical: tuple[np.ndarray, np.ndarray] | None = None,
        lexical_mix: float = 0.0,
    ) -> None:
        if tuple(kinds) != self.OUTPUTS:
            raise ModelIntegrityError(f"statement head kinds {tuple(kinds)} != {self.OUTPUTS}")
        k = len(self.OUTPUTS)
        if weights.ndim != 2 or weights.shape[1] != k or bias.shape != (k,):
            raise ModelIntegrityError(
                f"statement head has shapes W{weights.shape} b{bias.shape}, expected "
                f"(dim, {k}) and ({k},)"
            )
        self.weights = np.ascontiguousarray(weights, dtype=np.float32)
        self.bias = np.ascontiguousarray(bias, dtype=np.float32)
        self.hidden: tuple[np.ndarray, ...] | None = None
        if hidden is not None:
            w1, b1, w2, b2 = (np.ascontiguousarray(a, dtype=np.float32) for a in hidden)
            h = w1.shape[1] if w1.ndim == 2 else -1
            if w1.shape != (weights.shape[0], h) or b1.shape != (h,) or w2.shape != (h, k) or (
                b2.shape != (k,)
            ):
                raise ModelIntegrityError(
                    f"statement head's hidden layer has shapes W1{w1.shape} b1{b1.shape} "
                    f"W2{w2.shape} b2{b2.shape}, expected ({weights.shape[0]}, h), (h,), "
                    f"(h, {k}) and ({k},)"
                )
            self.hidden = (w1, b1, w2, b2)
        if not 0.0 <= mix <= 1.0 or (hidden is None and mix != 1.0):
            raise ModelIntegrityError(f"statement head's linear share {mix} is not in 0..1")
        self.mix = float(mix)
        self.lexical: tuple[np.ndarray, np.ndarray] | None = None
        if lexical is not None:
            lw, lb = lexical
            if lw.shape != (BUCKETS, k) or lb.shape != (k,):
                raise ModelIntegrityError(
                    f"statement head's lexical part has shapes L{lw.shape} Lb{lb.shape}, "
                    f"expected ({BUCKETS}, {k}) and ({k},)"
                )
            self.lexical = (np.ascontiguousarray(lw, np.float32), np.asarray(lb, np.float32))
        if not 0.0 <= lexical_mix <= 1.0 or (lexical is None and lexical_mix != 0.0):
            raise ModelIntegrityError(
                f"statement head's lexical share {lexical_mix} is not in 0..1"
            )
        self.lexical_mix = float(lexical_mix)

    @property
    def dim(self) -> int:
        """Width of the vectors it reads."""
        return int(self.weights.shape[0])

    @classmethod
    def load(
        cls, path: Path = HEAD_PATH, sha256: str = HEAD_SHA256, what: str = "statement head",
        retrain: str = "python bench/train_statements.py",
    ) -> Self:
        """Read the weights after checking the file's SHA-256.

        Raises:
            ModelIntegrityError: The file is missing, its digest differs from ``sha256``
                (both named, with the fix), or it does not hold a head.
        """
        data = read_pinned_weights(path, sha256, what, retrain)
        hidden = None
        if "W1" in data:
            hidden = (data["W1"], data["b1"], data["W2"], data["b2"])
        mix = float(data["mix"]) if "mix" in data else 1.0
        lexical = (data["L"], data["Lb"]) if "L" in data else None
        share = float(data["lexical_mix"]) if "lexical_mix" in data else 0.0
        kinds = [str(k) for k in data["kinds"]]
        return cls(data["W"], data["b"], kinds, hidden, mix, lexical, share)

    def probabilities(
        self, vectors: np.ndarray, *, linear: bool = False, texts: Sequence[str] | None = None
    ) -> np.ndarray:
        """Kind probabilities of each vector.

        Args:
            vectors: ``(n, dim)`` float array (L2-normalised sentence embeddings).
            linear: The linear part's probabilities alone.
            texts: The ``n`` texts the vectors embed; with a lexical part, required for the
                full mixture: ``(1 − lexical_mix) · embedding parts + lexical_mix · softmax``
                of the n-gram logits (:mod:`..ngrams`).

        Returns:
            ``(n, len(OUTPUTS))`` float64 array; rows sum to 1.

        Raises:
            ValueError: ``vectors`` is not ``(n, dim)``, or ``texts`` is missing or not
                ``n`` long where the head has a lexical part.
        """
        alone, mixed = self._parts(vectors, texts)
        return alone if linear else mixed

    def _parts(
        self, vectors: np.ndarray, texts: Sequence[str] | None = None, grams: Grams | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The linear part's probabilities and the mixture's (the same array when linear);
        ``grams``: the texts' n-grams, already hashed (:func:`read_kinds`)."""
        x = np.asarray(vectors, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"vectors have shape {x.shape}, expected (n, {self.dim})")
        alone = _softmax(x @ self.weights + self.bias)
        mixed = alone
        if self.hidden is not None:
            w1, b1, w2, b2 = self.hidden
            net = _softmax(np.maximum(x @ w1 + b1, 0.0) @ w2 + b2)
            mixed = self.mix * alone + (1.0 - self.mix) * net
        if self.lexical is not None:
            if texts is None or len(texts) != len(x):
                raise ValueError(
                    f"the statement head's lexical part needs the {len(x)} texts of the vectors"
                )
            flat, counts = grams or _grams(texts)
            words = _softmax(batch_logits(*self.lexical, flat, counts))
            mixed = (1.0 - self.lexical_mix) * mixed + self.lexical_mix * words
        return alone, mixed

    def read(
        self, vectors: np.ndarray, texts: Sequence[str] | None = None, grams: Grams | None = None
    ) -> list[Kind]:
        """The most probable kind of each vector (see :meth:`probabilities`); ``grams``: the
        texts' n-grams, already hashed (:func:`read_kinds`)."""
        found = []
        alone, mixed = self._parts(vectors, texts, grams)
        for i, row in enumerate(mixed):
            best = int(np.argmax(row))
            linear = None if self.hidden is None else tuple(float(p) for p in alone[i])
            probs = tuple(float(p) for p in row)
            found.append(Kind(self.OUTPUTS[best], float(row[best]), probs, linear))
        return found


Grams = tuple[np.ndarray, np.ndarray]
"""Texts' hashed n-grams, ``(buckets, counts)`` as :func:`~..ngrams.batch` gives them."""


def _grams(texts: Sequence[str]) -> Grams:
    flat, _, counts = batch(list(texts))
    return flat, counts


def read_kinds(
    head: StatementHead, structure: StatementHead | None, vectors: np.ndarray,
    texts: Sequence[str],
) -> list[Kind]:
    """``head``'s kind of each text, carrying ``structure``'s reading (:attr:`Kind.structure`)
    where one is given; the texts' n-grams are hashed once for both heads (the hashing is most
    of a head's cost: 0.3 of 0.48 ms for ten clauses).

    Args:
        head: The statement head.
        structure: The structure head, or None.
        vectors: ``(n, dim)`` sentence embeddings of ``texts``.
        texts: The ``n`` texts.
    """
    grams = _grams(texts) if head.lexical is not None or (
        structure is not None and structure.lexical is not None
    ) else None
    kinds = head.read(vectors, texts, grams)
    if structure is None:
        return kinds
    return [
        replace(kind, structure=other.probs)
        for kind, other in zip(kinds, structure.read(vectors, texts, grams), strict=True)
    ]


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@loaded_once
def default_head() -> StatementHead:
    """The shipped head, loaded (and its digest checked) once per process."""
    return StatementHead.load()


@loaded_once
def default_structure_head() -> StatementHead:
    """The shipped structure head (:data:`STRUCTURE_HEAD_PATH`), loaded (and its digest
    checked) once per process."""
    return StatementHead.load(
        STRUCTURE_HEAD_PATH, STRUCTURE_HEAD_SHA256, "structure head",
        "python bench/train_statements.py --structure",
    )


__all__ = ["HEAD_PATH", "HEAD_SHA256", "HEAD_SPACE", "KINDS", "STRUCTURE_HEAD_PATH",
           "STRUCTURE_HEAD_SHA256", "Kind", "StatementHead", "default_head",
           "default_structure_head", "read_kinds"]  # fmt: skip
