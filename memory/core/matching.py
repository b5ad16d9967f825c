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

A keyword *covers* another when they are the same word for word — equal after
normalisation, hyphen or space between the same words (``ice-cream``/``ice cream``),
British/American spelling variants (``colour``/``color``,
``organise``/``organize``, ``centre``/``center``: :func:`spelling_key`), or a
typo that swaps two adjacent letters in a long word (``accessories`` /
``accesories`` is not one, ``recieve``/``receive`` is; rapidfuzz's OSA
distance) — or when it is the *head* of the other: its trailing words
(``chocolate`` covers ``dark chocolate``, but ``milk`` does not cover ``milk
chocolate``: English and Chinese compounds put the head last).

General edit-distance similarity is deliberately not used: ``hotel``/``hostel``,
``dessert``/``desert`` and ``plant``/``planet`` score as high as real spelling
variants, and a false match here deletes an unrelated preference.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz.distance import OSA, Levenshtein

from ..model import clean_text, has_cjk, normalise_keyword
from .capture import slot_key as capture_slot_name
from .capture.lexicons import (
    LEXICALISED_COMPOUNDS,
    SUBSTITUTE_MODIFIERS,
    ZH_CATEGORY_TERMS,
    ZH_SUBSTITUTE_PREFIXES,
)
from .capture.segment import words as zh_words

ZH_MATERIALS = frozenset(ZH_CATEGORY_TERMS["material"])
"""Chinese materials: ``不要玻璃`` covers ``玻璃瓶``, a compound the segmenter keeps whole."""

TYPO_MIN_LEN = 7
"""Words shorter than this must match exactly (or as spelling variants)."""
CJK_HEAD_MIN_CHARS = 2
"""A Chinese keyword covers a longer one ending in it only from this many characters."""

_SPELLING_RULES = tuple(
    (re.compile(pattern), repl)
    for pattern, repl in (
        (r"(?<=[a-z]{2})our(?=(s|ite|ites|ed|ing|ful|less)?$)", "or"),  # colour, favourite
        (r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations)$", r"iz\1"),  # organise, organisation
        (r"(?<=[a-z]{2})ys(e|ed|es|ing)$", r"yz\1"),  # analyse
        (r"(?<=[a-z]{3})([bt])re(s?)$", r"\1er\2"),  # centre, fibre, theatre
        (r"(?<=[a-z]{3})ll(ed|ing|er|ers)$", r"l\1"),  # travelled, traveller
        (r"(?<=[a-z]{3})ogue(s?)$", r"og\1"),  # catalogue
    )
)
_SPELLING_WORDS = {
    "grey": "gray", "aluminium": "aluminum", "jewellery": "jewelry", "tyre": "tire",
    "pyjama": "pajama", "aeroplane": "airplane", "mum": "mom", "doughnut": "donut",
    "cheque": "check", "mould": "mold", "plough": "plow", "moustache": "mustache",
}  # fmt: skip


@lru_cache(maxsize=65_536)
def spelling_key(word: str) -> str:
    """British/American spelling variants of one normalised word map to one key."""
    if word in _SPELLING_WORDS:
        return _SPELLING_WORDS[word]
    for pattern, repl in _SPELLING_RULES:
        word = pattern.sub(repl, word)
    return word


def is_transposition_typo(x: str, y: str) -> bool:
    """Whether two long words differ by one swap of adjacent letters (``recieve``)."""
    return (
        min(len(x), len(y)) >= TYPO_MIN_LEN
        and len(x) == len(y)
        and x[:2] == y[:2]
        and OSA.distance(x, y) == 1
        and Levenshtein.distance(x, y) == 2
    )


def transposition_variants(word: str) -> list[str]:
    """Every word that :func:`is_transposition_typo` can match with ``word``.

    The rule admits one swap of two different adjacent letters that keeps the first two
    letters (same length, OSA distance 1, Levenshtein distance 2), so the variants are the
    swaps at positions 2 … len−2 (``recieve`` → ``reiceve``, ``receive``, ``recivee``,
    ``recieev``). Empty for a word shorter than :data:`TYPO_MIN_LEN`. This turns a scan of
    every stored word, the cost of a write on a large store, into ``len(word)`` lookups.
    """
    if len(word) < TYPO_MIN_LEN:
        return []
    return [
        word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for i in range(2, len(word) - 1)
        if word[i] != word[i + 1]
    ]


