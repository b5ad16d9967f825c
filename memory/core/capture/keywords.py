"""Keywords of an object phrase: the normalised nouns the gate compares (DESIGN.md §6.2).

Lower case, English head nouns singular, stop words and frames removed,
qualifiers cut (``games that involve magic`` → ``game``), material and
attribute modifiers split from the head noun (``wool sweaters`` → ``wool``,
``sweater``), negation kept inside the object (``plastic-free``), and for
Chinese the nouns left when particles and fillers are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...model import has_cjk, singular
from .lexicons import (
    AND_COMPOUNDS,
    ATTRIBUTE_MODIFIERS,
    CATEGORY_WORDS,
    FRAME_NOUNS,
    MATERIALS,
    MODIFIER_ALIASES,
    NEGATING_MODIFIERS,
    STOP_WORDS,
    WHOLE_COMPOUNDS,
    ZH_DROPPED_HEADS,
    ZH_MODIFIERS,
    ZH_WHOLE_COMPOUNDS,
)
from .segment import is_word, words

_EN_MADE_OF_RE = re.compile(
    r"^(?P<head>.+?)\s+made\s+(?:out\s+of|of|from|with)\s+(?P<material>[a-z][a-z\s-]*)$"
)
_EN_WITHOUT_RE = re.compile(
    r"\b(?:without|with\s+no|free\s+(?:of|from))\s+(?:any\s+|added\s+)?"
    r"(?:(?:form|kind|sort|type)s?\s+of\s+)?(?P<x>[a-z][a-z-]*)"
)
_EN_SPACED_FREE_RE = re.compile(r"\b([a-z]+)\s+free\b")
_EN_FRAME_RE = re.compile(
    r"^(?:(?:the|a|an|some|any|all|every|each|most|many|various|different|my|those|these|"
    rf"that|this)\s+)*(?:(?:cold|hot|warm|big|small|large|little|nice|good|fresh|single|double)"
    rf"\s+)?(?:{FRAME_NOUNS})\s+of\s+"
)
_EN_GENERIC_WITH_RE = re.compile(
    r"^(?:(?:the|a|an|any|some|all)\s+)?(?:(?:any|some|every)thing|stuff|things?|products?|"
    r"items?|foods?|dish(?:es)?|meals?|snacks?|content|activities|activity)\s+(?:(?:made\s+)?"
    r"with|containing|involving|featuring|including|related\s+to|that\s+(?:has|have|contains?|"
    r"involves?|includes?|features?))\s+(?:any\s+|added\s+|real\s+)?(?=[a-z])"
)
_EN_COLOR_FRAME_RE = re.compile(r"^(?:the\s+)?colou?r\s+(?=[a-z])")
_EN_GERUND_RE = re.compile(
    r"^(?:eating|drinking|using|buying|wearing|smoking|watching|playing|reading|listening\s+to|"
    r"going\s+to|attending|visiting|ordering|consuming|purchasing|owning|driving|riding|"
    r"participating\s+in|engaging\s+in|dining\s+(?:at|in)|staying\s+(?:at|in)|shopping\s+"
    r"(?:at|for)|being\s+(?:in|around|near|on)|adopting|feeding|keeping|having|supporting|"
    r"exploring|trying|joining|practi[cs]ing|taking\s+part\s+in|going\s+on|dealing\s+with|"
    r"working\s+with|cooking\s+with|learning\s+about|[a-z]+ing\s+(?:through|via|using)|"
    r"to\s+[a-z]+(?:\s+(?:to|in|at|on|with|for|from|about))?|use|eat|drink|wear|buy|watch|"
    r"play|read|visit|attend|own|have|get|do|try|adopt|feed|support|explore|keep|take|"
    r"from|at|in|on|with|for|about|into|through)\s+(?=\S)"
)
_EN_QUALIFIER_RE = re.compile(
    r"\s+(?:that|which|who|whose|where|when|involving|containing|featuring|including|requiring|"
    r"using|having|so|due|because|as|relying|is|are|were|was|they|it|i|(?:set|based|focused|"
    r"aimed|designed|meant|tested|derived|sourced|produced|released|inspired|filled|loaded|"
    r"packed|known|made|marketed|related|linked|associated|connected|geared|targeted|tailored)\s+"
    r"(?:in|on|at|for|to|by|from|with|during|around|before|"
    r"after))\b.*$"
)
_EN_PREP_RE = re.compile(
    r"\s+(?P<prep>in|on|at|with|for|from|to|into|during|after|before|around|near|about|under|over|"
    r"like|except|than|of|via|while|through|without|within|across|along|among|beyond)\s+"
)
_EN_BY_RE = re.compile(r"\s+by\s+")
_AND_COMPOUND_RE = re.compile("|".join(map(re.escape, AND_COMPOUNDS)))
_EN_WORD_RE = re.compile(r"[^\W_]+(?:[-'&][^\W_]+)*")
"""A word, letters of any Latin script included (``Pokémon`` → ``pokémon``, as
:func:`~penchant.memory.model.normalise_keyword` keeps it; not ``pok``, ``mon``)."""
_KEEP_PLURAL = frozenset(
    "blues clothes news series species glasses sunglasses jeans pants shorts trousers leggings "
    "headphones earphones olympics".split()
)

ZH_TRAILING_PARTICLE = r"(?:[了啦呢啊呀哦嘛哈哟喔噢咯诶欸吗]|(?<![酒网书氧茶水贴])吧)"
"""A sentence-final particle (``吧`` but not the one of ``酒吧``, a bar)."""
ZH_LEADING_RE = re.compile(
    r"^(?:吃|喝|穿|用|玩|看|听|去|买|戴|坐|住|抽(?![屉奖象签查样筋空])|太|那么|这么|很|都|一些|一点|"
    r"些|那种|这种|各种|所有|任何|一切|再|给我|推荐|被|着|了|的|我|有(?!机|线)|是|也|还|就|这类|那类|"
    r"哪[家个种样款类]的?|什么(?:样的?)?|啥|谁家的)+"  # 哪家的火锅(我都爱吃): any of them
)
_ZH_KEYWORD_TRAILING_RE = re.compile(
    rf"(?:{ZH_TRAILING_PARTICLE}|的|东西|之类的?|什么的|等等|等|这种|那种|这些|那些|一类|类的)+$"
)
ZH_GENERIC = frozenset(
    "东西 菜 食物 饭菜 菜肴 口味 味道 产品 款式 款 类型 样式 玩意 玩意儿 种 类 的".split()
)
ZH_BAD_OBJECT_RE = re.compile(
    r"^(?:你|您|他|她|自己(?![\u4e00-\u9fff]{2})|别人|客气|担心|着急|打扰|生气|害怕|"
    r"(?:紧|忘|说(?!唱)|讲|问|管|走(?!路)|怕|急|骗|等)(?!(?!一下|一会|我|你|他|她)[\u4e00-\u9fff]{2})|"
    r"这样|那样|谢谢|麻烦|烦(?!人)|吵(?!闹)|回答|解释|重复|"
    r"(?:这个|那个|这些|那些|你的|您的|这|那)?(?:建议|主意|想法|推荐|方案|提议|答案|点子|选项|计划|安排)|"
    r"(?:之?前|以前|当时|那次|上次|去年|之?后|以后)的?$)"
)
"""Words a Chinese object never opens with: a person (``自己`` alone or with one character,
``自己人``; before a verb phrase it is the user doing the thing themself, ``我喜欢自己做饭``,
which stored nothing), a courtesy, a feeling, or the assistant's suggestion; nor is a time
alone one (``之前的过敏是误诊``: when, not what)."""


def en_singular(word: str) -> str:
    """Singular of an English head noun, leaving words that only look plural alone."""
    if (
        word in _KEEP_PLURAL
        or word in CATEGORY_WORDS["brand"]
        or word.endswith(("ss", "us", "is", "ics"))
    ):
        return word
    return singular(word)


def _is_modifier(word: str) -> bool:
    return (
        word in MATERIALS
        or word in ATTRIBUTE_MODIFIERS
        or word.endswith(("-free", "-friendly"))
        or word.startswith(("non-", "low-", "high-", "no-"))
    )


_WHOLE_FOODS = frozenset("milk grain grains wheat food foods bean beans nut nuts".split())
"""What "whole" names a kind of ("whole milk", "whole grains"), not the entirety of."""


def _en_words(segment: str) -> list[str]:
    words = []
    found = _EN_WORD_RE.findall(segment)
    for at, word in enumerate(found):
        word = word.removesuffix("'s")
        word = MODIFIER_ALIASES.get(word, word)
        following = found[at + 1] if at + 1 < len(found) else ""
        if word not in STOP_WORDS or (word == "whole" and following in _WHOLE_FOODS):
            words.append(word)
    return words


def _split_modifiers(words: list[str]) -> list[str]:
    """``canvas tote bags`` → ``canvas``, ``tote bag``; ``vegan leather`` stays joined."""
    if not words:
        return []
    whole = " ".join([*words[:-1], en_singular(words[-1])])
    if whole in WHOLE_COMPOUNDS or len(words) == 1:
        return [whole]
    keywords: list[str] = []
    head: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        after = words[index + 1] if index + 1 < len(words) else ""
        if word in NEGATING_MODIFIERS and after in MATERIALS:
            keywords.append(f"{word} {after}")
            index += 2
            continue
        (keywords if _is_modifier(word) else head).append(word)
        index += 1
    if head:
        keywords.append(" ".join([*head[:-1], en_singular(head[-1])]))
    return keywords


def _strip_frames(text: str) -> str:
    return _EN_GERUND_RE.sub("", _EN_FRAME_RE.sub("", _EN_GENERIC_WITH_RE.sub("", text)))


def _en_head(text: str) -> tuple[str, str]:
    """The noun phrase an English object is about, and what it comes ``with``.

    Frames, gerunds and relative qualifiers are dropped; the first prepositional
    phrase ends the head. When that phrase is ``with Y`` (``pizza with pineapple``),
    Y is returned as the head's qualifier: it changes which thing is meant, so it
    stays part of the keyword (DESIGN.md §6.3), unlike ``coffee in the morning``.
    """
    text = _EN_COLOR_FRAME_RE.sub("", text)
    while (stripped := _strip_frames(text)) != text:
        text = stripped
    text = _EN_QUALIFIER_RE.sub("", text)
    first = _EN_PREP_RE.search(text)
    if first is None:
        return text, ""
    head, rest = text[: first.start()], text[first.end() :]
    if first.group("prep") != "with":
        return head, ""
    following = _EN_PREP_RE.search(rest)
    return head, rest[: following.start()] if following else rest


def _with_qualifier(keywords: list[str], qualifier: str) -> list[str]:
    """``box``, ``lid`` → ``box with lid``: the qualifier joins the head keyword (the last)."""
    words = _en_words(qualifier)
    if not keywords or not words:
        return keywords
    qualified = " ".join([*words[:-1], en_singular(words[-1])])
    return [*keywords[:-1], f"{keywords[-1]} with {qualified}"]


_EN_TITLE_OF_RE = re.compile(
    r"(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*\s+of\s+(?:the\s+)?[A-Z][\w'’-]*"
    r"(?:\s+[A-Z][\w'’-]*)*"
)
"""A title or a name with "of" between capitalised words ("Game of Thrones", "Bank of America"):
one name, not a head ("game") and its complement."""


def _en_keywords(phrase: str) -> list[str]:
    if _EN_TITLE_OF_RE.fullmatch(phrase.strip()):
        return [" ".join(_EN_WORD_RE.findall(re.sub(r"^the\s+", "", phrase.strip().lower())))]
    text = " ".join(phrase.lower().replace("’", "'").split())
    text = _EN_MADE_OF_RE.sub(r"\g<material> \g<head>", text)
    free = [f"{en_singular(m.group('x'))}-free" for m in _EN_WITHOUT_RE.finditer(text)]
    text = _EN_SPACED_FREE_RE.sub(r"\1-free", _EN_WITHOUT_RE.sub(" ", text))
    text = _AND_COMPOUND_RE.sub(lambda m: m.group(0).replace(" ", "\x00"), text)
    head, qualifier = _en_head(text)
    segments = [part.replace("\x00", " ") for part in _EN_BY_RE.split(head)]
    first, *others = [_split_modifiers(_en_words(segment)) for segment in segments]
    keywords = [*_with_qualifier(first, qualifier), *(kw for kws in others for kw in kws)]
    if not keywords and not free:  # "products tested on animals": the head is generic
        words = _en_words(_strip_frames(text))
        keywords = [" ".join([*words[:-1], en_singular(words[-1])])] if len(words) > 1 else []
    return _unique([*keywords, *free])


def _zh_keywords(phrase: str) -> list[str]:
    keywords = []
    for segment in phrase.lower().split("的"):
        segment = re.sub(r"\s+", "", segment)
        segment = ZH_LEADING_RE.sub("", segment)
        segment = _ZH_KEYWORD_TRAILING_RE.sub("", segment)
        segment = ZH_LEADING_RE.sub("", segment)
        if segment and segment not in ZH_GENERIC and not ZH_BAD_OBJECT_RE.match(segment):
            keywords.extend(_zh_split_modifier(segment))
    return _unique(keywords)


def _zh_split_modifier(segment: str) -> list[str]:
    """``塑料盒子`` → ``塑料``, ``盒子``; ``辣椒``, ``羽绒服`` and ``塑料`` alone stay whole.

    A material or attribute modifier is split off only at a word boundary of the
    segmenter (:mod:`.segment`: ``塑料`` | ``盒子``), or inside one dictionary word when
    what follows it is itself a word of two or more characters (``真皮沙发`` → ``真皮``,
    ``沙发``) or a head that adds nothing (``塑料制品`` → ``塑料``). A one-character head
    inside a word keeps the compound whole (``羽绒服``, ``皮鞋``, ``帆布包``): a garment or a
    shoe is one object, not a material plus ``服``.
    """
    if segment in ZH_MODIFIERS or segment.startswith(ZH_WHOLE_COMPOUNDS):
        return [segment]
    boundaries = _word_boundaries(segment)
    for modifier in ZH_MODIFIERS:
        head = segment[len(modifier) :]
        if not (segment.startswith(modifier) and head):
            continue
        if head in ZH_GENERIC or head in ZH_DROPPED_HEADS:
            return [modifier]
        if len(modifier) in boundaries or (len(head) >= 2 and is_word(head)):
            return [modifier, *_zh_split_modifier(head)]
    return [segment]


def _word_boundaries(segment: str) -> set[int]:
    """Character offsets at which the segmenter ends a word of ``segment``."""
    ends, offset = set(), 0
    for word in words(segment):
        offset += len(word)
        ends.add(offset)
    return ends


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(item for item in items if item))


def object_qualifiers(phrase: str, named: Iterable[str] = ()) -> frozenset[str]:
    """The words of an English object phrase that its keywords leave out (issue 17).

    :func:`object_keywords` keeps the head (``restaurant``) and drops a relative qualifier
    (``that only take cash``) or a prepositional one (``near the airport``), so that recall
    and forget find the head. The gate still needs them: two different modifiers of one
    head are two preferences (``restaurants that only take cash`` / ``restaurants near the
    airport``), never merged, and neither supersedes the other; a statement about the bare
    head covers both.

    Args:
        phrase: The object phrase as stated, e.g. ``"restaurants that only take cash"``.
        named: Keywords the object already has (their words are not qualifiers).

    Returns:
        The phrase's other content words, normalised (lower case, singular, stop words and
        filler out): ``{"take", "cash"}``; empty for Chinese (its modifiers stay in its
        keywords) and for a phrase its keywords say in full.
    """
    if has_cjk(phrase):
        return frozenset()
    text = " ".join(phrase.lower().replace("’", "'").split())
    text = _EN_COLOR_FRAME_RE.sub("", text)
    while (stripped := _strip_frames(text)) != text:
        text = stripped
    if found := _CLAUSE_TAIL_RE.search(text):  # "… are off the menu now": a clause, no qualifier
        text = text[: found.start()]
    while (trimmed := _DISCOURSE_TAIL_RE.sub("", text)) != text:  # "mushrooms after all"
        text = trimmed
    known = {
        en_singular(w)
        for keyword in named
        for w in re.split(r"[\s-]+", keyword.replace(_WITH_JOIN, " "))
        if w
    }
    words = {en_singular(w) for w in _en_words(text)}
    for word in list(words):
        if "-" in word:
            words.discard(word)
            words.update(p for p in word.split("-") if p)
    return frozenset(w for w in words - known if w not in _QUALIFIER_FILLER and w not in known)


_WITH_JOIN = " with "


_CLAUSE_TAIL_RE = re.compile(
    r"(?<!\bthat)(?<!\bwhich)(?<!\bwho)\s+(?:is|are|were|was|they|it|i|so|due|because|as|since)"
    r"\s|\s+(?:that|which|who)\s+(?:i|you|we|they|he|she|it|my)\b"
)
"""Where a clause starts after the object (``suede jackets are off the menu``, ``coffee that
I drink``): no qualifier follows. A copula after ``that`` is a relative qualifier."""
_DISCOURSE_TAIL_RE = re.compile(
    r"[\s,]+(?:after all|any ?more|lately|these days|nowadays|now|again|still|for good|at all|"
    r"either|too|as well|actually|really)\s*$"
)
"""A time or discourse word that ends a statement (``I love mushrooms after all``, ``… any
more``): it says when or how the user holds the preference, so it never makes the object a
different, qualified one."""
_QUALIFIER_FILLER = frozenset(
    "that which who whose where when is are was were be been being only just really very "
    "so too also always usually often and or nor any all some lot lots kind kinds form forms "
    "type types sort sorts of with a an the".split()
)


def object_keywords(phrase: str) -> list[str]:
    """Normalised keywords of an object phrase, in English or Chinese.

    Lower case, English head nouns singular, stop words and frames removed
    (``the smell of lavender`` → ``lavender``, ``any form of horror`` →
    ``horror``), a leading activity verb and qualifiers dropped (``using
    textbooks`` → ``textbook``, ``games that involve magic`` → ``game``),
    material and attribute modifiers split off (``canvas tote bags`` →
    ``canvas``, ``tote bag``), negation kept inside the object
    (``plastic-free packaging`` → ``plastic-free``, ``packaging``; ``without
    sugar`` → ``sugar-free``), and for Chinese the nouns left when particles
    and fillers are dropped (``塑料的东西`` → ``塑料``).

    Args:
        phrase: The object of one stance, e.g. ``"plastic containers"``.

    Returns:
        The keywords, de-duplicated in order; empty when nothing specific remains.
    """
    return _zh_keywords(phrase) if has_cjk(phrase) else _en_keywords(phrase)


__all__ = [
    "ZH_BAD_OBJECT_RE",
    "ZH_GENERIC",
    "ZH_LEADING_RE",
    "ZH_TRAILING_PARTICLE",
    "en_singular",
    "object_keywords",
    "object_qualifiers",
]
