"""What a clause tells as the user's past and what as the present: the markers of time and
contrast that :mod:`.changes` reads a change of mind by, and what is history alone.

A clause marked as the past (``used to``, ``as a kid``, ``以前``…) with nothing of the present
states no preference now (:func:`told_as_past`, :func:`left_behind`, :func:`past_stretch`);
one marked as the present or turning against the past (``now``, ``but``, ``现在``…) follows
it in a then-and-now. A then-and-now told over two sentences is joined into one
(:func:`told_over_two`). The markers are words of time and contrast, never objects or stance
phrasings.
"""

from __future__ import annotations

import re

from ...model import Polarity, has_cjk
from .clauses import ZH_PAST_RE
from .questions import is_question_or_hypothetical
from .rules_en_past import UP_TO_NOW_RE, past_verdict

EN_THEN_RE = re.compile(
    r"\b(?:used\s+to|use\s+to|back\s+(?:then|in\s+the\s+day|in\s+(?:high\s+)?(?:school|college|uni))|"
    r"in\s+(?:(?:high|grad|middle|law|med)\s+school|college|uni|university|my\s+(?:teens|twenties|"
    r"thirties|youth|(?:younger|college|school|student|uni)\s+days))|"
    r"as\s+a\s+(?:kid|child|teen(?:ager)?|student)|"
    r"at\s+(?:uni|university|college|school)|in\s+the\s+past|previously|formerly|at\s+first|"
    r"once(?!\s+(?:a|an|or|every|per|in|more)\b)|"
    r"growing\s+up|"
    r"when\s+i\s+was\s+(?:young(?:er)?|an?\s+(?:kid|child|teen(?:ager)?|student)|little|"
    r"in\s+\w+|\d+)|"
    r"(?:was|were)(?=\s+(?:\w+\s+)?(?:my|our|an?)\s+(?:[\w-]+\s+){0,2}?(?:thing|jam|go-?to|fave|"
    r"favou?rite|everything|life|religion|obsession|soundtrack|aesthetic|happy\s+place)\b)|"
    r"i\s+was(?=\s+(?:team\b|(?:\S+\s+){0,4}?(?:fan|guy|gal|girl|person|user|"
    r"loyalist|devotee|addict|lover|junkie|snob|stan|household|family)\b)))\b",
    re.IGNORECASE,
)
"""Words that put an English clause in the past of the speaker's taste, and the ``was`` of a
taste told as who the speaker was or what was theirs ("I was a die-hard United fan", "Dark
roast was my thing"): only the verb is the marker, the rest is the taste."""
ZH_THEN_RE = ZH_PAST_RE
_EN_PRESENT = r"now|these\s+days|nowadays|anymore|any\s+more|no\s+longer|lately"
"""Words of the present said outright, which every English marker of the present holds."""
EN_NOW_RE = re.compile(
    rf"\b(?:{_EN_PRESENT}|but|yet|however|though|since\s+then)\b", re.IGNORECASE
)
"""Words that put a later English clause in the present or against the past one."""
ZH_NOW_RE = re.compile(
    r"现在|如今|最近|这几年|这两年|这阵子|后来|慢慢|渐渐|越来越|早就|已经|再也|不再|但是?|可是|"
    r"不过|却|反而"
)
"""Words that put a later Chinese clause in the present or against the past one."""


def said_then(text: str) -> bool:
    """Whether a clause is marked as the past (in its own language)."""
    return bool((ZH_THEN_RE if has_cjk(text) else EN_THEN_RE).search(text))


def said_now(text: str) -> bool:
    """Whether a clause is marked as the present or as turning against the past."""
    return bool((ZH_NOW_RE if has_cjk(text) else EN_NOW_RE).search(text))


def told_as_past(clause: str) -> bool:
    """Whether a clause is told as the past with nothing of the present in it ("Both of us
    used to love mushrooms", ``我们以前都喜欢香菜``)."""
    return said_then(clause) and not said_now(clause)


_EN_ONCE_TRIED_RE = re.compile(r"\bonce\s+(?:i|we|you|it|they)\b", re.I)
"""``once`` as "as soon as" ("I hated it once I tried it"), not a past stretch."""


def past_stretch(clause: str) -> bool:
    """Whether an English stance's clause bounds it to a past stretch of the user's life, with
    nothing of the present ("I loved Pokemon *as a kid*", "I hated vim *at first*", "*When I
    was a teenager* I loved My Chemical Romance"): the stance is history, as one after "used
    to" is. Not a stretch that runs up to now ("I've loved it since I was a kid") nor "once"
    as soon as ("I hated it once I tried it")."""
    if has_cjk(clause) or said_now(clause) or UP_TO_NOW_RE.search(clause):
        return False
    return bool(EN_THEN_RE.search(_EN_ONCE_TRIED_RE.sub(" ", clause)))


