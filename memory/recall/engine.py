"""Recall: rank one user's preferences for a query (DESIGN.md §8).

A pure computation over a list of :class:`~.records.Preference` that the storage layer has
already fetched; no Redis, no I/O beyond embedding the query.

Channels, each an independent ranking of candidates (rank 1 = best):

* ``semantic``: cosine of the query vector with each preference vector (numpy, in-process).
  Vector spaces are never mixed: preferences embedded by the current embedder are scored
  with its query vector; preferences of another space that ships with Penchant (a store
  made before ``PENCHANT_EMBEDDINGS`` changed) with that model's query vector, each space's
  scores z-scored before they are ranked together; vectors no installed model can score are
  reported in :attr:`RecallResult.stale` (``penchant reembed`` moves them). A fused space
  (the default, USE + MiniLM; ``use-multilingual+e5``) ranks by the sum of its parts'
  z-scores, each part over the preferences it read, and labels relevance by its primary
  (first) part alone (:class:`~.spaces.FusedSpace`). An English-only model
  (``multilingual = False``) is not trusted on CJK text, which it reads as ``[UNK]``
  tokens: a CJK query turns its space off and CJK preferences are left out of it; inside
  a fused space such a part only stays silent on CJK text.
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
dev), first with all-MiniLM-L6-v2 and again with the default USE multilingual v3; see
:data:`~.fusion.DEFAULT_FUSION` and ``docs/recall-experiments.md``. The package's modules:
:mod:`.fusion` (weights, RRF), :mod:`.relevance` (generic-request correction, relevance
labels), :mod:`.results` (items, budget packing), :mod:`.spaces` and :mod:`.list_data` (the
per-list cache), this module (the :class:`Recaller`) and :mod:`.selection` (what one request
injects).

Per-list work is cached under the caller's ``cache_key`` (:class:`Recaller`), so a repeat
recall over an unchanged list costs the query embedding, one matrix-vector product over the
normalised ``float32`` matrix, and a sort (``bench/recall_latency.py``). A changed list under
the same key (the user's list after a write) is diffed against the cached one by object
identity, and only the preferences that left or arrived are re-derived. One user, 512-d
random vectors, hash query embedder, ``k = 5``, medians of 3 runs in one process on a shared
2-core machine: warm recall 0.29 ms at 1k and 2.7 ms at 10k (before: 2.4 / 39 ms, when every
call rebuilt the list's data and re-sorted it), right after an own write
(:func:`~penchant.memory.core.ops.apply_ops`) 0.53 / 4.2 ms (before: 2.9 / 43 ms).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Literal

import numpy as np

from ..embeddings import Embedder, SpaceResolver, primary_block, primary_part
from ..model import InvalidInputError, Preference, normalise_category
from .fusion import DEFAULT_FUSION, FusionConfig, fused_scores, zscores
from .list_data import ListData, PoolData
from .relevance import readable_by, relevant_mask
from .results import RecallResult, Semantic, pack

logger = logging.getLogger(__name__)


ORDERED_FIRST = 32
"""Fewest members a recall orders before packing (at least four times ``k``); the rest are
ordered only if the token budget skips past all of them."""


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
        self._cache: OrderedDict[Hashable, ListData] = OrderedDict()
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
            score = fused_scores(ranks, self.fusion)
            n = len(pool.members)
            order = self._order(ranks, score, max(ORDERED_FIRST, 4 * k))
            result = pack(pool.members, ranks, order, self.fusion, k, token_budget, semantic,
                          score)  # fmt: skip
            if len(result.items) < k and len(order) < n:  # the budget skipped past the prefix
                result = pack(pool.members, ranks, self._order(ranks, score, n), self.fusion, k,
                              token_budget, semantic, score)  # fmt: skip
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
        data = ListData(pool, self.embedder, self.resolver)
        return self._channels(data, data.pool(None, None), query, query_vector)[0]

    def cache_info(self) -> dict[str, int]:
        """``{"lists": cached lists, "max": cache_size}``."""
        return {"lists": len(self._cache), "max": self.cache_size}

    def _list_data(self, prefs: Sequence[Preference], cache_key: Hashable | None) -> ListData:
        """The cached data of ``cache_key`` (to be moved to ``prefs`` under its lock), or
        data built for ``prefs``."""
        if cache_key is None or self.cache_size <= 0:
            return ListData(prefs, self.embedder, self.resolver)
        with self._lock:
            found = self._cache.get(cache_key)
            if found is not None:
                self._cache.move_to_end(cache_key)
                return found
        made = ListData(prefs, self.embedder, self.resolver)
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
        self, data: ListData, pool: PoolData, query: str, query_vector: np.ndarray | None
    ) -> tuple[dict[str, np.ndarray], Semantic | None]:
        n = len(pool.members)
        ranks: dict[str, np.ndarray] = {}
        semantic: Semantic | None = None
        if self.fusion.semantic > 0:
            semantic = self._semantic(data, pool, query, query_vector)
            ranks["semantic"] = semantic.ranks if semantic else np.zeros(n, dtype=np.int32)
        if self.fusion.lexical > 0:
            on = semantic.spaces if semantic else ()
            without = None if self.fusion.lexical_mode == "always" or not on else on
            ranks["lexical"] = self._lexical_ranks(pool, query, without)
        ranks["recency"] = pool.recency
        return ranks, semantic

    @staticmethod
    def _order(ranks: dict[str, np.ndarray], score: np.ndarray, need: int) -> np.ndarray:
        """Pool indexes, best first: matched before recency-only, then score, then recency.

        Only a prefix of at least ``need`` indexes (all of them when ``need`` reaches the
        pool's size), exactly as the whole order begins: one partition instead of a sort of
        every preference (a 10k-preference recall sorted 10k keys to pack five).

        Args:
            ranks: Each channel's 1-based ranks (0: not a candidate); ``recency`` ranks every
                member once (a permutation of ``1..n``), so it breaks every tie.
            score: :func:`fused_scores` of ``ranks``.
            need: Smallest prefix wanted.
        """
        matched = np.zeros(len(score), dtype=bool)
        for channel in ("semantic", "lexical"):
            if channel in ranks:
                matched |= ranks[channel] > 0
        # One key for (matched first, then score): a recency-only member's key is above every
        # matched one's. Its score depends on its recency alone, so a tie the subtraction
        # rounds into is one that recency resolves the same way.
        key = np.where(matched, -score, 1.0 + float(score.max(initial=0.0)) - score)
        recency = ranks["recency"]
        if need >= len(key):
            return np.lexsort((recency, key))  # np.lexsort sorts by the last key first
        kth = np.partition(key, need - 1)[need - 1]
        head = np.flatnonzero(key <= kth)  # the whole order's first len(head) members
        return head[np.lexsort((recency[head], key[head]))]

    def _semantic(
        self, data: ListData, pool: PoolData, query: str, query_vector: np.ndarray | None
    ) -> Semantic | None:
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
            sims, label, ranked, corrected = space.scores(q, rows, self.fusion.generic_penalty)
            keep = sims >= self.fusion.min_similarity
            cosine[pos] = sims
            relevant[pos] = relevant_mask(
                primary_part(space.embedder), sims, label, corrected,
                primary_block(space.embedder, q),
            )  # fmt: skip
            score[pos[keep]] = ranked[keep]
            used.append(s)
        if not used:
            return None
        if len(used) > 1:  # scores of different spaces are not comparable; z-scores are
            for s in used:
                pos = pool.sem_pos[s]
                score[pos] = zscores(score[pos])
        out = np.zeros(n, dtype=np.int32)
        candidates = np.flatnonzero(np.isfinite(score))
        order = candidates[np.argsort(-score[candidates], kind="stable")]
        out[order] = np.arange(1, len(order) + 1, dtype=np.int32)
        return Semantic(out, cosine, relevant, tuple(used))

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
        self, pool: PoolData, query: str, without: tuple[int, ...] | None
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


def _check(k: int, token_budget: int | None, polarity: str | None) -> None:
    if k < 1:
        raise InvalidInputError(f"k must be at least 1, got {k}")
    if token_budget is not None and token_budget < 0:
        raise InvalidInputError(f"token budget must be >= 0, got {token_budget}")
    if polarity not in (None, "like", "dislike"):
        raise InvalidInputError(f"polarity must be 'like' or 'dislike', got {polarity!r}")


__all__ = ["Recaller"]
