"""Lexical matching: CJK-aware tokens and a BM25 scorer for one user's small corpus.

Tokens (:func:`tokenize`):

* the text is NFKC-normalised (full-width ``ＡＢＣ１２３`` → ``ABC123``) and lower-cased;
* traditional Chinese becomes simplified as in :func:`.normalize.to_simplified`
  (``喜歡`` → ``喜欢``), only when
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
the log). Written with plain Python and numpy: an inverted index over the memoised term counts,
updated document by document as a user's preferences change; measured by
``bench/recall_latency.py`` against ``bm25s`` 0.3 (which builds a full-vocabulary sparse
matrix) in the same run (figures in that module's docs).
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..model import CJK_CHARS, HAN_CHARS, singular, to_simplified

logger = logging.getLogger(__name__)

K1 = 1.2
"""BM25 term-frequency saturation (Robertson & Zaragoza 2009 recommend 1.2–2.0)."""
B = 0.75
"""BM25 document-length normalisation (Robertson & Zaragoza 2009)."""

_TOKEN_RE = re.compile(rf"[{CJK_CHARS}]+|[a-z0-9]+")
_CJK_RE = re.compile(rf"[{CJK_CHARS}]")
_HAN_RE = re.compile(f"[{HAN_CHARS}]")

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


def normalise_text(text: str) -> str:
    """NFKC-normalise, lower-case and convert traditional Chinese to simplified.

    Args:
        text: Any text.

    Returns:
        The normalised text (same meaning, canonical characters).
    """
    text = unicodedata.normalize("NFKC", text).lower()
    if _HAN_RE.search(text):
        text = to_simplified(text)  # the same conversion as stored keywords
    return text


@lru_cache(maxsize=65_536)
def _tokenize_cached(text: str) -> tuple[str, ...]:
    tokens: list[str] = []
    for match in _TOKEN_RE.finditer(normalise_text(text)):
        run = match.group()
        if _CJK_RE.match(run):
            tokens.extend(_cjk_tokens(run))
        elif run not in ENGLISH_STOP_WORDS and len(run) > 1:
            word = singular(run)  # "others" is "other", a stop word too
            if word not in ENGLISH_STOP_WORDS and len(word) > 1:
                tokens.append(word)
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
    """Okapi BM25 over a small, changing corpus (Robertson & Zaragoza 2009).

    An inverted index, term → {document id: term frequency}, over the documents' memoised
    term counts (:func:`tokenize`'s cache), so a query costs time in proportion to the
    postings of its terms, not to the corpus. Documents are added and removed one at a time
    (:meth:`add`, :meth:`remove`): the statistics (``N``, document frequencies, mean length)
    are counts, so an index changed by adds and removes scores every document exactly as an
    index built from scratch over the same documents (the mean length is the ``float32``
    sum over ``float32`` count, as ``numpy.mean`` gives while the total stays below ``2**24``
    tokens). :class:`~.recall.Recaller` keeps an index per cached preference list and
    updates it when the list changes.

    Args:
        texts: The first documents, given ids ``0 … len(texts) − 1``.
        k1: Term-frequency saturation.
        b: Length normalisation, 0–1.
    """

    def __init__(self, texts: Sequence[str] = (), *, k1: float = K1, b: float = B) -> None:
        self.k1 = k1
        self.b = b
        self._postings: dict[str, dict[int, int]] = {}
        self._docs: dict[int, Counter[str]] = {}
        self._lengths = np.zeros(len(texts), dtype=np.float32)
        self._total = 0
        self._norm: np.ndarray | None = None
        for i, text in enumerate(texts):
            self.add(i, text)

    def __len__(self) -> int:
        return len(self._docs)

    def __contains__(self, doc: object) -> bool:
        return doc in self._docs

    @property
    def ids(self) -> int:
        """One more than the largest document id ever used (the length of :meth:`scores`)."""
        return len(self._lengths)

    def add(self, doc: int, text: str) -> None:
        """Index ``text`` as document ``doc``.

        Args:
            doc: A non-negative id not in the index (e.g. a slot number).
            text: The document.

        Raises:
            ValueError: ``doc`` is negative or already indexed.
        """
        if doc < 0 or doc in self._docs:
            raise ValueError(f"document id {doc} is negative or already indexed; remove it first")
        counts, length = _term_counts(text)
        if doc >= len(self._lengths):
            grown = np.zeros(max(doc + 1, len(self._lengths) * 5 // 4 + 8), dtype=np.float32)
            grown[: len(self._lengths)] = self._lengths
            self._lengths = grown
        self._lengths[doc] = length
        self._total += length
        self._docs[doc] = counts
        for term, tf in counts.items():
            found = self._postings.get(term)
            if found is None:
                self._postings[term] = {doc: tf}
            else:
                found[doc] = tf
        self._norm = None

    def remove(self, doc: int) -> None:
        """Drop document ``doc`` (no-op when it is not indexed)."""
        counts = self._docs.pop(doc, None)
        if counts is None:
            return
        self._total -= int(self._lengths[doc])
        self._lengths[doc] = 0.0
        for term in counts:
            found = self._postings[term]
            del found[doc]
            if not found:
                del self._postings[term]
        self._norm = None

    def _avgdl(self) -> float:
        n = len(self._docs)
        return float(np.float32(self._total) / np.float32(n)) if n else 0.0

    def scores(self, query: str | Sequence[str]) -> np.ndarray:
        """Score every document against a query.

        Args:
            query: Query text, or its tokens. Repeated query terms count once.

        Returns:
            ``float32[ids]`` indexed by document id (:attr:`ids`; an index built from
            ``texts`` alone: ``float32[len(texts)]`` in their order): BM25 scores, 0 for
            documents sharing no term and for ids not indexed.
        """
        terms = set(tokenize(query) if isinstance(query, str) else query)
        n = len(self._docs)
        out = np.zeros(len(self._lengths), dtype=np.float32)
        avgdl = self._avgdl()
        if not n or not terms or avgdl == 0.0:
            return out
        if self._norm is None or len(self._norm) != len(self._lengths):
            self._norm = (self.k1 * (1.0 - self.b + self.b * self._lengths / avgdl)).astype(
                np.float32
            )
        norm = self._norm
        for term in sorted(terms):
            docs = self._postings.get(term)
            if docs is None:
                continue
            df = len(docs)
            idx = np.fromiter(docs.keys(), dtype=np.intp, count=df)
            tf = np.fromiter(docs.values(), dtype=np.float32, count=df)
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            out[idx] += idf * tf * (self.k1 + 1.0) / (tf + norm[idx])
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
