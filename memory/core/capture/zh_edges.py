"""What a Chinese object's words run into at their edges and are no part of it (issue 17).

An object is cut out of its clause by rules, noun runs and structures; its edges may still
hold whose view it is (``对我来说``), a verb of opinion, a copula, an adverb or connective of the
comment around it (``乐高是``我的精神支柱, ``其实啤酒``), or the time it is told in. They are
cut here as whole words of the segmenter (:func:`~.segment.dictionary_tag`), so a name whose
last character is such a word stays whole (``成都``, ``丐帮``, ``欧阳刚``).
"""

from __future__ import annotations

import re

from .segment import dictionary_tag, is_word

_ZH_EDGES_RE = re.compile(
    r"^(?:对(?:于)?我(?:来说|而言)|(?:(?:后来|然后|结果|其实)我?|我)(?:才|就)?发现|"
    r"(?:后来|然后|结果|其实)?我?(?:才|就)?(?:觉得|感觉|认为))(?=..)|"
    r"(?<=.)(?:(?:已经|早就|都|也)被|小时候|曾经|当年|那时候|从前|年轻时)$|"
    r"(?<=.)(?:[这那](?:种|类)(?:事|事情|东西|玩意儿?)?|这一口|对(?:于)?我(?:来说|而言))$"
)
"""What a Chinese object's words may run into at its edges and is never the thing: whose view
it is (``对我来说Notion``, ``菜市场对我来说``), a verb of opinion, or of finding after who found
it, before it (``后来我发现火锅``; not ``发现宝藏小店``, an activity), and after it a passive
marker with its adverb (``电子游戏已经被``; a bare 被 may be a quilt: ``羽绒被``), the time it is
told in (``辣条小时候``; not 以前 or 之前, which after a noun may be "before" it: ``疫情以前``)
or the kind of thing it is put as (``相亲这种事``, ``夜宵这一口``)."""

_ZH_TRAILING_WORDS = frozenset("是 就 又 还 还是 太 照样 永远 通常 第 再".split())
_ZH_LEADING_WORDS = frozenset("其实 但 但是 而且 可是 不过 所以 个".split())
"""Words a Chinese object's run ends or opens in when a clause's comment or connective is
cut with it (``乐高是``我的精神支柱, ``其他罐头食品都``不碰, ``其实啤酒``是我的最爱): function
words, read as whole words of the segmenter, and a one-character word cut only where two
characters are left (``是``, ``第``: one) and no negation is before it (``有借不还``), so a
name the segmenter splits stays (``成都``, ``丐帮``, ``毛太``). Not 也, 帮, 得, 刚, 真, 才 or
曾, which end names it splits (``藤原龙也``, ``作业帮``, ``百得``, ``刘小刚``, ``李国才``)."""
_ZH_AFTER_A_THING = frozenset("刚 真 才 曾 基本".split())
"""Adverbs cut from an object's end only after a common noun and in no name (``蛋挞刚``出炉,
``工业水啤真``喝不下去; not ``欧阳刚``, ``李国才``, ``回归基本``)."""
_ZH_ALL_OF_RE = re.compile("^(?:其他|其它|别的|什么|所有|任何|各种|啥)|[和跟与]")
"""An object that is "all of" a kind (``其他罐头食品``都不碰, ``什么酒店``都比不上) or a list
(``烟和酒``都戒了): a 都 after it is the adverb, not the end of a name (``魔都``)."""


_ZH_AS_SOON_AS_RE = re.compile("一(?P<v>[\u4e00-\u9fff])就?|(?P<w>[\u4e00-\u9fff])得")
"""``一闻``(就反胃), ``一碰就``(过敏): "as soon as" and a verb; ``写得``(我想吐): how a verb
went."""


def without_edge_words_zh(display: str) -> str:
    """A Chinese object without what its edges run into (:data:`_ZH_EDGES_RE`), the function
    words of :data:`_ZH_LEADING_WORDS` and :data:`_ZH_TRAILING_WORDS`, or the preposition ``对``
    before a topic (``对抖音``; not ``对开门``, ``对门``, ``对味的菜``). Used for every object a
    clause names (:func:`~.objects.resolve`) and for each part of a structure
    (:mod:`.structures`)."""
    words = list(dictionary_tag(_ZH_EDGES_RE.sub("", display)))
    text = "".join(word for word, _ in words)
    while len(words) > 1 and (
        (words[-1][0] in _ZH_TRAILING_WORDS and (len(words[-1][0]) > 1 or (
            len(text) >= 3 and text[-2] not in "不没")))
        or words[-1][0] in ("是", "第") or (words[-1][0] == "都" and _ZH_ALL_OF_RE.search(text))
        or (words[-1][0] in _ZH_AFTER_A_THING and words[-2][1] in ("n", "g", "ng")
            and all(flag != "nr" for _, flag in words))  # 蛋挞刚出炉; not 欧阳刚, 回归基本
    ):
        text = text[: -len(words.pop()[0])]
    while len(words) > 1 and len(text) - len(words[0][0]) >= 2 and (
        words[0][0] in _ZH_LEADING_WORDS or (
            words[0] == ("对", "p") and not words[1][1].startswith("v") and "的" not in text
            and not is_word(text[:2]))
    ):
        text = text[len(words.pop(0)[0]) :]
    return text


def names_no_thing_zh(display: str) -> bool:
    """Whether a Chinese object is only "as soon as" and a verb (``一闻``就反胃, ``一碰就``)
    or a verb and how it went (``写得``我想吐): the thing is the one named before."""
    done = _ZH_AS_SOON_AS_RE.fullmatch(display)
    return done is not None and dictionary_tag(done["v"] or done["w"])[0][1] == "v"


__all__ = ["names_no_thing_zh", "without_edge_words_zh"]
