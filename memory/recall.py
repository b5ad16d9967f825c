"""Recall: rank one user's preferences for a query (DESIGN.md §8).

A pure computation over a list of :class:`~.records.Preference` that the storage layer has
already fetched; no Redis, no I/O beyond embedding the query.

Channels, each an independent ranking of candidates (rank 1 = best):

* ``semantic``: cosine of the query vector with each preference vector (numpy, in-process).
  Only preferences embedded by the same model and width as the current embedder take part:
  vector spaces are never mixed. An English-only model (``multilingual = False``) is not
  trusted on CJK text, which it reads as ``[UNK]`` tokens: a CJK query turns the channel
  off and CJK preferences are left out of it.
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
dev, 25 users × 20 preferences, 500 queries, all-MiniLM-L6-v2); see :data:`DEFAULT_FUSION`.

Per-list work is cached under the caller's ``cache_key`` (:class:`Recaller`), so a repeat
recall over an unchanged list costs the query embedding, one matrix-vector product over the
normalised ``float32`` matrix, and a sort (``bench/recall_latency.py``).
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from .embeddings import BUNDLED_RELEVANT_COSINE, Embedder, l2_normalise
from .errors import InvalidInputError
from .lexical import BM25Index
from .normalize import CJK_CHARS
from .records import Preference, normalise_category

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
    """

    rrf_k: int = 60
    semantic: float = 1.0
    lexical: float = 1.0
    recency: float = 0.01
    lexical_mode: Literal["fallback", "always"] = "fallback"
    min_similarity: float = 0.0
    lexical_min_share: float = 0.0

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
"""


RELEVANT_COSINE = BUNDLED_RELEVANT_COSINE
"""Cosine (all-MiniLM-L6-v2) from which a semantically ranked preference counts as relevant.

