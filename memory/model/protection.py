"""Protected preferences: allergies and intolerances (DESIGN.md §6.3).

A protected dislike is a hard constraint. A like of a broader or overlapping
object ("I love nuts" after "allergic to tree nuts") never supersedes it; only
an explicit retraction ("I'm no longer allergic to tree nuts", ``我对花生不再过敏了``)
does. Both capture (which marks what it extracts) and the gate (which derives
the mark for tool calls, imports and reflect) read the same two patterns here.
"""

from __future__ import annotations

import re

from .normalize import clean_text, has_cjk, to_simplified

_PROTECTED_RE = re.compile(
    r"\b(?:allerg(?:y|ies|ic)|intoleran(?:t|ce)|anaphyla\w*|c(?:o)?eliac|epipen)\b"
    r"|过敏|不耐受|不耐症|乳糖不耐",
    re.IGNORECASE,
)
_RETRACTION_RE = re.compile(
    r"\b(?:no\s+longer|not|n't|never\s+(?:was|been))\s+(?:(?:really|actually|even|that)\s+)?"
    r"(?:allergic|intolerant)\b"
    r"|\b(?:outgr[eo]w\w*|got\s+over|cured\s+of|no\s+longer\s+have)\s+(?:my\s+|the\s+|an?\s+)?"
    r"(?:\w+\s+){0,3}?(?:allerg(?:y|ies)|intolerance)\b"
    r"|\ballerg(?:y|ies)\s+(?:is|are|has|have)\s+(?:gone|cured|over)\b"
    r"|\ballerg(?:y|ies)(?:\s+to\s+\w+)?\s+(?:has\s+|have\s+)?(?:went\s+away|gone\s+away|cleared\s+up|disappeared)\b"
    r"|过敏症?[^，。,.！!]{0,4}(?:痊愈|消失|好)了"
    r"|不再[^，。,.]{0,12}(?:过敏|不耐)|(?:不|没有?)对[^，。,.]{1,12}(?:过敏|不耐)|不[会]?过敏了|过敏(?:已经)?好了|不再有[^，。,.]{0,8}过敏",
    re.IGNORECASE,
)


def _simplified(text: str) -> str:
    """Simplified Chinese of ``text``; English is returned as is (OpenCC costs ~120 µs a call)."""
    return to_simplified(text) if has_cjk(text) else text


def is_retraction(content: str) -> bool:
    """Whether ``content`` explicitly takes back an allergy or intolerance.

    Args:
        content: A preference sentence (``"no longer allergic to peanuts"``,
            ``"我对花生不再过敏了"``; traditional Chinese is simplified first).

    Returns:
        True for an explicit retraction, the only statement that may supersede
        a protected preference.
    """
    text = _simplified(clean_text(content))
    return bool(_RETRACTION_RE.search(text))


def is_protected(content: str, polarity: str) -> bool:
    """Whether a preference is an allergy or intolerance (a hard constraint).

    Args:
        content: The preference sentence.
        polarity: ``"like"`` or ``"dislike"``; only a dislike can be protected.

    Returns:
        True when a dislike names an allergy or intolerance and does not retract one.
    """
    if polarity != "dislike":
        return False
    text = _simplified(clean_text(content))
    return bool(_PROTECTED_RE.search(text)) and not _RETRACTION_RE.search(text)


__all__ = ["is_protected", "is_retraction"]
