"""Recall: rank one user's preferences for a query (DESIGN.md §8).

A pure computation over a list of :class:`~.records.Preference` that the storage layer has
already fetched; no Redis, no I/O beyond embedding the query.

Channels, each an independent ranking of candidates (rank 1 = best):

* ``semantic``: cosine of the query vector with each preference vector (numpy, in-process).
  Vector spaces are never mixed: preferences embedded by the current embedder are scored
  with its query vector; preferences of another space that ships with Penchant (a store
  made before ``PENCHANT_EMBEDDINGS`` changed) with that model's query vector, each space's
  scores z-scored before they are ranked together; vectors no installed model can score are
  reported in :attr:`RecallResult.stale` (``penchant reembed`` moves them). A fused embedder
  (``use-multilingual+e5``) ranks by the sum of its parts' z-scored cosines. An English-only
  model (``multilingual = False``) is not trusted on CJK text, which it reads as ``[UNK]``
  tokens: a CJK query turns its space off and CJK preferences are left out of it.
  The ranking score (not the reported cosine) carries a generic-request correction for
  embedders that declare ``generic_penalty`` (USE: :data:`~.embeddings.use.USE_GENERIC_PENALTY`):
  ``cos(q, p) − λ·cos(g, p)``, ``g`` the mean vector of :data:`GENERIC_REQUESTS`, so a
  preference that looks like an answer to any request ("I like getting suggestions")
  stops outranking the one the request is about (:func:`generic_prior`).
* ``lexical``: BM25 over CJK-aware tokens of content plus keywords (:mod:`.lexical`);
  preferences sharing no term are not candidates.
* ``recency``: ``last_seen_at``, newest first; every preference is a candidate.

Fusion is weighted reciprocal rank fusion, ``score(d) = Σ_c w_c / (k + rank_c(d))`` with
``k = 60`` (Cormack, Clarke & Büttcher 2009, "Reciprocal Rank Fusion outperforms Condorcet
and individual rank learning methods", SIGIR; Hindsight uses the same ``k``). Preferences
found by the semantic or lexical channel come first; preferences found by recency alone
only fill the remaining places up to ``k``. The ranked list is then packed greedily into an
optional token budget.

Weights were chosen by measurement (``python bench/recall_quality.py --sweep``, PrefEval
dev, 25 users × 20 preferences, 500 queries), first with all-MiniLM-L6-v2 and again with the
default USE multilingual v3; see :data:`DEFAULT_FUSION`.

Per-list work is cached under the caller's ``cache_key`` (:class:`Recaller`), so a repeat
recall over an unchanged list costs the query embedding, one matrix-vector product over the
normalised ``float32`` matrix, and a sort (``bench/recall_latency.py``). A changed list under
the same key (the user's list after a write) is diffed against the cached one by object
identity, and only the preferences that left or arrived are re-derived. One user, 512-d
random vectors, hash query embedder, ``k = 5``, medians of 3 runs in one process on a shared
2-core machine: warm recall 0.29 ms at 1k and 2.7 ms at 10k (before: 2.4 / 39 ms, when every
call rebuilt the list's data and re-sorted it), right after an own write
(:func:`~.ops.apply_ops`) 0.53 / 4.2 ms (before: 2.9 / 43 ms).
"""

from __future__ import annotations

import bisect
import logging
import math
import operator
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress, count, islice, repeat
from typing import Any, Literal

import numpy as np

from ..core import BM25Index
from ..embeddings import (
    USE_RELEVANT_COSINE,
    Embedder,
    SpaceResolver,
    block_cosines,
    is_fused,
    l2_normalise,
    threshold,
    zscore_fusion,
)
from ..model import CJK_CHARS, InvalidInputError, Preference, normalise_category

