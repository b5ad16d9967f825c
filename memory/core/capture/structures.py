"""Two objects in one statement: a switch, a comparison, an exception, a slot value.

When a sentence is read as one of these kinds (:mod:`.structuring` says when), these
connector rules cut the sentence into its parts ("from A to B", "A over B", "every C except
M", "my favourite S is V", ``从A换成B``, ``A比B好``, ``除了M，C都…``, ``我最喜欢的S是V``);
each part's object is pulled as in :mod:`.kinds`. They name connectors of a kind, never objects.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...model import Polarity, PreferenceCandidate, has_cjk, is_protected
from .categories import category_for, object_category
from .comparisons import EN_COMPARE, EN_COMPARE_STRICT, ZH_COMPARE
from .keywords import object_keywords
from .kinds import pull_object_en
from .lexicons import EN_PEOPLE_RE, ZH_MET_BY
from .rules_en_kept import EN_SOONER_DIE
from .slots import slot_key, zh_slot_reading
from .switches import (
    EN_FRONTED_INSTEAD,
    EN_INSTEAD,
    EN_ONE_OFF_CLAUSE_RE,
    EN_SWITCH,
    EN_SWITCH_TO,
    EN_SWITCH_VERB_RE,
    FROM_NOW_ON_RE,
    ZH_SWITCH,
    ZH_SWITCH_TO,
    ZH_V,
)
from .temporary import ONE_OCCASION_RE
from .zh_edges import without_edge_words_zh

PolarityReader = Callable[[str], "Polarity | None"]
"""The polarity the statement head reads in one clause, or None (:func:`read_structure`)."""


@dataclass(frozen=True)
class Part:
    """One object of a structured statement, with what it yields."""

    polarity: Polarity
    obj: str
    content: str
    slot: str | None = None


_SOONER_DIE_RE = re.compile(EN_SOONER_DIE, re.IGNORECASE)
"""A side that is no choice: "I'd rather die than B" refuses B (:mod:`.rules_en_kept`)."""
_EN_EXCEPT = re.compile(
    r"(?P<c>.+?)\s*,?\s+(?:except(?:\s+for)?|but\s+not|but\s+never|but|apart\s+from|other\s+than|"
    r"besides|save(?:\s+for)?|minus|aside\s+from|excluding|with\s+the\s+exception\s+of|"
    r"just\s+not|though\s+not|not)\s+(?P<m>.+)",
    re.I,
)
_EN_EXCEPT_STRICT = re.compile(
    r"(?P<c>.+?)\s*,?\s+(?:except(?:\s+for)?|apart\s+from|other\s+than|aside\s+from|excluding|"
    r"save\s+for|with\s+the\s+(?:one\s+)?exception\s+of|(?:though|but)\s+(?:i(?:'ll|\s+will)\s+)?"
    r"make\s+an\s+exception\s+for)\s+(?P<m>.+)",
    re.I,
)
"""The exception connectors that name an exception alone, for a sentence the head does not read
as one: "but" and "not" also join two plain clauses ("bizarre but fun")."""
_EN_EXCEPT_FRONTED = re.compile(
    r"^(?:except(?:\s+for)?|apart\s+from|other\s+than|aside\s+from|excluding|"
    r"with\s+the\s+exception\s+of|save\s+for)\s+(?!(?:the\s+)?(?:fact|cost|price|first|second|"
    r"third|last|occasional|odd)\b)(?P<m>[^,;]+?)\s*[,;]?\s+(?P<c>i(?:'m|'ll|'d|'ve)?\b.+)",
    re.I,
)
"""The exception put first, the class after it in the user's own clause: "Apart from blue cheese,
I love all cheeses", "Excluding seafood, I'm happy with any cuisine". Not "besides" (it adds as
often: "Besides coffee, I love tea"), not a class of other people ("Apart from my sister,
everyone in my family loves dogs"), nor a member that is a circumstance or an ordinal ("Aside
from the cost, I love living in London", "Apart from the first one, …")."""
_EN_PARTICULAR_RE = re.compile(
    r"\s*(?:my|our|your|this|that|today'?s|tonight'?s)\b[^,;]*\s(?:is|are)\s", re.I)
"""A member said of a particular thing ("my gym is fine"), not a kind in a class."""
_EN_UNIVERSAL_RE = re.compile(r"\b(?:anything|everything|whatever)\b", re.I)
"""A class of everything ("Anything but country music"): its exception is the one disliked,
or, with the class negated ("nothing but jazz"), the one liked."""
_EN_CLASS_NEGATED_RE = re.compile(
    r"\b(?:never|not|no|nothing|hate|hates|dislike|avoid|rarely|seldom|hardly|can't\s+stand)\b|"
    r"n't\b",
    re.I,
)
_ZH_CLASS_NEGATED_RE = re.compile(
    r"不|没|讨厌|受不了|别(?!的|人|家|处)|拒绝|戒|很少|极少|懒得|嫌|烦|怕|腻|反感|排斥"  # 懒得: too
)
_EN_I_RE = re.compile(r"(?:\w+ly\s+)?i\b", re.I)
"""An English clause the user is the subject of ("I love coffee", "honestly I'd…")."""
_EN_NOT_PICKY_RE = re.compile(
    r"\b(?:not\s+(?:picky|fussy)|(?:don't|do\s+not|never)\s+mind|no\s+(?:problem|complaints)|"
    r"can't\s+get\s+enough|never\s+(?:say|said)\s+no|not\s+a\s+fussy|(?:don't|do\s+not|never)\s+"
    r"(?:hate|dislike|turn\s+down|refuse))\b",
    re.I,
)
_ZH_NOT_PICKY_RE = re.compile(
    r"不挑|不忌口|不介意|没问题|来者不拒|不嫌弃|不讨厌|不拒绝|不排斥|不反感"
)
"""A class clause that turns the user away from the class (the negations above, once "not
picky" and its kind are taken out): its exception is the one liked ("I never wear jewellery
apart from my wedding ring", ``咖啡我一直喝不惯，生椰拿铁是唯一的例外``)."""
_EN_CLASS_LEAD = re.compile(
    r"^.*?\b(?:every|any|all(?:\s+kinds?\s+of|\s+sorts?\s+of|\s+types?\s+of)?|most|each)\s+", re.I
)
_EN_SLOT_WORDS = r"(?:favou?rite|go-to|top|number\s+one|all-time\s+favou?rite|fave)"
_EN_NOW = (
    r"(?:now|these\s+days|at\s+the\s+(?:moment|minute)|currently|lately|right\s+now|at\s+present|"
    r"for\s+now|nowadays|this\s+(?:season|year|month|week|summer|winter))"
)
_EN_DEFAULT = (
    r"(?:default|daily(?:\s+driver)?|everyday|usual|main|regular|comfort|staple|signature|"
    r"preferred|current|new)"
)
_EN_CHOICE_WORD_RE = re.compile(rf"\b(?:{_EN_NOW}|{_EN_DEFAULT}|{_EN_SLOT_WORDS})\b", re.I)
_EN_CHOICE_WORDS_ONLY_RE = re.compile(
    rf"(?:(?:{_EN_NOW}|{_EN_DEFAULT}|{_EN_SLOT_WORDS})\s*)+", re.I
)
"""A slot named by words of choice alone ("My favorite is X", "Signal is my go-to now"): no
slot of a kind of thing."""
_EN_SLOT_WIDE = [
    # "Favourite band right now is X", "current comfort show: X", "go-to wine = X"
    re.compile(
        rf"^(?:(?:the|my)\s+)?(?:{_EN_NOW}\s*,?\s+)?(?:my\s+)?(?:(?:{_EN_DEFAULT}|"
        rf"{_EN_SLOT_WORDS})\s+)+(?P<s>[a-z0-9][\w -]{{0,30}}?)\s*(?:\s+of\s+choice)?"
        rf"(?:\s+(?:in|at|for)\s+(?:my|the)\s+[\w-]+)?(?:\s+{_EN_NOW})?\s*"
        r"(?:\bis\b|\bhas\s+to\s+be\b|\bwould\s+be\b|=|:)\s*(?:now\s+)?(?P<v>.+)",
        re.I,
    ),
    # "my default pasta shape is rigatoni now", "These days my drink at the pub is a Guinness"
    re.compile(
        rf"^(?:{_EN_NOW}\s*,?\s+)?my\s+(?P<s>[a-z][\w -]{{0,30}}?)\s+(?:{_EN_NOW}\s+)?is\s+"
        rf"(?!an?\s)(?P<v>.+?)(?:\s+{_EN_NOW})?\W*$",  # "my brother is a doctor now": no slot
        re.I,
    ),
    # "Firefox is my browser now", "Signal is my go-to now"
    re.compile(
        rf"^(?P<v>.+?)\s+is\s+(?:now\s+)?my\s+(?:(?:{_EN_DEFAULT}|{_EN_SLOT_WORDS})\s+)*"
        rf"(?P<s>[a-z][\w -]{{0,30}}?)(?:\s+for\s+life)?\s+{_EN_NOW}\W*$",
        re.I,
    ),
    # "These days I'm using Arc as my main browser"
    re.compile(
        rf"\bi(?:'m|\s+am)?\s+(?:using|running|on)\s+(?P<v>.+?)\s+as\s+my\s+"
        rf"(?:(?:{_EN_DEFAULT})\s+)*(?P<s>[a-z][\w -]{{0,30}}?)\W*$",
        re.I,
    ),
    # "The only shampoo I use now is X", "The perfume I wear every day now is X"
    re.compile(
        rf"^the\s+(?:only\s+)?(?P<s>[a-z][\w -]{{0,30}}?)\s+i\s+(?:[a-z]+\s+){{1,4}}?"
        rf"(?:{_EN_NOW}\s+)?is\s+(?P<v>.+)",
        re.I,
    ),
]
"""Slots beyond "favourite": a default, a current or everyday choice, or a time word
("now", "these days"), tried only on a sentence the head reads as a slot. A slot name holds
no possessive: "my wife's city of choice" is hers."""
_EN_SLOT = [
    re.compile(
        rf"\bmy\s+(?:(?:current|new|present|latest|all-time)\s+)*{_EN_SLOT_WORDS}\s+"
        r"(?P<s>[a-z][a-z -]{0,30}?)\s+(?:of\s+choice\s+)?(?:(?:now|these\s+days|at\s+the\s+"
        r"moment|currently|lately|right\s+now|at\s+present|for\s+now|nowadays)\s+)?(?:is|has\s+been|are|have\s+been)\s+"
        r"(?:now\s+)?(?P<v>.+)",
        re.I,
    ),
    re.compile(
        r"\bmy\s+(?:(?:current|new|present|latest)\s+)*(?P<s>[a-z][a-z -]{0,30}?)\s+of\s+"
        r"choice\s+(?:(?:now|these\s+days)\s+)?(?:is|has\s+been)\s+(?P<v>.+)",
        re.I,
    ),
    re.compile(
        rf"(?P<v>.+?)\s+(?:is|has\s+become|became)\s+(?:now\s+)?my\s+(?:(?:new|current|"
        rf"all-time)\s+)*{_EN_SLOT_WORDS}\s+(?P<s>[a-z][a-z -]{{0,30}}?)(?:\s+now|\s+these\s+"
        r"days|\s+at\s+the\s+moment)?\W*$",
        re.I,
    ),
]

_ZH_EXCEPT_ANY_VERB = re.compile(
    r"(?:我)?(?:喜欢|爱|" + ZH_V + r")(?:所有|各种|任何)?的?(?P<c>[^，,。]{1,10}?)[，,]\s*"
    r"(?:但是?|就是|只有|唯独)?(?P<m>[^，,。]{1,14}?)(?:除外|不" + ZH_V + r"?|不行|不要)"
)
"""The exception pattern that any verb and any later clause with 不 fits (``喜欢X，Y不行``):
tried only on a sentence the head reads as an exception."""
_ZH_EXCEPT = [
    re.compile(
        r"(?P<c>[^，,。]{1,10}?)(?:里|中|当中|之中)我?(?:除了|只有|就|唯独)(?P<m>[^，,。我]{1,14}?)"
        r"(?:以外|之外)?(?:我|不|都|没)"
    ),
    re.compile(
        r"除了(?P<m>[^，,。]{1,14}?)(?:(?:以外|之外)[，,]?|[，,])\s*(?:我|其他的?|别的|其它的?|"
        r"什么|各种|所有)*(?P<c>[^，,。我都]{0,10}?)我?都"
    ),
    re.compile(r"除了(?P<m>[^，,。我]{1,14}?)(?:以外|之外)?我?都(?P<c>)"),
    re.compile(
        r"(?:什么|各种|所有|任何)?(?P<c>[^，,。]{1,10}?)我?(?:基本)?都(?:喜欢|爱|可以|行|"
        + ZH_V
        + r")[^，,。]*[，,]\s*(?:就是|但是?|只有|唯独|除了|就|只是)(?:不"
        + ZH_V
        + r"?)?(?P<m>[^，,。]{1,14}?)(?:不|除外|以外|之外|没|。|$)"
    ),
    _ZH_EXCEPT_ANY_VERB,
    re.compile(
        r"^(?P<c>[^，,。我]{1,10}?)(?:我|俺)?(?:基本|基本上|啥|什么|哪个部位|哪种)?都(?:挺|很|能|还)?"
        r"(?:喜欢|爱|吃|喝|看|行|可以|ok|OK|好这口|稀罕|听|玩)[^，,。]*[，,]\s*"
        r"(?:但是?|就是?|唯独|只有)?(?P<m>[^，,。]{1,14}?)(?:除外|例外|不行|不太?行|真不行|不可以|"
        r"[吃喝看听玩穿用]不(?:来|惯|下去?|了)|下不去|受不了|接受不了|千万别|别给|不[吃喝看听玩要])"
    ),
    re.compile(
        r"我对(?P<c>[^，,。]{1,10}?)来者不拒[，,]\s*(?:唯独|只有|就是|但)(?P<m>[^，,。]{1,14}?)"
        r"(?:不|除外)"
    ),
    re.compile(
        r"^(?P<c>[^，,。我]{1,10}?)我[^，,。]*[，,]\s*(?:就|只有|唯独|但是?)?(?P<m>[^，,。]{1,14}?)"
        r"(?:是|算)(?:唯一的|个|一个)?例外"
    ),
    # the class fronted, any verb, then "M除外" / "M例外" (``海鲜我基本不吃，三文鱼除外``): the
    # class clause's own negation decides which side is liked (:func:`_exception_parts`)
    re.compile(
        r"^(?P<c>[^，,。我俺]{1,10})(?:我|俺)[^，,。]*[，,]\s*(?:但是?|就是?|唯独|只有|不过)?"
        r"(?P<m>[^，,。]{1,14}?)(?:倒是|倒|算是?|是)?(?:个|一个|唯一的)?(?:除外|例外)"
    ),
    # the class fronted, any verb, then a closing "除了M" (``运动我基本都讨厌，除了游泳``)
    re.compile(
        r"^(?P<c>[^，,。我俺]{1,10})(?:我|俺)[^，,。]*[，,]\s*(?:但是?|不过)?除(?:了|去)"
        r"(?P<m>[^，,。！!？?]{1,14}?)(?:以外|之外)?[。！!~～]*$"
    ),
]
_EN_STANCE_NOUN_RE = re.compile(
    r"^(?:an?\s+)?(?:(?:strong|clear|slight|real|big)\s+)?(?:preference|bias|interest|soft\s+spot|"
    r"weakness|fondness|aversion)s?$",
    re.I,
)
"""Words of the stance itself, not an object ("I have a strong preference for X, even if it costs
more than Y": the side before "more than" is no object)."""
_ZH_COMMENT_LEAD_RE = re.compile(r"^(?:不|没|别|很|太|挺|超|好|真|都|也)")
"""What a class cannot start with: a negation or degree word opens a comment (``不惯``)."""
_ZH_SLOT_HABIT = re.compile(
    r"(?:现在|目前|如今|最近)?(?P<s>[^，,。是]{1,6}?)(?:默认|一直|只|都)(?:用|选|喝|吃|穿|听|看)"
    r"(?P<v>[^，,。！]+)"
)
"""``S都/一直V V`` (``聚会都喝茶``), which a plain habit fits: tried only on a sentence the head
reads as a slot."""
_ZH_SLOT = [
    re.compile(
        r"(?:我)?(?:现在|目前|如今|最近|当下|这段时间)?(?:我)?的?(?:本命|主力|默认|常用|日常|首选)的?"
        r"(?P<s>[^，,。是]{1,8}?)(?:变成了|是|就是|换成了|用的?是)(?P<v>[^，,。！]+)"
    ),
    _ZH_SLOT_HABIT,
    re.compile(
        r"(?:我)?(?:现在|目前|如今|最近|当下|这段时间|新的?)?(?:我的)?(?:最喜欢|最爱|首选|心中"
        r"第一)的?(?P<s>[^，,。是]{1,8}?)(?:变成了|是|就是|换成了)(?P<v>[^，,。！]+)"
    ),
    re.compile(
        r"(?P<v>[^，,。]{1,12}?)是我(?:现在|目前|如今|最近|当下)?(?:最喜欢|最爱|首选)的"
        r"(?P<s>[^，,。]{1,8})"
    ),
    # a current choice named by its time alone: ``最近沉迷的运动是飞盘``, ``目前的早餐标配：…``
    re.compile(
        r"^(?:我)?(?:现在|目前|如今|最近|这段时间|这阵子)(?:我)?(?:的)?(?P<s>[^，,。是：:]{1,10}?)"
        r"(?:是|就是|：|:)\s*(?P<v>[^，,。！]+)"
    ),
]
_ZH_NOW_LEAD_RE = re.compile(r"^(?:我)?(?:现在|目前|如今|最近|这段时间|这阵子)")
"""A sentence that opens with the present: a habit or choice said of now is a current choice
(a slot), so its connectors are tried even when the head reads no slot."""
_ZH_LEAD_RE = re.compile(
    r"^(?:说实话|对了|跟你说|其实|嗯|哦|啊|老实说|好吧|现在|最近|如今|目前|以前|我|也|都|就|还是|"
    r"一直|依然|仍然|始终|还|"
    r"已经|的|了|在|觉得|感觉|认为|个人|" + ZH_V + r"|[，,、\s])+"
)
_ZH_TRAIL_RE = re.compile(
    r"(?:了|的|啦|呢|吧|啊|之间|以外|之外|除外|我都|我也|我)+$|[。！!？?，,\s]+$|"
    rf"(?<=..)(?:{ZH_MET_BY}|再[^再]{{1,2}}也?)$|"
    r"(?:哪|什么|啥)[个种样家款类]?(?:部位|口味|牌子|做法)?$"  # 鱼哪种(我都爱): any of them
)


def _zh_obj(text: str) -> str:
    previous = None
    text = text.strip()
    while previous != text:
        previous = text
        text = _ZH_TRAIL_RE.sub("", _ZH_LEAD_RE.sub("", text)).strip()
    text = without_edge_words_zh(text) if text else text
    return text if 1 <= len(text) <= 14 else ""


def _en_obj(text: str) -> str:
    return pull_object_en(text, alone=True) or ""


_EN_OWN_THING_RE = re.compile(
    r"^(?:i|we)\b[^,;]*?\b(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:from|at|by|with|on|via|through)\s+"
    r"(?P<obj>.+)$",
    re.I,
)
"""The user's own thing, then where or how they get it ("I get my news from podcasts"): the
side chosen is the where or how."""


def _en_chosen(clause: str) -> str:
    """The side chosen in a clause set against the side left ("I get my news from podcasts now
    rather than TV"): where or how the user gets a thing of theirs (the object of "from",
    "at", "by", "with"… after "my X": podcasts, not news), else the clause's object ("I watch
    YouTube with my kids": YouTube). Empty for a side told as one past act or a plan."""
    if EN_ONE_OFF_CLAUSE_RE.match(clause.strip()):
        return ""
    m = _EN_OWN_THING_RE.match(clause.strip())
    return (_en_obj(m["obj"]) if m else "") or _en_obj(clause)


_EN_CANT_STAND_RE = re.compile(r"\b(?:can'?t|cannot|could\s*n'?t)\s+stand\b", re.I)

def _en_class(text: str) -> str:
    return _en_obj(_EN_CLASS_LEAD.sub("", _EN_CANT_STAND_RE.sub(" then ", text)))


_EN_DISCOURSE_LEAD_RE = re.compile(
    r"^(?:(?:just\s+so\s+you\s+know|by\s+the\s+way|to\s+be\s+honest|for\s+the\s+record|"
    r"honestly|frankly|well|oh|so|fyi|btw|tbh|ok(?:ay)?|yeah|anyway|given\s+(?:the|a|an)\s+"
    r"(?:choice|option|chance))\s*[,:]?\s+)+", re.I)
"""Discourse before a statement ("Just so you know, …", "Given the choice, …"): part of no
object."""


_STRICT_VETO_RE = re.compile(
    r"\b(?:hate|hates|can'?t\s+stand|annoy\w*|never|fear|nightmare|worst|least|pet\s+peeve|"
    r"enemy|companion|office|company|school|restaurants?|canteen|work\s+(?:switched|moved))\b|"
    r"讨厌|不爽|烦|受不了|最怕|噩梦|食堂|公司|学校|单位|餐厅|店里|麻烦|贵",
    re.I,
)
"""A sentence read by strict connectors that turns away from what it relates, or where an
organisation or a fear is the subject: no switch, slot or comparison of the user's (an
exception to a disliked class is read by its own polarity, :func:`_exception_parts`)."""


def _own_clause(m: re.Match[str]) -> str:
    """A slot value's own clause: the last before the slot's name ("Chrome's gone, Firefox is
    my browser now"), the first after it ("my note taking is paper notebooks now, apps …")."""
    if m.start("v") < m.start("s"):
        return re.split(r"[,;]", m["v"])[-1]
    return re.split(r"[,;]", m["v"])[0]


def _class_clause(text: str, m: re.Match[str], zh: bool) -> str:
    """The clause that states the class of an exception: up to the member, from the last
    comma before it in Chinese (``辣的我都能吃，就麻的受不了`` → ``辣的我都能吃``)."""
    if not zh:
        return m["c"]
    cut = max(text.rfind("，", 0, m.start("m")), text.rfind(",", 0, m.start("m")))
    if m.start("c") > m.start("m"):  # ``除了M，C都…``: the class comes after the member
        return text[m.end("m") :]
    return text[: cut if cut > 0 else m.start("m")]


def _exception_parts(
    c: str, member: str, class_clause: str, zh: bool, read: PolarityReader | None = None
) -> list[Part]:
    """A class and its exception; the class is liked unless its clause turns away from it: by
    a negation word, or, with ``read`` (the statement head), by its reading of the clause
    ("Raw veggies gross me out, except cucumber")."""
    picky, negation = (
        (_ZH_NOT_PICKY_RE, _ZH_CLASS_NEGATED_RE) if zh else (_EN_NOT_PICKY_RE, _EN_CLASS_NEGATED_RE)
    )
    negated = negation.search(picky.sub(" ", class_clause)) or (
        read is not None and read(class_clause) == "dislike"
    )
    if negated and not c and zh:  # ``除了华为手机别的我都不用``: the rules' like of that one alone
        return []
    if negated and c:
        if zh:
            return [
                Part("dislike", c, f"不喜欢{c}"),
                Part("like", member, f"喜欢{member}（{c}里的例外）"),
            ]
        return [
            Part("dislike", c, f"dislikes {c}"),
            Part("like", member, f"likes {member} (an exception to disliking {c})"),
        ]
    if zh:
        parts = [Part("dislike", member, f"不喜欢{member}（{c or '别的'}都行）")]
        return ([Part("like", c, f"喜欢{c}")] if c else []) + parts
    if not c and _EN_UNIVERSAL_RE.search(class_clause):  # "Anything but country music"
        if negated:
            return [Part("like", member, f"likes only {member}")]
        return [Part("dislike", member, f"dislikes {member} (anything else is fine)")]
    if not c:  # "I'm not really a cat person, but my sister's ragdoll is the exception"
        return []  # an English exception to no class is a misreading of the connector
    return [Part("like", c, f"likes {c}"),
            Part("dislike", member, f"dislikes {member} (the exception to {c})")]


def read_structure(
    sentence: str, kind: str, *, strict: bool = False, read: PolarityReader | None = None
) -> list[Part] | None:
    """The parts of a sentence of a structural ``kind``, or None when no connector fits.

    ``strict`` (a sentence the head reads as a statement but not as this kind) tries only the
    connectors that name the relation alone. ``read`` gives the polarity the statement head
    reads in a clause (None when it reads none), for the class clause of an exception."""
    zh = has_cjk(sentence)
    text = sentence.strip() if zh else _EN_DISCOURSE_LEAD_RE.sub("", sentence.strip())
    if strict and kind != "exception" and _STRICT_VETO_RE.search(text):
        return None  # "I hate it when restaurants serve margarine instead of butter"
    if kind == "switch":
        text = text if zh else FROM_NOW_ON_RE.sub("", text)
        for pattern in ZH_SWITCH if zh else EN_SWITCH:
            if strict and pattern is EN_SWITCH[0] and not EN_SWITCH_VERB_RE.search(text):
                continue  # "I read everything from sci-fi to romance": a range, no switch
            if m := pattern.search(text):
                side = _en_chosen if pattern in (EN_INSTEAD, EN_FRONTED_INSTEAD) else _en_obj
                if side is _en_chosen and ONE_OCCASION_RE.search(text):
                    continue  # "Instead of beef I used tofu in the chili last night"
                old, new = (
                    (_zh_obj if zh else _en_obj)(m["old"]),
                    (_zh_obj if zh else side)(m["new"]),
                )
                if old and new and old != new:
                    if zh:
                        return [
                            Part("like", new, f"换成{new}"),
                            Part("dislike", old, f"从{old}换成{new}"),
                        ]
                    return [
                        Part("like", new, f"switched to {new}"),
                        Part("dislike", old, f"switched from {old} to {new}"),
                    ]
        if (m := (ZH_SWITCH_TO if zh else EN_SWITCH_TO).search(text)) is not None:
            if new := (_zh_obj if zh else _en_obj)(m["new"]):
                return [Part("like", new, f"换成{new}" if zh else f"switched to {new}")]
    elif kind == "comparative":
        for pattern in ZH_COMPARE if zh else (EN_COMPARE_STRICT if strict else EN_COMPARE):
            if m := pattern.search(text):
                clean = _zh_obj if zh else _en_obj
                a, b = clean(m["a"]), clean(m["b"])
                if "c" in m.groupdict() and m["c"]:
                    chosen = clean(m["c"])
                    if chosen == b:
                        a, b = b, a
                    elif chosen != a:
                        continue
                if a and b and a != b and not _EN_STANCE_NOUN_RE.match(a) and not (
                    _SOONER_DIE_RE.fullmatch(a)):  # "I'd rather die than…": a refusal
                    if zh:
                        return [Part("like", a, f"更喜欢{a}"), Part("dislike", b, f"{b}不如{a}")]
                    return [
                        Part("like", a, f"prefers {a}"),
                        Part("dislike", b, f"less keen on {b} than {a}"),
                    ]
    elif kind == "exception":
        patterns = [_EN_EXCEPT_FRONTED, _EN_EXCEPT_STRICT if strict else _EN_EXCEPT]
        if zh:
            patterns = [p for p in _ZH_EXCEPT if not strict or p is not _ZH_EXCEPT_ANY_VERB]
        for pattern in patterns:
            if m := pattern.search(text):
                c = _zh_obj(m["c"]) if zh else _en_class(m["c"])
                member = _zh_obj(m["m"]) if zh else _en_obj(m["m"])
                if zh and c and _ZH_COMMENT_LEAD_RE.match(c):
                    continue  # ``生蚝我吃不惯``: 吃 + 不惯 is no class; another connector may fit
                if pattern is _EN_EXCEPT_FRONTED and (EN_PEOPLE_RE.search(m["m"]) or re.search(
                        r"allerg|intoleran", m["m"], re.I)):
                    continue  # "Except for my brother, …", "Apart from the shellfish allergy, …"
                if not zh and _EN_PARTICULAR_RE.match(m["m"]):
                    continue  # "…, but my gym is fine" (not "…apart from my winter beanie")
                if not zh and read and _EN_I_RE.match(m["m"]) and read(m["m"]) != "dislike":
                    continue  # "Tea is okay but I love coffee": the user's own clause, no member
                if member and member != c and (
                    parts := _exception_parts(c, member, _class_clause(text, m, zh), zh, read)
                ):
                    return parts
    elif kind == "slot":
        slots = [*_EN_SLOT, *_EN_SLOT_WIDE]
        if zh:
            now = _ZH_NOW_LEAD_RE.match(text) is not None
            slots = [p for p in _ZH_SLOT if not strict or p is not _ZH_SLOT_HABIT or now]
        for pattern in slots:
            if strict and pattern is _EN_SLOT_WIDE[1] and not _EN_CHOICE_WORD_RE.search(text):
                continue  # "My back is killing me…": "my S is V" names a slot by a word of choice
            if m := pattern.search(text):
                value = _zh_obj(m["v"]) if zh else _en_obj(_own_clause(m))
                slot = m["s"].strip()
                if zh and (said := zh_slot_reading(text[m.start() : m.start("s")], slot, value, (
                        text[m.end("s") : m.start("v")] if pattern is _ZH_SLOT_HABIT else None))):
                    return [Part("like", value, *said)]
                if value and slot and not zh and _EN_CHOICE_WORDS_ONLY_RE.fullmatch(slot):
                    return [Part("like", value, f"likes {value}")]  # "My go-to is X now"
                if value and slot and not zh:
                    return [Part("like", value, f"favourite {slot} is {value}", f"favorite {slot}")]
    return None


def part_candidate(part: Part, confidence: float) -> PreferenceCandidate | None:
    keywords = object_keywords(part.obj)
    if not keywords:
        return None
    zh = has_cjk(part.obj)
    category = category_for(keywords) if zh else object_category(part.obj, keywords, False)
    return PreferenceCandidate(
        content=part.content,
        polarity=part.polarity,
        keywords=keywords,
        category=category,
        confidence=confidence,
        source="rule",
        slot=slot_key(part.slot) if part.slot else None,
        protected=is_protected(part.content, part.polarity),
    )


__all__ = ["Part", "part_candidate", "read_structure"]
