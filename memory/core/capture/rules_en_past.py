"""English verdicts told in the past: how the user found what they tried, read or watched.

"We watched Dune last night and I loved it", "I tried kimchi and didn't like it", "I really
enjoyed Project Hail Mary", "Honestly I disliked Barbie": the user's verdict on a thing they
met is a preference now, as "I hated it" already was. Issue 17: only the dislike verbs read
(``hated``, ``disliked``); the likes and negated likes stored nothing from the rules, and the
statement head's fallback stored the verb with the thing ("likes liked Dune", "now likes tried
sushi once" for "I tried sushi once and hated it"). Kinds of phrasing, never particular
objects. A verdict bounded to a past stretch of the user's life ("I loved Pokemon as a kid",
"I hated vim at first") is history, not a preference now (:func:`~.changes.told_after`).
"""

from __future__ import annotations

import re

from .rules import Rule, en

_HOW_MUCH = (
    r"(?:(?:really|absolutely|totally|truly|genuinely|honestly|actually|quite|kinda|kind\s+of|"
    r"sort\s+of|thoroughly|super|so|very\s+much|much|particularly|especially|always|just|"
    r"also|even|all)\s+)*"
)
"""Degree and filler words between the subject and a verdict ("I thoroughly enjoyed …")."""

_POSTED = (
    r"\s+(?:(?:the|her|his|their|your|my|a|an|that|this|every|all)\s+)?(?:\w+\s+)?(?:tweets?|"
    r"posts?|photos?|pics?|videos?|comments?|reels?|status|stor(?:y|ies)|page|selfies?)\b"
)
"""What is liked by a click, not a taste ("I liked her post", "Liked the tweet so I could find
it later")."""

PAST_RULES: tuple[Rule, ...] = (
    en(
        rf"\bdid(?:n'?t|\s+not)\s+{_HOW_MUCH}(?:like|love|enjoy|care\s+for|appreciate|"
        r"get\s+on\s+with)\b",
        "dislike",
        "dislikes {obj}",
    ),
    en(r"\b(?:(?:'ve|have)\s+always\s+)?(?:hated|disliked|detested|loathed)\b", "dislike",
       "dislikes {obj}"),
    en(rf"\bcould(?:n'?t|\s+not)\s+{_HOW_MUCH}(?:stand|bear|stomach)\b", "dislike",
       "dislikes {obj}"),
    en(rf"\b{_HOW_MUCH}(?:loved|liked(?!{_POSTED})|enjoyed|adored)\b", "like", "likes {obj}",
       comparative=True),
)
"""English past verdicts; the rules of :mod:`.rules_en` read "I've always liked …" and
"I never liked …" first (an earlier or longer match)."""

UP_TO_NOW_RE = re.compile(
    r"\bsince\b|\b(?:'ve|have|has)\s+(?:\w+\s+)?(?:been|had|always|loved|liked|hated)\b",
    re.IGNORECASE,
)
"""A stretch that runs up to now ("… since back in college", "I've always …"): no past."""


def past_verdict(clause: str) -> bool:
    """Whether an English clause tells a verdict in the past (a rule of :data:`PAST_RULES`
    matches), not one that runs up to now ("I've loved it since…")."""
    return any(r.pattern.search(clause) for r in PAST_RULES) and not UP_TO_NOW_RE.search(clause)


__all__ = ["PAST_RULES", "UP_TO_NOW_RE", "past_verdict"]