logger = logging.getLogger(__name__)

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
"""The chosen fusion, by measurement on PrefEval dev (500 queries, 25 users × 20 preferences,
seed 7, all-MiniLM-L6-v2, content-only vectors; ``python bench/recall_quality.py --sweep``):

=================================  =====  =====  =====  =====
ranking                            R@1    R@3    R@5    MRR
=================================  =====  =====  =====  =====
embedding only                     0.650  0.956  0.980  0.800
BM25 only                          0.316  0.446  0.452  0.379
equal weights 1/1/1, lexical on    0.422  0.680  0.818  0.595
s1 l1 r0, lexical always           0.592  0.944  0.976  0.765
s1 l0.2 r0, lexical always         0.600  0.946  0.976  0.770
s1 l0.05 r0, lexical always        0.622  0.954  0.980  0.785
s1 l0.02 r0, lexical always        0.636  0.954  0.980  0.793
rrf_k 10, s1 l0.2, lexical always  0.626  0.954  0.980  0.787
s1 l1 r0.1, lexical fallback       0.612  0.956  0.982  0.777
s1 l1 r0, lexical fallback         0.650  0.956  0.980  0.800
s1 l1 r0.01, lexical fallback      0.650  0.956  0.980  0.800  (chosen)
=================================  =====  =====  =====  =====

Every lexical weight, however small, lowers R@1 on English text: BM25's top hit is less
often right than the embedding's in every slice measured, even among queries whose two best
cosines differ by < 0.03 (BM25 right 44 %, embedding 46 %), because its errors are the other
preference of the same topic (``game``, ``pet``). RRF with ``k = 60`` over ~20 candidates
also makes any lexical hit outweigh several semantic ranks (``1/61 − 1/64 ≈ 0.3/61``). So
lexical evidence is used where the embedding is blind, where it is the only signal: Chinese,
Japanese, Korean text under the English-only default model (the ``zh-mix`` recall cases),
preferences stored without a vector or from another model. Recency at 0.01 never outweighs
one semantic rank step (``0.01/61 < 1/74 − 1/75``) and changed nothing on PrefEval (where
timestamps are random); it orders ties and the recency-only fill, while recency 0.1 cost 3.8
points of R@1.

Second round (seeds 1 / 2 / 7, R@3 and MRR of the embedding ranking unless said; measured
offline on the same vectors, scripts not kept):

==========================================  =============  =============  =============
variant                                     seed 1         seed 2         seed 7
==========================================  =============  =============  =============
content only (the table above)              0.930  0.780   0.940  0.817   0.956  0.800
content + category (what the gate stores)   0.974  0.820   0.980  0.842   0.986  0.834
query boilerplate stripped ("can you …")    0.934  0.798   0.942  0.820   0.962  0.799
  same, on content + category               0.976  0.826   0.982  0.841   0.990  0.828
stance stripped ("I strongly dislike …")    0.912  0.773   0.916  0.782   0.930  0.783
max(content, stance-stripped) views         0.924  0.783   0.918  0.791   0.932  0.793
max(content, first clause) views            0.928  0.780   0.942  0.818   0.958  0.802
BM25 bonus 0.01·bm25/max on top-5 cosines   0.930  0.785   0.938  0.818   0.960  0.799
  same, on content + category               0.976  0.823   0.980  0.843   0.988  0.837
z-scored cosine + 0.2·bm25/max              0.932  0.786   0.938  0.821   0.960  0.802
RRF k 5, lexical 0.1, always                0.932  0.781   0.938  0.817   0.952  0.800
RRF k 60, lexical 0.1, always               0.928  0.762   0.926  0.793   0.954  0.777
==========================================  =============  =============  =============

Only the category moves the figures beyond a few queries of 500 (±0.006 = 3 queries): it is
the "contextual retrieval" of :func:`~.embeddings.embedding_text`, already on the write path,
and ``bench/recall_quality.py`` now stores vectors that way (category = PrefEval topic, the
label a capturing model assigns), reporting content-only vectors as a separate row. Query
cleanup, lexical tie-breaks and score-level fusion (Bruch et al. 2023, "An Analysis of
Fusion Functions for Hybrid Retrieval", TOIS: convex combination of normalised scores) are
within that noise and mixed in sign across seeds, so the rank fusion above is kept
unchanged. Stance-stripped text and second "views" of the preference (max-pooled) lose or tie,
and a second view would need a second stored vector per preference.

Third round, with USE multilingual v3, the default since MiniLM moved to an extra (category
``other``: no benchmark labels; R@1 / R@3 / MRR; ``bench/recall_quality.py --sweep --seeds 1
2 7``):

==================================  ==================  ==================  ==================
variant                             seed 1              seed 2              seed 7
==================================  ==================  ==================  ==================
cosine = DEFAULT_FUSION (fallback)  0.628 0.942 0.787   0.616 0.918 0.771   0.632 0.948 0.790
lexical always, weight 1            0.566 0.930 0.748   0.550 0.908 0.732   0.580 0.930 0.757
lexical always, weight 0.2          0.590 0.938 0.762   0.568 0.908 0.742   0.604 0.932 0.770
lexical always, weight 0.05         0.608 0.946 0.776   0.586 0.914 0.755   0.614 0.948 0.779
recency 0.1                         0.616 0.944 0.780   0.608 0.922 0.766   0.604 0.944 0.773
USE + e5, z-scored (fused space)    0.644 0.948 0.801   0.650 0.938 0.799   0.654 0.960 0.808
==================================  ==================  ==================  ==================

The lexical channel still costs R@1 whatever its weight (also as a z-scored score added to
the cosine, 0.3 × z(BM25): −0.5 to −1 point of MRR, measured offline), so it stays a
fallback, now chiefly for vectors of a model this install cannot run. What helps is a second,
independent embedder: USE + multilingual-e5-small, each part's cosines z-scored over the
candidates and summed (:mod:`.embeddings.fused`), gains 1.4–2.8 points of MRR on every seed
and on both 5-topic halves of the dev set (``--split``), at ≈16–25 ms more per query; it is
the opt-in ``PENCHANT_EMBEDDINGS=use-multilingual+e5``, not the default (whose query
embedding is ≈1.3 ms).

Fourth round, USE, ways to keep the other preference of the same topic (134 of 165 rank-1
misses at seed 7) from ranking first; R@3 / MRR change averaged over seeds 1 / 2 / 7, on the
full dev set and on each 5-topic half (``--split``); measured offline on the bench's vectors,
script not kept:

=====================================================  =====================================
variant                                                ΔMRR full / half 1 / half 2 (points)
=====================================================  =====================================
second stored vector: derived objects, max / +0.5·cos  +0.2 −0.1 −0.5 / +0.6 −0.3 +0.2
second vector: "I don't want <objects>.", max          +0.8 +0.7 +0.6
second vector: "Can you recommend <objects>?", max     −4.5 −4.5 −4.1
one vector per object, max with the content's         +0.4 +0.0 −0.5
query prefixed "Question: " / lower-cased              +0.1 −0.3 +0.5 / −0.6 −0.1 −1.0
query boilerplate ("can you suggest …") stripped       +0.3 +0.3 +0.2
CSLS over the user's own preferences, k 3–19, β .25    −1.1 … +0.3 (mixed in sign)
user's preferences centred (mean removed)              −0.3 +0.2 +0.4
generic-request correction, λ 0.5 (chosen)             +1.3 +1.7 +1.9
=====================================================  =====================================

The generic-request correction is the one change that helps on every seed and both halves;
λ was chosen on half 1 and holds on half 2 (:data:`~.embeddings.use.USE_GENERIC_PENALTY`).
It is CSLS (Conneau et al. 2018, "Word translation without parallel data", ICLR) with the
query-side neighbourhood replaced by a fixed background of generic requests, since a store
has no query log: preferences close to every request are hubs (Radovanović et al. 2010,
"Hubs in space", JMLR) and are demoted. It costs one matrix-vector product per list (cached
with the list) and, once per process and model, embedding the nine sentences of
:data:`GENERIC_REQUESTS` (≈12 ms). Second stored vectors gain less than a point and would
double the stored bytes (2 KB more per preference at 512-d), so none is stored. With the
correction USE reaches R@3 .956 / .940 / .960, MRR .798 / .785 / .804 on the full set
(seeds 1 / 2 / 7; before: .942 / .918 / .948, .787 / .771 / .790): short of the target MRR
0.85, which every single embedder here misses by 5 points or more.
"""

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


@dataclass
class RecallItem:
    """One recalled preference.

    Attributes:
        preference: The stored preference.
        score: Fused RRF score (larger is better; at most ``Σ w_c / (k + 1)``).
        channels: Channel name → 1-based rank of this preference in that channel.
        similarity: Cosine with the query in the preference's vector space (the mean of
            the parts' cosines for a fused space); ``None`` when not scored by meaning.
        relevant: Whether it bears on the query (see :attr:`matched`).
    """

    preference: Preference
    score: float
    channels: dict[str, int] = field(default_factory=dict)
    similarity: float | None = None
    relevant: bool | None = None

    @property
    def matched(self) -> bool:
        """Whether the item bears on the query, not merely ranks for it.

        Set by the recaller (``relevant``): found by the lexical channel, or a
        cosine of at least the ``relevant_cosine`` of the embedder of its vector
        space (USE: :data:`RELEVANT_COSINE`; all-MiniLM-L6-v2: 0.1; embedders that
        declare none: any semantic candidate). Ranking keeps every candidate (with
        MiniLM a floor on ranking cost PrefEval-dev recall@3: 0.986 → 0.982 at 0.15,
        0.946 at 0.25), so relevance for labelling — the injector's "constraints" —
        is this separate test.
        """
        if self.relevant is not None:
            return self.relevant
        return "semantic" in self.channels or "lexical" in self.channels


