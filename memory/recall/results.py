"""What recall returns: ranked items packed greedily into a token budget."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..model import CJK_CHARS, Preference
from .fusion import CHANNELS, FusionConfig, fused_scores


@dataclass
class RecallItem:
    """One recalled preference.

    Attributes:
        preference: The stored preference.
        score: Fused RRF score (larger is better; at most ``Σ w_c / (k + 1)``).
        channels: Channel name → 1-based rank of this preference in that channel.
        similarity: Cosine with the query in the preference's vector space (its primary
            part's for a fused space); ``None`` when not scored by meaning.
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


def pack(
    pool: Sequence[Preference],
    ranks: dict[str, np.ndarray],
    order: np.ndarray,
    fusion: FusionConfig,
    k: int,
    token_budget: int | None,
    semantic: Semantic | None = None,
    score: np.ndarray | None = None,
) -> RecallResult:
    """Greedy packing: take items in ``order``, skipping any that would overflow the budget.

    Each item is labelled ``relevant`` when the lexical channel found it or its cosine
    reaches its embedder's ``relevant_cosine``. ``score``: :func:`fused_scores` of ``ranks``
    when the caller has it already.
    """
    if score is None:
        score = fused_scores(ranks, fusion)
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


@dataclass
class Semantic:
    """One query's semantic channel over a pool."""

    ranks: np.ndarray
    cosine: np.ndarray
    relevant: np.ndarray
    spaces: tuple[int, ...]


__all__ = [
    "LATIN_WORD_TOKENS",
    "NO_VECTOR",
    "RecallItem",
    "RecallResult",
    "Semantic",
    "estimate_tokens",
    "pack",
]
