"""Reading one message: clauses to stances, stances to preference candidates.

Each clause is matched against the stance rules of its language; the first
match whose object can be resolved is the clause's stance. A stance becomes
one candidate per coordinated object, plus the objects it turns away from: the
one left in a switch ("switched from A to B"), the one compared against ("tea
over coffee"), the exception of a universal ("all vegetables except
eggplant"), each with the opposite polarity. Single-valued slots and
protection (allergies, intolerances) are marked on the candidate.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass, field, replace

from ...model import (
    Polarity,
    PreferenceCandidate,
    has_cjk,
    is_protected,
    is_retraction,
    to_simplified,
)
from ..blocks import strip_injected_blocks
from .categories import category_for, object_category
from .clauses import (
    Speaker,
    clause_speaker,
    clauses,
    en_prefix_speaker,
    is_question_or_hypothetical,
    sentences,
    zh_prefix_speaker,
)
from .keywords import en_singular, object_keywords
from .objects import (
    Cut,
    Object,
    avoidance,
    cut_en,
    cut_zh,
    is_pronoun,
    items,
    lower_sentence_start,
    mentioned,
    resolve,
    strip_zh_subject,
)
from .rules import Rule
from .rules_en import EN_TABLE
from .rules_zh import ZH_TABLE

logger = logging.getLogger(__name__)

RULE_CONFIDENCE = 0.6
"""Confidence of a rule-captured preference (below a tool call's default 0.7)."""

MAX_CAPTURE_CHARS = 20_000
"""Only this many characters of a message are read (capture sits on every turn's hot path)."""

_GERUND_RE = re.compile(
    r"(?:avoid|stay|steer|keep|shy|quitt|giv|cutt|limit|reduc|minimi[sz]|refus|enjoy|lov|gett|"
    r"skipp|switch|preferr|hat|lik)ing\b",
    re.IGNORECASE,
)
_NEGATOR_START_RE = re.compile(r"^(?:no|not|never|without)\s", re.IGNORECASE)
_OPPOSITE: dict[Polarity, Polarity] = {"like": "dislike", "dislike": "like"}
_SLOT_DROPPED = frozenset("new absolute all-time all time personal very my".split())
_SLOT_FAVOURITE = frozenset("favourite favorite fave fav".split())


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


def _comparative(rule: Rule, match: re.Match[str]) -> str:
    if not rule.comparative or rule.polarity != "like":
        return ""
    return "prefer" if "prefer" in match.group(0).lower() else "yes"


def _cut(match: re.Match[str], rule: Rule, clause: str, zh: bool) -> tuple[Cut, bool]:
    """The object's cut, and whether it starts its clause (capitals say nothing there)."""
    group = rule.group(match, "obj")
    raw = group if group is not None else clause[match.end() :]
    at_start = group is not None and not clause[: match.start("obj")].strip(" ,;")
    if zh:
        cut = cut_zh(raw, rule.comparative)
        return (replace(cut, display=strip_zh_subject(cut.display)) if group else cut), False
    cut = cut_en(raw, _comparative(rule, match))
    return (replace(cut, display=lower_sentence_start(cut.display)) if at_start else cut), at_start


def _words(match: re.Match[str], rule: Rule) -> dict[str, str]:
    verb = rule.group(match, "verb")
    return {
        "verb": verb.lower() if verb else match.group(0).strip(),
        "adj": (rule.group(match, "adj") or "").lower(),
        "slot": " ".join((rule.group(match, "slot") or "").split()),
        "match": match.group(0).strip(),
    }


def _old(match: re.Match[str], rule: Rule, zh: bool, context: Context) -> Object | None:
    raw = rule.group(match, "old")
    if not raw:
        return None
    display = strip_zh_subject(cut_zh(raw).display) if zh else cut_en(raw).display
    return resolve(display, zh, context.antecedent)


def _read_match(match: re.Match[str], rule: Rule, clause: str, context: Context) -> Stance | None:
    zh = has_cjk(clause)
    cut, initial = _cut(match, rule, clause, zh)
    polarity = rule.polarity
    if rule.elliptic:
        if cut.display:
            return None
        obj = context.antecedent if rule.reverses else context.mentioned
        if rule.reverses:
            if context.last_polarity is None:
                return None
            polarity = _OPPOSITE[context.last_polarity]
    else:
        if not zh and polarity == "like" and (rest := avoidance(cut.display)):
            cut, polarity, initial = Cut(rest), "dislike", False
            rule = replace(rule, label="avoids {obj}", comparative=False)
        if rule.pronoun_only and not is_pronoun(cut.display):
            return None
        obj = resolve(cut.display, zh, context.antecedent, initial)
    if obj is None or (rule.no_possessive and obj.display.lower().startswith("my ")):
        return None
    prefix = clause[: match.start()]
    speaker = zh_prefix_speaker(prefix, rule) if zh else en_prefix_speaker(prefix, rule)
    if rule.third_person:
        speaker = "other"
    elif speaker == "unknown" and not context.in_sentence and _GERUND_RE.match(match.group(0)):
        return None  # "avoiding X could be hard": a gerund subject, not a statement
    old = _old(match, rule, zh, context)
    return Stance(rule, _words(match, rule), speaker, obj, polarity, cut, old)


def _stance(clause: str, context: Context) -> Stance | None:
    """The first stance in a clause whose object can be resolved."""
    for match, rule in (ZH_TABLE if has_cjk(clause) else EN_TABLE).matches(clause):
        if stance := _read_match(match, rule, clause, context):
            return stance
    return None


def slot_key(slot: str) -> str | None:
    """The normalised name of a single-valued slot (``favourite authors`` → ``favorite author``).

    Args:
        slot: The slot as the user wrote it (``"all-time favourite band"``,
            ``"current phone"``, ``"最喜欢的作家"``).

    Returns:
        Lower case, "favourite"/"fave" spelled ``favorite``, modifiers such as
        "all-time" dropped, the noun singular; None when no noun is left.
    """
    if has_cjk(slot):
        return "".join(slot.split()).replace("目前", "现在") or None
    words = [w for w in slot.lower().split() if w not in _SLOT_DROPPED]
    words = ["favorite" if w in _SLOT_FAVOURITE else w for w in words]
    if "favorite" in words:
        words = words[words.index("favorite") :]
    if len(words) < 2:
        return None
    return " ".join([*words[:-1], en_singular(words[-1])])


def _format(label: str, stance: Stance, obj: str, old: str = "") -> str:
    text = label.format(obj=obj.strip(), old=old.strip(), **stance.words)
    return " ".join(text.split())


def _candidate(
    stance: Stance, content: str, polarity: Polarity, item: str, index: int, slot: str | None
) -> PreferenceCandidate | None:
    keywords = object_keywords(item)
    if not keywords:
        return None
    zh = has_cjk(item)
    category = (
        category_for(keywords)
        if zh
        else object_category(item, keywords, stance.obj.initial and index == 0)
    )
    return PreferenceCandidate(
        content=content,
        polarity=polarity,
        keywords=keywords,
        category=category,
        confidence=RULE_CONFIDENCE,
        source="rule",
        slot=slot,
        protected=is_protected(content, polarity),
    )


def _turned_away(stance: Stance) -> list[tuple[str, str]]:
    """(content, item) of the objects a like turns away from: left, compared against, excepted."""
    found: list[tuple[str, str]] = []
    rule, cut = stance.rule, stance.cut
    whole = stance.obj.display
    if stance.old is not None:
        content = _format(rule.old_label, stance, whole, stance.old.display)
        found += [(content, item) for item in items(stance.old)]
    if stance.polarity != "like":
        return found
    main = _format(rule.label, stance, whole, stance.old.display if stance.old else "")
    joiner = "" if stance.obj.zh else " "
    for tail, word in ((cut.contrast, cut.contrast_word), (cut.exception, "except")):
        if not tail or is_pronoun(tail):
            continue
        tail_obj = Object(tail, zh=stance.obj.zh)
        found += [(f"{main}{joiner}{word}{joiner}{item}", item) for item in items(tail_obj)]
    return found


def candidates(stance: Stance) -> list[PreferenceCandidate]:
    """The candidates one stance of the user yields (empty when no object has keywords)."""
    parts = items(stance.obj)
    if stance.polarity == "like":  # "likes no sugar" would store the opposite of what was said
        parts = [p for p in parts if not _NEGATOR_START_RE.match(p)]
    slot = slot_key(stance.words["slot"]) if stance.words["slot"] and len(parts) == 1 else None
    old = stance.old.display if stance.old else ""
    found = [
        _candidate(
            stance, _format(stance.rule.label, stance, item, old), stance.polarity, item, i, slot
        )
        for i, item in enumerate(parts)
    ]
    opposite = _OPPOSITE[stance.polarity]
    found += [
        _excepted_allergy(_candidate(stance, content, opposite, item, 1, None))
        for content, item in _turned_away(stance)
    ]
    return [c for c in found if c is not None]


def _excepted_allergy(candidate: PreferenceCandidate | None) -> PreferenceCandidate | None:
    """The exception of a retraction (``not allergic to anything except peanuts``) is an allergy."""
    if candidate is None or candidate.polarity != "dislike" or not is_retraction(candidate.content):
        return candidate
    return candidate.model_copy(update={"protected": True})


_EN_NEGATED_RE = re.compile(
    r"^(?:(?:and|but|or)\s+)?(?P<neg>no|not|never|without)\s+(?P<obj>\S.*)$", re.I
)
"""A clause that is only a negated object: ``no plastic cups`` (after "but", "and")."""
_EN_NEGATED_REJECT = frozenset(
    "a an the one doubt problem problems idea clue thanks thank way matter worries worry "
    "really at all sure quite very too so that this these those it them me him her us you "
    "only just even always often ever again anymore any anything much many more longer "
    "necessarily exactly now today yet then when if because as in on at for to with by from "
    "about after before during until while since where why how what who bad big offense "
    "offence kidding joke wonder question questions rush hurry pressure chance "
    "exception biggie lately tonight tomorrow yesterday here there everything everyone "
    "everybody everywhere nothing nobody anyone anybody anywhere else enough".split()
)
_EN_COMMON_VERBS = frozenset(
    "drink drinking eat eating go going use using buy buying wear wearing take taking have "
    "having do doing get getting make making like liking love loving want need watch read "
    "listen play cook travel fly drive see be being been feel mind care know think".split()
)
"""After "not"/"never" these start a verb phrase ("never drink it late"), not an object."""
_EN_MANNER_WORDS = frozenset(
    "every each all both either neither alone together loud quiet late early big small long "
    "short hot cold warm spicy sweet salty sour bitter strong weak expensive cheap new old "
    "fast slow far near daily weekly monthly".split()
)
"""After "not" these say how, when or how much ("not every day", "not alone", "not loud"),
not what the user turns away from."""
_EN_WANT_RE = re.compile(
    r"^(?:(?:and|but|so|oh|well|also|just|please)\s+)*i(?:\s+|(?='))(?:(?:really|just|also|only|"
    r"usually|always)\s+)?(?:want|need|'d\s+like|would\s+like|'ll\s+have|'ll\s+take|"
    r"will\s+have|will\s+take|(?:'d|would)\s+(?:rather|prefer)|order)\b",
    re.IGNORECASE,
)
"""``I want tea``: a request names what the user wants, so ``but no sugar`` is a dislike.

Plain "I have / I get" state a situation ("I have a dog but no cat"), not a want.
"""
_NEGATED_RULE = Rule(re.compile(r"^"), "dislike", "doesn't want {obj}")


def _negated(clause: str, context: Context, after_like: bool) -> Stance | None:
    """``no plastic cups`` after the user's like or want in the same sentence: a dislike.

    A negator before a noun phrase, coordinated to or contrasted with the user's
    stance ("I like tea but no sugar", "I want tea and no sugar"), turns the user
    away from that noun phrase. Idioms ("no doubt", "not really", "no problem")
    and phrases that are no object ("not when…", "not too sweet") yield nothing.
    """
    if not after_like or has_cjk(clause):
        return None
    match = _EN_NEGATED_RE.match(clause)
    if match is None:
        return None
    raw = match.group("obj")
    first = re.findall(r"[a-z']+", raw.lower())[:1]
    if not first or first[0] in _EN_NEGATED_REJECT or first[0].endswith("ly"):
        return None  # an idiom, a function word or an adverb ("not really", "not lately")
    if first[0] in _EN_MANNER_WORDS and match.group("neg").lower() in ("not", "never"):
        return None  # a manner, time or amount ("but not every day", "but never alone")
    if first[0] in _EN_COMMON_VERBS and match.group("neg").lower() in ("not", "never"):
        return None  # a verb phrase the stance table did not read ("but never go there")
    cut = cut_en(raw)
    if not cut.display or is_pronoun(cut.display):
        return None
    obj = resolve(cut.display, False, context.antecedent)
    if obj is None:
        return None
    words = {"verb": "", "adj": "", "slot": "", "match": match.group(0)}
    return Stance(_NEGATED_RULE, words, "user", obj, "dislike", Cut(cut.display))


def _read_clause(clause: str, context: Context) -> None:
    wants, context.wants = context.wants, False
    stance = _stance(clause, context)
    if stance is None and (negated := _negated(clause, context, wants)):
        context.antecedent = context.mentioned = negated.obj
        context.wants = True  # "I like tea but no sugar and no milk"
        context.found.extend(candidates(negated))
        return
    if stance is None:
        speaker = clause_speaker(clause)
        if speaker != "unknown":
            context.speaker = speaker
        context.wants = not has_cjk(clause) and bool(_EN_WANT_RE.match(clause))
        context.mentioned = mentioned(clause, has_cjk(clause)) or context.mentioned
        return
    context.antecedent = context.mentioned = stance.obj
    speaker = stance.speaker
    if speaker == "unknown":
        speaker = context.speaker if context.speaker != "stale" else "user"
    context.speaker = speaker
    if stance.rule.topic:
        return
    context.last_polarity = stance.polarity
    context.in_sentence = True
    if speaker == "user":
        context.wants = stance.polarity == "like"
        found = candidates(stance)
        if stance.polarity == "dislike" and is_retraction(clause):
            # ``我对花生过敏好了`` / ``my allergy is gone``: the allergy is over, not stated.
            found = [c for c in found if c.polarity != "dislike"]
        context.found.extend(found)


def _head(text: str) -> str:
    """At most :data:`MAX_CAPTURE_CHARS` of a text, cut after a whole sentence."""
    if len(text) <= MAX_CAPTURE_CHARS:
        return text
    logger.debug("capture reads the first %d of %d characters", MAX_CAPTURE_CHARS, len(text))
    head = text[:MAX_CAPTURE_CHARS]
    ends = [head.rfind(mark) for mark in ".!?。！？\n"]
    return head[: max(ends) + 1] if max(ends) > 0 else ""


_WHITESPACE_RUN_RE = re.compile(r"\s+")


def _one_space(run: re.Match[str]) -> str:
    """A run of whitespace as one character: a line break if it holds one, else a space."""
    return "\n" if "\n" in run.group(0) else " "


def _prepare(text: str) -> str:
    """NFKC, straight quotes, no zero-width space, each whitespace run one character.

    Collapsing the runs keeps every clause rule linear: many of them start with ``\\s+``,
    which costs quadratic time on a long run of blanks (20,000 spaces took 8 s).
    """
    text = unicodedata.normalize("NFKC", _head(strip_injected_blocks(text)))
    text = text.replace("’", "'").replace("‘", "'").replace("\u200b", "")
    text = _WHITESPACE_RUN_RE.sub(_one_space, text)
    return to_simplified(text) if has_cjk(text) else text


def _latest_per_object(found: list[PreferenceCandidate]) -> list[PreferenceCandidate]:
    """Within one message the last stance on an object wins (``I like X… actually I hate X``)."""
    latest: dict[frozenset[str], PreferenceCandidate] = {}
    for candidate in found:
        key = frozenset(candidate.keywords)
        latest.pop(key, None)
        latest[key] = candidate
    return list(latest.values())


def extract_preferences(text: str) -> list[PreferenceCandidate]:
    """Find the user's own stated preferences in one message, without a model.

    Penchant's injected blocks are stripped first (a recalled memory is never
    captured again). Questions, requests, hypotheticals, reactions to the
    assistant's suggestions, other people's preferences and stances the user
    has left behind ("I used to like …") yield nothing; "used to like X, now I
    hate it" yields the current stance. A switch, a comparison or an exception
    also yields the object turned away from, with the opposite polarity.

    Args:
        text: One user message, English and/or Chinese.

    Returns:
        Candidates with ``source="rule"`` and confidence :data:`RULE_CONFIDENCE`,
        in message order, at most one per object, each with ``slot`` (a
        single-valued slot such as ``"favorite author"``, else None) and
        ``protected`` (an allergy or intolerance) set; empty when the message
        states no first-person preference.
    """
    context = Context()
    for sentence in sentences(_prepare(text or "")):
        if is_question_or_hypothetical(sentence):
            continue
        context.speaker, context.in_sentence, context.wants = "user", False, False
        for clause in clauses(sentence):
            _read_clause(clause, context)
    found = _latest_per_object(context.found)
    logger.debug("rule capture found %d candidate(s)", len(found))
    return found


__all__ = ["MAX_CAPTURE_CHARS", "RULE_CONFIDENCE", "extract_preferences", "slot_key"]