@dataclass
class RecallResult:
    """Ranked, budget-packed preferences for one query.

    Attributes:
        items: Best first.
        tokens: Estimated tokens of the items' contents (:func:`estimate_tokens`).
        stale: Vector-space name → preferences of the list whose stored vectors this
            install cannot score (another model that cannot be rebuilt here, a vector of
            the wrong width, ``"(no vector)"``); they are found by their words only until
            ``penchant reembed`` moves them. Empty when every vector is usable.
    """

    items: list[RecallItem]
    tokens: int
    stale: dict[str, int] = field(default_factory=dict)

    @property
    def warnings(self) -> list[str]:
        """One line per stale vector space, naming the fix."""
        return [
            f"{count} preference(s) {_stale_reason(name)} can be matched by their words "
            "only, not by meaning: run `penchant reembed`"
            for name, count in sorted(self.stale.items())
        ]

    def public_dict(self) -> dict[str, Any]:
        """The CLI's JSON contract (DESIGN.md §11): ``{"items": [...], "tokens": N}``, plus
        ``"warnings"`` (a list of lines) only when some stored vectors are stale."""
        document: dict[str, Any] = {
            "items": [
                {
                    "id": it.preference.id,
                    "content": it.preference.content,
                    "polarity": it.preference.polarity,
                    "score": round(it.score, 6),
                }
                for it in self.items
            ],
            "tokens": self.tokens,
        }
        if self.stale:
            document["warnings"] = self.warnings
        return document


NO_VECTOR = "(no vector)"
"""Key of :attr:`RecallResult.stale` for preferences stored without a vector."""


def _stale_reason(name: str) -> str:
    if name == NO_VECTOR:
        return "stored without a vector"
    return f"with vectors of {name}, which this install cannot use,"


_CJK_RE = re.compile(f"[{CJK_CHARS}]")
_LATIN_WORD_RE = re.compile(rf"[^\s{CJK_CHARS}\W]+|\d+", re.UNICODE)
_SYMBOL_RE = re.compile(rf"[^\w\s{CJK_CHARS}]")

LATIN_WORD_TOKENS = 1.3
"""Tokens per Latin word: English averages ≈0.75 words per BPE token (OpenAI's rule of thumb,
"a token is about ¾ of a word"), i.e. ≈1.3 tokens per word."""


@lru_cache(maxsize=65_536)
def estimate_tokens(text: str) -> int:
    """Cheap, deterministic token estimate for budget packing.

    ``ceil(CJK characters × 1 + Latin/digit words × 1.3 + punctuation marks × 1)``; a CJK
    character is about one token in current BPE vocabularies. Within ±30 % of real
    tokenizers on preference sentences; the point is a stable, monotone measure.

    Args:
        text: Any text.

    Returns:
        Estimated tokens, ≥ 0 (0 only for blank text).
    """
    cjk = len(_CJK_RE.findall(text))
    words = len(_LATIN_WORD_RE.findall(_CJK_RE.sub(" ", text)))
    symbols = len(_SYMBOL_RE.findall(text))
    return math.ceil(cjk + LATIN_WORD_TOKENS * words + symbols)


@lru_cache(maxsize=65_536)
def cjk_dominant(text: str) -> bool:
    """True when CJK characters are at least half of the text's letters."""
    letters = sum(ch.isalnum() for ch in text)
    return letters > 0 and 2 * len(_CJK_RE.findall(text)) >= letters


