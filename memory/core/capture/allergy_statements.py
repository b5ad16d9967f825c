"""The user's own allergies and intolerances as they state them (:func:`read_allergy`).

The stance rules read "I'm allergic to X" and "I have an X allergy" when nothing but the user
stands before them; a preamble ("heads up, I have a tree nut allergy, coconut is ok though",
"Even after three years of shots I'm still allergic to cats") or a return ("my egg allergy
came back??", ``花生过敏又复发了``) stored nothing, and a missed allergy is the worst mistake a
preference memory can make. These are read wherever they stand in a sentence, questions
included, in the rules' phrasing ("allergic to X", ``对X过敏``) and as a noun or a reaction
("My nickel allergy means…", "I get hives from X", ``我花生过敏，有什么零食推荐吗？``), so they
are protected; where the phrasing names the user as the holder, also in a sentence that
speaks of someone else ("When I had dinner with my colleague I found out I'm allergic to
mango"), unless another person's word about the user is contested (:mod:`.holders`). What
says an allergy is over is :mod:`.allergies`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import PreferenceCandidate, has_cjk, is_retraction
from .allergies import (
    is_reported_over,
    mentions_allergy,
    read_retraction,
    unquoted,
    zh_allergen,
)
from .clauses import close_person_zh, tag
from .holders import contested, disputed, reported_by_another, someone_else
from .kinds import pull_object_en
from .structures import Part, part_candidate


@dataclass(frozen=True)
class _Stated:
    """One phrasing of a stated allergy and what holds it.

    Attributes:
        pattern: The phrasing; its allergen is group ``obj`` (or ``subject``/``positive``).
        names_user: It names the user as the holder ("I'm allergic to", ``我对…过敏``,
            ``我…过敏``), so it is read also where someone else is named ("When I had dinner
            with my colleague I found out I'm allergic to mango"); the others are not.
        now_only: Read only in a sentence that says nothing of the allergy being over, past
            or unsure (:data:`_EN_NOT_NOW_RE`).
        nouns_only: The allergen must be nouns alone (:func:`_nouns_only`).
    """

    pattern: re.Pattern[str]
    names_user: bool
    now_only: bool = False
    nouns_only: bool = False


_EN_STATED = [
    # "I'm (still) allergic to cats", "I am severely allergic to shellfish"
    _Stated(
        re.compile(
            r"\bi(?:'m|\s+am)\s+(?:still\s+|also\s+|very\s+|severely\s+|really\s+|quite\s+|"
            r"super\s+|deathly\s+|mildly\s+|a\s+bit\s+)*(?:allergic|intolerant)\s+to\s+"
            r"(?P<obj>[^,.;!?]+)",
            re.I,
        ),
        names_user=True,
    ),
    # "I have a tree nut allergy", "I've got a severe peanut allergy"
    _Stated(
        re.compile(
            r"\bi\s+(?:still\s+)?(?:have|'ve\s+got|have\s+got)\s+(?:an?\s+)?(?:(?:severe|mild|bad|"
            r"serious|strong|real|diagnosed)\s+)?(?P<obj>(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+"
            r"(?:allergy|allergies|intolerance)\b",
            re.I,
        ),
        names_user=True,
    ),
    # "my egg allergy came back", "The sesame allergy hasn't gone anywhere"
    _Stated(
        re.compile(
            r"\b(?:my|the)\s+(?P<obj>(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+(?:allergy|intolerance)\s+"
            r"(?:came\s+back|is\s+back|has\s+come\s+back|returned|has\s+returned|flared\s+up|"
            r"hasn't\s+gone(?:\s+anywhere)?|has\s+not\s+gone|never\s+went\s+away|is\s+still\s+"
            r"(?:there|here|a\s+thing)|is\s+(?:real|confirmed)|was\s+confirmed)",
            re.I,
        ),
        names_user=False,
    ),
    # "My nickel allergy means no cheap earrings", "soy allergy!!"
    _Stated(
        re.compile(
            r"(?:^\W*|\bmy\s+)(?:(?:severe|mild|bad|serious|new|diagnosed)\s+)?"
            r"(?!(?:severe|mild|bad|serious|new|food|seasonal|multiple|several|many|some|all|any|"
            r"other|environmental|known|diagnosed|these|those)\b)"
            r"(?P<obj>(?:[\w'-]+\s+)?[\w'-]+)\s+(?:allergy|allergies|intolerance)\b"
            r"(?!\s+(?:test|testing|shots?|clinic|season|meds|medication|tablets|sufferers?)\b)",
            re.I,
        ),
        names_user=False, now_only=True,
    ),
    # "I get hives from strawberries", "sesame gives me anaphylaxis", "came back positive for X"
    _Stated(
        re.compile(
            r"\bi\s+(?:get|break\s+out\s+in|come\s+out\s+in)\s+hives\s+(?:from|with|after)\s+"
            r"(?:eating\s+|touching\s+)?(?P<obj>[^,.;!?]+)|^\W*(?P<subject>(?:[\w'-]+\s+){0,2}?"
            r"[\w'-]+)\s+gives?\s+me\s+(?:hives|anaphylaxis)|\b(?:tested|came\s+back)\s+positive\s+"
            r"for\s+(?P<positive>[^,.;!?]+)",
            re.I,
        ),
        names_user=False, now_only=True,
    ),
]
_EN_NOT_NOW_RE = re.compile(
    r"\b(?:gone|over|cleared|cured|outgr\w*|no\s+longer|any\s*more|used\s+to|went\s+away|"
    r"resolved|disappear\w*|history|past|heal\w*|better|improv\w*|negative|had|seem\w*|"
    r"false|fine|turned\s+out|retest\w*|"
    r"as\s+a\s+(?:kid|child|baby)|"
    r"if|whether|might|maybe|probably|suspect\w*|worried|afraid|wonder\w*|think|hope\w*|"
    r"doubt\w*|test(?:ing|ed)?\s+for)\b|\?\s*$|^\W*(?:do|does|did|is|are|can|could|should|would|"
    r"will|how|what|why|which|who|when|where)\b",
    re.I,
)
"""A sentence in which the ``now_only`` phrasings of :data:`_EN_STATED` read nothing: the allergy
is over, past, feared or asked about ("My peanut allergy is better now", "Is a soy allergy
common?")."""
_ZH_STATED = [
    # ``我还是对花生过敏``, ``我对海鲜严重过敏``
    _Stated(
        re.compile(
            r"我(?:还是|依然|仍然|也|一直|从小)?对(?P<obj>[^，,。！!？?不没]{1,10}?)(?:有点|有些|严重|非常|很|"
            r"都|也|还是)?(?<![不没])过敏"
        ),
        names_user=True,
    ),
    # ``我花生过敏，有什么零食推荐吗？``: the allergen nouns alone between 我 and 过敏
    _Stated(
        re.compile(
            r"我(?:还是|依然|也|一直|从小|有点|有些|比较|严重)?(?P<obj>[^，,。！!？?对的我不没们]{1,8}?)"
            r"(?<![不没])过敏(?!原)"
        ),
        names_user=True, nouns_only=True,
    ),
    # ``花生过敏又复发了``, ``我的芒果过敏回来了``, ``猫毛过敏还在``
    _Stated(
        re.compile(
            r"(?P<obj>[^，,。！!？?对的我不没]{1,10}?)(?:的)?(?<![不没])过敏(?:又|还是|依然)?(?:复发|回来|"
            r"犯了|还在|没好|一直没好|确诊)"
        ),
        names_user=False,
    ),
]


def _nouns_only(obj: str) -> bool:
    """Whether the segmenter tags every word of ``obj`` a noun (``猫毛``, ``花生``, ``海鲜``)."""
    words = tag(obj)
    return bool(words) and all(flag.startswith("n") for _, flag in words)


_EN_OBJECT_GROUPS = ("obj", "subject", "positive")
_EN_NEGATED_ALLERGY_RE = re.compile(
    r"\b(?:not|no\s+longer|never\s+(?:was|been)|n't)\s+(?:\w+\s+){0,2}?(?:allergic|intolerant)|"
    r"\bwas\s+never\s+(?:really\s+)?(?:an?\s+)?(?:\w+\s+)?allergy|\b(?:if|whether|in\s+case|what\s+if|"
    r"suppose|pretend)\b",
    re.I,
)


_ZH_SUPPOSED_RE = re.compile(r"如果|要是|假如|假设|万一|的话|会不会|是不是|是否|有没有|怕|担心")
"""A supposed or feared allergy, or a question about one (``万一我对花生过敏怎么办``)."""


def read_allergy(sentence: str) -> list[Part] | None:
    """The user's own current allergy or intolerance that a sentence states, wherever it
    stands in it, or None.

    Args:
        sentence: One sentence of the user's message, a question included ("my egg allergy
            came back??").

    Returns:
        One dislike (``Part("dislike", "tree nut", "allergic to tree nut")``,
        ``Part("dislike", "花生", "对花生过敏")``), or None for another person's allergy, a
        negated or hypothetical one, or one the sentence says is over.
    """
    sentence = unquoted(sentence)
    zh = has_cjk(sentence)
    if (_ZH_SUPPOSED_RE if zh else _EN_NEGATED_ALLERGY_RE).search(sentence):
        return None
    other = someone_else(sentence)
    if other and disputed(sentence):
        return None  # ``我妈以为我对芒果过敏``, "My dad jokingly says I'm allergic to veg"
    for reading in _ZH_STATED if zh else _EN_STATED:
        if other and not reading.names_user:
            continue  # no speaker in the pattern: someone else in the sentence may hold it
        if (m := reading.pattern.search(sentence)) is None:
            continue
        if other and reported_by_another(sentence, m.start()) and contested(sentence, m.start()):
            continue  # "My sister thinks I'm allergic to cats, but it's just a cold"
        if zh:
            if close_person_zh(sentence[m.start() :]):
                continue  # ``我对象芒果过敏``: 对象 is a person, not 对
            obj = zh_allergen(m["obj"])
            if reading.nouns_only and not _nouns_only(obj):
                continue  # ``我觉得花生过敏很常见``: not an allergen between 我 and 过敏
            if 1 <= len(obj) <= 8 and not obj.startswith(("不", "没")):
                return [Part("dislike", obj, f"对{obj}过敏")]
            continue
        if reading.now_only and _EN_NOT_NOW_RE.search(sentence):
            continue
        named = next(g for g in (m.groupdict().get(k) for k in _EN_OBJECT_GROUPS) if g)
        allergen = pull_object_en(named.strip(), alone=True)
        if allergen:
            return [Part("dislike", allergen, f"allergic to {allergen}")]
    return None


def excepted_allergy(candidate: PreferenceCandidate | None) -> PreferenceCandidate | None:
    """The exception of a retraction (``not allergic to anything except peanuts``) is an allergy."""
    if candidate is None or candidate.polarity != "dislike" or not is_retraction(candidate.content):
        return candidate
    return candidate.model_copy(update={"protected": True})


def stated_allergies(
    sentences: list[str], found: list[PreferenceCandidate], confidence: float
) -> list[PreferenceCandidate]:
    """The allergies the sentences of a message state (:func:`read_allergy`) that capture has
    not already stored as protected, as protected candidates."""
    have = {k for c in found if c.protected for k in c.keywords}
    # an allergen the message takes back is not stated again ("我对花生的过敏已经痊愈")
    have |= {
        k for c in found if c.polarity == "like"
        and (is_retraction(c.content) or is_reported_over(c.content)) for k in c.keywords
    }  # fmt: skip
    made: list[PreferenceCandidate] = []
    for sentence in filter(mentions_allergy, sentences):
        over = {p.obj for p in read_retraction(sentence) or []}  # "我对花生过敏好了"
        for part in read_allergy(sentence) or []:
            if part.obj in over:
                continue
            candidate = part_candidate(part, confidence)
            if candidate is not None and not _had(candidate.keywords, have):
                have.update(candidate.keywords)
                made.append(candidate)
    return made


def _had(keywords: list[str], have: set[str]) -> bool:
    """Whether an allergen is one capture has already: the same keyword, or in Chinese one
    within the other (``那个榛子`` as the rules read it, ``榛子``)."""
    return any(
        k == h or (has_cjk(k) and (k in h or h in k)) for k in keywords for h in have
    )


__all__ = ["excepted_allergy", "read_allergy", "stated_allergies"]
