"""What bears on a request, beside how it ranks: the generic-request correction, the
relevance labels, and which texts an embedder can be trusted on.

* :func:`generic_prior`: ``λ·cos(g, p)``, ``g`` the mean vector of :data:`GENERIC_REQUESTS`;
  subtracted from the query's cosines so that a preference that looks like an answer to any
  request stops outranking the one the request is about (CSLS, Conneau et al. 2018, "Word
  translation without parallel data", ICLR, with a fixed background of generic requests;
  hubs: Radovanović et al. 2010, "Hubs in space", JMLR).
* :func:`relevant_mask`: the calibrated per-embedder relevance label that injection selects
  by (:mod:`.selection`), its floor raised for a request that asks for no choice
  (:func:`request_floor`: the time, a sum, a translation, a greeting).
* :func:`readable_by`: an English-only model is not trusted on CJK text.
"""

from __future__ import annotations

import threading

import numpy as np

from ..embeddings import (
    USE_RELEVANT_COSINE,
    Embedder,
    cjk_dominant,
    is_fused,
    l2_normalise,
    readable_by,
    threshold,
)

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

NEUTRAL_REQUESTS = (
    "What time is it?", "What is the answer?", "Calculate this for me.",
    "How much is that in other units?", "Translate this sentence.", "What does this word mean?",
    "Explain how this works.", "Why does this happen?", "Summarise this text.",
    "Set a reminder.", "Hello!", "Thank you.", "How are you?", "Tell me a fact.",
    "How do I fix this error?", "Who was it?", "When did it happen?", "Where is it?",
    "现在几点？", "这个等于多少？", "这句话怎么翻译？", "这个词是什么意思？", "为什么会这样？",
    "您好。", "谢谢。", "这是谁？",
)  # fmt: skip
"""Requests that ask for no choice (a fact, a sum, a translation, a greeting), naming no
object: the other background of :func:`request_floor`. English and Chinese; written for the
purpose, not taken from any benchmark, and none of them is a request of the bench's
``bench/data/unrelated_requests.jsonl``."""

_BACKGROUNDS: dict[tuple[str, int, str], np.ndarray] = {}
_BACKGROUND_LOCK = threading.Lock()


def _background(embedder: Embedder, name: str, texts: tuple[str, ...]) -> np.ndarray:
    key = (embedder.name, embedder.dim, name)
    with _BACKGROUND_LOCK:
        found = _BACKGROUNDS.get(key)
    if found is None:
        mean = l2_normalise(np.asarray(embedder.embed(list(texts)))).mean(axis=0)
        found = l2_normalise(mean[None, :])[0]
        with _BACKGROUND_LOCK:
            _BACKGROUNDS[key] = found
    return found


def generic_vector(embedder: Embedder) -> np.ndarray:
    """Unit mean vector of :data:`GENERIC_REQUESTS` in ``embedder``'s space (cached per
    vector space, ``(name, dim)``).

    Returns:
        ``float32[dim]``.
    """
    return _background(embedder, "generic", GENERIC_REQUESTS)


def neutral_vector(embedder: Embedder) -> np.ndarray:
    """Unit mean vector of :data:`NEUTRAL_REQUESTS` in ``embedder``'s space (cached per
    vector space).

    Returns:
        ``float32[dim]``.
    """
    return _background(embedder, "neutral", NEUTRAL_REQUESTS)


def request_floor(embedder: Embedder, query_vector: np.ndarray) -> float:
    """How much higher the relevance floor is for this request: ``a·max(0, c − d)``.

    ``d = cos(q, g) − cos(q, n)``, ``g`` the mean of :data:`GENERIC_REQUESTS` (requests for
    a choice: "what would you suggest?") and ``n`` that of :data:`NEUTRAL_REQUESTS` (requests
    for a fact, a sum, a greeting): a nearest-centroid reading (the two-class centroid rule
    of Rocchio's relevance feedback, 1971) of whether the request asks for something a taste
    bears on. A request nearer the neutral background needs a stronger
    match before a preference counts as relevant, so "what's the time in Tokyo?" injects no
    preference that merely happens to score above the floor, while a request of either kind
    that names a preference's subject still reaches it. ``c`` and ``a`` are the embedder's
    ``request_margin`` and ``request_slope`` (USE: :data:`~.embeddings.use.USE_REQUEST_MARGIN`,
    :data:`~.embeddings.use.USE_REQUEST_SLOPE`).

    Args:
        embedder: A single (not fused) embedder.
        query_vector: ``float32[dim]`` of the request in that embedder's space.

    Returns:
        The raise, ≥ 0; 0.0 for an embedder that declares no ``request_slope``.
    """
    slope = float(getattr(embedder, "request_slope", 0.0))
    if slope <= 0.0:
        return 0.0
    q = l2_normalise(np.asarray(query_vector, dtype=np.float32)[None, :])[0]
    d = float(q @ generic_vector(embedder)) - float(q @ neutral_vector(embedder))
    return slope * max(0.0, float(getattr(embedder, "request_margin", 0.0)) - d)


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
    embedder: Embedder,
    cosine: np.ndarray,
    score: np.ndarray,
    corrected: bool,
    query_vector: np.ndarray | None = None,
) -> np.ndarray:
    """Which preferences of one vector space bear on the query (labels, never ranks).

    An embedder that declares ``relevant_score`` (USE:
    :data:`~penchant.memory.embeddings.use.USE_RELEVANT_SCORE`) is judged on its
    generic-corrected ranking score ``cos(q, p) − λ·cos(g, p)``, which demotes the
    preferences close to every request (:func:`generic_prior`), against that floor raised
    by :func:`request_floor` for a request that asks for no choice; other embedders on
    ``cosine ≥ relevant_cosine``. A margin over the median score of the user's preferences
    was measured too and dropped: it cut every preference of a user whose preferences share
    the request's topic (four food preferences and "suggest a soup recipe").

    Args:
        embedder: The space's embedder.
        cosine: ``float32[m]`` cosines of the space's preferences with the query.
        score: ``float64[m]`` their ranking scores (corrected when ``corrected``).
        corrected: Whether the generic-request correction was applied to ``score``.
        query_vector: The request's ``float32[dim]`` vector in the embedder's space (for
            :func:`request_floor`); ``None``: the floor is not raised.

    Returns:
        ``bool[m]``.
    """
    floor = getattr(embedder, "relevant_score", None)
    if floor is None or not corrected or is_fused(embedder):
        return np.asarray(cosine >= threshold(embedder, "relevant_cosine"))
    raise_by = request_floor(embedder, query_vector) if query_vector is not None else 0.0
    return np.asarray(score >= float(floor) + raise_by)


__all__ = [
    "GENERIC_REQUESTS",
    "NEUTRAL_REQUESTS",
    "RELEVANT_COSINE",
    "cjk_dominant",
    "generic_prior",
    "generic_vector",
    "neutral_vector",
    "readable_by",
    "relevant_mask",
    "request_floor",
]