class _Space:
    """The vectors of one list that one embedder can score, in growable chunks of rows.

    Rows are handed out by :meth:`add` and returned by :meth:`free`; a freed row is reused by
    a later add, and :meth:`compact` closes the gaps once they pass a quarter of the rows in
    use. The matrix grows by appending a chunk of at least a quarter of its rows, so growing
    never copies the rows already stored (a copy of 10k × 512 rows measured 100 ms on a
    loaded 2-core machine). A row's vector is normalised on its own (``l2_normalise`` is
    row-wise), so a row holds the same bits whichever batch, order or chunk it arrived in.

    Attributes:
        embedder: Embeds the query in this space.
        chunks: ``float32[size, dim]`` unit vectors, rows numbered across the chunks in
            order; rows ``≥ high`` and freed rows are unused.
        high: One more than the highest row in use.
        blocks: Part widths of a fused space (``()`` for a single model).
    """

    __slots__ = ("_free", "_prior", "_starts", "blocks", "chunks", "embedder", "high")

    COMPACT_MIN = 64
    """Freed rows always tolerated before :meth:`compact` (a quarter of :attr:`high` above)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.chunks: list[np.ndarray] = []
        self._starts: list[int] = []
        self.high = 0
        self._free: list[int] = []
        self.blocks: tuple[int, ...] = tuple(getattr(embedder, "blocks", ())) if is_fused(
            embedder
        ) else ()
        # (prior of rows < capacity,) once computed; (None,) when the space has none
        self._prior: tuple[np.ndarray | None] | None = None

    @property
    def live(self) -> int:
        """Rows in use."""
        return self.high - len(self._free)

    @property
    def capacity(self) -> int:
        """Rows allocated."""
        return self._starts[-1] + len(self.chunks[-1]) if self.chunks else 0

    def add(self, raw: np.ndarray) -> np.ndarray:
        """Store ``raw`` (``float32[m, dim]``, not normalised); returns their rows."""
        m = len(raw)
        reuse = [self._free.pop() for _ in range(min(m, len(self._free)))]
        fresh = m - len(reuse)
        unit = l2_normalise(raw)
        rows = np.asarray(reuse + list(range(self.high, self.high + fresh)), dtype=np.intp)
        cap = self.capacity
        whole = False
        if self.high + fresh > cap:
            size = max(self.high + fresh - cap, cap // 4, 16)
            whole = not reuse and self.high == cap and size == m
            # a whole new chunk is kept as is, not copied
            self.chunks.append(unit if whole else np.zeros((size, unit.shape[1]), np.float32))
            self._starts.append(cap)
            if self._prior is not None and self._prior[0] is not None:
                self._prior = (np.concatenate([self._prior[0], np.zeros(size)]),)
        self.high += fresh
        for j, row in enumerate([] if whole else rows.tolist()):
            c = bisect.bisect_right(self._starts, row) - 1
            self.chunks[c][row - self._starts[c]] = unit[j]
        if self._prior is not None and self._prior[0] is not None:
            self._prior[0][rows] = generic_prior(self.embedder, unit)
        return rows

    def free(self, rows: Sequence[int]) -> None:
        """Return rows to the free list."""
        self._free.extend(rows)

    def needs_compaction(self) -> bool:
        """Whether freed rows pass a quarter of :attr:`high` and :attr:`COMPACT_MIN`."""
        return len(self._free) > max(self.COMPACT_MIN, self.high // 4)

    def compact(self) -> np.ndarray:
        """Move the rows in use into one chunk, in row order.

        Returns:
            ``intp[old high]``: each old row's new row (−1 for a freed one).
        """
        keep = np.ones(self.high, dtype=bool)
        keep[self._free] = False
        moved = np.full(self.high, -1, dtype=np.intp)
        live = np.flatnonzero(keep)
        moved[live] = np.arange(len(live))
        whole = np.concatenate(self.chunks) if len(self.chunks) > 1 else self.chunks[0]
        self.chunks = [np.ascontiguousarray(whole[live])]
        self._starts = [0]
        if self._prior is not None and self._prior[0] is not None:
            self._prior = (self._prior[0][live],)
        self.high = len(live)
        self._free = []
        return moved

    def prior(self) -> np.ndarray | None:
        """:func:`generic_prior` of every row (``float64[capacity]``; computed on first use,
        then kept up to date by :meth:`add`); ``None`` for a fused space or an embedder
        without a ``generic_penalty``."""
        if self._prior is None:
            if self.blocks:
                self._prior = (None,)
            else:
                parts = [generic_prior(self.embedder, c) for c in self.chunks]
                if any(p is None for p in parts):
                    self._prior = (None,)
                else:
                    self._prior = (np.concatenate([p for p in parts if p is not None] or
                                                  [np.zeros(0)]),)  # fmt: skip
        return self._prior[0]

    def scores(self, query: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(cosine, ranking score)`` of rows ``rows`` for a query vector: equal for one
        model; for a fused space the mean of the parts' cosines and the sum of their
        z-scores over those rows (:mod:`.embeddings.fused`).

        Every row is scored and the wanted ones gathered afterwards: a row's dot product
        does not depend on the other rows, and gathering 10k scores is cheaper than
        gathering a 10k × 512 matrix."""
        if not self.blocks:
            # einsum, not `@`: a matrix-vector product is memory-bound, and OpenBLAS'
            # threaded sgemv measured 4x slower at 10k x 384 on 2 cores (7.8 vs 1.8 ms) and
            # slowed the next query embedding (threads spinning against the model's).
            parts = [np.einsum("ij,j->i", c, query) for c in self.chunks]
            sims = (parts[0] if len(parts) == 1 else np.concatenate(parts))[rows]
            return sims, sims.astype(np.float64)
        blocks = [block_cosines(c, query, self.blocks) for c in self.chunks]
        cos = (blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=1))[:, rows]
        return cos.mean(axis=0), zscore_fusion(cos)


_POLARITY_CODES = {"like": 0, "dislike": 1}


