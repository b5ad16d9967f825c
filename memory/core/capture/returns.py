"""A switch undone in one sentence: the user tried something and went back to what they had
("Switched to Android for a month and went crawling back to my iPhone", ``从抖音换到B站又回来
了``, ``耳机从索尼换到bose又换回索尼``). What they came back to is the like; what was tried on
the way is none. Issue 17: a switch's connectors had read the first half alone (*switched to
Android*; ``从抖音换成B站`` a like of B站 and a dislike of 抖音, the opposite of what was
said). Kinds of phrasing, never particular objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import PreferenceCandidate, has_cjk
from .object_tagger import default_tagger
from .rules_en_kept import EN_NO_GOING_BACK, EN_RETURN_FORMS
from .structures import Part, part_candidate

_EN_RETURN_RES = tuple(re.compile(form, re.I) for form in EN_RETURN_FORMS)
_EN_NO_GOING_BACK_RE = re.compile(EN_NO_GOING_BACK, re.I)
NEW_SIDE_MIN_P = 0.9
"""The object tagger's like, at this probability or more, is what a return ruled out was left
for ("Bamboo bedsheets are a game changer, can't go back to cotton"; the tagger reads the
bedsheets at 1.0): as :data:`~.tagged_sides.OUTSIDE_MIN_P`, not tuned apart."""
_EN_TRIED_RE = re.compile(
    r"\b(?:(?:switch(?:ed)?|moved|converted|migrated|jumped)\s+(?:over\s+)?(?:to|from)|tried|"
    r"trying|tested|testing|gave\s+[^,;]{1,30}?\s+an?\s+(?:go|shot|try|whirl)|went\s+with|ditched|"
    r"dropped|swapped|did\s+(?:a|one|two|three|\d+)\s+(?:days?|weeks?|months?|years?)\s+of|"
    r"for\s+(?:a|one|two|three|a\s+few|a\s+couple\s+of|\d+)\s+(?:days?|weeks?|months?|"
    r"years?|while|bit|season))\b",
    re.I,
)
"""A try or switch before the return ("Switched to Android for a month and went back…")."""
_EN_TRIED_AFTER_RE = re.compile(
    r"^[^,;.!?]*?\bafter\s+(?:a|one|two|three|a\s+few|a\s+couple\s+of|\d+|(?:a\s+)?(?:week|month|"
    r"year)s?)\s+(?:(?:days?|weeks?|months?|years?)\s+)?(?:of|with|on)\b",
    re.I,
)
"""The try told after the return ("I'm back on Ubuntu after a year of Arch")."""
_ZH_RETURN_RE = re.compile(
    r"(?:又|后来又?|最后又?|结果又?)(?P<verb>换|用|改|搬|转|切)?回(?:来|去|到)?了?"
    r"(?P<obj>[^，,。！？!?]{0,14}?)(?:了|[，,。！？!?]|$)"
)
_ZH_SWITCHED_RE = re.compile(
    r"(?:从|由)(?P<old>[^，,。]{1,14}?)(?:换成|改成|换到|转到|改用|换用|搬家?到|转)|"
    r"(?:换成|改成|换到|改用|换用|试了|试过|换了)"
)
"""A switch or try before a Chinese return; ``从A`` names what ``又换回来了`` returns to."""


@dataclass(frozen=True)
class Return:
    """A going back after a try or switch: what was gone back to, where the return starts and
    where the switch it undoes starts (character offsets in the sentence)."""

    obj: str
    start: int
    switched: int


def went_back(sentence: str) -> Return | None:
    """The return in a sentence that tries or switches and then goes back, or None."""
    if has_cjk(sentence):
        back = _ZH_RETURN_RE.search(sentence)
        switched = _ZH_SWITCHED_RE.search(sentence[: back.start()]) if back else None
        if back is None or switched is None or not (back.group("verb") or switched.group("old")):
            return None  # ``换了衣服又回去了``: a going back, no switch undone
        obj = back.group("obj").strip() or (switched.group("old") or "").strip()
        return Return(obj, back.start(), switched.start())
    found = [m for r in _EN_RETURN_RES if (m := r.search(sentence))]
    if not found:
        return None
    back = min(found, key=lambda m: m.start())
    tried = _EN_TRIED_RE.search(sentence[: back.start()])
    if tried is None and _EN_TRIED_AFTER_RE.match(sentence[back.end() :]):
        return Return(back.group("obj").strip(), back.start(), back.start())
    return None if tried is None else Return(back.group("obj").strip(), back.start(), tried.start())


def undone(
    sentence: str, found: list[PreferenceCandidate], confidence: float
) -> list[PreferenceCandidate] | None:
    """What a sentence that tries something and goes back yields, or None if it is none.

    Args:
        sentence: One sentence.
        found: What its clauses' rules read (in message order).
        confidence: The confidence of a candidate made here.

    Returns:
        The sentence's candidates: a like of what the user went back to, the user's stances
        named before the switch, and none of what was tried on the way.
    """
    back = went_back(sentence)
    if back is None:
        return None
    zh = has_cjk(sentence)
    label = f"用回{back.obj}" if zh else f"likes {back.obj}"
    made = part_candidate(Part("like", back.obj, label), confidence) if back.obj else None
    if made is None:
        return None
    before = sentence[: back.switched].lower()
    kept = [c for c in found if c.protected or all(k in before for k in c.keywords)]
    return [*kept, made]


def left_for(
    sentence: str, found: list[PreferenceCandidate], confidence: float
) -> list[PreferenceCandidate] | None:
    """A return ruled out and what the user left for, or None to leave ``found`` as it is.

    "Bamboo bedsheets are a game changer, can't go back to cotton": the rules read the
    dislike of cotton (:data:`~.rules_en_kept.EN_NO_GOING_BACK`); the like, said without a
    verb of liking, only the statement head's reading of the whole sentence gave, and it
    reads a sentence only where the rules read nothing. The object tagger's likes outside the
    ruled-out return, at :data:`NEW_SIDE_MIN_P`, are added to the rules' dislike.

    Args:
        sentence: One English sentence.
        found: What its clauses' rules read.
        confidence: The confidence of a candidate made here.

    Returns:
        ``found`` and a like per object the tagger marks, or None where the sentence rules
        out no return, the rules read a like already, or the tagger marks none.
    """
    ruled_out = None if has_cjk(sentence) else _EN_NO_GOING_BACK_RE.search(sentence)
    if ruled_out is None or any(c.polarity == "like" for c in found):
        return None
    rest = sentence[ruled_out.start() :].lower()
    if not any(c.polarity == "dislike" and all(k in rest for k in c.keywords) for c in found):
        return None  # another's ("my sister says she can't go back to dairy")
    made = [
        candidate for o in default_tagger().read(sentence).objects
        if o.polarity == "like" and o.p >= NEW_SIDE_MIN_P and o.text.lower() not in rest
        and (candidate := part_candidate(Part("like", o.text, f"likes {o.text}"), confidence))
    ]
    return [*found, *made] if made else None


__all__ = ["NEW_SIDE_MIN_P", "Return", "left_for", "undone", "went_back"]
