"""Chinese words and their parts of speech, from a real segmenter (issue 17).

``rjieba`` binds jieba-rs, whose dictionary (jieba's ``dict.txt``, ≈350k words with
frequencies and POS tags of the ICTCLAS tag set) is compiled into the wheel: nothing is
read from disk or the network. Compounds stay whole (``头戴式耳机`` is ``头戴式`` +
``耳机``, ``酸奶`` and ``酸菜`` are two words), so keywords and object spans are cut at
word boundaries rather than at characters.

The segmenter is built on first use (≈0.8 s, once per process) and is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

NOUN_TAGS = frozenset("n nr nrt nrfg ns nt nz ng vn an eng j b".split())
"""ICTCLAS tags read as part of an object's noun phrase: nouns (``n``, person ``nr``, place
``ns``, organisation ``nt``, other proper ``nz``, morpheme ``ng``), verbal and adjectival
nouns (``vn``, ``an``), Latin words (``eng``), abbreviations (``j``) and distinguishing
words (``b``). Set phrases (``l``: ``受不了``) are not: they are mostly stances."""

FUNCTION_TAGS = ("c", "d", "u", "y", "e", "p", "t", "f", "m", "q")
"""ICTCLAS tag prefixes of words that name no one and nothing: conjunctions, adverbs,
particles, interjections, prepositions, time and place words, numerals and classifiers."""


_ADVERBS_TAGGED_AS_NOUNS = frozenset("基本 基本上 压根 压根儿 全都 全部 统统".split())
"""Words jieba's dictionary tags as nouns (``基本``/n, ``全都``/n) that in what users say are
adverbs (``我基本不吃``: basically; ``鱼我全部不吃``: all of it): tagged ``d``. Read alone, a
clause's words before its verb (``我基本``) show no verb after them."""


def _adverbs_retagged(tagged: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((word, "d" if word in _ADVERBS_TAGGED_AS_NOUNS else flag) for word, flag in tagged)


@lru_cache(maxsize=8192)
def tag(text: str) -> tuple[tuple[str, str], ...]:
    """Words of a Chinese text with their POS tags (jieba's HMM for unknown words).

    Args:
        text: Simplified Chinese (convert traditional text first: jieba's dictionary is
            simplified).

    Returns:
        ``((word, tag), ...)`` in order, e.g. ``(("不", "d"), ("喝", "vg"), ("绿茶", "n"))``.
    """
    import rjieba

    return _adverbs_retagged(rjieba.tag(text))


@lru_cache(maxsize=8192)
def dictionary_tag(text: str) -> tuple[tuple[str, str], ...]:
    """:func:`tag` without jieba's HMM: unknown words stay in single characters rather than
    being guessed, so a boundary is never moved into a dictionary word (with the HMM,
    ``广场舞跳起来`` is ``广场`` + ``舞跳``; without it, ``广场舞`` + ``跳``…)."""
    import rjieba

    return _adverbs_retagged(rjieba.tag(text, False))


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """The words of a Chinese text (:func:`tag` without the tags)."""
    return tuple(word for word, _ in tag(text))


def is_word(text: str) -> bool:
    """Whether ``text`` is one dictionary word of the segmenter."""
    import rjieba

    return bool(rjieba.has_word(text))


_GLUED_QUIT_RE = re.compile("[全都也早]?戒")
"""The verb of quitting, which jieba tags as a noun alone (``戒``/n, a ring) or with an
adverb its HMM glues to it (``外卖全戒了``: ``全戒``/n): no noun."""


def noun_runs(text: str) -> list[str]:
    """Runs of consecutive noun-like words (:data:`NOUN_TAGS`), joined: the noun phrases.

    ``螺蛳粉现在不吃了`` → ``["螺蛳粉"]`` (``螺蛳`` + ``粉``); ``受不了秋葵的口感`` →
    ``["秋葵", "口感"]``.
    """
    return tagged_noun_runs(tag(text))


def tagged_noun_runs(tagged: Iterable[tuple[str, str]]) -> list[str]:
    """:func:`noun_runs` of words already tagged (a part of a text's :func:`tag`)."""
    runs: list[str] = []
    current = ""
    for word, flag in tagged:
        if flag in NOUN_TAGS and not _GLUED_QUIT_RE.fullmatch(word):
            current += word
        elif current:
            runs.append(current)
            current = ""
    if current:
        runs.append(current)
    return runs


def names_a_thing_zh(text: str) -> bool:
    """Whether a Chinese phrase can name an object: a noun-like word (:data:`NOUN_TAGS`) in
    it, or a ``的`` phrase (``甜的``, ``修身的``); ``懒得``, ``一闻``, ``不惯`` name none."""
    return text.endswith("的") or any(flag in NOUN_TAGS for _, flag in tag(text))


__all__ = [
    "FUNCTION_TAGS", "NOUN_TAGS", "dictionary_tag", "is_word", "names_a_thing_zh", "noun_runs",
    "tag", "tagged_noun_runs", "words",
]