_PHRASE_SPLIT_RE = re.compile(r"\s*(?:,|;|/|&|\band\b|\bor\b|[、，,；和与及或])\s*", re.IGNORECASE)
_CJK_FORGET_FILLER = (
    "请帮我", "请", "帮我", "忘掉", "忘记", "删除", "删掉", "去掉", "不要再记", "别记",
    "我不喜欢", "不喜欢", "我喜欢", "喜欢", "讨厌", "不要", "不吃", "不喝", "那个", "东西",
    "我", "关于", "的", "了", "吧",
)
_FORGET_FILLER = frozenset(
    {"forget", "remove", "delete", "drop", "erase", "that", "the", "a", "an", "i", "my", "me",
     "about", "preference", "preferences", "please", "like", "dislike", "love", "hate", "want",
     "don't", "do", "not", "no", "any", "more", "anymore", "of", "for", "to", "is", "am", "it"}
)
_FORGET_KIND_WORDS = frozenset(
    {"allergic", "allergy", "allergies", "intolerant", "intolerance", "intolerances",
     "sensitive", "sensitivity"}
)


def keywords_equal(a: str, b: str) -> bool:
    """Same keyword, word by word, up to spelling variants and typos (both normalised).

    A hyphen and a space join words alike (``ice-cream`` / ``ice cream``,
    ``t-shirt`` / ``t shirt``); the word count still has to agree, so
    ``plastic-free`` never equals ``plastic``.
    """
    if a == b:
        return True
    if has_cjk(a) or has_cjk(b):
        return False
    a_words, b_words = a.replace("-", " ").split(" "), b.replace("-", " ").split(" ")
    if len(a_words) != len(b_words):
        return False
    return all(_same_word(x, y) for x, y in zip(a_words, b_words, strict=True))


def _same_word(x: str, y: str) -> bool:
    if x == y or spelling_key(x) == spelling_key(y):
        return True
    return x.isalpha() and y.isalpha() and is_transposition_typo(x, y)


_WITH = " with "
"""Joins a head and its qualifier in one keyword (``pizza with pineapple``, see capture)."""


def keyword_covers(general: str, specific: str) -> bool:
    """Whether normalised ``general`` is the same object as, or the head of, ``specific``.

    A statement about a bare head covers its qualified forms (issue 17: ``wine`` covers
    ``red wine with dinner``, ``sausage`` covers ``smoked sausage with mash``); a qualified
    keyword never covers the bare head (``pizza with pineapple`` is narrower than
    ``pizza``). Two qualified keywords compare head by head, the qualifiers equal
    (``chocolate with sea salt`` covers ``dark chocolate with sea salt``; ``pizza with
    pineapple`` and ``pizza with mushrooms`` are two objects).
    """
    if keywords_equal(general, specific):
        return True
    general_qualified, specific_qualified = _WITH in general, _WITH in specific
    if general_qualified or specific_qualified:
        if not general_qualified:
            return keyword_covers(general, specific.split(_WITH, 1)[0])
        if not specific_qualified:
            return False
        general_head, general_with = general.split(_WITH, 1)
        specific_head, specific_with = specific.split(_WITH, 1)
        return keywords_equal(general_with, specific_with) and keyword_covers(
            general_head, specific_head
        )
    if has_cjk(general) or has_cjk(specific):
        if len(general) >= CJK_HEAD_MIN_CHARS and general in ZH_MATERIALS:
            if specific.startswith(general) and specific != general:
                return True  # a material covers the one-word compounds made of it (玻璃 → 玻璃瓶)
        return (
            len(general) >= CJK_HEAD_MIN_CHARS
            and specific.endswith(general)
            and not any(m in specific[: -len(general)] for m in ZH_SUBSTITUTE_PREFIXES)
        )
    general_words, specific_words = general.split(" "), specific.split(" ")
    n = len(general_words)
    if n >= len(specific_words) or not keywords_equal(" ".join(specific_words[-n:]), general):
        return False
    return not any(map(changes_head, specific_words[:-n])) and not any(
        " ".join(specific_words[-k:]) in LEXICALISED_COMPOUNDS
        for k in range(n + 1, len(specific_words) + 1)
    )


