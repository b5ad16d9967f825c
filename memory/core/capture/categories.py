"""Categories of captured objects: a function of the keywords (and, in English, of casing).

One object gets one category whatever the verb or the sentence, so that the
gate, which keeps Apple the brand apart from apple the fruit, sees the same
category for "I love apples" and "I'm sick of apples".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ...model import has_cjk, normalise_keywords
from .lexicons import (
    ATTRIBUTE_MODIFIERS,
    BRAND_CONTEXT,
    BRAND_HOMONYMS,
    CATEGORY_PRIORITY,
    CATEGORY_WORDS,
    DEMONYM_SUFFIXES,
    MATERIALS,
    NOT_NAMES,
    STOP_WORDS,
    ZH_CATEGORY_TERMS,
)


def _categories_of(keyword: str) -> set[str]:
    if has_cjk(keyword):
        return {cat for cat, terms in ZH_CATEGORY_TERMS.items() if any(t in keyword for t in terms)}
    base = keyword.removesuffix("-free").removesuffix("-friendly")
    for candidate in (keyword, base, base.split()[-1] if base.split() else base):
        found = {cat for cat, words in CATEGORY_WORDS.items() if candidate in words}
        if found:
            return found
    return set()


_EN_NAME_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:[-'&][A-Za-z0-9]+)*")


def _is_written_as_name(token: str) -> bool:
    """``Apple``, ``McDonald's``, ``iPhone``; not ``apple``, ``I``, ``BBQ`` (acronyms)."""
    if len(token) < 2 or token.isupper() or token.islower():
        return False
    return token[0].isupper() or any(c.isupper() for c in token[1:])


def _brand_words(item: str, initial: bool) -> tuple[set[str], set[str]]:
    """Lower-case words of an object that name a brand: (certain, by capital letter only).

    Certain: a known brand (``Sony``), or a name or brand homonym before a brand
    context (``Apple products``, ``apple phones``). By capital letter: a word
    written as a name that does not start the clause (``I hate Apple``).
    """
    certain: set[str] = set()
    cased: set[str] = set()
    tokens = _EN_NAME_TOKEN_RE.findall(item)
    for index, token in enumerate(tokens):
        word = token.removesuffix("'s")
        low = word.lower()
        following = tokens[index + 1].lower() if index + 1 < len(tokens) else ""
        if low in CATEGORY_WORDS["brand"]:
            certain.add(low)
            continue
        if (
            low in MATERIALS
            or low in ATTRIBUTE_MODIFIERS
            or low in STOP_WORDS
            or low in NOT_NAMES
            or low.endswith(DEMONYM_SUFFIXES)
        ):
            continue
        as_name = _is_written_as_name(word) and not (initial and index == 0)
        if following in BRAND_CONTEXT and (as_name or low in BRAND_HOMONYMS):
            certain.add(low)
        elif as_name:
            cased.add(low)
    return certain, cased


def object_category(item: str, keywords: list[str], initial: bool = False) -> str:
    """The category of an English object from its keywords and how its words are written.

    Like :func:`category_for`, but a keyword naming a brand is category
    ``brand``: ``Apple products`` and ``I hate Apple`` are not the fruit,
    ``Sony headphones`` are Sony's. A word written as a name counts when it is
    the keyword's head and a lexicon word (``Apple``, ``Orange``), or when the
    keyword has no other category (``Radiohead``); ``Italian food`` stays food
    and ``Apples`` (a plural) stays fruit.
    """
    certain, cased = _brand_words(item, initial)
    found: set[str] = set()
    for keyword in keywords:
        words = keyword.split()
        categories = _categories_of(keyword)
        if any(word in certain for word in words) or (
            words and words[-1] in cased and (not categories or words[-1] in _LEXICON_WORDS)
        ):
            categories = {"brand"}
        elif not categories and any(word in cased for word in words):
            categories = {"brand"}
        found |= categories
    return next((cat for cat in CATEGORY_PRIORITY if cat in found), "other")


_LEXICON_WORDS: frozenset[str] = frozenset().union(*CATEGORY_WORDS.values())


def category_for(keywords: list[str]) -> str:
    """The category of an object, from its keywords alone.

    A keyword counts by itself or by its head (last) word; English lexicon
    entries match whole words, Chinese terms match inside a keyword. When
    several categories fit, :data:`CATEGORY_PRIORITY` decides, so one object
    always gets one category.

    Args:
        keywords: Normalised keywords, e.g. ``["wool", "sweater"]``.

    Returns:
        One of :data:`CATEGORY_PRIORITY`, or ``"other"``.
    """
    found: set[str] = set()
    for keyword in keywords:
        found |= _categories_of(keyword)
    return next((cat for cat in CATEGORY_PRIORITY if cat in found), "other")


Glosses = Callable[[str], Sequence[str]]
"""Chinese word → its English dictionary glosses (``南瓜`` → ``("pumpkin",)``)."""


def glossed_category(keywords: list[str], glosses: Glosses) -> str:
    """The category of Chinese objects named by their English glosses.

    The Chinese lexicon lists far fewer words than the English one, so an object such as
    ``南瓜`` or ``玉米`` would stay ``other`` while ``pumpkin`` and ``corn`` are ``food``;
    the gate compares objects across languages within compatible categories (issue 17),
    so the dictionary's English names decide instead (:func:`category_for` over them).

    Args:
        keywords: Normalised keywords; only the Chinese ones are looked up.
        glosses: The dictionary (:func:`penchant.memory.embeddings.glosses`, CC-CEDICT).

    Returns:
        One of :data:`CATEGORY_PRIORITY`, or ``"other"`` when no gloss names a known kind.
    """
    english = [g for keyword in keywords if has_cjk(keyword) for g in glosses(keyword)]
    return category_for(normalise_keywords(english)) if english else "other"


__all__ = ["Glosses", "category_for", "glossed_category", "object_category"]
