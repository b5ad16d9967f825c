"""Which allergen a sentence about an allergy being over names (:func:`allergen_of`).

The structure head (:mod:`.structuring`) reads that an allergy is over in phrasings no pattern
of :mod:`.allergies` knows; this module says of what: the allergy's own name where it is sure,
else an object the tagger (:mod:`.object_tagger`) marks as liked, else the first clause's
object.
"""

from __future__ import annotations

import re

from ...model import has_cjk
from .allergies import (
    ALLERGY_WORD_RE,
    CUE_RE,
    EN_ALLERGY,
    EN_ARTICLE_SPLIT_RE,
    EN_NO_OBJECT_RE,
    ZH_ALLERGY,
    ZH_NO_OBJECT_RE,
    unquoted,
    zh_allergen,
)
from .kinds import pull_object_en
from .object_tagger import TaggedObject, default_tagger
from .zh_objects import pull_object_zh

_EN_ALLERGEN_RES = (
    re.compile(
        r"\b(?:allergic|allerg(?:y|ies)|intoleran(?:t|ce)|sensitive|react(?:ed|ion|ing)?s?)\s+to\s+"
        r"(?P<obj>[^,.;!?]+?)"
        r"(?=\s+(?:any\s*more|again|now|after|since|as|anymore|is|are|was|were|has|have|had|"
        r"seems?)\b|\s*[,.;!?]|\s*$)",
        re.I,
    ),
    re.compile(rf"\b(?P<pre>(?:[\w'-]+\s+){{0,2}}?[\w'-]+)\s+{EN_ALLERGY}\b", re.I),
)
"""The allergen an English sentence names by its allergy, "allergic to X" or "my allergy to X
has cleared up" (tried first: "I'm not allergic to pollen" names pollen, not the words before
"allergic"), then "the X allergy"."""
_ZH_ALLERGEN_RE = re.compile(
    rf"对(?P<obj>[^，,。！!？?对]{{1,10}}?)(?:的)?(?:过敏|不耐受?|脱敏)|"
    rf"(?P<pre>[^，,。！!？?对的我不没]{{1,10}}?)(?:的)?{ZH_ALLERGY}"
)
"""The allergen a Chinese sentence names by its allergy: ``对X过敏``, ``X过敏``, ``X不耐受``."""
_EN_BACK_RES = (
    re.compile(
        r"\b(?:can|could|am\s+allowed\s+to)\s+(?:now\s+|finally\s+|safely\s+|actually\s+)*"
        r"(?:eat|have|drink|take|use|wear|touch)\s+(?P<obj>[^,.;!?]+?)\s+(?:again|now|freely|"
        r"safely|without)\b",
        re.I,
    ),
    re.compile(
        r"(?:^|[,.;!]\s*)(?P<obj>[\w' -]{1,30}?)\s+(?:is|are)\s+(?:back|(?:totally\s+|"
        r"perfectly\s+)?(?:fine|okay|ok|safe)(?:\s+for\s+me)?\s+(?:now|again))\b",
        re.I,
    ),
)
_ZH_BACK_RE = re.compile(
    r"(?:能|可以)(?:正常)?(?:吃|喝|用|碰)(?P<obj>[^，,。！!？?了的]{1,8}?)了|"
    r"(?P<pre>[^，,。！!？?我你他她]{1,8}?)(?:也)?(?:照(?:吃|喝|用)|(?:可以|能)(?:正常)?(?:吃|喝|用)了)|"
    r"(?:吃|喝|用)(?P<ok>[^，,。！!？?了]{1,8}?)(?:完全|也|都)?(?:没事|没问题|ok|OK)"
)
"""What the user has back: "I can eat eggplant again", "peaches are back", ``能喝酒了``,
``牛肉照吃``, ``我现在吃虾完全ok``; the object of the phrasing names the allergen more surely
than the first object of the sentence (the treatment, the doctor, the symptom)."""
_EN_NO_ALLERGEN_RE = re.compile(
    r"\b(?:itch\w*|rash\w*|swell\w*|symptoms?|doctors?|dermatologists?|allergists?|gp|nurses?|"
    r"dietitians?|tests?|patch|challenge|immunotherapy|shots?|levels?|results?|profile|records?)\b",
    re.I,
)
"""A word that names what surrounds an allergy, never the allergen: a symptom, who tested it,
the test."""
_ZH_NO_ALLERGEN_RE = re.compile(r"医生|大夫|护士|医院|复查|检查|症状|疹子|反应|治疗|说$")
_SCARE_QUOTED_RE = re.compile(
    r"'(?P<a>[^']{1,40})'(?!\w)|\"(?P<b>[^\"]{1,40})\"|“(?P<c>[^”]{1,40})”|‘(?P<d>[^’]{1,40})’|"
    r"「(?P<e>[^」]{1,20})」"
)