def changes_head(modifier: str) -> bool:
    """Whether a normalised modifier makes its head noun another thing.

    ``oat`` (``oat milk``), ``faux`` (``faux fur``), any ``non-…`` (``non-alcoholic
    beer``): capture's lexicon, :data:`~.capture.lexicons.SUBSTITUTE_MODIFIERS`.
    """
    return modifier in SUBSTITUTE_MODIFIERS or modifier.startswith("non-")


def slot_key(slot: str | None) -> str | None:
    """Canonical name of a single-valued slot, whichever door it came through.

    The slot is named as capture names it (:func:`~.capture.slot_key`: ``all-time
    favourite bands`` → ``favorite band``), so a slot a tool or an import gives and one
    capture read are the same slot; each word then becomes its spelling key (``favorite
    colour`` → ``favorite color``). A name capture's grammar does not read (a one-word
    slot such as ``phone``) is kept as written, normalised.

    Returns:
        The normalised slot, or ``None`` when empty.
    """
    text = normalise_keyword(slot or "").replace("-", " ")
    named = capture_slot_name(text) or text
    return " ".join(spelling_key(w) for w in named.split()) or None


def leading_word(keyword: str) -> str:
    """The word a keyword of two or more words opens with, as :func:`brand_covers` compares
    it (``canon camera`` → ``canon``; ``佳能相机`` → ``佳能``, cut by the segmenter), or
    ``""`` for a keyword of one word."""
    words = list(zh_words(keyword)) if has_cjk(keyword) else keyword.split(" ")
    return words[0] if len(words) > 1 else ""


def brand_covers(brand_keywords: list[str], old_keywords: list[str]) -> bool:
    """Whether a statement about a brand covers an older one about products named after it:
    each of ``old_keywords`` opens with one of the brand's keywords as a whole word
    (``canon`` covers ``canon camera``, ``佳能`` covers ``佳能相机``; ``canon`` never covers
    ``canonical texts``). Only a statement whose category is ``brand`` uses this: a brand is
    what its products are about, while a modifier in general is not (``red`` never covers
    ``red wine``)."""
    brands = set(brand_keywords)
    return bool(brands) and bool(old_keywords) and all(
        leading_word(o) in brands for o in old_keywords
    )


def categories_compatible(a: str, b: str) -> bool:
    """Different categories are different objects; ``other`` means unknown."""
    return a == b or "other" in (a, b)


def supersedes(new_keywords: list[str], old_keywords: list[str]) -> bool:
    """Whether a newer statement about ``new_keywords`` replaces one about ``old_keywords``.

    Both lists are normalised. Empty lists never match (no keywords, no action).
    A facet of the older object that makes it something else (``vegan`` in ``vegan``
    + ``cheese``, ``non-alcoholic`` + ``beer``: :func:`changes_head`) must be named by
    the newer statement too, so ``dislikes cheese`` leaves ``likes vegan cheese`` alone.
    """
    if not new_keywords or not old_keywords:
        return False
    if any(
        changes_head(o) and not any(keywords_equal(n, o) for n in new_keywords)
        for o in old_keywords
    ):
        return False
    return all(any(keyword_covers(n, o) for o in old_keywords) for n in new_keywords)


def same_object(a: list[str], b: list[str]) -> bool:
    """Whether two normalised keyword lists name the same object (merge test)."""
    if not a or not b:
        return False
    if _squashed(a) == _squashed(b) and not any(map(has_cjk, [*a, *b])):
        return True  # hyphen / space variants cut differently: hand-made soap, handmade + soap
    return all(any(keywords_equal(x, y) for y in b) for x in a) and all(
        any(keywords_equal(y, x) for x in a) for y in b
    )


