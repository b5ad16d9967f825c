"""What a clause says once read, what a message has established, and clauses that say it again.

:class:`Stance` is one clause's reading before it becomes candidates; :class:`Context` carries
the antecedent and speaker from clause to clause. :func:`elliptic` reads a clause that repeats
the previous clause's verb without its object, turned the other way: ``I didn't like X before,
but I do now`` (a like of X), ``I used to love X, not anymore`` / ``…, but I don't these days``
(a dislike of X). Rules (English): the auxiliary alone, with a word of time, names no object;
the object is the antecedent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ...model import Polarity, PreferenceCandidate
from .antecedents import Reach
from .clauses import Speaker
from .objects import Cut, Object
from .rules import Rule


@dataclass(frozen=True)
class Stance:
    """A matched stance before it becomes candidates.

    Attributes:
        rule: The rule that matched.
        words: Words of the match shown in content (``verb``, ``adj``, ``slot``, ``match``).
        speaker: Who states it, from the words before the verb.
        obj: What it is about.
        polarity: Its polarity (a rule's, or flipped by "prefer to avoid").
        cut: The object's tails (compared-against object, exception).
        old: The object left for ``obj`` in a switch, if any.
    """

    rule: Rule
    words: dict[str, str]
    speaker: Speaker
    obj: Object
    polarity: Polarity
    cut: Cut
    old: Object | None = None


@dataclass
class Context:
    """What one message has established so far (antecedent, current speaker)."""

    antecedent: Object | None = None
    mentioned: Object | None = None  # the last object named, with or without a stance
    speaker: Speaker = "user"
    last_polarity: Polarity | None = None
    in_sentence: bool = False  # a stance of this sentence came before ("…, avoiding X")
    wants: bool = False  # the clause before was the user's like or want ("I like X but no Y")
    found: list[PreferenceCandidate] = field(default_factory=list)
    previous: str = ""  # the clause before, in this sentence ("" at a sentence's start)
    topic: Object | None = None  # what the clause before is about ("X闻着香，我超爱")
    reason: bool = False  # the clause gives the reason for the one before ("…, as it…")
    contrast: bool = False  # the clause stands against the one before ("…, but it…")
    reach: Reach = "nearest"  # where this sentence's pronouns point (antecedents.py)


_TIME = r"(?:now|these\s+days|nowadays|today|lately|again|any\s*more|any\s+longer)"
_TAIL = (
    r"(?:\s+(?:lol|haha|though|too|for\s+sure|to\s+be\s+honest|tbh|honestly|these\s+days|"
    r"nowadays|lately|anymore))*\W*$"
)
_EN_ELLIPTIC_LIKE_RE = re.compile(
    rf"^(?:(?:and|but|yet|though|well)\s+)*(?P<lead>(?:now|these\s+days|nowadays)\s*,?\s+)?i\s+"
    rf"(?:(?:really|actually|totally|definitely|sure|kinda|kind\s+of|do)\s+)*(?:do)"
    rf"(?P<time>(?:\s+{_TIME})*){_TAIL}",
    re.IGNORECASE,
)
_EN_ELLIPTIC_DISLIKE_RE = re.compile(
    rf"^(?:(?:and|but|yet|though|well)\s+)*(?:(?:not|no)\s+(?:(?:so\s+much|really|much)\s+)?"
    rf"(?:any\s*more|any\s+longer|longer|these\s+days|nowadays)|no\s+longer|never\s+again|"
    rf"(?:now\s+)?i\s+(?:don't|do\s+not|am\s+not|'m\s+not|can't|no\s+longer\s+do)"
    rf"(?:\s+{_TIME})+){_TAIL}",
    re.IGNORECASE,
)


_EN_STILL_RE = re.compile(
    r"^(?:(?:and|but|yet|well|honestly|tbh)[\s,]+)*(?:i\s+)?still\s+do(?:\s+(?:now|today|to\s+"
    r"this\s+day))?\W*$",
    re.IGNORECASE,
)


def persists(clause: str) -> bool:
    """Whether a clause only says the previous clause's stance holds still ("Hated spicy food
    as a kid, and honestly I still do"): its polarity, now, not turned."""
    return bool(_EN_STILL_RE.match(clause.strip()))


def elliptic(clause: str) -> Polarity | None:
    """The polarity of a clause that only repeats the previous verb (see the module doc).

    Args:
        clause: One clause.

    Returns:
        ``"like"`` for ``I do now`` / ``now I do``, ``"dislike"`` for ``not anymore`` /
        ``I don't these days``; None for any other clause (an affirmative needs a word of
        time: ``…, but I do`` alone may answer anything).
    """
    text = clause.strip().replace("\u2019", "'")
    if (m := _EN_ELLIPTIC_LIKE_RE.match(text)) and (m["time"].strip() or m["lead"]):
        return "like"
    if _EN_ELLIPTIC_DISLIKE_RE.match(text):
        return "dislike"
    return None


_EN_NEGATED_TAIL_RE = re.compile(
    r"^(?:(?:and|but)\s+)?(?P<obj>[a-z][\w' &-]{0,40}?)\s*,?\s+(?P<neg>not)\s+(?:so\s+much|really|"
    r"at\s+all|as\s+much|much|so\s+keen|for\s+me|my\s+thing|so\s+great|a\s+chance)" + _TAIL,
    re.IGNORECASE,
)
_EN_LESS_SO_RE = re.compile(
    r"^(?:(?:and|but)\s+)?(?P<obj>[a-z][\w' &-]{0,40}?)\s*,?\s+(?P<neg>less\s+so|no\s+way|nope|"
    r"no\s+thanks)" + _TAIL,
    re.IGNORECASE,
)
_EN_REPEATED_STANCE_RE = re.compile(
    r"^(?:(?:so|that|really|very|too|much|a|big|huge)\s+)*(?:fan\s+of|keen\s+on|fond\s+of|into|"
    r"big\s+on|crazy\s+about|mad\s+about|of)\s+",
    re.IGNORECASE,
)


def negated_tail(clause: str) -> re.Match[str] | None:
    """``coffee not so much`` / ``golf, not really`` / ``tea less so``: an object turned away
    from by a tail (read after the user's like in the same sentence); groups ``obj``, ``neg``."""
    text = clause.strip().replace("\u2019", "'")
    return _EN_NEGATED_TAIL_RE.match(text) or _EN_LESS_SO_RE.match(text)


def repeated_stance(raw: str) -> str:
    """The object of ``not into Y`` / ``not a fan of Y`` / ``not of Y``: the stance words the
    clause repeats from the like before it are no part of the object."""
    return _EN_REPEATED_STANCE_RE.sub("", raw.strip(), count=1)


def turned_to_topic(stance: Stance, topic: Object | None, context: Context) -> Stance:
    """An object-less Chinese dislike right after a clause that names something new, in a
    sentence whose stance so far is a like (``浏览器我一直用火狐，chrome吃内存太狠了，受不了``),
    or an object-less stance of either polarity after a clause that is only that thing
    (``我不吃香菜，芹菜，也不吃``, ``华为，我不喜欢，苹果，我喜欢``): it is of what that clause
    names first, not of the antecedent (火狐, 香菜, 华为). Not an elliptic allergy, nor a thing
    named later in the clause (``现在戴一会儿眼睛就干，不碰了``).

    Args:
        stance: The clause's stance, its object resolved to the antecedent when it named none.
        topic: What the clause before named without a stance, if anything.
        context: The message so far.

    Returns:
        ``stance`` with ``topic`` as its object in that case, else ``stance`` as it is.
    """
    if (
        topic is None or not topic.zh or stance.cut.display or stance.rule.elliptic
        or not context.in_sentence or stance.obj != context.antecedent
        or topic == context.antecedent
    ):
        return stance
    bare = context.previous.strip(" ，,") == topic.display  # 华为，我不喜欢，苹果，我喜欢
    after_like = stance.polarity == "dislike" and context.last_polarity == "like" and (
        context.previous.lstrip().startswith(topic.display))
    return replace(stance, obj=topic) if bare or after_like else stance


def latest_per_object(found: list[PreferenceCandidate]) -> list[PreferenceCandidate]:
    """Within one message the last stance on an object wins (``I like X… actually I hate X``),
    but never over an allergy: a like of it is kept beside it (the gate flags the pair), a plain
    dislike of it adds nothing (``我对虾过敏，但是我很喜欢吃虾``)."""
    latest: dict[frozenset[str], PreferenceCandidate] = {}
    beside: list[PreferenceCandidate] = []
    for candidate in found:
        key = frozenset(candidate.keywords)
        if (before := latest.get(key)) is not None and before.protected and not candidate.protected:
            if candidate.polarity == "like":
                beside.append(candidate)
            continue
        latest.pop(key, None)
        latest[key] = candidate
    return list(latest.values()) + beside


__all__ = [
    "Context", "Stance", "elliptic", "latest_per_object", "negated_tail", "persists",
    "repeated_stance", "turned_to_topic",
]
