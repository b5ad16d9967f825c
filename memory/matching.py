"""Deciding whether two preferences are about the same object.

Three questions, each answered on normalised keywords (see :mod:`.normalize`):

* **contradiction** (:func:`supersedes`): a newer preference of the opposite
  polarity replaces an older one when every newer keyword *covers* an older
  keyword — the newer statement is the same as or broader than the older one
  (``no plastic`` covers ``plastic`` + ``water bottle``). A newer, narrower
  statement (``no plastic lunch boxes`` after ``likes plastic``) leaves the
  older one alone: DESIGN.md §6 prefers a missed contradiction to a deleted
  unrelated preference.
* **merge** (:func:`same_object`): same keywords both ways (spelling variants
  included), so ``Plastics`` merges with ``plastic``.
* **forget** (:func:`forget_matches`): containment either way at word
  boundaries, so ``tea`` never matches ``steak``.

A keyword *covers* another when they are equal, near-equal (rapidfuzz ratio ≥
:data:`FUZZY_RATIO` for words of ≥ :data:`FUZZY_MIN_LEN` characters: spelling
variants such as ``colour``/``color``), or when it is the *head* of the other:
its trailing words (``chocolate`` covers ``dark chocolate``, but ``milk`` does
not cover ``milk chocolate``: English and Chinese compounds put the head last).
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz import fuzz

from .normalize import has_cjk, normalise_keyword

FUZZY_RATIO = 88.0
"""rapidfuzz ``fuzz.ratio`` threshold (0–100) for spelling variants."""
FUZZY_MIN_LEN = 5
"""Shorter words must match exactly (``wool`` vs ``wood`` is 75, but short words collide)."""
CJK_HEAD_MIN_CHARS = 2
"""A Chinese keyword covers a longer one ending in it only from this many characters."""

_FORGET_FILLER = frozenset(
    {"forget", "remove", "delete", "drop", "erase", "that", "the", "a", "an", "i", "my", "me",
     "about", "preference", "preferences", "please", "like", "dislike", "love", "hate", "want",
     "don't", "do", "not", "no", "any", "more", "anymore", "of", "for", "to", "is", "am", "it"}
)


def keywords_equal(a: str, b: str) -> bool:
    """Equal, or spelling variants word by word (both already normalised).

    Words are compared pairwise; a pair differs only as a spelling variant when
    both are alphabetic, share the first letter, are at least
    :data:`FUZZY_MIN_LEN` long and score ≥ :data:`FUZZY_RATIO`. Numbers and
    Chinese must match exactly (``size 25`` is not ``size 23``).
    """
    if a == b:
        return True
    a_words, b_words = a.split(" "), b.split(" ")
    if len(a_words) != len(b_words) or has_cjk(a) or has_cjk(b):
        return False
    return all(_word_variant(x, y) for x, y in zip(a_words, b_words, strict=True))


def _word_variant(x: str, y: str) -> bool:
    if x == y:
        return True
    if not (x.isalpha() and y.isalpha()) or min(len(x), len(y)) < FUZZY_MIN_LEN or x[0] != y[0]:
        return False
    return fuzz.ratio(x, y) >= FUZZY_RATIO


def keyword_covers(general: str, specific: str) -> bool:
    """Whether normalised ``general`` is the same object as, or the head of, ``specific``."""
    if keywords_equal(general, specific):
        return True
    if has_cjk(general) or has_cjk(specific):
        return len(general) >= CJK_HEAD_MIN_CHARS and specific.endswith(general)
    general_words, specific_words = general.split(" "), specific.split(" ")
    n = len(general_words)
    return n < len(specific_words) and specific_words[-n:] == general_words


def categories_compatible(a: str, b: str) -> bool:
    """Different categories are different objects; ``other`` means unknown."""
    return a == b or "other" in (a, b)


def supersedes(new_keywords: list[str], old_keywords: list[str]) -> bool:
    """Whether a newer statement about ``new_keywords`` replaces one about ``old_keywords``.

    Both lists are normalised. Empty lists never match (no keywords, no action).
    """
    if not new_keywords or not old_keywords:
        return False
    return all(any(keyword_covers(n, o) for o in old_keywords) for n in new_keywords)


def same_object(a: list[str], b: list[str]) -> bool:
    """Whether two normalised keyword lists name the same object (merge test)."""
    if not a or not b:
        return False
    return all(any(keywords_equal(x, y) for y in b) for x in a) and all(
        any(keywords_equal(y, x) for x in a) for y in b
    )


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return 0 < n <= len(haystack) and any(
        haystack[i : i + n] == needle for i in range(len(haystack) - n + 1)
    )


def forget_query_words(query: str) -> list[str]:
    """The content words of a forget request (filler such as ``forget that I`` dropped)."""
    return [w for w in normalise_keyword(query).split(" ") if w and w not in _FORGET_FILLER]


def forget_matches(query: str, keywords: Iterable[str], content: str) -> bool:
    """Whether a forget request names this preference (DESIGN.md §7).

    Containment either way, normalised and word-boundary aware: a keyword
    inside the request (``coffee`` in ``forget coffee``), or the request
    inside a keyword or the content (``chocolate`` in ``dark chocolate``).
    Chinese compares by substring.
    """
    query_norm = normalise_keyword(query)
    if not query_norm:
        return False
    if has_cjk(query_norm):
        return _cjk_forget_matches(query_norm, keywords, content)
    words = forget_query_words(query)
    if not words:
        return False
    content_words = normalise_keyword(content).split(" ")
    for keyword in keywords:
        kw_words = keyword.split(" ")
        if _contains_run(words, kw_words) or _contains_run(kw_words, words):
            return True
    return _contains_run(content_words, words)


def _cjk_forget_matches(query: str, keywords: Iterable[str], content: str) -> bool:
    compact = query.replace(" ", "")
    for keyword in keywords:
        if keyword and (keyword in compact or (len(compact) >= 1 and compact in keyword)):
            return True
    return len(compact) >= 2 and compact in normalise_keyword(content).replace(" ", "")


__all__ = [
    "CJK_HEAD_MIN_CHARS",
    "FUZZY_MIN_LEN",
    "FUZZY_RATIO",
    "categories_compatible",
    "forget_matches",
    "forget_query_words",
    "keyword_covers",
    "keywords_equal",
    "same_object",
    "supersedes",
]