_EN_LEFT_RE = re.compile(
    r"\b(?:used\s+to|once)\s+(?:really\s+|absolutely\s+|totally\s+)?(?P<verb>like|love|adore|"
    r"enjoy|hate|dislike|detest|loathe|despise)\b|\bcouldn't\s+stand\b",
    re.I,
)
_ZH_LEFT_RE = re.compile(
    r"(?:以前|之前|过去|曾经|原来|小时候|从前|当年)(?:我)?(?:很|特别|超|超级|最|挺|一直|都)?"
    r"(?P<verb>喜欢|爱|讨厌|不喜欢|烦|受不了)"
)


def left_behind(clause: str) -> Polarity | None:
    """The polarity a clause says the user held before and not now ("I used to like jazz": a
    like, ``我以前很讨厌香菜``: a dislike), when its only marker of the present is none; such a
    clause never states that polarity now (the head read "I used to like jazz" as coming round
    to it, at 0.67)."""
    if said_now(clause):
        return None
    match = (_ZH_LEFT_RE if has_cjk(clause) else _EN_LEFT_RE).search(clause)
    if match is None:
        return None
    verb = (match.group("verb") or "hate").lower()  # "couldn't stand" names no verb group
    return "dislike" if verb in ("hate", "dislike", "detest", "loathe", "despise", "讨厌",
                                 "不喜欢", "烦", "受不了") else "like"  # fmt: skip


EN_NOW_SINCE_RE = re.compile(
    rf"\b(?:{_EN_PRESENT}|since\s+then|(?:grown|growing|grew)\s+on\s+me)\b", re.IGNORECASE
)
"""The present said outright after a past verdict (:func:`~.rules_en_past.past_verdict`), not
only a turn ("but"): "I loved Dune but the sequel was meh" is no change of mind, "Couldn't
stand running at school, now I'm out every morning" is."""
_EN_NOW_OPENS_RE = re.compile(
    r"^\W*(?:(?:but|and|so)\s+)?(?:now|these\s+days|nowadays|lately|not\s+any\s*more|"
    r"no\s+longer)\b",
    re.IGNORECASE,
)
"""A sentence that opens with the present ("Now…", "These days…", "Not anymore.")."""


def told_over_two(sentences: list[str]) -> list[str]:
    """The sentences of a message, a then-and-now told over two of them joined into one for
    :func:`~.changes.then_and_now`: an English sentence marked as the past, with nothing of
    the present, and the next opening with the present ("Loved horror as a teen. These days
    I can't stand being scared for fun." → "Loved horror as a teen, These days I…"). Apart,
    the first was history and stored nothing, and the second lacked the object it turns on.
    Not after a topic put as a question ("Anime? I used to roll my eyes at it. Now…"): the
    topic is the object, which the sentences read one by one find (:mod:`.zh_subjects`)."""
    joined: list[str] = []
    for sentence in sentences:
        before = joined[-1] if joined else ""
        asked = len(joined) > 1 and joined[-2].rstrip().endswith("?")  # "Anime? I used to…"
        if before and not has_cjk(before + sentence) and _EN_NOW_OPENS_RE.match(sentence) and (
            said_then(before) and not said_now(before) and not asked
            and not is_question_or_hypothetical(sentence)  # "Now, can you help me set up…?"
        ):
            joined[-1] = f"{before.rstrip(' .!')}, {sentence}"
        else:
            joined.append(sentence)
    return joined


def turned_after(sentence: str, after: str) -> bool:
    """Whether an English sentence of a verdict in the past, with no marker of the past
    (:func:`~.rules_en_past.past_verdict`), is followed by one opening with the present
    ("Couldn't stand them. Now a salad without arugula feels wrong."): the verdict may be
    what was, or what the user met ("I loved Dune. Now I want to read the books."), and which
    one the words do not say; it is stored as neither."""
    return (
        past_verdict(sentence) and not said_then(sentence) and not said_now(sentence)
        and bool(_EN_NOW_OPENS_RE.match(after))
    )


__all__ = [
    "EN_NOW_RE", "EN_NOW_SINCE_RE", "EN_THEN_RE", "ZH_NOW_RE", "ZH_THEN_RE", "left_behind",
    "past_stretch", "said_now", "said_then", "told_as_past", "told_over_two", "turned_after",
]