class _ListData:
    """Query-independent data derived from one user's preference list, kept up to date.

    Built from a list and then moved to each later list of the same user (:meth:`update`):
    the new list is compared with the current one by object identity (preferences are not
    changed in place; a changed preference is a new object), and only the preferences that
    left or arrived are re-derived. Each preference held has a *slot* (a stable handle: its
    space, matrix row, ``last_seen_at`` stamp, polarity and category codes, stale reason),
    and the per-position arrays of the current list are gathered from the slots.

    Per vector space (the current embedder's and the others the resolver can rebuild,
    numbered in order of first appearance and never renumbered) a :class:`_Space`; the
    count of vectors that no space can use (:attr:`stale`); per filter (polarity, category)
    a :class:`_PoolData`.

    Thread safety: :attr:`lock` is held by the recaller while it updates and scores.
    """

    __slots__ = (
        "_cat_codes", "_free_slots", "_pools", "_slot_of", "_space_index", "current", "embedder",
        "lock", "pos_slot", "prefs", "resolver", "slot_cat", "slot_pol", "slot_pref", "slot_row",
        "slot_space", "slot_stale", "slot_stamp", "spaces", "stale",
    )  # fmt: skip

    MAX_FILTERS = 8
    """Filter combinations kept per list (most recalls use none)."""

    MAX_EDITS = 32
    """Breaks in the runs of unchanged preferences that :meth:`_aligned` follows before
    matching every preference through a dict instead (a write changes a few)."""

    def __init__(
        self,
        prefs: Sequence[Preference],
        embedder: Embedder | None,
        resolver: Callable[[str, int], Embedder | None] | None = None,
    ) -> None:
        self.embedder = embedder
        self.resolver = resolver
        self.current = (embedder.name, embedder.dim) if embedder is not None else None
        self.lock = threading.Lock()
        self.prefs: Sequence[Preference] = ()
        self.pos_slot = np.zeros(0, dtype=np.intp)
        self.slot_pref: list[Preference | None] = []
        self.slot_stale: list[str | None] = []
        self.slot_space = np.zeros(0, dtype=np.intp)
        self.slot_row = np.zeros(0, dtype=np.intp)
        self.slot_stamp = np.zeros(0, dtype=np.float64)
        self.slot_pol = np.zeros(0, dtype=np.int8)
        self.slot_cat = np.zeros(0, dtype=np.int32)
        self._free_slots: list[int] = []
        self._slot_of: dict[int, int] = {}
        self._cat_codes: dict[str, int] = {}
        self.spaces: list[_Space] = []
        self._space_index: dict[tuple[str, int], int | None] = {}
        self.stale: dict[str, int] = {}
        self._pools: OrderedDict[tuple[str | None, str | None], _PoolData] = OrderedDict()
        self.update(prefs)

    def update(self, prefs: Sequence[Preference]) -> None:
        """Move to ``prefs``, re-deriving only the preferences not in the current list.

        Cost: a C-level identity scan when nothing changed (≈0.2 ms at 10k); after a few
        edits about as much again (:meth:`_aligned`), after many one dict lookup per
        preference (≈0.8 ms at 10k, :meth:`_matched`); then a few vectorised passes over
        the list, and per arriving preference its normalised row, prior and lexical entry.
        (``id`` is safe: the held objects are alive, so no new object shares an id with
        one of them.)
        """
        old = self.prefs
        if prefs is old:
            return
        n_old, n_new = len(old), len(prefs)
        if n_old == n_new and all(map(operator.is_, old, prefs)):
            self.prefs = prefs
            for pool in self._pools.values():
                pool.rebind(self)
            return
        aligned = self._aligned(prefs)
        if aligned is not None:
            found, removed = aligned
        else:
            found, removed = self._matched(prefs)
        arriving = np.flatnonzero(found < 0)
        added = self._new_slots([prefs[i] for i in arriving.tolist()])
        found[arriving] = added
        self._release_rows(removed)
        self._place(added)
        self.prefs = prefs
        self.pos_slot = found
        for pool in self._pools.values():
            pool.refresh(self, removed, added)
        for slot in removed:
            pref = self.slot_pref[slot]
            if self._slot_of.get(id(pref)) == slot:
                del self._slot_of[id(pref)]
            self.slot_pref[slot] = None
            self.slot_stale[slot] = None
        self._free_slots.extend(removed)
        for slot in added:
            self._slot_of[id(self.slot_pref[slot])] = slot

    def _aligned(self, prefs: Sequence[Preference]) -> tuple[np.ndarray, list[int]] | None:
        """Slots of ``prefs`` by walking it against the current list: runs of the same
        objects are found at C speed, and at each break the new list's object is an
        arrival (not held) or the current list's object left. ``None`` after
        :data:`MAX_EDITS` breaks (then :meth:`_matched` is cheaper).

        Returns:
            ``(intp[len(prefs)]`` slots, −1 for arrivals``, departed slots)``. Always a
            valid assignment (a held object is reused only at a position holding that very
            object); an object moved against the others is re-derived, not reused.
        """
        old, slot_of = self.prefs, self._slot_of
        n_old, n_new = len(old), len(prefs)
        found = np.full(n_new, -1, dtype=np.intp)
        departed: list[int] = []
        i = j = 0
        for _ in range(self.MAX_EDITS + 1):
            breaks = map(operator.is_not, islice(old, i, None), islice(prefs, j, None))
            run = next(compress(count(), breaks), min(n_old - i, n_new - j))
            found[j : j + run] = self.pos_slot[i : i + run]
            i, j = i + run, j + run
            if i == n_old or j == n_new:
                departed += range(i, n_old)
                return found, self.pos_slot[departed].tolist()
            if id(prefs[j]) in slot_of:
                departed.append(i)
                i += 1
            else:
                j += 1
        return None

    def _matched(self, prefs: Sequence[Preference]) -> tuple[np.ndarray, list[int]]:
        """Slots of ``prefs`` by one ``id(object) → slot`` lookup each (any order of edits)."""
        found = np.fromiter(map(self._slot_of.get, map(id, prefs), repeat(-1)), np.intp, len(prefs))
        kept = found[found >= 0]
        if len(kept) and np.bincount(kept).max() > 1:  # one object twice: give each its slot
            found[:] = -1
            kept = found[:0]
        held = np.zeros(len(self.slot_pref), dtype=bool)
        held[self.pos_slot] = True
        held[kept] = False
        return found, np.flatnonzero(held).tolist()

    def _new_slots(self, prefs: list[Preference]) -> list[int]:
        """Give each preference a slot (freed ones first) with its stamp and filter codes."""
        slots = [self._free_slots.pop() for _ in range(min(len(prefs), len(self._free_slots)))]
        start = len(self.slot_pref)
        grow = len(prefs) - len(slots)
        if grow:
            slots += range(start, start + grow)
            self.slot_pref += [None] * grow
            self.slot_stale += [None] * grow
            self.slot_space = np.concatenate([self.slot_space, np.full(grow, -1, np.intp)])
            self.slot_row = np.concatenate([self.slot_row, np.full(grow, -1, np.intp)])
            self.slot_stamp = np.concatenate([self.slot_stamp, np.zeros(grow)])
            self.slot_pol = np.concatenate([self.slot_pol, np.zeros(grow, np.int8)])
            self.slot_cat = np.concatenate([self.slot_cat, np.zeros(grow, np.int32)])
        for slot, p in zip(slots, prefs, strict=True):
            self.slot_pref[slot] = p
            self.slot_stamp[slot] = p.last_seen_at.timestamp()
            self.slot_pol[slot] = _POLARITY_CODES.get(p.polarity, -1)
            self.slot_cat[slot] = self._cat_codes.setdefault(p.category, len(self._cat_codes))
            self.slot_space[slot] = -1
            self.slot_row[slot] = -1
        return slots

    def _release_rows(self, slots: list[int]) -> None:
        """Free the matrix rows of departing slots and take back their stale counts."""
        by_space: dict[int, list[int]] = {}
        for slot in slots:
            s = int(self.slot_space[slot])
            if s >= 0:
                by_space.setdefault(s, []).append(int(self.slot_row[slot]))
            reason = self.slot_stale[slot]
            if reason is not None:
                left = self.stale[reason] - 1
                if left:
                    self.stale[reason] = left
                else:
                    del self.stale[reason]
        for s, rows in by_space.items():
            self.spaces[s].free(rows)
        self.slot_space[slots] = -1
        self.slot_row[slots] = -1
        for s in by_space:
            self._compact_if_needed(s)

    def _compact_if_needed(self, s: int) -> None:
        space = self.spaces[s]
        if space.needs_compaction():
            moved = space.compact()
            mine = np.flatnonzero(self.slot_space == s)
            self.slot_row[mine] = moved[self.slot_row[mine]]

    def _space_for(self, key: tuple[str, int]) -> int | None:
        """The index of the space of stored vectors ``key`` (resolved once), or None."""
        if key in self._space_index:
            return self._space_index[key]
        assert self.embedder is not None
        found = self.embedder if key == self.current else (
            self.resolver(*key) if self.resolver else None
        )  # fmt: skip
        index = None
        if found is not None:
            index = len(self.spaces)
            self.spaces.append(_Space(found))
        self._space_index[key] = index
        return index

    def _place(self, slots: list[int]) -> None:
        """Put the vectors of new slots into their spaces (one batch per space)."""
        if self.embedder is None:
            return
        groups: dict[int, list[int]] = {}
        for slot in slots:
            p = self.slot_pref[slot]
            assert p is not None
            if p.embedding is None or p.embedding_model is None or p.embedding_dim is None:
                self._stale(slot, NO_VECTOR)
                continue
            s = self._space_for((p.embedding_model, p.embedding_dim))
            if s is None:
                self._stale(slot, p.embedding_model)
                continue
            space = self.spaces[s]
            if len(p.embedding) != 4 * space.embedder.dim:
                self._stale(slot, space.embedder.name)
            elif bool(getattr(space.embedder, "multilingual", True)) or not cjk_dominant(
                p.content
            ):
                groups.setdefault(s, []).append(slot)
        for s, members in groups.items():
            space = self.spaces[s]
            raw = np.frombuffer(
                b"".join(_held(self, i).embedding or b"" for i in members), np.float32
            ).reshape(len(members), space.embedder.dim)
            self.slot_row[members] = space.add(raw)
            self.slot_space[members] = s

    def _stale(self, slot: int, reason: str) -> None:
        self.slot_stale[slot] = reason
        self.stale[reason] = self.stale.get(reason, 0) + 1

    def accepts(self, slot: int, polarity: str | None, category: str | None) -> bool:
        """Whether the preference of ``slot`` passes the filters."""
        return (polarity is None or self.slot_pol[slot] == _POLARITY_CODES.get(polarity, -2)) and (
            category is None or self.slot_cat[slot] == self._cat_codes.get(category, -2)
        )

    def positions(self, polarity: str | None, category: str | None) -> np.ndarray | None:
        """List positions passing the filters, ascending; ``None`` when unfiltered."""
        if polarity is None and category is None:
            return None
        mask = np.ones(len(self.pos_slot), dtype=bool)
        if polarity is not None:
            mask &= self.slot_pol[self.pos_slot] == _POLARITY_CODES.get(polarity, -2)
        if category is not None:
            mask &= self.slot_cat[self.pos_slot] == self._cat_codes.get(category, -2)
        return np.flatnonzero(mask)

    def pool(self, polarity: str | None, category: str | None) -> _PoolData:
        """The preferences passing the filters, with their derived data (cached, and kept
        up to date by :meth:`update`)."""
        key = (polarity, category)
        found = self._pools.get(key)
        if found is not None:
            self._pools.move_to_end(key)
            return found
        made = _PoolData(self, polarity, category)
        self._pools[key] = made
        while len(self._pools) > self.MAX_FILTERS:
            self._pools.popitem(last=False)
        return made


