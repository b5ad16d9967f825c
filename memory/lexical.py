"""Lexical matching: CJK-aware tokens and a BM25 scorer for one user's small corpus.

Tokens (:func:`tokenize`):

* the text is NFKC-normalised (full-width ``ＡＢＣ１２３`` → ``ABC123``) and lower-cased;
* traditional Chinese becomes simplified with OpenCC ``t2s`` (``喜歡`` → ``喜欢``), only when
  the text holds a Han character (≈40 µs per short sentence; skipped for Latin text, where
  OpenCC costs ≈150 µs for nothing);
* Latin words (letters and digits) are singularised by rule (:func:`singular`) and English
  stop-words are dropped;
* runs of Chinese, Japanese and Korean characters become their single characters plus their
  character bigrams, so ``推荐几本科幻小说`` and ``爱看科幻小说`` share ``科幻``, ``幻小`` and
  ``小说`` without a word segmenter (overlapping bigrams are the standard segmenter-free
  indexing of CJK text: Kwok 1997, "Comparing representations in Chinese information
  retrieval", SIGIR; the unigrams keep single-character words such as ``茶`` findable).
  A few grammatical characters (``的``, ``了``, ``吗`` …) are dropped as unigrams only.

Singular forms: ``inflect`` was measured and not used: importing it costs 3.3 s on this
machine (typeguard instruments the module at import) and a call ≈130 µs uncached, while BM25
only needs *consistent* forms on both sides, which :func:`singular`'s suffix rules give in
microseconds.

Scoring (:class:`BM25Index`): Okapi BM25 with ``k1 = 1.2``, ``b = 0.75`` and the
non-negative IDF ``ln(1 + (N − df + 0.5) / (df + 0.5))`` (Robertson & Zaragoza 2009, "The
Probabilistic Relevance Framework: BM25 and Beyond", with Lucene's ``1 +`` inside
the log). Written with plain Python and numpy because the corpus is re-indexed per query,
and only the query's terms need statistics: index plus one query takes ≈1–2 ms at 1,000
documents and ≈35 ms at 10,000 here, against ≈17–40 ms and ≈300 ms for ``bm25s`` 0.3 (which
builds a full-vocabulary sparse matrix); measured by ``bench/recall_latency.py``.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .normalize import singular

logger = logging.getLogger(__name__)

K1 = 1.2
"""BM25 term-frequency saturation (Robertson & Zaragoza 2009 recommend 1.2–2.0)."""
B = 0.75
"""BM25 document-length normalisation (Robertson & Zaragoza 2009)."""

_CJK = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han (extension A, unified, compatibility)
    "\uac00-\ud7af"  # Hangul syllables
)
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[a-z0-9]+")
_CJK_RE = re.compile(rf"[{_CJK}]")
_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

ENGLISH_STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing don down during each few for
    from further had has have having he her here hers herself him himself his how i if in into
    is it its itself just me more most my myself no nor not now of off on once only or other
    our ours ourselves out over own same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours yourself
    yourselves also am s t ll d re ve m isn aren wasn weren doesn didn won wouldn shouldn can
    couldn let lets me please""".split()
)
"""English function words dropped from Latin tokens. Negations (``not``, ``no``, ``don``) go too:
BM25 matches objects, and polarity is a field of the preference, not a term."""

CJK_STOP_CHARS = frozenset(
    "的了吗呢吧啊呀嘛么我你您他她它们个这那是请帮把被给和与及或就都也很のはがをにでとへや"
)
"""Grammatical Chinese characters and Japanese particles, dropped as unigrams only (they stay
inside bigrams)."""

def _cjk_tokens(run: str) -> list[str]:
    unigrams = [ch for ch in run if ch not in CJK_STOP_CHARS]
    bigrams = [run[i : i + 2] for i in range(len(run) - 1)]
    return unigrams + bigrams


@lru_cache(maxsize=1)
def _t2s() -> Any:
    from opencc import OpenCC  # ~6 ms to build; only for text with Han characters

    return OpenCC("t2s")


def normalise_text(text: str) -> str:
    """NFKC-normalise, lower-case and convert traditional Chinese to simplified.

    Args:
        text: Any text.

    Returns:
        The normalised text (same meaning, canonical characters).
    """
    text = unicodedata.normalize("NFKC", text).lower()
    if _HAN_RE.search(text):
        text = str(_t2s().convert(text))
    return text


@lru_cache(maxsize=65_536)
def _tokenize_cached(text: str) -> tuple[str, ...]:
    tokens: list[str] = []
    for match in _TOKEN_RE.finditer(normalise_text(text)):
        run = match.group()
        if _CJK_RE.match(run):
            tokens.extend(_cjk_tokens(run))
        elif run not in ENGLISH_STOP_WORDS and len(run) > 1:
            tokens.append(singular(run))
    return tuple(tokens)


def tokenize(text: str) -> list[str]:
    """Split text into BM25 terms: singular English words, CJK characters and bigrams.

    Results are memoised per text (65,536 texts), so re-indexing a user's preferences on
    every query costs a dictionary lookup per preference.

    Args:
        text: A preference or a query, in any mix of English, Chinese, Japanese, Korean.

    Returns:
        Terms in text order, duplicates kept (they are term frequencies).

    Example:
        >>> tokenize("推荐几本科幻小说")[-3:]
        ['科幻', '幻小', '小说']
    """
    return list(_tokenize_cached(text))


@lru_cache(maxsize=65_536)
def _term_counts(text: str) -> tuple[Counter[str], int]:
    tokens = _tokenize_cached(text)
    return Counter(tokens), len(tokens)


class BM25Index:
    """Okapi BM25 over a small corpus, built per query (Robertson & Zaragoza 2009).

    Only the query's terms are looked up: document frequencies and term frequencies are
    computed for them alone, from per-text term counts memoised by :func:`tokenize`'s
    cache, so building the index is one pass over the documents.

    Args:
        texts: The documents, e.g. one user's preference sentences.
        k1: Term-frequency saturation.
        b: Length normalisation, 0–1.
    """

    def __init__(self, texts: Sequence[str], *, k1: float = K1, b: float = B) -> None:
        counted = [_term_counts(t) for t in texts]
        self._counts = [c for c, _ in counted]
        self._lengths = np.fromiter((n for _, n in counted), dtype=np.float32, count=len(texts))
        self._avgdl = float(self._lengths.mean()) if len(texts) else 0.0
        self.k1 = k1
        self.b = b

    def __len__(self) -> int:
        return len(self._counts)

    def scores(self, query: str | Sequence[str]) -> np.ndarray:
        """Score every document against a query.

        Args:
            query: Query text, or its tokens. Repeated query terms count once.

        Returns:
            ``float32[n_docs]``: BM25 scores, 0 for documents sharing no term.
        """
        terms = set(tokenize(query) if isinstance(query, str) else query)
        n = len(self._counts)
        out = np.zeros(n, dtype=np.float32)
        if not n or not terms or self._avgdl == 0.0:
            return out
        norm = self.k1 * (1.0 - self.b + self.b * self._lengths / self._avgdl)
        for term in terms:
            tf = np.fromiter((c.get(term, 0) for c in self._counts), dtype=np.float32, count=n)
            df = int(np.count_nonzero(tf))
            if df == 0:
                continue
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            out += idf * tf * (self.k1 + 1.0) / (tf + norm)
        return out


__all__ = [
    "B",
    "CJK_STOP_CHARS",
    "ENGLISH_STOP_WORDS",
    "K1",
    "BM25Index",
    "normalise_text",
    "singular",
    "tokenize",
]
