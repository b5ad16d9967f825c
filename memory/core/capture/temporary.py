"""A stance bounded in time is a temporary state, not a preference (issue 17).

"I'm avoiding dairy until this stomach bug clears", "no running for six weeks", "it's honey
and lemon for now", ``术后一个月不能吃辣``, ``这周体检前不能喝酒``: the user says what holds
for a while, and what they like or avoid for good is unchanged. Stored, such a stance would
be injected long after it lapsed, and would supersede the lasting preference it interrupts.

The cues are words of grammar, not of any object or stance: a bound (``until`` a change,
``for now``, a count of days or weeks ahead, while on a course or recovering, ``暂时``,
``…内``, ``术后``), and, for an abstention only, a near day or week (``this week``,
``tonight``, ``今天``). A duration already lived ("I've been vegan for two years") is no
bound: it tells how long a preference has held.
"""

from __future__ import annotations

import re

from ...model import PreferenceCandidate
from .orders import for_a_day
from .rules_en_past import PAST_RULES

ONE_OCCASION_RE = re.compile(
    r"\b(?:today|tonight|yesterday|this\s+(?:time|once|one|morning|afternoon|evening|weekend)|"
    r"last\s+(?:night|time|week|weekend)|"
    r"on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|meaning\s+to|thinking\s+(?:of|about)|"
    r"planning\s+(?:to|on)|going\s+to\s+try|want\s+to\s+try|might|maybe|should|tomorrow|"
    r"next\s+(?:week|month|time)|only\s+when)\b|"
    r"今天|今晚|昨天|明天|下周|这次|这一次|上次|打算|准备|想试试|考虑|计划|也许|可能|应该",
    re.I,
)
"""One occasion or a plan, not a standing preference ("Took the train instead of driving
today", ``打算把键盘换成静电容``): a sentence that says so is not structured where the head does
not read a structural kind (:mod:`.structuring`), nor read for a side chosen "instead of" another
(:mod:`.structures`) or for the tagger's sides (:mod:`.tagged_sides`)."""
_EN_NUMBER = (
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|"
    r"a\s+couple(?:\s+of)?|several)"
)
_EN_BOUND_RE = re.compile(
    rf"\b(?:until|till|'til)\s+(?!i\s+die\b|the\s+end\b|forever\b|recently\b|now\b|"
    rf"(?:lunch|noon|dinner|bedtime|midnight|morning|evening|night)\b|"
    rf"(?:this|last)\s+(?:year|month|summer|winter)\b|(?:i\s+was\s+)?(?:my|i\s+was)\s+"
    rf"(?:\d0s|teens|twenties|thirties|forties|fifties)\b)(?P<until>[^,;.!?]*)"
    rf"|\bfor\s+now\b|\bfor\s+the\s+time\s+being\b"
    rf"|\bfor\s+(?:the\s+next\s+)?{_EN_NUMBER}\s+(?:more\s+)?(?:days?|weeks?|months?)\b"
    rf"|\bwhile\s+(?:i'm|i\s+am)\s+(?:still\s+)?(?:on\s+(?:this|these|the|my)\b|recovering|"
    rf"pregnant|breastfeeding|nursing|fasting|sick|ill)\b"
    rf"|\bduring\s+(?:the|my)\s+(?:pregnancy|treatment|recovery|fast|detox|cleanse)\b",
    re.IGNORECASE,
)
"""English bounds: until a change to come, for now, a count of days or weeks, while on a
course."""
_EN_PAST_RE = re.compile(
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!'s\s)(?<!\bget\s)(?<!\bgets\s)"
    r"\b(?:\w+ed|been|was|were|had|got|went|saw|came|took|gave|did|made|found|felt|met|"
    r"thought|tried|quit|began|became|grew)\b",
    re.IGNORECASE,
)
"""A verb of the past: "until I fostered one" is how a mind changed, not a bound to come;
"Tried Bing for a month" a trial lived, "I've been vegan for two years" a duration lived. A
passive is not one ("until my concussion is cleared")."""
_EN_NOW_AFTER_RE = re.compile(r"\b(?:now|these\s+days|nowadays)\b", re.IGNORECASE)
"""After "until", the present of a change of mind ("Musicals were cringe to me until Hamilton,
now I know every word")."""
_EN_NEAR_RE = re.compile(
    r"\b(?:(?:this|next)\s+(?:week|weekend|month)|today|tonight|tomorrow|right\s+now)\b",
    re.IGNORECASE,
)
"""A near day or week, or this very moment: bounds an abstention ("no coffee for me this
week", "right now I can't even look at chocolate"), not a liking ("I love this week's
playlist")."""
_EN_CRAVING_RE = re.compile(
    r"\b(?:i'?d|i\s+would|i\s+could)\s+(?:(?:really|so|totally|honestly|seriously)\s+)?(?:love|"
    r"kill\s+for|go\s+for|murder|do\s+with|use)\b|\b(?:craving|in\s+the\s+mood\s+for)\b",
    re.IGNORECASE,
)
"""A want of the moment ("I'd love a coffee right now", "could go for pizza tonight"): with a
near day or this very moment, an appetite, not a liking."""
_ZH_BOUND_RE = re.compile(
    r"暂时|先不|先别|[一两三四五六七八九十半\d]+(?:个)?(?:天|周|星期|礼拜|月)(?:之?内)|"
    r"术后|这(?:两|几)天"
)
"""Chinese bounds: for now, within so many days, after an operation, the next few days
(``这几天``; not ``这阵子``, the present stretch of a habit, nor ``这个月``, which as often
names what is current: ``这个月的背景音乐全是陶喆``)."""
_ZH_NEAR_RE = re.compile(r"今天|今晚|明天|这周|这回|这顿")
_ONLY_RE = re.compile(r"只|only\b", re.IGNORECASE)
"""A liking restricted to one thing (``只吃沙拉``, "only eat salad"): on a near day or week
it is a diet or a plan for that time, not a lasting preference."""
_ZH_ONLY_NEAR_RE = re.compile(rf"{_ZH_NEAR_RE.pattern}|这(?:两|几)天|期间")
"""A near day or a stretch (``减肥期间``, ``这两天胃不舒服``) that makes "only X" a diet for
that time."""
_EN_NEAR_PAST_RE = re.compile(
    r"\b(?:yesterday|last\s+(?:night|week(?:end)?)|this\s+(?:morning|afternoon|evening)|today|"
    r"tonight)\b",
    re.IGNORECASE,
)
"""A time of the near past, said of what a verdict is on ("the party yesterday")."""
_EN_OCCASIONS = frozenset(
    "wedding party concert funeral ceremony meeting reunion graduation picnic parade fireworks "
    "birthday trip holiday vacation weekend flight date dinner lunch brunch".split()
)
"""Occasions: a verdict on one is a moment lived ("I loved the wedding"), not a taste."""
_CLAUSE_SPLIT_RE = re.compile(r"[，,。；;！!？?：:]")


