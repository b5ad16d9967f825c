"""What a stored preference sentence is about, when the writer did not say.

The gate compares objects, not sentences (DESIGN.md §6.3), so a candidate
written without keywords (a ``remember`` call, a tool call, an import, a
reflect proposal) gets them here, from its content, with the same extractor
that end-of-turn capture uses (:func:`~.capture.extract_preferences`, English
and Chinese). Preference sentences are often written as labels in the third
person (``likes velvet curtains``, ``does not want plastic``, ``is allergic to
shrimp``); those are read as the user's own statement. A sentence no stance
rule reads (``no plastic please``, ``velvet curtains``) falls back to the
object phrase itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..model import Polarity, clean_text, has_cjk, is_retraction, normalise_keyword
from .capture import extract_preferences

_LABELS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"^(?:the\s+)?user\s+", ""),
        (r"^(?:does\s*n[o']t|does\s+not)\s+", "I don't "),
        (r"^(?:is|'s)\s+", "I'm "),
        (r"^(?:has|'s\s+got)\s+", "I have "),
        (r"^(?=(?:(?:not|no\s+longer)\s+)?(?:allergic|intolerant)\b)", "I'm "),
        (r"^(?:can'?t|cannot)\s+", "I can't "),
        (r"^(?:never|no\s+longer|always|really|strongly)\s+", r"I \g<0>"),
    )
)
_LABEL_VERBS = {
    "likes": "like", "loves": "love", "enjoys": "enjoy", "prefers": "prefer", "adores": "adore",
    "hates": "hate", "dislikes": "dislike", "detests": "detest", "loathes": "loathe",
    "despises": "despise", "avoids": "avoid", "wants": "want", "eats": "eat", "drinks": "drink",
    "wears": "wear", "uses": "use", "buys": "buy", "needs": "need", "favours": "favour",
    "favors": "favor",
}  # fmt: skip
_LABEL_VERB_RE = re.compile(rf"^(?:{'|'.join(_LABEL_VERBS)})\b", re.IGNORECASE)
_NEGATORS = re.compile(
    r"^(?:(?:is|am|'m)\s+)?(?:no\s+longer|not|no|never|without|avoid(?:s|ing)?|zero|"
    r"anything\s+but|nothing\s+with)\s+(?:(?:allergic|intolerant)\s+(?:to|of)\s+)?",
    re.IGNORECASE,
)
_ZH_STANCE_RE = re.compile(
    r"喜欢|爱|讨厌|厌恶|反感|不要|不想|不吃|不喝|不用|不穿|不买|过敏|不耐|受不了|戒|偏好|怕"
)
_CLAUSE_RE = re.compile(
    r"^(?:is|are|am|was|were|has|have|had|'s|'m)\b|"
    r"(?<!\bthat)(?<!\bwhich)(?<!\bwho)\s+(?:is|are|am|was|were|isn't|aren't)\b",
    re.IGNORECASE,
)
"""A label that is a clause (a copula after its subject, or leading): not an object phrase."""


@dataclass(frozen=True)
class DerivedObjects:
    """Objects read from a preference sentence.

    Attributes:
        keywords: Normalised keywords (``["velvet", "curtain"]``); empty when
            nothing specific was found (then the gate takes no action on it).
        slot: The single-valued slot the sentence fills, if capture read one.
        groups: The keywords object by object: ``likes coffee and tea`` is two
            objects (``[["coffee"], ["tea"]]``), ``likes plastic water bottles``
            one object with two facets (``[["plastic", "water bottle"]]``).
    """

    keywords: list[str]
    slot: str | None = None
    groups: tuple[tuple[str, ...], ...] = ()


def _first_person(content: str) -> str:
    """``likes velvet curtains`` → ``I like velvet curtains``; other text unchanged."""
    text = content
    for pattern, replacement in _LABELS:
        text = pattern.sub(replacement, text, count=1)
    return _LABEL_VERB_RE.sub(lambda m: "I " + _LABEL_VERBS[m.group(0).lower()], text, count=1)


def _restated(content: str, polarity: Polarity) -> str:
    """The sentence restated as a first-person stance, for a label no rule reads."""
    if has_cjk(content):
        if _ZH_STANCE_RE.search(content):
            return ""  # a stance the rules read but whose object is unusable (``不喜欢这个``)
        return f"我喜欢{content}。" if polarity == "like" else f"我不要{content}。"
    if _CLAUSE_RE.search(content):
        return ""  # a whole statement no rule reads: its words are no object
    rest = _NEGATORS.sub("", _LABEL_VERB_RE.sub("", content)).strip()
    return f"I like {rest}." if polarity == "like" else f"I don't want {rest}."


def derive_objects(content: str, polarity: Polarity) -> DerivedObjects:
    """Keywords (and slot) of a preference sentence that came without keywords.

    Tried in order, first that yields keywords wins: the sentence as a
    first-person statement (third-person labels rewritten, ``likes X`` → ``I
    like X``); the sentence with leading negators stripped, restated in the
    candidate's polarity (``no plastic please`` → ``I don't want plastic
    please.``, ``皮鞋`` → ``我喜欢皮鞋。``). Pronouns without an antecedent
    (``likes it``) give nothing. Only stances of the candidate's own polarity count:
    ``likes everything except pizza`` is not a like of pizza, and ``prefers tea over
    coffee`` is a like of tea alone.

    Args:
        content: The preference sentence, e.g. ``"does not want velvet curtains"``
            or ``"不要皮鞋"``.
        polarity: The candidate's polarity: the stances kept, and how a bare label is restated.

    Returns:
        The objects; ``keywords`` is empty when nothing specific remains.
    """
    text = clean_text(content)
    if not text:
        return DerivedObjects([])
    for attempt in (_first_person(text), _restated(text, polarity)):
        found = [c for c in extract_preferences(attempt) if c.polarity == polarity]
        groups = [
            tuple(dict.fromkeys(k for k in map(normalise_keyword, c.keywords) if k)) for c in found
        ]
        keywords = [k for group in groups for k in group]
        if keywords:
            slot = next((c.slot for c in found if getattr(c, "slot", None)), None)
            return DerivedObjects(
                list(dict.fromkeys(keywords)), slot, tuple(dict.fromkeys(g for g in groups if g))
            )
    return DerivedObjects([])


@lru_cache(maxsize=4096)
def object_groups(content: str, polarity: Polarity, keywords: tuple[str, ...]) -> list[list[str]]:
    """The objects a stored preference is about, each a list of normalised keywords.

    A preference whose keywords are the ones its content derives keeps the content's
    objects apart (``likes coffee and tea`` → ``[["coffee"], ["tea"]]``); keywords given
    by the writer are one object, as they always were. The gate supersedes a preference
    only when a newer statement covers *every* one of its objects, so ``dislikes tea``
    leaves ``likes coffee and tea`` alone (DESIGN.md §6.3).

    Args:
        content: The preference sentence.
        polarity: Its polarity.
        keywords: Its normalised keywords.

    Returns:
        One or more keyword lists; ``[list(keywords)]`` when the content shows no
        separate objects.
    """
    derived = derive_objects(content, polarity)
    if len(derived.groups) > 1 and set(derived.keywords) == set(keywords):
        return [list(g) for g in derived.groups]
    return [list(keywords)]


def retracted_objects(content: str) -> list[str]:
    """Keywords of the allergies or intolerances a sentence explicitly takes back.

    Only the retraction's own clause counts: ``I love tree nuts, I'm not allergic to
    cats`` retracts ``cat``, never ``tree nut``, so a like that merely mentions some
    other retraction cannot lift a protected allergy (DESIGN.md §6.3).

    Args:
        content: A preference sentence, e.g. ``"no longer allergic to peanuts"``.

    Returns:
        Normalised keywords of the retracted objects; empty when nothing is retracted.
    """
    text = clean_text(content)
    if not text or not is_retraction(text):
        return []
    found = extract_preferences(_first_person(text))
    keywords = [
        normalise_keyword(k)
        for c in found
        if c.polarity == "like" and is_retraction(c.content)
        for k in c.keywords
    ]
    return list(dict.fromkeys(k for k in keywords if k))


def only_retracts(content: str) -> bool:
    """Whether a sentence does nothing but take back allergies or intolerances.

    ``"I'm not allergic to eggs anymore"`` only retracts (it lifts the allergy and
    states no like of eggs, issue 17); ``"I love cashews again: I'm no longer allergic
    to tree nuts"`` also states a like of cashews, so it does not.

    Args:
        content: A preference sentence.

    Returns:
        True when every preference read from ``content`` is a retraction and at least
        one is.
    """
    text = clean_text(content)
    if not text or not is_retraction(text):
        return False
    found = extract_preferences(_first_person(text))
    return bool(found) and all(c.polarity == "like" and is_retraction(c.content) for c in found)


__all__ = ["DerivedObjects", "derive_objects", "object_groups", "only_retracts",
           "retracted_objects"]  # fmt: skip
