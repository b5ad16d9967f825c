"""Independent embedders side by side, fused by z-scored cosines in recall."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..model import InvalidInputError
from .base import Embedder, threshold


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

    Args:
        parts: Two or more embedders (their names must not contain ``+``).

    Attributes:
        name: The parts' names joined by ``+``.
        blocks: Widths of the parts' blocks, in order.
        multilingual: True when every part is.
        relevant_cosine / contradiction_cosine / duplicate_cosine: the mean of the parts'
            thresholds (the whole cosine is the mean of the parts' cosines). For USE + e5
            that gives 0.425 / 0.75 / 0.85; measured directly on the fused cosine with the
            same rules (``bench/thresholds.py``) they come out 0.45 / 0.75 / 0.90.

    Raises:
        InvalidInputError: Fewer than two parts.
    """

    def __init__(self, parts: Sequence[Embedder]) -> None:
        if len(parts) < 2:
            raise InvalidInputError(
                f"a fused embedder needs at least two parts, got {len(parts)}; "
                "use e.g. PENCHANT_EMBEDDINGS=use-multilingual+e5"
            )
        self.parts: tuple[Embedder, ...] = tuple(parts)
        self.name = "+".join(p.name for p in self.parts)
        self.multilingual = all(getattr(p, "multilingual", True) for p in self.parts)
        for attribute in ("relevant_cosine", "contradiction_cosine", "duplicate_cosine"):
            mean = sum(threshold(p, attribute) for p in self.parts) / len(self.parts)
            setattr(self, attribute, round(mean, 4))

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
            ``float32[len(texts), dim]``: unit rows made of ``m`` blocks of norm
            ``1/sqrt(m)`` each.
        """
        scale = np.float32(1.0 / math.sqrt(len(self.parts)))
        return np.hstack([p.embed(list(texts)) * scale for p in self.parts]).astype(np.float32)


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


def zscore_fusion(cosines: np.ndarray) -> np.ndarray:
    """Sum over parts of each part's cosines standardised over the candidates.

    Args:
        cosines: ``float[m, n]``, as from :func:`block_cosines`.

    Returns:
        ``float64[n]``; a part whose cosines are all equal (or ``n == 1``) adds 0.
    """
    c = np.asarray(cosines, dtype=np.float64)
    std = c.std(axis=1, keepdims=True)
    z = np.divide(c - c.mean(axis=1, keepdims=True), std, out=np.zeros_like(c), where=std > 1e-9)
    return np.asarray(z.sum(axis=0))


def is_fused(embedder: Any) -> bool:
    """Whether ``embedder`` has two or more blocks."""
    return len(getattr(embedder, "blocks", ())) > 1


__all__ = ["FusedEmbedder", "block_cosines", "is_fused", "zscore_fusion"]