class _PoolData:
    """One filtered pool of a :class:`_ListData`: members, recency ranks, lexical indexes.

    Per vector space ``s``: ``sem_pos[s]`` (pool positions of its members) and
    ``sem_rows[s]`` (their rows in the space's matrix). Per set of spaces the semantic
    channel ranked (``without``) a BM25 index over the other members, keyed by slot and
    updated as the list changes.
    """

    __slots__ = (
        "_lexical", "category", "members", "polarity", "recency", "sem_pos", "sem_rows", "slots",
    )  # fmt: skip

    def __init__(self, data: _ListData, polarity: str | None, category: str | None) -> None:
        self.polarity = polarity
        self.category = category
        self.members: Sequence[Preference] = ()
        self._lexical: dict[tuple[int, ...] | None, tuple[np.ndarray, np.ndarray, BM25Index]] = {}
        self.refresh(data, [], [])

    def rebind(self, data: _ListData) -> None:
        """Follow a new list object holding the very same preferences."""
        if self.polarity is None and self.category is None:
            self.members = data.prefs

    def refresh(self, data: _ListData, removed: list[int], added: list[int]) -> None:
        """Re-derive the pool after the list changed: ``removed`` slots left it, ``added``
        slots arrived (still described in ``data``'s slot arrays)."""
        idx = data.positions(self.polarity, self.category)
        if idx is None:
            self.members = data.prefs
            slots = data.pos_slot
        else:
            self.members = [data.prefs[i] for i in idx.tolist()]
            slots = data.pos_slot[idx]
        self.slots = slots
        n = len(slots)
        self.recency = np.empty(n, dtype=np.int32)
        order = np.argsort(-data.slot_stamp[slots], kind="stable")
        self.recency[order] = np.arange(1, n + 1, dtype=np.int32)
        space_of = data.slot_space[slots]
        self.sem_pos: list[np.ndarray] = []
        self.sem_rows: list[np.ndarray] = []
        for s in range(len(data.spaces)):
            pos = np.flatnonzero(space_of == s)
            self.sem_pos.append(pos)
            self.sem_rows.append(data.slot_row[slots[pos]])
        for without, (_, _, index) in list(self._lexical.items()):
            for slot in removed:
                index.remove(slot)
            skip = set(without or ())
            for slot in added:
                if data.slot_space[slot] not in skip and data.accepts(
                    slot, self.polarity, self.category
                ):
                    index.add(slot, _lexical_text(_held(data, slot)))
            self._lexical[without] = (*self._lexical_positions(without), index)

    def _lexical_positions(self, without: tuple[int, ...] | None) -> tuple[np.ndarray, np.ndarray]:
        mask = np.ones(len(self.slots), dtype=bool)
        for s in without or ():
            mask[self.sem_pos[s]] = False
        idx = np.flatnonzero(mask)
        return idx, self.slots[idx]

    def lexical(self, without: tuple[int, ...] | None) -> tuple[np.ndarray, np.ndarray, BM25Index]:
        """Pool positions, their slots, and a BM25 index (by slot) over them: all
        (``None``), or those outside the vector spaces ``without`` (the ones the semantic
        channel ranks for this query)."""
        found = self._lexical.get(without)
        if found is None:
            idx, slots = self._lexical_positions(without)
            index = BM25Index()
            for i, slot in zip(idx.tolist(), slots.tolist(), strict=True):
                index.add(slot, _lexical_text(self.members[i]))
            found = (idx, slots, index)
            self._lexical[without] = found
        return found


def _held(data: _ListData, slot: int) -> Preference:
    pref = data.slot_pref[slot]
    assert pref is not None
    return pref


@dataclass
class _Semantic:
    """One query's semantic channel over a pool."""

    ranks: np.ndarray
    cosine: np.ndarray
    relevant: np.ndarray
    spaces: tuple[int, ...]