Measured: "Can you recommend a water bottle for hiking?" vs "dislikes plastic (material)"
0.154, vs "likes wool sweaters (material)" 0.181, vs "dislikes cilantro (food)" 0.015;
"book me a flight to Berlin" vs "prefers aisle seats (travel)" 0.247, vs "dislikes cilantro
(food)" 0.045. Relevant and unrelated pairs overlap above ~0.15, so the floor only drops the
clearly unrelated; it labels, it does not rank."""


@dataclass
class RecallItem:
    """One recalled preference.

    Attributes:
        preference: The stored preference.
        score: Fused RRF score (larger is better; at most ``Σ w_c / (k + 1)``).
        channels: Channel name → 1-based rank of this preference in that channel.
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
        cosine of at least the embedder's ``relevant_cosine`` (all-MiniLM-L6-v2:
        :data:`RELEVANT_COSINE`; embedders that declare none: any semantic
        candidate). Ranking keeps every candidate (a floor on ranking cost
        PrefEval-dev recall@3: 0.986 → 0.982 at 0.15, 0.946 at 0.25), so
        relevance for labelling — the injector's "constraints" — is this
        separate test.
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
    """

    items: list[RecallItem]
    tokens: int

    def public_dict(self) -> dict[str, Any]:
        """The CLI's JSON contract (DESIGN.md §11): ``{"items": [...], "tokens": N}``."""
        return {
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


class _ListData:
    """Query-independent data derived from one preference list, reusable across queries.

    Built once per list (and cached under the caller's ``cache_key``): the semantic
    eligibility of each preference, the L2-normalised ``float32`` matrix of the eligible
    vectors, ``last_seen_at`` stamps, and per filter (polarity, category) a :class:`_PoolData`.
    """

    __slots__ = ("_pools", "eligible", "matrix", "prefs", "row_of", "stamps")

    MAX_FILTERS = 8
    """Filter combinations kept per list (most recalls use none)."""

    def __init__(self, prefs: Sequence[Preference], embedder: Embedder | None) -> None:
        self.prefs = prefs
        n = len(prefs)
        self.stamps = np.fromiter((p.last_seen_at.timestamp() for p in prefs), np.float64, n)
        self.eligible = np.zeros(n, dtype=bool)
        self.row_of = np.full(n, -1, dtype=np.intp)
        dim = embedder.dim if embedder is not None else 0
        self.matrix = np.zeros((0, dim), dtype=np.float32)
        if embedder is not None:
            name, nbytes = embedder.name, 4 * dim
            every_text = bool(getattr(embedder, "multilingual", True))
            rows = [
                i
                for i, p in enumerate(prefs)
                if p.embedding is not None
                and len(p.embedding) == nbytes
                and p.embedding_model == name
                and p.embedding_dim == dim
                and (every_text or not cjk_dominant(p.content))
            ]
            if rows:
                raw = np.frombuffer(b"".join(prefs[i].embedding or b"" for i in rows), np.float32)
                self.matrix = l2_normalise(raw.reshape(len(rows), dim))
                self.eligible[rows] = True
                self.row_of[rows] = np.arange(len(rows))
        self._pools: OrderedDict[tuple[str | None, str | None], _PoolData] = OrderedDict()

    def pool(self, polarity: str | None, category: str | None) -> _PoolData:
        """The preferences passing the filters, with their derived data (cached)."""
        key = (polarity, category)
        found = self._pools.get(key)
        if found is not None:
            self._pools.move_to_end(key)
            return found
        if polarity is None and category is None:
            idx = np.arange(len(self.prefs), dtype=np.intp)
        else:
            idx = np.fromiter(
                (
                    i
                    for i, p in enumerate(self.prefs)
                    if (polarity is None or p.polarity == polarity)
                    and (category is None or p.category == category)
                ),
                np.intp,
            )
        made = _PoolData(self, idx)
        self._pools[key] = made
        while len(self._pools) > self.MAX_FILTERS:
            self._pools.popitem(last=False)
        return made


class _PoolData:
    """One filtered pool of a :class:`_ListData`: members, recency ranks, lexical indexes."""

    __slots__ = ("_lexical", "matrix", "members", "recency", "sem_pos", "sem_rows", "whole")

    def __init__(self, data: _ListData, idx: np.ndarray) -> None:
        self.members: list[Preference] = [data.prefs[i] for i in idx.tolist()]
        self.matrix = data.matrix
        n = len(idx)
        self.recency = np.empty(n, dtype=np.int32)
        order = np.argsort(-data.stamps[idx], kind="stable")
        self.recency[order] = np.arange(1, n + 1, dtype=np.int32)
        self.sem_pos = np.flatnonzero(data.eligible[idx])
        self.sem_rows = data.row_of[idx[self.sem_pos]]
        self.whole = len(self.sem_rows) == len(data.matrix) and bool(
            np.array_equal(self.sem_rows, np.arange(len(data.matrix)))
        )
        self._lexical: dict[bool, tuple[np.ndarray, BM25Index]] = {}

    def lexical(self, only_ineligible: bool) -> tuple[np.ndarray, BM25Index]:
        """Pool positions and a BM25 index over them: all, or those without a usable vector."""
        found = self._lexical.get(only_ineligible)
        if found is None:
            n = len(self.members)
            if only_ineligible:
                mask = np.ones(n, dtype=bool)
                mask[self.sem_pos] = False
                idx = np.flatnonzero(mask)
            else:
                idx = np.arange(n)
            found = (idx, BM25Index([_lexical_text(self.members[i]) for i in idx.tolist()]))
            self._lexical[only_ineligible] = found
        return found


class Recaller:
    """Ranks a user's preferences for a query by fused channels.

    Ranking is vectorised: each channel is an ``int32[n]`` array of 1-based ranks (0 = not a
    candidate), fused in one numpy expression; :class:`RecallItem` objects are built only for
    the items returned.

    Per-list work (decoding and normalising the vectors into one ``float32`` matrix, the
    BM25 inverted index, recency ranks, filter masks) is cached under the caller's
    ``cache_key`` in a small LRU (:attr:`cache_size` lists), so a repeat recall over an
    unchanged list embeds the query, does one matrix-vector product and sorts. An entry is
    used only for the very list object it was built from (``is``), so a key reused for
    another list recomputes rather than returns stale preferences.

    Args:
        embedder: Embeds the query for the semantic channel; ``None`` turns the channel off.
        fusion: Weights and gates; :data:`DEFAULT_FUSION` by default.
        cache_size: Preference lists whose derived data is kept (≈1.6 KB per preference
            with 384-d vectors); 0 turns the cache off.
    """

    def __init__(
        self,
        embedder: Embedder | None,
        fusion: FusionConfig = DEFAULT_FUSION,
        *,
        cache_size: int = 16,
    ) -> None:
        self.embedder = embedder
        self.fusion = fusion
        self.cache_size = cache_size
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
            cache_key: Identifies this exact ``prefs`` list (the caller passes the same
                list object for the same key, e.g. ``(user tag, revision)``), so derived
                per-list data may be reused between calls.

        Returns:
            The items, best first, and their token total.

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
        pool = self._list_data(prefs, cache_key).pool(polarity, category)
        if not pool.members:
            return RecallResult(items=[], tokens=0)
        sims: dict[str, np.ndarray] = {}
        ranks = self._ranks(pool, query, query_vector, sims)
        return _pack(
            pool.members,
            ranks,
            self._order(ranks),
            self.fusion,
            k,
            token_budget,
            sims.get("semantic"),
        )

    def channel_ranks(
        self, pool: Sequence[Preference], query: str, query_vector: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """Each channel's ranking of ``pool`` (uncached).

        Returns:
            Channel → ``int32[len(pool)]`` of 1-based ranks, 0 where not a candidate.
            ``recency`` is always present (it orders the fill even at weight 0).
        """
        return self._ranks(_ListData(pool, self.embedder).pool(None, None), query, query_vector)

    def cache_info(self) -> dict[str, int]:
        """``{"lists": cached lists, "max": cache_size}``."""
        return {"lists": len(self._cache), "max": self.cache_size}

    def _list_data(self, prefs: Sequence[Preference], cache_key: Hashable | None) -> _ListData:
        if cache_key is None or self.cache_size <= 0:
            return _ListData(prefs, self.embedder)
        with self._lock:
            found = self._cache.get(cache_key)
            if found is not None and found.prefs is prefs:
                self._cache.move_to_end(cache_key)
                return found
        made = _ListData(prefs, self.embedder)
        with self._lock:
            self._cache[cache_key] = made
            self._cache.move_to_end(cache_key)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return made

    def _ranks(
        self,
        pool: _PoolData,
        query: str,
        query_vector: np.ndarray | None,
        sims: dict[str, np.ndarray] | None = None,
    ) -> dict[str, np.ndarray]:
        n = len(pool.members)
        ranks: dict[str, np.ndarray] = {}
        semantic_on = False
        if self.fusion.semantic > 0:
            semantic_on = self._semantic_applies(query) and len(pool.sem_pos) > 0
            ranks["semantic"] = (
                self._semantic_ranks(pool, query, query_vector, sims)
                if semantic_on
                else np.zeros(n, dtype=np.int32)
            )
        if self.fusion.lexical > 0:
            only_ineligible = semantic_on and self.fusion.lexical_mode != "always"
            ranks["lexical"] = self._lexical_ranks(pool, query, only_ineligible)
        ranks["recency"] = pool.recency
        return ranks

    def _order(self, ranks: dict[str, np.ndarray]) -> np.ndarray:
        """Pool indexes, best first: matched before recency-only, then score, then recency."""
        score = _fused_scores(ranks, self.fusion)
        matched = np.zeros_like(score, dtype=bool)
        for channel in ("semantic", "lexical"):
            if channel in ranks:
                matched |= ranks[channel] > 0
        # np.lexsort sorts by the last key first.
        return np.lexsort((ranks["recency"], -score, ~matched))

    def _semantic_applies(self, query: str) -> bool:
        """Whether the semantic channel can rank anything for this query."""
        embedder = self.embedder
        return embedder is not None and bool(query.strip()) and readable_by(embedder, query)

    def _semantic_ranks(
        self,
        pool: _PoolData,
        query: str,
        query_vector: np.ndarray | None,
        sims_out: dict[str, np.ndarray] | None = None,
    ) -> np.ndarray:
        out = np.zeros(len(pool.members), dtype=np.int32)
        assert self.embedder is not None
        q = self._query_vector(query, query_vector, self.embedder.dim)
        # einsum, not `@`: a matrix-vector product is memory-bound, and OpenBLAS' threaded
        # sgemv measured 4x slower at 10k x 384 on 2 cores (7.8 vs 1.8 ms) and doubled the
        # next query embedding (torch spins against the BLAS threads: 30 -> 65 ms).
        sims = np.einsum("ij,j->i", pool.matrix, q)
        if not pool.whole:
            sims = sims[pool.sem_rows]
        if sims_out is not None:
            cosine = np.full(len(pool.members), np.nan, dtype=np.float32)
            cosine[pool.sem_pos] = sims
            sims_out["semantic"] = cosine
        keep = np.flatnonzero(sims >= self.fusion.min_similarity)
        order = keep[np.argsort(-sims[keep], kind="stable")]
        out[pool.sem_pos[order]] = np.arange(1, len(order) + 1, dtype=np.int32)
        return out

    def _query_vector(self, query: str, given: np.ndarray | None, dim: int) -> np.ndarray:
        if given is not None:
            vec = np.asarray(given, dtype=np.float32).reshape(-1)
            if vec.shape != (dim,):
                raise InvalidInputError(
                    f"query_vector has shape {vec.shape}, the embedder needs ({dim},)"
                )
            return vec
        assert self.embedder is not None
        return np.asarray(self.embedder.embed([query])[0], dtype=np.float32)

    def _lexical_ranks(self, pool: _PoolData, query: str, only_ineligible: bool) -> np.ndarray:
        """BM25 ranks among all of the pool or its vectorless part (their own statistics)."""
        out = np.zeros(len(pool.members), dtype=np.int32)
        if not query.strip():
            return out
        idx, index = pool.lexical(only_ineligible)
        if not len(idx):
            return out
        scores = index.scores(query)
        best = float(scores.max())
        if best <= 0.0:
            return out
        keep = np.flatnonzero(scores >= max(best * self.fusion.lexical_min_share, 1e-9))
        order = keep[np.argsort(-scores[keep], kind="stable")]
        out[idx[order]] = np.arange(1, len(order) + 1, dtype=np.int32)
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
    cosine: np.ndarray | None = None,
    relevant_cosine: float = 0.0,
) -> RecallResult:
    """Greedy packing: take items in ``order``, skipping any that would overflow the budget."""
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
        if cosine is not None and not np.isnan(cosine[i]):
            similarity = float(cosine[i])
        chosen.append(RecallItem(pool[i], float(score[i]), channels, similarity))
        used += cost
    return RecallResult(items=chosen, tokens=used)


__all__ = [
    "CHANNELS",
    "DEFAULT_FUSION",
    "RELEVANT_COSINE",
    "FusionConfig",
    "Recaller",
    "RecallItem",
    "RecallResult",
    "cjk_dominant",
    "estimate_tokens",
    "readable_by",
]
