"""Two objects in one statement: a switch, a comparison, an exception, a slot value.

When the statement head reads a clause of a sentence as one of these kinds and the
stance rules did not find its structure, these connector rules cut the sentence into
its parts ("from A to B", "A over B", "every C except M", "my favourite S is V",
``从A换成B``, ``A比B好``, ``除了M，C都…``, ``我最喜欢的S是V``); each part's object is
pulled as in :mod:`.kinds`. They name connectors of a kind, never objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import Polarity, PreferenceCandidate, has_cjk, is_protected
from .categories import category_for, object_category
from .clauses import clause_speaker
from .keywords import object_keywords
from .kinds import pull_object_en
from .slots import slot_key
from .statements import Kind

STRUCTURE_MIN_P = 0.5
"""A clause's structural kind is acted on at this probability or more."""


@dataclass(frozen=True)
class Part:
    """One object of a structured statement, with what it yields."""

    polarity: Polarity
    obj: str
    content: str
    slot: str | None = None


_EN_SWITCH = [
    re.compile(r"\bfrom\s+(?P<old>.+?)\s+(?:to|for|over\s+to)\s+(?P<new>.+)", re.I),
    re.compile(r"(?P<old>.+?)\s*(?:→|->|=>)\s*(?P<new>[^,;]+)", re.I),
    re.compile(
        r"\b(?:swapped|traded|replaced|exchanged|substituted)\s+(?P<old>.+?)\s+"
        r"(?:for|with)\s+(?P<new>.+)",
        re.I,
    ),
    re.compile(
        r"\b(?:dropped|ditched|quit|left|gave\s+up|abandoned)\s+(?P<old>.+?)\s+"
        r"(?:and|for)\s+(?:then\s+)?(?:picked\s+up|took\s+up|started(?:\s+on)?|moved\s+to|"
        r"went\s+(?:with|for)|got|switched\s+to|adopted)?\s*(?P<new>.+)",
        re.I,
    ),
    re.compile(
        r"\b(?:all|only|strictly)\s+(?P<new>.+?)\s+now\s*,?\s*(?:no\s+more|not)\s+"
        r"(?P<old>.+)",
        re.I,
    ),
    re.compile(r"(?P<new>.+?)\s+instead\s+of\s+(?P<old>.+)", re.I),
    re.compile(
        r"(?P<new>.+?)\s+(?:has|have)\s+(?:now\s+)?(?:replaced|taken\s+over\s+from|"
        r"taken\s+the\s+place\s+of)\s+(?P<old>.+?)(?:\s+for\s+me)?\W*$",
        re.I,
    ),
    re.compile(r"\bout\s+with\s+(?P<old>.+?)\s*[,;]?\s+in\s+with\s+(?P<new>.+)", re.I),
    re.compile(r"(?P<old>.+?)\s+is\s+out\s*[,;]\s*(?P<new>.+?)\s+is\s+in\b", re.I),
    re.compile(r"\b(?:good)?bye\s+(?P<old>.+?)\s*[,;]\s*hello\s+(?P<new>.+)", re.I),
    re.compile(r"\b(?:gave\s+up|given\s+up|dropped|left)\s+(?P<old>.+?)\s+(?:in\s+favou?r\s+of|"
               r"behind\s+for)\s+(?P<new>.+)", re.I),
    re.compile(
        r"(?P<new>.+?)\s+(?:(?:for\s+me\s+)?now|these\s+days|nowadays)\s*[,;]?\s*(?:and\s+|but\s+)?"
        r"(?:not|no\s+longer|no\s+more|never)\s+(?:an?\s+)?(?P<old>.+)",
        re.I,
    ),
    re.compile(
        r"\b(?:these\s+days|nowadays|now)\s*,?\s+i\s+(?:go\s+for|pick|choose|get|have|take)\s+"
        r"(?P<new>.+?)\s*,?\s+(?:not|over|rather\s+than)\s+(?P<old>.+)",
        re.I,
    ),
]
_EN_COMPARE = [
    re.compile(
        r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s*,?\s*(?:i(?:'ll|\s+will|'d|\s+would)?"
        r"\s+)?(?:go\s+(?:with|for)|pick|choose|take|prefer)\s+(?P<c>.+)",
        re.I,
    ),
    re.compile(
        r"(?P<a>.+?)\s+(?:over|rather\s+than|more\s+than|better\s+than|instead\s+of|"
        r"than|beats|wins\s+over|trumps|before|to)\s+(?P<b>.+)",
        re.I,
    ),
]
_EN_EXCEPT = re.compile(
    r"(?P<c>.+?)\s*,?\s+(?:except(?:\s+for)?|but\s+not|but\s+never|but|apart\s+from|other\s+than|"
    r"besides|save(?:\s+for)?|minus|aside\s+from|excluding|with\s+the\s+exception\s+of|"
    r"just\s+not|though\s+not|not)\s+(?P<m>.+)",
    re.I,
)
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

_ZH_V = r"(?:吃|喝|看|玩|用|听|穿|读|打|练|逛|去|追|买|下)"
_ZH_SWITCH = [
    re.compile(
        r"(?:从|由)(?P<old>[^，,。]{1,14}?)(?:换成|改成|改为|换到|转到|转向|改用|换用|转用|"
        rf"改{_ZH_V})了?(?P<new>[^，,。！]+)"
    ),
    re.compile(r"把(?P<old>[^，,。]{1,14}?)(?:换成|改成|替换成|换为)了?(?P<new>[^，,。！]+)"),
    re.compile(r"用(?P<new>[^，,。]{1,14}?)(?:代替|取代|替代|替换)了?(?P<old>[^，,。！]+)"),
    re.compile(r"弃(?P<old>[^，,。]{1,10}?)投(?P<new>[^，,。！]+)"),
    re.compile(
        rf"(?:不再?{_ZH_V}?|放弃了?|戒了?|以前{_ZH_V}?)(?P<old>[^，,。]{{1,14}}?)了?[，,]\s*"
        rf"(?:现在|如今)?(?:改|换|转)(?:成|为|到|{_ZH_V})?了?(?P<new>[^，,。！]+)"
    ),
    re.compile(r"(?P<old>[^，,。→]{1,14}?)\s*(?:→|->)\s*(?P<new>[^，,。！]+)"),
]
_ZH_COMPARE = [
    re.compile(
        r"(?:比起|相比于?|相较于?|跟|和)(?P<b>[^，,。]{1,14}?)(?:比|相比)?[，,]?\s*我?(?:还是)?更"
        r"(?:喜欢|爱|偏爱|倾向于?|想要?)" + _ZH_V + r"?(?P<a>[^，,。！]+)"
    ),
    re.compile(
        r"(?:在)?(?P<a>[^，,。和与]{1,14}?)(?:和|与|跟)(?P<b>[^，,。]{1,14}?)(?:之间|中间)?[，,]?\s*"
        r"我?(?:选|挑|要|会选|宁愿选|更喜欢)(?P<c>[^，,。！]+)"
    ),
    re.compile(
        r"与其"
        + _ZH_V
        + r"?(?P<b>[^，,。]{1,14}?)[，,]?\s*(?:还)?不如"
        + _ZH_V
        + r"?(?P<a>[^，,。！]+)"
    ),
    re.compile(
        r"(?P<a>[^，,。]{1,14}?)(?:比|胜过|强过|好过)(?P<b>[^，,。]{1,14}?)(?:好|强|棒|香|更|"
        r"多了|$)"
    ),
    re.compile(
        r"(?:更|还是)(?:喜欢|爱|倾向于?|偏向)?" + _ZH_V + r"?(?P<a>[^，,。]{1,14}?)[，,]?\s*"
        r"而(?:不是|非)" + _ZH_V + r"?(?P<b>[^，,。！]+)"
    ),
    re.compile(
        r"宁(?:愿|可)"
        + _ZH_V
        + r"?(?P<a>[^，,。]{1,14}?)[，,]?\s*也不(?:要|想|愿意)?"
        + _ZH_V
        + r"?(?P<b>[^，,。！]+)"
    ),
]
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
        + _ZH_V
        + r")[^，,。]*[，,]\s*(?:就是|但是?|只有|唯独|除了|就|只是)(?:不"
        + _ZH_V
        + r"?)?(?P<m>[^，,。]{1,14}?)(?:不|除外|以外|之外|没|。|$)"
    ),
    re.compile(
        r"(?:我)?(?:喜欢|爱|" + _ZH_V + r")(?:所有|各种|任何)?的?(?P<c>[^，,。]{1,10}?)[，,]\s*"
        r"(?:但是?|就是|只有|唯独)?(?P<m>[^，,。]{1,14}?)(?:除外|不" + _ZH_V + r"?|不行|不要)"
    ),
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
]
_ZH_SLOT = [
    re.compile(
        r"(?:我)?(?:现在|目前|如今|最近|当下|这段时间)?(?:我)?的?(?:本命|主力|默认|常用|日常|首选)的?"
        r"(?P<s>[^，,。是]{1,8}?)(?:变成了|是|就是|换成了|用的?是)(?P<v>[^，,。！]+)"
    ),
    re.compile(
        r"(?:现在|目前|如今|最近)?(?P<s>[^，,。是]{1,6}?)(?:默认|一直|只|都)(?:用|选|喝|吃|穿|听|看)"
        r"(?P<v>[^，,。！]+)"
    ),
    re.compile(
        r"(?:我)?(?:现在|目前|如今|最近|当下|这段时间|新的?)?(?:我的)?(?:最喜欢|最爱|首选|心中"
        r"第一)的?(?P<s>[^，,。是]{1,8}?)(?:变成了|是|就是|换成了)(?P<v>[^，,。！]+)"
    ),
    re.compile(
        r"(?P<v>[^，,。]{1,12}?)是我(?:现在|目前|如今|最近|当下)?(?:最喜欢|最爱|首选)的"
        r"(?P<s>[^，,。]{1,8})"
    ),
]
_ZH_LEAD_RE = re.compile(
    r"^(?:说实话|对了|跟你说|其实|嗯|哦|啊|老实说|好吧|现在|最近|如今|目前|以前|我|也|都|就|还|"
    r"已经|的|了|在|" + _ZH_V + r"|[，,、\s])+"
)
_ZH_TRAIL_RE = re.compile(
    r"(?:了|的|啦|呢|吧|啊|之间|以外|之外|除外|我都|我也|我)+$|[。！!？?，,\s]+$"
)


