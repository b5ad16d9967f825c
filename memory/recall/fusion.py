"""Weighted reciprocal rank fusion of recall's channels (DESIGN.md §8).

``score(d) = Σ_c w_c / (k + rank_c(d))`` with ``k = 60`` (Cormack, Clarke & Büttcher 2009,
"Reciprocal Rank Fusion outperforms Condorcet and individual rank learning methods", SIGIR;
Hindsight uses the same ``k``). Each channel is an ``int32[n]`` array of 1-based ranks, 0 where
a preference is not a candidate of that channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

CHANNELS = ("semantic", "lexical", "recency")
"""Channel names, as they appear in :attr:`RecallItem.channels`."""


@dataclass(frozen=True)
class FusionConfig:
    """Weights and gates of the rank fusion.

    Attributes:
        rrf_k: RRF constant ``k`` (Cormack et al. 2009: 60).
        semantic: Weight of the semantic channel; 0 turns it off.
        lexical: Weight of the lexical channel; 0 turns it off.
        recency: Weight of the recency channel; 0 turns it off (it still orders the fill).
        lexical_mode: ``"fallback"``: the lexical channel ranks only the preferences that
            the semantic channel cannot rank for this query (no vector in the embedder's
            space, CJK text under an English-only model, no embedder), and all of them when
            the semantic channel is off for the query. ``"always"``: it ranks everything.
        min_similarity: Cosine below which a preference is not a semantic candidate.
        lexical_min_share: A preference is a lexical candidate only when its BM25 score is at
            least this share of the best score for the query (0 keeps any shared term).
        generic_penalty: Apply the generic-request correction (:func:`generic_prior`) in
            the spaces of single embedders that declare a ``generic_penalty``; ``False``
            ranks by plain cosine.
    """

    rrf_k: int = 60
    semantic: float = 1.0
    lexical: float = 1.0
    recency: float = 0.01
    lexical_mode: Literal["fallback", "always"] = "fallback"
    min_similarity: float = 0.0
    lexical_min_share: float = 0.0
    generic_penalty: bool = True

    def weight(self, channel: str) -> float:
        """The weight of ``channel`` (one of :data:`CHANNELS`)."""
        return float(getattr(self, channel))


DEFAULT_FUSION = FusionConfig()
"""The chosen fusion: semantic and lexical at weight 1 (lexical as a fallback where the
embedding is blind), recency 0.01, ``k = 60``, the generic-request correction on. Chosen by
measurement on PrefEval-dev (``python bench/recall_quality.py --sweep``); the rounds of
measurements behind it are in ``docs/recall-experiments.md``."""


def fused_scores(ranks: dict[str, np.ndarray], fusion: FusionConfig) -> np.ndarray:
    """``Σ_c w_c / (k + rank_c)`` over the channels where a preference is a candidate."""
    n = len(ranks["recency"])
    score = np.zeros(n, dtype=np.float64)
    for channel, r in ranks.items():
        w = fusion.weight(channel)
        if w > 0:
            score += np.where(r > 0, w / (fusion.rrf_k + r), 0.0)
    return score


def zscores(values: np.ndarray) -> np.ndarray:
    finite = np.isfinite(values)
    out = np.array(values, dtype=np.float64)
    if finite.sum() > 1:
        mean, std = out[finite].mean(), out[finite].std()
        out[finite] = (out[finite] - mean) / std if std > 1e-9 else 0.0
    elif finite.any():
        out[finite] = 0.0
    return out


__all__ = ["CHANNELS", "DEFAULT_FUSION", "FusionConfig", "fused_scores", "zscores"]
