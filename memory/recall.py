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
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from .embeddings import Embedder
from .errors import InvalidInputError
from .lexical import BM25Index
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
seed 7, all-MiniLM-L6-v2; ``python bench/recall_quality.py --sweep``):

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
"""


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

    @property
    def matched(self) -> bool:
        """True when the semantic or lexical channel found it (not recency alone)."""
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


_CJK_CHAR = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RE = re.compile(f"[{_CJK_CHAR}]")
_LATIN_WORD_RE = re.compile(rf"[^\s{_CJK_CHAR}\W]+|\d+", re.UNICODE)
_SYMBOL_RE = re.compile(rf"[^\w\s{_CJK_CHAR}]")

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


class Recaller:
    """Ranks a user's preferences for a query by fused channels.

    Ranking is vectorised: each channel is an ``int32[n]`` array of 1-based ranks (0 = not a
    candidate), fused in one numpy expression; :class:`RecallItem` objects are built only for
    the items returned.

    Args:
        embedder: Embeds the query for the semantic channel; ``None`` turns the channel off.
        fusion: Weights and gates; :data:`DEFAULT_FUSION` by default.
    """

    def __init__(self, embedder: Embedder | None, fusion: FusionConfig = DEFAULT_FUSION) -> None:
        self.embedder = embedder
        self.fusion = fusion

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
        pool = _filter(prefs, polarity, category)
        if not pool:
            return RecallResult(items=[], tokens=0)
        ranks = self.channel_ranks(pool, query, query_vector)
        return _pack(pool, ranks, self._order(ranks), self.fusion, k, token_budget)

    def channel_ranks(
        self, pool: Sequence[Preference], query: str, query_vector: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """Each channel's ranking of ``pool``.

        Returns:
            Channel → ``int32[len(pool)]`` of 1-based ranks, 0 where not a candidate.
            ``recency`` is always present (it orders the fill even at weight 0).
        """
        n = len(pool)
        ranks: dict[str, np.ndarray] = {}
        seen = np.zeros(n, dtype=bool)
        if self.fusion.semantic > 0:
            idx = self._semantic_eligible(pool, query)
            seen[idx] = True
            ranks["semantic"] = self._semantic_ranks(pool, idx, query, query_vector)
        if self.fusion.lexical > 0:
            only = None if self.fusion.lexical_mode == "always" else ~seen
            ranks["lexical"] = self._lexical_ranks(pool, query, only)
        ranks["recency"] = _recency_ranks(pool)
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

    def _semantic_eligible(self, pool: Sequence[Preference], query: str) -> list[int]:
        """Indexes of the preferences the semantic channel can rank for this query."""
        embedder = self.embedder
        if embedder is None or not query.strip() or not readable_by(embedder, query):
            return []
        name, dim = embedder.name, embedder.dim
        nbytes = 4 * dim
        every_text = bool(getattr(embedder, "multilingual", True))
        eligible = []
        for i, p in enumerate(pool):
            emb = p.embedding
            if (
                emb is not None
                and len(emb) == nbytes
                and p.embedding_model == name
                and p.embedding_dim == dim
                and (every_text or not cjk_dominant(p.content))
            ):
                eligible.append(i)
        return eligible

    def _semantic_ranks(
        self,
        pool: Sequence[Preference],
        idx: list[int],
        query: str,
        query_vector: np.ndarray | None,
    ) -> np.ndarray:
        out = np.zeros(len(pool), dtype=np.int32)
        if not idx or self.embedder is None:
            return out
        dim = self.embedder.dim
        q = self._query_vector(query, query_vector, dim)
        matrix = np.frombuffer(b"".join(pool[i].embedding or b"" for i in idx), np.float32)
        sims = matrix.reshape(len(idx), dim) @ q
        keep = np.flatnonzero(sims >= self.fusion.min_similarity)
        order = keep[np.argsort(-sims[keep], kind="stable")]
        out[np.asarray(idx, dtype=np.intp)[order]] = np.arange(1, len(order) + 1)
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

    def _lexical_ranks(
        self, pool: Sequence[Preference], query: str, only: np.ndarray | None
    ) -> np.ndarray:
        """BM25 ranks among the preferences of the ``only`` mask (their own statistics)."""
        out = np.zeros(len(pool), dtype=np.int32)
        idx = np.arange(len(pool)) if only is None else np.flatnonzero(only)
        if not query.strip() or not len(idx):
            return out
        scores = BM25Index([_lexical_text(pool[i]) for i in idx.tolist()]).scores(query)
        best = float(scores.max())
        if best <= 0.0:
            return out
        keep = np.flatnonzero(scores >= max(best * self.fusion.lexical_min_share, 1e-9))
        order = keep[np.argsort(-scores[keep], kind="stable")]
        out[idx[order]] = np.arange(1, len(order) + 1)
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


def _filter(
    prefs: Sequence[Preference], polarity: str | None, category: str | None
) -> list[Preference]:
    if category is not None:
        try:
            category = normalise_category(category)
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
    return [
        p
        for p in prefs
        if (polarity is None or p.polarity == polarity)
        and (category is None or p.category == category)
    ]


def _recency_ranks(pool: Sequence[Preference]) -> np.ndarray:
    """1-based ranks by ``last_seen_at``, newest first (ties: earlier in ``pool`` first)."""
    stamps = np.fromiter((p.last_seen_at.timestamp() for p in pool), np.float64, len(pool))
    out = np.empty(len(pool), dtype=np.int32)
    out[np.argsort(-stamps, kind="stable")] = np.arange(1, len(pool) + 1)
    return out


def _pack(
    pool: Sequence[Preference],
    ranks: dict[str, np.ndarray],
    order: np.ndarray,
    fusion: FusionConfig,
    k: int,
    token_budget: int | None,
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
        chosen.append(RecallItem(preference=pool[i], score=float(score[i]), channels=channels))
        used += cost
    return RecallResult(items=chosen, tokens=used)


__all__ = [
    "CHANNELS",
    "DEFAULT_FUSION",
    "FusionConfig",
    "Recaller",
    "RecallItem",
    "RecallResult",
    "cjk_dominant",
    "estimate_tokens",
    "readable_by",
]