def _label(quoted: re.Match[str]) -> str | None:
    """The text of a short quoted allergy (:data:`_SCARE_QUOTED_RE`), the label being taken
    back ("the 'shellfish allergy' was a false positive", ``请把"忌花生"删掉``); None for
    other quoted text, someone else's words."""
    text = next(g for g in quoted.groups() if g is not None)
    return text if ALLERGY_WORD_RE.search(text) or "忌" in text else None


def _unquoted_but_labels(sentence: str) -> str:
    """``sentence`` with its quoted text blanked (:func:`~.allergies.unquoted`) except the
    allergy labels (:func:`_label`)."""
    return unquoted(_SCARE_QUOTED_RE.sub(
        lambda m: m[0] if (label := _label(m)) is None else f" {label} ", sentence))


_ZH_AROUND_BACK_RE = re.compile(
    r"^(?:所以|因此|于是|然后|如今|现在|已经|也|都|就)+|(?:又|终于|总算|现在|已经|也|都|就)+$"
)
"""Words around what the user has back that are no part of it: a conjunction, a time word or
an adverb before it (``所以牛肉照吃``), an adverb after it."""


def back_of(sentence: str) -> str | None:
    """The allergen a sentence names as what the user has back ("I can eat shrimp again",
    "peaches are back", ``我能吃带鱼了``), or None: read in the sentence before one that says
    an allergy is over and names none (``我能吃带鱼了！！医生说过敏好了``)."""
    return _back(sentence, has_cjk(sentence)) if sentence else None


def _back(sentence: str, zh: bool) -> str | None:
    """The object of what the user has back (:data:`_EN_BACK_RES`, :data:`_ZH_BACK_RE`)."""
    if zh:
        if (m := _ZH_BACK_RE.search(sentence)) is not None:
            obj = zh_allergen(m["obj"] or m["pre"] or m["ok"])
            obj = _ZH_AROUND_BACK_RE.sub("", obj)  # ``所以牛肉照吃``, ``带鱼终于``
            if 1 <= len(obj) <= 6 and not (ZH_NO_OBJECT_RE.search(obj) or CUE_RE.search(obj)):
                return obj
        return None
    for pattern in _EN_BACK_RES:
        for m in pattern.finditer(sentence):
            raw = EN_ARTICLE_SPLIT_RE.split(m["obj"].strip())[-1]
            got = pull_object_en(raw, alone=True) if raw else None
            if got and not (EN_NO_OBJECT_RE.search(got) or _not_allergen(got)):
                return got if got.isupper() else got.lower()
    return None


def _not_allergen(text: str) -> bool:
    """Whether ``text`` names an allergy word, a symptom, a tester or a test, not an allergen
    (:data:`_EN_NO_ALLERGEN_RE`, :data:`_ZH_NO_ALLERGEN_RE`)."""
    around = _ZH_NO_ALLERGEN_RE if has_cjk(text) else _EN_NO_ALLERGEN_RE
    return bool(CUE_RE.search(text) or around.search(text))


_EN_VAGUE_HEAD_RE = re.compile(r"\s+(?:thing|stuff|issue|business|situation)$", re.I)
"""A vague head after the allergen ("the ibuprofen thing was a mix-up"): no part of its name."""


def allergen_of(sentence: str, clauses: list[str], *, by_clause: bool = True) -> str | None:
    """The allergen a sentence about an allergy being over names, or None; without a vague
    head after it (:data:`_EN_VAGUE_HEAD_RE`)."""
    found = _allergen_of(sentence, clauses, by_clause=by_clause)
    return _EN_VAGUE_HEAD_RE.sub("", found) if found else found


