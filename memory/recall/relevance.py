"""What bears on a request, beside how it ranks: the generic-request correction, the
relevance labels, and which texts an embedder can be trusted on.

* :func:`generic_prior`: ``λ·cos(g, p)``, ``g`` the mean vector of :data:`GENERIC_REQUESTS`;
  subtracted from the query's cosines so that a preference that looks like an answer to any
  request stops outranking the one the request is about (CSLS, Conneau et al. 2018, "Word
  translation without parallel data", ICLR, with a fixed background of generic requests;
  hubs: Radovanović et al. 2010, "Hubs in space", JMLR).
* :func:`relevant_mask`: the calibrated per-embedder relevance label that injection selects
  by (:mod:`.selection`).
* :func:`readable_by`: an English-only model is not trusted on CJK text.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

import numpy as np

from ..embeddings import USE_RELEVANT_COSINE, Embedder, is_fused, l2_normalise, threshold
from ..model import CJK_CHARS

GENERIC_REQUESTS = (
    "Can you recommend something for me?",
    "What would you suggest for me?",
    "Do you have any suggestions?",
    "What should I do?",
    "Can you help me with this?",
    "What are some good options?",
    "你能给我推荐一下吗？",
    "有什么建议？",
    "我该怎么办？",
)
"""Requests that name no object, the background of the generic-request correction
(:func:`generic_prior`): English and Chinese, as a multilingual store is queried. Written for
the purpose, not taken from any benchmark; other sets (one sentence, other wording) move
PrefEval-dev MRR by under a point (:data:`~.embeddings.use.USE_GENERIC_PENALTY`)."""

_GENERIC_VECTORS: dict[tuple[str, int], np.ndarray] = {}
_GENERIC_LOCK = threading.Lock()


def generic_vector(embedder: Embedder) -> np.ndarray:
    """Unit mean vector of :data:`GENERIC_REQUESTS` in ``embedder``'s space (cached per
    vector space, ``(name, dim)``).

    Returns:
        ``float32[dim]``.
    """
    key = (embedder.name, embedder.dim)
    with _GENERIC_LOCK:
        found = _GENERIC_VECTORS.get(key)
    if found is None:
        mean = l2_normalise(np.asarray(embedder.embed(list(GENERIC_REQUESTS)))).mean(axis=0)
        found = l2_normalise(mean[None, :])[0]
        with _GENERIC_LOCK:
            _GENERIC_VECTORS[key] = found
    return found


def generic_prior(embedder: Embedder, matrix: np.ndarray) -> np.ndarray | None:
    """The generic-request correction of each stored vector: ``λ·cos(g, p)``.

    Subtracted from the query's cosines before ranking, ``g`` being
    :func:`generic_vector` and ``λ`` the embedder's ``generic_penalty``; query-independent,
    so it is computed once per cached list.

    Args:
        embedder: A single (not fused) embedder.
        matrix: ``float32[n, dim]`` unit vectors of that embedder's space.

    Returns:
        ``float64[n]``, or ``None`` when the embedder declares no ``generic_penalty``
        (it has not been measured for it).
    """
    weight = threshold(embedder, "generic_penalty")
    if weight <= 0.0:
        return None
    return weight * np.einsum("ij,j->i", matrix, generic_vector(embedder)).astype(np.float64)


RELEVANT_COSINE = USE_RELEVANT_COSINE
"""Cosine (USE multilingual v3, the default) from which a semantically ranked preference
counts as relevant; every embedder declares its own ``relevant_cosine`` (all-MiniLM-L6-v2:
0.1). Measured by ``bench/thresholds.py``: see :data:`~.embeddings.use.USE_RELEVANT_COSINE`.
It labels, it does not rank."""


def relevant_mask(
    embedder: Embedder, cosine: np.ndarray, score: np.ndarray, corrected: bool
) -> np.ndarray:
    """Which preferences of one vector space bear on the query (labels, never ranks).

    An embedder that declares ``relevant_score`` (USE:
    :data:`~penchant.memory.embeddings.use.USE_RELEVANT_SCORE`) is judged on its
    generic-corrected ranking score ``cos(q, p) − λ·cos(g, p)``, which demotes the
    preferences close to every request (:func:`generic_prior`); other embedders on
    ``cosine ≥ relevant_cosine``. A margin over the median score of the user's preferences
    was measured too and dropped: it cut every preference of a user whose preferences share
    the request's topic (four food preferences and "suggest a soup recipe").

    Args:
        embedder: The space's embedder.
        cosine: ``float32[m]`` cosines of the space's preferences with the query.
        score: ``float64[m]`` their ranking scores (corrected when ``corrected``).
        corrected: Whether the generic-request correction was applied to ``score``.

    Returns:
        ``bool[m]``.
    """
    floor = getattr(embedder, "relevant_score", None)
    if floor is None or not corrected or is_fused(embedder):
        return np.asarray(cosine >= threshold(embedder, "relevant_cosine"))
    mask = score >= float(floor)
    return np.asarray(mask)


_CJK_RE = re.compile(f"[{CJK_CHARS}]")


@lru_cache(maxsize=65_536)
def cjk_dominant(text: str) -> bool:
    """True when CJK characters are at least half of the text's letters."""
    letters = sum(ch.isalnum() for ch in text)
    return letters > 0 and 2 * len(_CJK_RE.findall(text)) >= letters


def readable_by(embedder: Any, text: str) -> bool:
    """Whether ``embedder`` can be trusted on ``text`` (English-only models skip CJK)."""
    return bool(getattr(embedder, "multilingual", True)) or not cjk_dominant(text)


__all__ = [
    "GENERIC_REQUESTS",
    "RELEVANT_COSINE",
    "cjk_dominant",
    "generic_prior",
    "generic_vector",
    "readable_by",
    "relevant_mask",
]
