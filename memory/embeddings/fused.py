"""Independent embedders side by side, fused by z-scored cosines in recall."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..model import CJK_CHARS, InvalidInputError
from .base import Embedder, threshold

_CJK_RE = re.compile(f"[{CJK_CHARS}]")
_WORD_RE = re.compile(r"[^\W_]+")


@lru_cache(maxsize=65_536)
def cjk_dominant(text: str) -> bool:
    """True when a text is mostly CJK: at least two CJK characters for each word of another
    script (a run of letters or digits), so ``用Spotify听什么歌好`` is Chinese and "I love
    螺蛳粉" English. A CJK character carries about a syllable, a Latin word often two; counted
    by letters instead, one brand name made a Chinese request English (a breaker's finding:
    MiniLM then ranked Chinese requests that name a product)."""
    cjk = len(_CJK_RE.findall(text))
    if not cjk:
        return False
    return cjk >= 2 * len(_WORD_RE.findall(_CJK_RE.sub(" ", text)))



class FusedEmbedder:
    """Several embedders as one vector space: their unit vectors, concatenated.

    Each part's unit vector is scaled by ``1/sqrt(m)`` (``m`` parts), so the whole vector has
    unit length and its plain cosine is the mean of the parts' cosines. Recall does better
    than that mean: it reads :attr:`blocks` and standardises each part's cosines over the
    user's candidates before summing them (z-score fusion of independent retrievers; Fox &
    Shaw 1994 "Combination of Multiple Searches" CombSUM, with the per-query standardisation
    of Montague & Aslam 2001, "Relevance score normalization for metasearch"). Measured on
    PrefEval-dev, content only, R@3 / MRR over seeds 1, 2, 7 (``bench/recall_quality.py``):
    USE alone 0.942 / 0.787, 0.918 / 0.771, 0.948 / 0.790; USE + e5 0.948 / 0.801,
    0.938 / 0.799, 0.960 / 0.808. Fusion helps because the parts err on different queries; a
    single model cannot.

    A part that cannot read a text (an English-only model and a text mostly of CJK
    characters, :func:`readable_by`) leaves its block of that text's vector zero, so it adds
    nothing for it: recall standardises each part over the rows it read
    (:func:`zscore_fusion`), and an English-only part has no say on a Chinese request.

    The first part is the space's *primary* (:attr:`primary`): what needs calibrated
    thresholds and a reading of meaning (relevance labels, the check-up, the screen by
    meaning, cross-language identity, the statement head) uses that part's block and that
    part's measured constants (:func:`primary_part`, :func:`primary_block`); the other parts
    only help rank.

    Args:
        parts: Two or more embedders (their names must not contain ``+``).

    Attributes:
        name: The parts' names joined by ``+``.
        blocks: Widths of the parts' blocks, in order.
        multilingual: True when any part is (the others' blocks are zero on CJK text).
        relevant_cosine / contradiction_cosine / duplicate_cosine: the mean of the parts'
            thresholds (the whole cosine is the mean of the parts' cosines), for code that
            reads the whole vector. For USE + e5 that gives 0.425 / 0.75 / 0.85; measured
            directly on the fused cosine with the same rules (``bench/thresholds.py``) they
            come out 0.45 / 0.75 / 0.90.

    Raises:
        InvalidInputError: Fewer than two parts, or an English-only first part before a
            multilingual one (the primary must read every language the space stores).
    """

    def __init__(self, parts: Sequence[Embedder]) -> None:
        if len(parts) < 2:
            raise InvalidInputError(
                f"a fused embedder needs at least two parts, got {len(parts)}; "
                "use e.g. PENCHANT_EMBEDDINGS=use-multilingual+e5"
            )
        first_reads_all = bool(getattr(parts[0], "multilingual", True))
        if not first_reads_all and any(getattr(p, "multilingual", True) for p in parts[1:]):
            raise InvalidInputError(
                f"the first part of a fused space is its primary (relevance, the screen by "
                f"meaning, cross-language identity read it), and {parts[0].name!r} reads "
                "English only: put the multilingual model first, e.g. "
                "PENCHANT_EMBEDDINGS=use-multilingual+minilm-int8"
            )
        self.parts: tuple[Embedder, ...] = tuple(parts)
        self.name = "+".join(p.name for p in self.parts)
        self.multilingual = any(getattr(p, "multilingual", True) for p in self.parts)
        for attribute in ("relevant_cosine", "contradiction_cosine", "duplicate_cosine"):
            mean = sum(threshold(p, attribute) for p in self.parts) / len(self.parts)
            setattr(self, attribute, round(mean, 4))

    @property
    def primary(self) -> Embedder:
        """The first part."""
        return self.parts[0]

    @property
    def dim(self) -> int:
        """Sum of the parts' widths."""
        return sum(self.blocks)

    @property
    def blocks(self) -> tuple[int, ...]:
        """Width of each part's block."""
        return tuple(p.dim for p in self.parts)

    @property
    def loaded(self) -> bool:
        """Whether every part is loaded."""
        return all(bool(getattr(p, "loaded", True)) for p in self.parts)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed with every part and concatenate.

        Returns:
            ``float32[len(texts), dim]``: rows made of ``m`` blocks of norm ``1/sqrt(m)``
            each, or 0 where the part cannot read the text (the row is then shorter than 1).
        """
        texts = list(texts)
        scale = np.float32(1.0 / math.sqrt(len(self.parts)))
        out: list[np.ndarray] = []
        for part in self.parts:
            block = np.zeros((len(texts), part.dim), dtype=np.float32)
            readable = [i for i, t in enumerate(texts) if readable_by(part, t)]
            if readable:
                block[readable] = part.embed([texts[i] for i in readable]) * scale
            out.append(block)
        return np.hstack(out).astype(np.float32) if out else np.zeros((0, self.dim), np.float32)


def primary_part(embedder: Any) -> Any:
    """The embedder whose thresholds apply to ``embedder``'s space: a fused space's first
    part (:attr:`FusedEmbedder.primary`), else ``embedder`` itself (``None`` stays
    ``None``)."""
    return embedder.parts[0] if is_fused(embedder) else embedder


def primary_block(embedder: Any, matrix: np.ndarray) -> np.ndarray:
    """The primary part's unit vectors out of vectors of ``embedder``'s space.

    Args:
        embedder: Any embedder; for one that is not fused, ``matrix`` comes back as is.
        matrix: ``float32[n, embedder.dim]`` (or ``float32[embedder.dim]``).

    Returns:
        ``float32[n, primary.dim]`` (or ``float32[primary.dim]``), rows of unit length (a
        zero row stays zero).
    """
    if not is_fused(embedder):
        return matrix
    arr = np.asarray(matrix, dtype=np.float32)
    part = arr[..., : embedder.blocks[0]]
    norms = np.linalg.norm(part, axis=-1, keepdims=True)
    return np.divide(part, norms, out=np.zeros_like(part), where=norms > 0)


def readable_by(embedder: Any, text: str) -> bool:
    """Whether ``embedder`` can be trusted on ``text``: an English-only model
    (``multilingual = False``) not on text mostly of CJK characters."""
    return bool(getattr(embedder, "multilingual", True)) or not cjk_dominant(text)


def block_cosines(matrix: np.ndarray, query: np.ndarray, blocks: Sequence[int]) -> np.ndarray:
    """Each block's cosine between the rows of ``matrix`` and ``query``.

    Args:
        matrix: ``float32[n, sum(blocks)]`` of :class:`FusedEmbedder` vectors.
        query: ``float32[sum(blocks)]``.
        blocks: Block widths.

    Returns:
        ``float32[len(blocks), n]``: cosines (a block of norm ``1/sqrt(m)`` is rescaled).
    """
    m = len(blocks)
    out = np.empty((m, matrix.shape[0]), dtype=np.float32)
    start = 0
    for b, width in enumerate(blocks):
        stop = start + width
        out[b] = np.einsum("ij,j->i", matrix[:, start:stop], query[start:stop]) * m
        start = stop
    return out


def zscore_fusion(cosines: np.ndarray, read: np.ndarray | None = None) -> np.ndarray:
    """Sum over parts of each part's cosines standardised over the candidates.

    Args:
        cosines: ``float[m, n]``, as from :func:`block_cosines`.
        read: ``bool[m, n]``, which rows each part read (its block is not zero); each part
            is standardised over the rows it read, and a row that some part did not read
            scores ``m`` times the mean of the z-scores it has: a Chinese preference under
            an English request stands as if the English-only part agreed with the others,
            neither lifted nor pushed down by a part that cannot read it. ``None``: all.

    Returns:
        ``float64[n]``; a part whose cosines are all equal (or ``n == 1``) adds 0.
    """
    c = np.asarray(cosines, dtype=np.float64)
    if read is None:
        std = c.std(axis=1, keepdims=True)
        z = np.divide(c - c.mean(axis=1, keepdims=True), std, out=np.zeros_like(c),
                      where=std > 1e-9)  # fmt: skip
        return np.asarray(z.sum(axis=0))
    mask = np.asarray(read, dtype=bool)
    total = np.zeros(c.shape[1], dtype=np.float64)
    counts = np.zeros(c.shape[1], dtype=np.float64)
    for row, part_read in zip(c, mask, strict=True):
        counts += part_read
        if part_read.sum() < 2:
            continue
        values = row[part_read]
        std = values.std()
        if std > 1e-9:
            total[part_read] += (values - values.mean()) / std
    return np.divide(total * len(c), counts, out=np.zeros_like(total), where=counts > 0)


def is_fused(embedder: Any) -> bool:
    """Whether ``embedder`` has two or more blocks."""
    return len(getattr(embedder, "blocks", ())) > 1


__all__ = [
    "FusedEmbedder",
    "block_cosines",
    "cjk_dominant",
    "is_fused",
    "primary_block",
    "primary_part",
    "readable_by",
    "zscore_fusion",
]