class Recaller:
    """Ranks a user's preferences for a query by fused channels.

    Ranking is vectorised: each channel is an ``int32[n]`` array of 1-based ranks (0 = not a
    candidate), fused in one numpy expression; :class:`RecallItem` objects are built only for
    the items returned.

    Per-list work (decoding and normalising the vectors into one ``float32`` matrix per
    vector space, the generic-request prior, the BM25 inverted index, recency ranks, filter
    pools) is cached under the caller's ``cache_key`` in a small LRU (:attr:`cache_size`
    lists, e.g. one per user), so a repeat recall over an unchanged list embeds the query,
    does one matrix-vector product and sorts. A later list under the same key is compared
    with the cached one by object identity (an O(n) scan) and the entry is updated, not
    rebuilt: rows of departed preferences are freed and reused, arriving ones normalised
    and appended, BM25 documents added and removed, stamps, recency ranks and pools
    re-gathered. Results equal those of a fresh build on the same list, ties and order
    included (``tests/unit/test_recall_incremental.py``). Preferences are taken as values:
    one changed in place after it was recalled is not seen (Penchant never does that; every
    change makes a new object, as :func:`~.ops.apply_ops` does).

    Vectors of another space than the embedder's (a store made before ``PENCHANT_EMBEDDINGS``
    changed) are scored with the embedder of their own space when ``resolver`` can build it
    (the query is embedded once per space); with several spaces in one list, each space's
    scores are standardised (z-scores over its candidates) before they are ranked together.
    Vectors no space can use are counted in :attr:`RecallResult.stale` and left to the
    lexical channel.

    Args:
        embedder: Embeds the query for the semantic channel; ``None`` turns the channel off.
        fusion: Weights and gates; :data:`DEFAULT_FUSION` by default.
        cache_size: Preference lists (users) whose derived data is kept, least recently
            used dropped first: ≈2.2 KB per preference with 512-d vectors (2,214 B measured
            by ``tracemalloc`` for a list of 10k; the vectors are 2,048 B of it). Writes
            add slack: a matrix grows by chunks of a quarter of its rows, and freed rows are
            compacted once they pass a quarter of the rows in use (and 64), so a list's
            vectors take at most ≈1.7× their size (1.25 / 0.75), typically under 1.25×; 0
            turns the cache off.
        resolver: ``(model name, dim) → Embedder | None`` for stored spaces other than the
            embedder's; ``"auto"`` (default) rebuilds the models Penchant ships
            (:class:`~.embeddings.SpaceResolver`), ``None`` never does.
    """

    def __init__(
        self,
        embedder: Embedder | None,
        fusion: FusionConfig = DEFAULT_FUSION,
        *,
        cache_size: int = 16,
        resolver: Callable[[str, int], Embedder | None] | Literal["auto"] | None = "auto",
    ) -> None:
        self.embedder = embedder
        self.fusion = fusion
        self.cache_size = cache_size
        self.resolver: Callable[[str, int], Embedder | None] | None = (
            SpaceResolver() if resolver == "auto" else resolver
        )
        self._cache: OrderedDict[Hashable, _ListData] = OrderedDict()
        self._lock = threading.Lock()

    def recall(
        self,
        prefs: Sequence[Preference],
        query: str,
        *,
        k: int = 5,
        token_budget: int | None = None,
        polarity: str | None = None,
        category: str | None = None,
        query_vector: np.ndarray | None = None,
        cache_key: Hashable | None = None,
    ) -> RecallResult:
        """Rank ``prefs`` for ``query`` and pack the best into a budget.

        Args:
            prefs: One user's active preferences.
            query: The user's request; blank means recency only.
            k: Most items to return (k items whenever k preferences pass the filters and
                fit the budget).
            token_budget: Most estimated tokens of content (:func:`estimate_tokens`);
                an item that does not fit is skipped and smaller later ones are tried.
            polarity: Keep only ``"like"`` or ``"dislike"``.
            category: Keep only this category (normalised like stored categories).
            query_vector: ``float32[dim]`` of ``query`` from the same embedder, to skip
                embedding it again.
            cache_key: Names whose list ``prefs`` is (e.g. the user's hash tag), so derived
                data is reused between calls: as is for the same list or the same objects,
                updated for a changed list (see the class docs).

        Returns:
            The items, best first, their token total, and the count of stale vectors.

        Raises:
            InvalidInputError: ``k < 1``, a negative budget, an unknown polarity, a malformed
                category, or a ``query_vector`` of the wrong width.
        """
        _check(k, token_budget, polarity)
        if category is not None:
            try:
                category = normalise_category(category)
            except ValueError as exc:
                raise InvalidInputError(str(exc)) from exc
        if not prefs:
            return RecallResult(items=[], tokens=0)
        data = self._list_data(prefs, cache_key)
        with data.lock:
            data.update(prefs)
            pool = data.pool(polarity, category)
            if not pool.members:
                return RecallResult(items=[], tokens=0, stale=dict(data.stale))
            ranks, semantic = self._channels(data, pool, query, query_vector)
            result = _pack(pool.members, ranks, self._order(ranks), self.fusion, k,
                           token_budget, semantic)  # fmt: skip
            result.stale = dict(data.stale)
        return result

    def channel_ranks(
        self, pool: Sequence[Preference], query: str, query_vector: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """Each channel's ranking of ``pool`` (uncached).

        Returns:
            Channel → ``int32[len(pool)]`` of 1-based ranks, 0 where not a candidate.
            ``recency`` is always present (it orders the fill even at weight 0).
        """
        data = _ListData(pool, self.embedder, self.resolver)
        return self._channels(data, data.pool(None, None), query, query_vector)[0]

    def cache_info(self) -> dict[str, int]:
        """``{"lists": cached lists, "max": cache_size}``."""
        return {"lists": len(self._cache), "max": self.cache_size}

    def _list_data(self, prefs: Sequence[Preference], cache_key: Hashable | None) -> _ListData:
        """The cached data of ``cache_key`` (to be moved to ``prefs`` under its lock), or
        data built for ``prefs``."""
        if cache_key is None or self.cache_size <= 0:
            return _ListData(prefs, self.embedder, self.resolver)
        with self._lock:
            found = self._cache.get(cache_key)
            if found is not None:
                self._cache.move_to_end(cache_key)
                return found
        made = _ListData(prefs, self.embedder, self.resolver)
        with self._lock:
            found = self._cache.get(cache_key)
            if found is not None:  # another thread built it meanwhile
                self._cache.move_to_end(cache_key)
                return found
            self._cache[cache_key] = made
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return made

    def _channels(
        self, data: _ListData, pool: _PoolData, query: str, query_vector: np.ndarray | None
    ) -> tuple[dict[str, np.ndarray], _Semantic | None]:
        n = len(pool.members)
        ranks: dict[str, np.ndarray] = {}
        semantic: _Semantic | None = None
        if self.fusion.semantic > 0:
            semantic = self._semantic(data, pool, query, query_vector)
            ranks["semantic"] = semantic.ranks if semantic else np.zeros(n, dtype=np.int32)
        if self.fusion.lexical > 0:
            on = semantic.spaces if semantic else ()
            without = None if self.fusion.lexical_mode == "always" or not on else on
            ranks["lexical"] = self._lexical_ranks(pool, query, without)
        ranks["recency"] = pool.recency
        return ranks, semantic

    def _order(self, ranks: dict[str, np.ndarray]) -> np.ndarray:
        """Pool indexes, best first: matched before recency-only, then score, then recency."""
        score = _fused_scores(ranks, self.fusion)
        matched = np.zeros_like(score, dtype=bool)
        for channel in ("semantic", "lexical"):
            if channel in ranks:
                matched |= ranks[channel] > 0
        # np.lexsort sorts by the last key first.
        return np.lexsort((ranks["recency"], -score, ~matched))

    def _semantic(
        self, data: _ListData, pool: _PoolData, query: str, query_vector: np.ndarray | None
    ) -> _Semantic | None:
        """Rank the pool's vectors in every space that can read ``query``; None if none can."""
        if self.embedder is None or not query.strip():
            return None
        n = len(pool.members)
        score = np.full(n, -np.inf, dtype=np.float64)
        cosine = np.full(n, np.nan, dtype=np.float32)
        relevant = np.zeros(n, dtype=bool)
        used: list[int] = []
        for s, pos in enumerate(pool.sem_pos):
            space = data.spaces[s]
            if not len(pos) or not readable_by(space.embedder, query):
                continue
            given = query_vector if space.embedder is self.embedder else None
            q = self._query_vector(space.embedder, query, given)
            rows = pool.sem_rows[s]
            sims, fused = space.scores(q, rows)
            prior = space.prior() if self.fusion.generic_penalty else None
            if prior is not None:
                fused = fused - prior[rows]
            keep = sims >= self.fusion.min_similarity
            cosine[pos] = sims
            relevant[pos] = sims >= threshold(space.embedder, "relevant_cosine")
            score[pos[keep]] = fused[keep]
            used.append(s)
        if not used:
            return None
        if len(used) > 1:  # scores of different spaces are not comparable; z-scores are
            for s in used:
                pos = pool.sem_pos[s]
                score[pos] = _zscores(score[pos])
        out = np.zeros(n, dtype=np.int32)
        candidates = np.flatnonzero(np.isfinite(score))
        order = candidates[np.argsort(-score[candidates], kind="stable")]
        out[order] = np.arange(1, len(order) + 1, dtype=np.int32)
        return _Semantic(out, cosine, relevant, tuple(used))

    def _query_vector(self, embedder: Embedder, query: str, given: np.ndarray | None) -> np.ndarray:
        dim = embedder.dim
        if given is not None:
            vec = np.asarray(given, dtype=np.float32).reshape(-1)
            if vec.shape != (dim,):
                raise InvalidInputError(
                    f"query_vector has shape {vec.shape}, the embedder needs ({dim},)"
                )
            return vec
        return np.asarray(embedder.embed([query])[0], dtype=np.float32)

    def _lexical_ranks(
        self, pool: _PoolData, query: str, without: tuple[int, ...] | None
    ) -> np.ndarray:
        """BM25 ranks among all of the pool or its part outside ``without`` (own statistics)."""
        out = np.zeros(len(pool.members), dtype=np.int32)
        if not query.strip():
            return out
        idx, slots, index = pool.lexical(without)
        if not len(idx):
            return out
        scores = index.scores(query)[slots]
        best = float(scores.max())
        if best <= 0.0:
            return out
        keep = np.flatnonzero(scores >= max(best * self.fusion.lexical_min_share, 1e-9))
        order = keep[np.argsort(-scores[keep], kind="stable")]
        out[idx[order]] = np.arange(1, len(order) + 1, dtype=np.int32)
        return out


def _zscores(values: np.ndarray) -> np.ndarray:
    finite = np.isfinite(values)
    out = np.array(values, dtype=np.float64)
    if finite.sum() > 1:
        mean, std = out[finite].mean(), out[finite].std()
        out[finite] = (out[finite] - mean) / std if std > 1e-9 else 0.0
    elif finite.any():
        out[finite] = 0.0
    return out


def _fused_scores(ranks: dict[str, np.ndarray], fusion: FusionConfig) -> np.ndarray:
    """``Σ_c w_c / (k + rank_c)`` over the channels where a preference is a candidate."""
    n = len(ranks["recency"])
    score = np.zeros(n, dtype=np.float64)
    for channel, r in ranks.items():
        w = fusion.weight(channel)
        if w > 0:
            score += np.where(r > 0, w / (fusion.rrf_k + r), 0.0)
    return score


def readable_by(embedder: Any, text: str) -> bool:
    """Whether ``embedder`` can be trusted on ``text`` (English-only models skip CJK)."""
    return bool(getattr(embedder, "multilingual", True)) or not cjk_dominant(text)


def _check(k: int, token_budget: int | None, polarity: str | None) -> None:
    if k < 1:
        raise InvalidInputError(f"k must be at least 1, got {k}")
    if token_budget is not None and token_budget < 0:
        raise InvalidInputError(f"token budget must be >= 0, got {token_budget}")
    if polarity not in (None, "like", "dislike"):
        raise InvalidInputError(f"polarity must be 'like' or 'dislike', got {polarity!r}")


def _lexical_text(pref: Preference) -> str:
    return " ".join([pref.content, *pref.keywords]) if pref.keywords else pref.content


def _pack(
    pool: Sequence[Preference],
    ranks: dict[str, np.ndarray],
    order: np.ndarray,
    fusion: FusionConfig,
    k: int,
    token_budget: int | None,
    semantic: _Semantic | None = None,
) -> RecallResult:
    """Greedy packing: take items in ``order``, skipping any that would overflow the budget.

    Each item is labelled ``relevant`` when the lexical channel found it or its cosine
    reaches its embedder's ``relevant_cosine``.
    """
    score = _fused_scores(ranks, fusion)
    active = [c for c in CHANNELS if c in ranks and fusion.weight(c) > 0]
    chosen: list[RecallItem] = []
    used = 0
    for i in order.tolist():
        if len(chosen) == k:
            break
        cost = estimate_tokens(pool[i].content)
        if token_budget is not None and used + cost > token_budget:
            continue
        channels = {c: int(ranks[c][i]) for c in active if ranks[c][i] > 0}
        similarity = None
        relevant = "lexical" in channels
        if semantic is not None and not np.isnan(semantic.cosine[i]):
            similarity = float(semantic.cosine[i])
            relevant = relevant or ("semantic" in channels and bool(semantic.relevant[i]))
        chosen.append(RecallItem(pool[i], float(score[i]), channels, similarity, relevant))
        used += cost
    return RecallResult(items=chosen, tokens=used)


__all__ = [
    "CHANNELS",
    "DEFAULT_FUSION",
    "GENERIC_REQUESTS",
    "RELEVANT_COSINE",
    "FusionConfig",
    "Recaller",
    "RecallItem",
    "RecallResult",
    "cjk_dominant",
    "estimate_tokens",
    "generic_prior",
    "generic_vector",
    "readable_by",
]