def _squashed(keywords: list[str]) -> str:
    """The keywords' letters in order, spaces and hyphens out, each word's spelling key."""
    return "".join(spelling_key(w) for k in keywords for w in k.replace("-", " ").split(" "))


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return 0 < n <= len(haystack) and any(
        keywords_equal(" ".join(haystack[i : i + n]), " ".join(needle))
        for i in range(len(haystack) - n + 1)
    )


def forget_query_words(query: str) -> list[str]:
    """The content words of a forget request (filler such as ``forget that I`` dropped, and
    the words that say what kind of preference it is, ``allergic``, ``intolerance``, when an
    object is left: ``forget "allergic to shrimp"`` names shrimp, as ``hate cilantro`` names
    cilantro)."""
    words = _unfilled_words(query)
    objects = [w for w in words if w not in _FORGET_KIND_WORDS]
    return objects or words


def _unfilled_words(query: str) -> list[str]:
    """A forget request's normalised words, less the filler (``forget``, ``that``, ``I``…)."""
    return [w for w in normalise_keyword(query).split(" ") if w and w not in _FORGET_FILLER]


def names_protection(query: str) -> bool:
    """Whether a forget request names an allergy or intolerance as such (``allergic to
    shrimp``, ``lactose intolerance``, ``花生过敏``) beside its object: then it forgets only
    protected preferences, never a like of the same object."""
    if has_cjk(query):
        return any(w in query for w in ("过敏", "不耐")) and len(query.strip()) > 2
    words = _unfilled_words(query)
    return any(w in _FORGET_KIND_WORDS for w in words) and any(
        w not in _FORGET_KIND_WORDS for w in words)


def forget_phrases(query: str) -> list[str]:
    """The objects a forget request names: split on commas and ``and``/``or``/和/与/、.

    Each phrase is normalised with filler dropped (``"forget that I like milk
    tea and coffee"`` → ``["milk tea", "coffee"]``; ``"忘掉塑料"`` → ``["塑料"]``).
    """
    phrases = []
    for part in _PHRASE_SPLIT_RE.split(clean_text(query)):
        if has_cjk(part):
            compact = normalise_keyword(part).replace(" ", "")
            for filler in _CJK_FORGET_FILLER:
                compact = compact.replace(filler, "")
            phrase = compact
        else:
            phrase = " ".join(forget_query_words(part))
        if phrase:
            phrases.append(phrase)
    return phrases


def forget_matches(query: str, keywords: Iterable[str], content: str) -> bool:
    """Whether a forget request names this preference (DESIGN.md §7).

    For each object the request names (:func:`forget_phrases`): the object
    inside a keyword or the content at word boundaries (``chocolate`` in
    ``dark chocolate``; ``tea`` never in ``steak``), or a keyword equal to the
    whole object. A keyword that is only part of the object does not match:
    ``forget milk tea`` leaves ``tea`` and ``milk`` alone. Chinese compares by
    substring, from two characters (``料`` alone matches nothing).
    """
    keywords = list(keywords)
    content_norm = normalise_keyword(content)
    for phrase in forget_phrases(query):
        if has_cjk(phrase):
            if _cjk_phrase_matches(phrase, keywords, content_norm.replace(" ", "")):
                return True
            continue
        words = phrase.split(" ")
        if any(_contains_run(k.split(" "), words) for k in keywords):
            return True
        if _contains_run(content_norm.split(" "), words):
            return True
    return False


def _cjk_phrase_matches(phrase: str, keywords: list[str], content: str) -> bool:
    if any(k == phrase for k in keywords):
        return True
    if len(phrase) < CJK_HEAD_MIN_CHARS:
        return False
    return any(phrase in k for k in keywords) or phrase in content


__all__ = [
    "CJK_HEAD_MIN_CHARS",
    "TYPO_MIN_LEN",
    "ZH_MATERIALS",
    "categories_compatible",
    "changes_head",
    "forget_matches",
    "forget_phrases",
    "names_protection",
    "forget_query_words",
    "is_transposition_typo",
    "keyword_covers",
    "keywords_equal",
    "same_object",
    "slot_key",
    "spelling_key",
    "supersedes",
    "transposition_variants",
]