def is_time_bound(clause: str, sentence: str = "") -> bool:
    """Whether a clause bounds what it says in time (:data:`_EN_BOUND_RE`,
    :data:`_ZH_BOUND_RE`), a past lived aside (:data:`_EN_PAST_RE`, and an "until" with the
    present of a change of mind after it in ``sentence``, lower case: :data:`_EN_NOW_AFTER_RE`)."""
    if _ZH_BOUND_RE.search(clause):
        return True
    text = sentence or clause
    for match in _EN_BOUND_RE.finditer(clause):
        if (until := match.group("until")) is not None:
            after = text[max(text.find(match.group(0)), 0) :]
            if not _EN_PAST_RE.search(until) and not _EN_NOW_AFTER_RE.search(after):
                return True
        elif not _EN_PAST_RE.search(clause):
            return True
    return False


def _naming(sentence: str, candidate: PreferenceCandidate) -> list[str]:
    """The clauses of ``sentence``, lower case, that name the candidate's object."""
    return [c for c in _CLAUSE_SPLIT_RE.split(sentence.lower())
            if any(k.lower() in c for k in candidate.keywords)]


def _clause_of(sentence: str, candidate: PreferenceCandidate) -> str:
    """The clause of ``sentence`` that names the candidate's object (the sentence where none
    does): a bound in another clause ("…, so for my trip next month what are my options?",
    ``最常去的书店是西西弗，这周想去逛逛``) bounds a plan, not this stance."""
    return next(iter(_naming(sentence, candidate)), sentence.lower())