def _allergen_of(sentence: str, clauses: list[str], *, by_clause: bool = True) -> str | None:
    """The allergen a sentence about an allergy being over names, or None.

    Named by its allergy where the sentence has one ("the kiwi allergy…", "…react to
    latex…", ``小麦过敏转阴``); a loose English reading (the words before "allergy", a long
    span after "allergic to") only where the object tagger (:mod:`.object_tagger`) reads one
    of its words in an object, or reads no liked object at all: "Just got a CT with iodine
    contrast and no reaction at all, the old allergy label was wrong" names iodine contrast,
    not *old*. Else what the user has back ("I can eat red meat again", "pasta is back",
    ``牛肉照吃``: :data:`_EN_BACK_RES`, :data:`_ZH_BACK_RE`); else the first object the tagger
    marks as liked ("After a year of immunotherapy I can finally have shrimp again", whose
    first noun run is the treatment) that names no symptom, tester or test ("mouth itching",
    "my dermatologist"); else the object of the first clause that names one (``现在芒果随便
    吃``: :func:`~.kinds.pull_object_en`, :func:`~.zh_objects.pull_object_zh`); else the loose
    reading ("Nickel allergy cleared up??"). A short quoted allergy is read, not blanked: it is
    the label taken back ("the 'shellfish allergy' was a false positive").

    Args:
        sentence: One sentence of the user's message.
        clauses: Its clauses, in order.
        by_clause: Whether the first noun of a clause may stand for the allergen when neither
            the allergy nor the tagger names one (off where words of a doctor, a test or a
            rash surround it: "my GP cleared me for ibuprofen" does not name the GP).
    """
    for m in _SCARE_QUOTED_RE.finditer(sentence):  # the label taken back, before its cause
        if (label := _label(m)) and (named := _named_allergen(label, has_cjk(label))[0]):
            return named  # "the 'nut allergy' was a reaction to a preservative": nut
    sentence = _unquoted_but_labels(sentence)
    zh = has_cjk(sentence)
    named, loose = _named_allergen(sentence, zh)
    if named and not loose:
        return named  # the tagger is asked only where the allergy does not settle it
    objects = default_tagger().objects(sentence)
    if named and (not objects or _in_objects(named, objects, zh)):
        return named  # not "I swear I was allergic…", "the old allergy label", ``医生说过敏好了``
    if (back := _back(sentence, zh)) is not None:
        return back
    tagged = [o for o in objects if o.polarity == "like" and not _not_allergen(o.text)]
    if tagged:
        return tagged[0].text  # the tagger drops a possessive "'s" itself
    for clause in clauses if by_clause else ():
        first = pull_object_zh(clause) if zh else pull_object_en(clause)
        if zh and first is not None and clause[clause.find(first) + len(first) :][:1] == "说":
            continue  # who says it (``医生说过敏好了``), not the allergen
        if first is not None and not _not_allergen(first):  # not the treatment (``脱敏成功了``)
            return re.sub(r"'s$", "", first)
    return named  # no object but what surrounds the allergy ("Nickel allergy cleared up??")


def _in_objects(named: str, objects: list[TaggedObject], zh: bool) -> bool:
    """Whether the tagger reads ``named`` in one of its objects: a word of it (English), or
    the text within one or one within it (Chinese)."""
    if zh:
        return any(named in o.text or o.text in named for o in objects)
    words = {w for o in objects for w in o.text.lower().split()}
    return bool(words & set(named.lower().split()))


def _named_allergen(sentence: str, zh: bool) -> tuple[str | None, bool]:
    """The allergen a sentence names by its allergy, and whether that reading is loose: the
    words before "allergy" or "allergic" ("the old allergy label", "I swear I was allergic",
    ``医生说过敏好了``), or the end of a long span after "allergic to" (no punctuation closed
    it)."""
    if zh:
        if (m := _ZH_ALLERGEN_RE.search(sentence)) is not None:
            obj = zh_allergen(m["obj"] or m["pre"])
            if 1 <= len(obj) <= 8 and not ZH_NO_OBJECT_RE.search(obj):
                return obj, m["pre"] is not None
    else:
        for before, pattern in enumerate(_EN_ALLERGEN_RES):
            if (m := pattern.search(sentence)) is None:
                continue
            raw = EN_ARTICLE_SPLIT_RE.split(m[1].strip())[-1]
            allergen = pull_object_en(raw, alone=True) if raw else None
            if allergen and not EN_NO_OBJECT_RE.search(allergen):
                allergen = allergen if allergen.isupper() else allergen.lower()
                return re.sub(r"'s$", "", allergen), bool(before) or len(m[1].split()) > 3
    return None, False


__all__ = ["allergen_of", "back_of"]
