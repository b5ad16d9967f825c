"""An allergy or intolerance the user says is over, in any phrasing the head reads.

``is_retraction`` (:mod:`~...model.protection`) knows the few fixed phrasings the gate
accepts as lifting a protected dislike ("no longer allergic to X", ``对X不再过敏了``). Users
say it otherwise: "the kiwi allergy seems to have gone", "my allergist cleared me for
shellfish", ``对菠萝的过敏没了``, ``小麦过敏转阴``, ``头孢过敏其实是误会``. Read clause by
clause these stored nothing, or, in Chinese, stored the allergy itself: the opposite of what
was said, as a hard constraint. This module reads a sentence that names an allergy or
intolerance and says it is over, and gives the retraction in the fixed phrasing, so that the
gate lifts the allergy it names and nothing else (DESIGN.md §6.3).

Lifting a real allergy is the worse mistake, so the resolution must be said of the allergy
itself ("X allergy … gone", ``X过敏…好了``), never only near it ("allergic to peanuts, but I
can eat almonds", ``对花生过敏，但是杏仁可以吃``), and a hope or a question lifts nothing.
"""

from __future__ import annotations

import re

from ...model import has_cjk
from .kinds import pull_object_en
from .structures import Part

_EN_ALLERGY = r"(?:allerg(?:y|ies|ic)|intoleran(?:t|ce)|sensitivity)"
_EN_OVER = (
    r"(?:(?:is|are|has|have|'s)\s+(?:now\s+|officially\s+|basically\s+|completely\s+|totally\s+|"
    r"finally\s+|been\s+)*(?:seems?\s+to\s+have\s+)?(?:gone|resolved|cleared(?:\s+up)?|over|"
    r"cured|disappeared|a\s+thing\s+of\s+the\s+past|history)|(?:seems?\s+to\s+have\s+)?"
    r"(?:gone|went\s+away|cleared\s+up|disappeared|resolved)|(?:is\s+)?a\s+thing\s+of\s+the\s+past)"
)
_EN_RETRACTIONS = [
    # "the kiwi allergy seems to have gone", "Mango allergy: gone!"
    re.compile(
        rf"\b(?:my\s+|the\s+|that\s+)?(?P<obj>(?:[\w'-]+\s+){{0,2}}[\w'-]+)\s+{_EN_ALLERGY}"
        rf"(?:\s+to\s+[\w'-]+)?(?:\s|:\s*){_EN_OVER}",
        re.I,
    ),
    # "grew out of my dairy allergy", "outgrown the prawn allergy"
    re.compile(
        rf"\b(?:outgr[eo]wn?|grew\s+out\s+of|got\s+over|cured\s+of)\s+(?:my\s+|the\s+|an?\s+)?"
        rf"(?P<obj>[\w' -]{{1,30}}?)\s+{_EN_ALLERGY}\b",
        re.I,
    ),
    # "I'm not actually allergic to sulfa drugs", "no longer react to latex"
    re.compile(
        r"\b(?:no\s+longer|not\s+(?:actually|really|even)|never\s+(?:was|been))\s+"
        r"(?:allergic|intolerant|react(?:ing)?|sensitive)\s+to\s+(?P<obj>[^,.;!?]+)",
        re.I,
    ),
    # "not lactose intolerant anymore", "not allergic to soy any more"
    re.compile(
        r"\bnot\s+(?:(?P<pre>[\w-]+)\s+)?(?:allergic|intolerant)\s*(?:to\s+(?P<obj>[^,.;!?]+?))?"
        r"\s+any\s*more\b",
        re.I,
    ),
    # "my allergist cleared me for shellfish", "react to cats but not anymore"
    re.compile(r"\ballergist\s+(?:has\s+)?cleared\s+me\s+for\s+(?P<obj>[^,.;!?]+)", re.I),
    re.compile(
        r"\b(?:react(?:ed)?\s+to|hives\s+from)\s+(?P<obj>[^,.;!?]+?)\s*,?\s+but\s+not\s+"
        r"(?:any\s*more|since)\b",
        re.I,
    ),
]
_ZH_ALLERGY = r"(?:过敏|不耐受?|乳糖不耐)"
_ZH_ADVERBS = r"(?:已经|基本|彻底|居然|竟然|自己|早就|其实|原来|直接|完全|就|都|也)*"
"""Only adverbs between the allergy and its end: ``花生过敏的药没了`` (the allergy pills ran
out) retracts nothing."""
_ZH_OVER = (
    r"(?:没了|好了|转阴|自愈|痊愈|消失了?|不见了|是误诊|是误会|其实是误会|原来是误诊|是小时候的事|"
    r"是我自己瞎猜的|基本好了|已经好了|彻底好了|(?:好|轻)多了|不犯了|一点没犯)"
)
_ZH_RETRACTIONS = [
    # ``对菠萝的过敏没了``, ``小麦过敏转阴``, ``头孢过敏其实是误会``
    re.compile(
        rf"(?:对)?(?P<obj>[^，,。！!？?对的我]{{1,10}}?)(?:的)?{_ZH_ALLERGY}(?:症)?"
        rf"(?:[，,]?(?:长大|后来|现在|如今|今年|慢慢)?{_ZH_ADVERBS})?{_ZH_OVER}"
    ),
    # ``尘螨基本不过敏了``, ``菌子我不过敏``, ``我对虾蟹根本不过敏``
    re.compile(
        r"(?:对)?(?P<obj>[^，,。！!？?对我]{1,10}?)我?(?:已经|基本|根本|其实|完全|早就)?"
        r"(?:都)?不(?:再)?(?:过敏|不耐受?)"
    ),
]
_HEDGE_RE = re.compile(
    r"\b(?:hope|hopefully|wish|might|maybe|will\s+be|would\s+be|if|whether|soon)\b|"
    r"希望|但愿|也许|可能|如果|要是|会不会|快要|快好了|等",
    re.I,
)
_EN_ARTICLE_SPLIT_RE = re.compile(r"\b(?:the|my|a|an|that|this|of|to)(?:\s+|$)", re.I)
_ZH_OBJ_TRAIL_RE = re.compile(r"(?:我|的|症|都|也|还)+$")