def _only_wanted_now(sentence: str, candidate: PreferenceCandidate) -> bool:
    """Whether every clause that names the candidate's object wants it for the moment ("I'd love
    a coffee right now"; not "…, coffee is my favourite thing in the world")."""
    naming = _naming(sentence, candidate)
    return bool(naming) and all(
        _EN_CRAVING_RE.search(c) and _EN_NEAR_RE.search(c) for c in naming)


def _near_by(sentence: str, clause: str) -> bool:
    """Whether a near day or week is said in ``clause`` or before it (``这周在减脂期，晚饭只吃
    沙拉``; not "I only drink oat milk now, today I bought some")."""
    lowered = sentence.lower()
    end = lowered.find(clause) + len(clause) if clause in lowered else len(lowered)
    return bool(_EN_NEAR_RE.search(lowered[:end]) or _ZH_ONLY_NEAR_RE.search(lowered[:end]))


def _a_moment(clause: str, candidate: PreferenceCandidate) -> bool:
    """Whether a verdict told in the past (:data:`~.rules_en_past.PAST_RULES`) is said of a
    moment, not of a thing the user would meet again: what it names carries a time of the
    near past ("I loved the party yesterday", "Enjoyed the sunshine on my walk this morning")
    or is an occasion ("Loved the concert!"). A time told before the verdict names when the
    thing was met ("I tried kimchi last week and loved it"), and the verdict stands."""
    for match in (m for rule in PAST_RULES for m in rule.pattern.finditer(clause)):
        what = re.split(r"[,;.!?]", clause[match.end() :], maxsplit=1)[0].lower()
        named = [k.lower() for k in candidate.keywords if k.lower() in what]
        if named and (_EN_NEAR_PAST_RE.search(what) or any(
            k.split()[-1] in _EN_OCCASIONS for k in named
        )):
            return True
    return False


_LEFT_OUT_LABELS = ("doesn't want", "不要")
"""How the content of what an order leaves out opens (the labels of :mod:`.negation`'s and the
order rules' dislikes)."""


def lasting(sentence: str, found: list[PreferenceCandidate]) -> list[PreferenceCandidate]:
    """The candidates of one sentence that state a lasting preference: none whose clause is
    bounded in time (:func:`is_time_bound`; a bound in another clause bounds a plan there) or
    gives a verdict on a moment (:func:`_a_moment`), no dislike in a sentence of a near day or
    week ("restless tonight, can't focus", ``今天斋戒，不吃肉``) nor a want of the moment
    there ("I'd love a coffee right now"); an allergy always (it is no abstention, and its
    readers have their own vetoes), and what an order for a near day leaves out ("make my
    oatmeal without raisins this morning": the order is for a day, the dislike is not), unless
    only this once ("no ice this time": :func:`~.orders.for_a_day`).

    Args:
        sentence: The sentence as read (without a question after it: "I'd take trains over
            planes any day, so for my trip next month what are my options?" is read up to
            its question, and "next month" is the trip's).
        found: What capture read in it.

    Returns:
        ``found`` without the candidates of a temporary state, in order.
    """
    near = bool(_EN_NEAR_RE.search(sentence) or _ZH_NEAR_RE.search(sentence))
    left_out = [c.content.startswith(_LEFT_OUT_LABELS) for c in found]
    ordered = any(left_out) and for_a_day(sentence)  # the order's reading only where it counts
    kept = []
    for candidate, is_left_out in zip(found, left_out, strict=True):
        clause = _clause_of(sentence, candidate)
        if not candidate.protected and not (ordered and is_left_out) and (
            _a_moment(clause, candidate)
            or is_time_bound(clause, sentence.lower())
            or (near and candidate.polarity == "dislike")
            or _only_wanted_now(sentence, candidate)
            or (_ONLY_RE.match(candidate.content) and _near_by(sentence, clause))
        ):
            continue
        kept.append(candidate)
    return kept


__all__ = ["ONE_OCCASION_RE", "is_time_bound", "lasting"]
