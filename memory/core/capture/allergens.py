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
    CUE_RE,
    EN_ALLERGY,
    EN_ARTICLE_SPLIT_RE,
    EN_NO_OBJECT_RE,
    ZH_ALLERGY,
    ZH_NO_OBJECT_RE,
    unquoted,
    zh_allergen,
)
from .kinds import pull_object_en, pull_object_zh
from .object_tagger import TaggedObject, default_tagger

_EN_ALLERGEN_RES = (
    re.compile(
        r"\b(?:allergic|intolerant|sensitive|react(?:ed|ion|ing)?s?)\s+to\s+(?P<obj>[^,.;!?]+?)"
        r"(?=\s+(?:any\s*more|again|now|after|since|as|anymore)\b|\s*[,.;!?]|\s*$)",
        re.I,
    ),
    re.compile(rf"\b(?P<pre>(?:[\w'-]+\s+){{0,2}}?[\w'-]+)\s+{EN_ALLERGY}\b", re.I),
)
"""The allergen an English sentence names by its allergy, "allergic to X" (tried first: "I'm
not allergic to pollen" names pollen, not the words before "allergic"), then "the X
allergy"."""
_ZH_ALLERGEN_RE = re.compile(
    rf"对(?P<obj>[^，,。！!？?对]{{1,10}}?)(?:的)?(?:过敏|不耐受?|脱敏)|"
    rf"(?P<pre>[^，,。！!？?对的我不没]{{1,10}}?)(?:的)?{ZH_ALLERGY}"
)
"""The allergen a Chinese sentence names by its allergy: ``对X过敏``, ``X过敏``, ``X不耐受``."""


def allergen_of(sentence: str, clauses: list[str], *, by_clause: bool = True) -> str | None:
    """The allergen a sentence about an allergy being over names, or None.

    Named by its allergy where the sentence has one ("the kiwi allergy…", "…react to
    latex…", ``小麦过敏转阴``); a loose English reading (the words before "allergy", a long
    span after "allergic to") only where the object tagger (:mod:`.object_tagger`) reads one
    of its words in an object, or reads no liked object at all: "Just got a CT with iodine
    contrast and no reaction at all, the old allergy label was wrong" names iodine contrast,
    not *old*. Else the object the tagger marks as liked ("After a year of immunotherapy I can
    finally have shrimp again", whose first noun run is the treatment); else the object of
    the first clause that names one (``现在芒果随便吃``: :func:`~.kinds.pull_object_en`,
    :func:`~.kinds.pull_object_zh`).

    Args:
        sentence: One sentence of the user's message.
        clauses: Its clauses, in order.
        by_clause: Whether the first noun of a clause may stand for the allergen when neither
            the allergy nor the tagger names one (off where words of a doctor, a test or a
            rash surround it: "my GP cleared me for ibuprofen" does not name the GP).
    """
    sentence = unquoted(sentence)
    zh = has_cjk(sentence)
    named, loose = _named_allergen(sentence, zh)
    if named and not loose:
        return named  # the tagger is asked only where the allergy does not settle it
    objects = default_tagger().objects(sentence)
    if named and (not objects or _in_objects(named, objects, zh)):
        return named  # not "I swear I was allergic…", "the old allergy label", ``医生说过敏好了``
    tagged = [o for o in objects if o.polarity == "like"]
    if tagged and not CUE_RE.search(tagged[0].text):
        return tagged[0].text  # the tagger drops a possessive "'s" itself
    for clause in clauses if by_clause else ():
        named = pull_object_zh(clause) if zh else pull_object_en(clause)
        if zh and named is not None and clause[clause.find(named) + len(named) :][:1] == "说":
            continue  # who says it (``医生说过敏好了``), not the allergen
        if named is not None and not CUE_RE.search(named):  # not the treatment (``脱敏成功了``)
            return re.sub(r"'s$", "", named)
    return None


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


__all__ = ["allergen_of"]