_EN_SOMEONE_ELSE_RE = re.compile(
    r"\b(?:he|she|they|his|her|their|him|them)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:son|daughter|kids?|"
    r"child(?:ren)?|wife|husband|partner|boyfriend|girlfriend|mum|mom|mother|dad|father|"
    r"parents?|sister|brother|friend|flatmate|roommate|colleague|cousin|aunt|uncle|nephew|"
    r"niece|grandma|grandpa|dog|cat)\b",
    re.I,
)
_ZH_SOMEONE_ELSE_RE = re.compile(
    r"[他她]|我(?:的)?(?:爸|妈|儿|女|孩|老公|老婆|对象|朋友|同事|室友|舅|姨|叔|伯|姑|婶|侄|甥|"
    r"哥|姐|弟|妹|爷|奶|姥|外公|外婆|家)|宝宝|孩子"
)
"""Someone else's allergy (``我舅舅查出来对青霉素不过敏``, "my son's egg allergy is gone"):
not the user's to lift. A doctor who says it is over is the user's news ("Allergist says…",
``医生说已经好了``)."""


def read_retraction(sentence: str) -> list[Part] | None:
    """The allergies or intolerances a sentence says are over, in the phrasing the gate
    lifts an allergy by, or None when it says no such thing.

    Args:
        sentence: One sentence of the user's message, English or Chinese.

    Returns:
        One like per allergen (``Part("like", "kiwi", "no longer allergic to kiwi")``,
        ``Part("like", "菠萝", "对菠萝不再过敏了")``), or None.
    """
    if _HEDGE_RE.search(sentence):
        return None
    if (_ZH_SOMEONE_ELSE_RE if has_cjk(sentence) else _EN_SOMEONE_ELSE_RE).search(sentence):
        return None
    zh = has_cjk(sentence)
    for pattern in _ZH_RETRACTIONS if zh else _EN_RETRACTIONS:
        if (m := pattern.search(sentence)) is None:
            continue
        raw = m["obj"] or (m.groupdict().get("pre") or "")
        if zh:
            obj = _ZH_OBJ_TRAIL_RE.sub("", raw.strip())
            if 1 <= len(obj) <= 8:
                return [Part("like", obj, f"对{obj}不再过敏了")]
            continue
        if pattern is _EN_RETRACTIONS[0]:  # the words before "allergy": "Allergist says the cashew"
            raw = _EN_ARTICLE_SPLIT_RE.split(raw.strip())[-1]
        allergen = pull_object_en(raw.strip(), alone=True) if raw.strip() else None
        if allergen:
            return [Part("like", allergen, f"no longer allergic to {allergen}")]
    return None


__all__ = ["read_retraction"]