def _zh_obj(text: str) -> str:
    previous = None
    text = text.strip()
    while previous != text:
        previous = text
        text = _ZH_TRAIL_RE.sub("", _ZH_LEAD_RE.sub("", text)).strip()
    return text if 1 <= len(text) <= 14 else ""


def _en_obj(text: str) -> str:
    return pull_object_en(text, alone=True) or ""


def _en_class(text: str) -> str:
    return _en_obj(_EN_CLASS_LEAD.sub("", text))


_EN_DISCOURSE_LEAD_RE = re.compile(
    r"^(?:(?:just\s+so\s+you\s+know|by\s+the\s+way|to\s+be\s+honest|for\s+the\s+record|"
    r"honestly|frankly|well|oh|so|fyi|btw|tbh|ok(?:ay)?|yeah|anyway)\s*[,:]?\s+)+",
    re.I,
)
"""Discourse before a statement ("Just so you know, …"): part of no object."""


def read_structure(sentence: str, kind: str) -> list[Part] | None:
    """The parts of a sentence of a structural ``kind``, or None when no connector fits."""
    zh = has_cjk(sentence)
    text = sentence.strip() if zh else _EN_DISCOURSE_LEAD_RE.sub("", sentence.strip())
    if kind == "switch":
        for pattern in _ZH_SWITCH if zh else _EN_SWITCH:
            if m := pattern.search(text):
                old, new = (
                    (_zh_obj if zh else _en_obj)(m["old"]),
                    (_zh_obj if zh else _en_obj)(m["new"]),
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
    elif kind == "comparative":
        for pattern in _ZH_COMPARE if zh else _EN_COMPARE:
            if m := pattern.search(text):
                clean = _zh_obj if zh else _en_obj
                a, b = clean(m["a"]), clean(m["b"])
                if "c" in m.groupdict() and m["c"]:
                    chosen = clean(m["c"])
                    if chosen == b:
                        a, b = b, a
                    elif chosen != a:
                        continue
                if a and b and a != b:
                    if zh:
                        return [Part("like", a, f"更喜欢{a}"), Part("dislike", b, f"{b}不如{a}")]
                    return [
                        Part("like", a, f"prefers {a}"),
                        Part("dislike", b, f"less keen on {b} than {a}"),
                    ]
    elif kind == "exception":
        for pattern in _ZH_EXCEPT if zh else [_EN_EXCEPT]:
            if m := pattern.search(text):
                c = _zh_obj(m["c"]) if zh else _en_class(m["c"])
                member = _zh_obj(m["m"]) if zh else _en_obj(m["m"])
                if member and member != c:
                    if zh:
                        parts = [Part("dislike", member, f"不喜欢{member}（{c or '别的'}都行）")]
                        return ([Part("like", c, f"喜欢{c}")] if c else []) + parts
                    parts = [Part("dislike", member, f"dislikes {member} (the exception to {c})")]
                    return ([Part("like", c, f"likes {c}")] if c else []) + parts
    elif kind == "slot":
        for pattern in _ZH_SLOT if zh else [*_EN_SLOT, *_EN_SLOT_WIDE]:
            if m := pattern.search(text):
                value = _zh_obj(m["v"]) if zh else _en_obj(m["v"])
                slot = m["s"].strip()
                if value and slot:
                    if zh:
                        return [Part("like", value, f"最喜欢的{slot}是{value}", f"最喜欢的{slot}")]
                    return [Part("like", value, f"favourite {slot} is {value}", f"favorite {slot}")]
    return None


STRUCTURAL_KINDS = ("switch", "comparative", "exception", "slot")


def _has_structure(kind: str, found: list[PreferenceCandidate]) -> bool:
    polarities = {c.polarity for c in found}
    if kind == "slot":
        return any(c.slot for c in found)
    return polarities == {"like", "dislike"}


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


def structured(
    sentence: str,
    parts: list[str],
    kinds: list[Kind | None],
    found: list[PreferenceCandidate],
    confidence: float,
) -> list[PreferenceCandidate] | None:
    """A switch, comparison, exception or slot the head reads in a sentence and the rules
    did not structure: its parts by connector rules (:mod:`.structures`), else None."""
    for name in _structural_reading(sentence, kinds):
        if _has_structure(name, found):
            return None
        if name != "slot" and any(clause_speaker(clause) == "other" for clause in parts[:1]):
            continue  # a slot's connectors name the user's own slot ("my S of choice is V")
        read = read_structure(sentence, name)
        if not read:
            continue
        made = [c for p in read if (c := part_candidate(p, confidence)) is not None]
        return made if len(made) == len(read) else None
    return None


_ARROW_RE = re.compile(r"\S\s*(?:→|->|=>)\s*\S")


def _structural_reading(sentence: str, kinds: list[Kind | None]) -> list[str]:
    """The structural kinds to try on a sentence, most probable first.

    A clause read as a structural kind whose probability mass on the structural kinds together
    reaches :data:`STRUCTURE_MIN_P` says "two objects in a relation"; which relation is the one
    whose connectors fit (``I'm all golf now, no more X`` read 0.3 comparative, 0.25 switch is
    a switch by its connector). Below :data:`STRUCTURE_MIN_P` the comparative's connectors
    (``to``, ``than``, ``over``) are too common in plain statements to choose by ("a strong
    aversion to X"), so only switch, exception and slot connectors are tried there. An arrow
    between two objects is a switch whatever the head says.
    """
    mass: dict[str, float] = {}
    for kind in kinds:
        if kind is None:
            continue
        probs = {name: kind.of(name) for name in STRUCTURAL_KINDS}
        if kind.kind in STRUCTURAL_KINDS and kind.p >= STRUCTURE_MIN_P:
            mass[kind.kind] = max(mass.get(kind.kind, 0.0), kind.p)
        elif kind.kind in STRUCTURAL_KINDS and sum(probs.values()) >= STRUCTURE_MIN_P:
            for name, p in probs.items():
                if name != "comparative":  # "aversion to X", "more than": too loose alone
                    mass[name] = max(mass.get(name, 0.0), p)
    order = sorted(mass, key=lambda name: -mass[name])
    if _ARROW_RE.search(sentence) and "switch" not in order:
        order.insert(0, "switch")
    return order


__all__ = [
    "STRUCTURAL_KINDS", "STRUCTURE_MIN_P", "Part", "part_candidate", "read_structure", "structured",
]  # fmt: skip
