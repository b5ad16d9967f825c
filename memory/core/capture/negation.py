"""Negation scope: ``no plastic cups`` after the user's like or want is a dislike.

A negator before a noun phrase, coordinated to or contrasted with the user's stance or request
in the same sentence (``I like tea but no sugar``, ``Order me a pizza, no anchovies``,
``…, hold the onions``), turns the user away
from that noun phrase; the words after the negator decide whether they name an object at all
(``no doubt``, ``not really``, ``not every day``, ``never go there`` name none).
"""

from __future__ import annotations

import re

from ...model import has_cjk
from .objects import Cut, cut_en, is_pronoun, resolve
from .orders import (
    EN_LEFT_OUT,
    EN_PREDICATE_RE,
    THIS_ONCE_RE,
    after_a_name,
    eaten,
    for_someone_else,
    opens_with_left_out,
)
from .rules import Rule
from .rules_en_evaluations import ME_NOT_DISLIKE
from .rules_en_kept import EN_BACK_FOR_GOOD, EN_KEEP_COMING_BACK, EN_UNQUIT
from .rules_zh import ZH_KEPT
from .stance import Context, Stance, negated_tail, repeated_stance

_EN_NEGATED_RE = re.compile(
    rf"^(?:(?:and|but|or|also|just|please|pls)\s+)?(?P<neg>no|not|never|{EN_LEFT_OUT})\s+"
    r"(?P<obj>\S.*)$", re.I
)
"""A clause that is only a negated object: ``no plastic cups`` (after "but", "and")."""
_EN_NEGATED_REJECT = frozenset(
    "a an the one doubt problem problems idea clue thanks thank way matter worries worry "
    "exceptions excuses regrets judgment judgement contest sweat shame comment comments "
    "really at all sure quite very too so that this these those it them me him her us you "
    "only just even always often ever again anymore any anything much many more longer "
    "necessarily exactly now today yet then when if because as in on at for to with by from "
    "about after before during until while since where why how what who bad big offense "
    "offence kidding joke wonder question questions rush hurry pressure chance "
    "exception biggie lately tonight tomorrow yesterday here there everything everyone "
    "everybody everywhere nothing nobody anyone anybody anywhere else enough stress fuss need "
    "preference later earlier sooner delay waiting wait particular strong issue issues specific "
    "excuses regrets complaints sweat cap".split()
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
_EN_LEFT_OUT_TAIL_RE = re.compile(
    r"(?:\s*,.*|\s+(?:in|on|from|for|with|at|to)\s+(?:my|our|the|your|this|that|any|all|it|them)\b.*|"
    r"\s+(?:please|pls|thx|thanks|lol|ever|today|tonight|tomorrow|this\s+(?:morning|afternoon|"
    r"evening|week|weekend)|going\s+forward|moving\s+forward|from\s+(?:now|here)\s+on|"
    r"by\s+default|in\s+(?:the\s+)?future|always|ever\s+again)\b.*)$",
    re.IGNORECASE,
)
"""Where an order leaves a thing out, and what follows it ("without the peas in my fried rice",
"no carpet please", "no bamboo shoots, and a coke", "without raisins this morning"): no part
of the thing."""
_EN_LEAVE_OUT_RE = re.compile(
    r"^\W*(?:(?:and|but|also|just|please|pls|always)\s+)*(?P<neg>leave)\s+(?P<obj>(?:(?!\b(?:off|out)\b)"
    r"[^,;.!?])+?)\s+(?:off|out)\b",
    re.IGNORECASE,
)
"""``leave the pickles off my burgers``, ``leave the garlic out of my meals``: left out."""
_NEGATED_RULE = Rule(re.compile(r"^"), "dislike", "doesn't want {obj}")

_EN_NEGATED_AVERSION_RE = re.compile(
    r"\b(?:don't|do\s+not|doesn't|didn't|never|not|won't|wouldn't|no\s+longer)\s+(?:really\s+|"
    r"actually\s+|"
    r"even\s+|particularly\s+|totally\s+)?(?:hate|dislike|mind|detest|loathe|despise|object\s+to|"
    r"resent)\b|\bnot\s+(?:against|opposed\s+to|averse\s+to|bothered\s+by)\b|"
    rf"\b(?:{ME_NOT_DISLIKE})\b",
    re.I,
)
_ZH_NEGATED_AVERSION_RE = re.compile(
    r"(?:不|并不|倒不|也不|从不|没有?)(?:太|怎么|是很|那么|这么|那样|这样|以前那么|原来那么)?(?:讨厌|反感|介意|排斥|嫌弃|抗拒|抵触|害怕|怕|紧张)"
)


def negated_aversion(clause: str) -> bool:
    """Whether a clause negates an aversion ("I don't mind cilantro", "I don't hate jazz",
    ``我不讨厌香菜``): at most a mild liking, never a dislike (the statement head, reading the
    aversion's words, put "I don't mind cilantro" at dislike 0.96)."""
    return bool((_ZH_NEGATED_AVERSION_RE if has_cjk(clause) else _EN_NEGATED_AVERSION_RE)
                .search(clause))  # fmt: skip


_EN_UNQUIT_RE = re.compile(EN_UNQUIT, re.IGNORECASE)
_EN_BACK_RE = re.compile(
    f"(?:{EN_BACK_FOR_GOOD})|(?:{EN_KEEP_COMING_BACK})".replace("?P<obj>", ""),
    re.IGNORECASE,
)
_ZH_KEPT_RE = re.compile(ZH_KEPT)
_EN_UNBROKEN_RE = re.compile(
    r"(?:n't|\bnot|\bnever)\s+(?:once\s+|ever\s+|really\s+|even\s+)?(?:(?:missed|skipped)\s+"
    r"(?:a|an|one|any|a\s+single)\s|"
    r"(?:gone|went|had|spent|let)\s+(?:a|one|an)\s+[\w-]+\s+(?:go\s+by\s+|pass\s+)?without)\b",
    re.IGNORECASE,
)
_ZH_UNBROKEN_RE = re.compile(
    r"(?:从来?)?没(?:有)?(?:断过|停过|落下过?|缺过|间断过?)|一(?:天|次|顿|回)都?没(?:断|停|落下|缺)"
)
_EN_ONLY_OPENING_RE = re.compile(
    r"^\W*(?:(?:and|so|now|but|yeah)\s+)*only\s+(?!(?:once|twice|\d+|one|two|when|if|on|at|in|"
    r"after|before|because|since|for|to|just|recently|now|yesterday|today|tried|had|ate|went|ever|"
    r"a\s+(?:few|little|bit|couple)|problem|thing|issue|downside|reason|way)\b)[a-z0-9]",
    re.IGNORECASE,
)
"""A clause that opens with what alone the user has ("Only Kirkland olive oil in my kitchen
since last year"): exclusivity, which the statement head read as quitting (0.84)."""


def kept(clause: str) -> bool:
    """Whether a clause says the user keeps something: a quit that does not happen ("still
    can't quit my Switch", "I'll never give up pizza", :data:`~.rules_en_kept.EN_UNQUIT`) or a
    choice come back to (``最后还是回到了黑轴``, :data:`~.rules_zh.ZH_KEPT`), or what alone the user
    has ("Only Kirkland olive oil in my kitchen since last year"), or a habit never broken
    ("haven't missed an episode of Bake Off since it started", "Haven't gone a night without
    my weighted blanket", ``几年没断过``): a like, never a change away (the statement head,
    reading the quitting or leaving words, put "I could never quit sugar" at quit, and
    ``回到了黑轴`` at 戒了)."""
    if has_cjk(clause):
        return bool(_ZH_KEPT_RE.search(clause) or _ZH_UNBROKEN_RE.search(clause))
    return bool(_EN_UNQUIT_RE.search(clause) or _EN_BACK_RE.search(clause)
                or _EN_ONLY_OPENING_RE.match(clause) or _EN_UNBROKEN_RE.search(clause))


_EN_NOT_YET_RE = re.compile(r"(?:n't|\bnot|\bnever)\b[^.!?;,]*\byet\b", re.IGNORECASE)
_ZH_NOT_YET_RE = re.compile(r"还没|还未|尚未|还不曾")


def not_yet(clause: str) -> bool:
    """Whether a clause says something has not happened yet ("haven't left Safari yet", "haven't
    tried sushi yet", ``吃了两年还没腻``): no quitting and no dislike (the statement head read
    the first as quitting Safari at 0.7)."""
    return bool((_ZH_NOT_YET_RE if has_cjk(clause) else _EN_NOT_YET_RE).search(clause))


def negated_stance(clause: str, context: Context, after_like: bool) -> Stance | None:
    """``no plastic cups`` after the user's like or want in the same sentence: a dislike.

    A negator before a noun phrase, coordinated to or contrasted with the user's
    stance ("I like tea but no sugar", "I want tea and no sugar"), turns the user
    away from that noun phrase. Idioms ("no doubt", "not really", "no problem")
    and phrases that are no object ("not when…", "not too sweet") yield nothing.
    """
    opening = not after_like and opens_with_left_out(clause, context.previous)
    if has_cjk(clause) or not (after_like or opening or after_a_name(clause, context.previous)):
        return None
    match = _EN_NEGATED_RE.match(clause) or _EN_LEAVE_OUT_RE.match(clause) or negated_tail(clause)
    if match is None:
        return None
    raw = repeated_stance(match.group("obj"))
    if for_someone_else(context.previous) or context.speaker == "other" and not re.match(
            r"\W*i\b", context.previous, re.I):  # not "I'd like X", which the rules misread
        return None  # "for my girlfriend: sushi, no wasabi", "get my son a burger, no pickles"
    if THIS_ONCE_RE.search(raw) or match.group("neg").lower() == "hold the" and re.search(
            r"\bfor\s+(?:me|us|later)\b", raw, re.I):  # "hold the receipt for me": keep it
        return None  # "I'll skip the cake this time", "no onions in mine today": one order
    neg = match.group("neg").lower()
    if neg not in ("not", "never"):  # what an order leaves out: "without a connection"
        raw = _EN_LEFT_OUT_TAIL_RE.sub("", raw if neg == "no" else re.sub(
            r"^(?:an?|any|the|all)\s+", "", raw, flags=re.I))
    if EN_PREDICATE_RE.search(raw):
        return None  # "no returns is a dealbreaker": a statement about it, no order
    if re.match(r"(?:more|less|fewer)\s+than\b", raw, re.I):
        return None  # an amount limit ("just no more than one a week"), not an object
    first = re.findall(r"[a-z']+", raw.lower())[:1]
    if not first or first[0] in _EN_NEGATED_REJECT or first[0].endswith("ly"):
        return None  # an idiom, a function word or an adverb ("not really", "not lately")
    if first[0] in _EN_MANNER_WORDS and match.group("neg").lower() in ("not", "never"):
        return None  # a manner, time or amount ("but not every day", "but never alone")
    if first[0] in _EN_COMMON_VERBS and match.group("neg").lower() in ("not", "never"):
        return None  # a verb phrase the stance table did not read ("but never go there")
    if first[0].endswith("ed") and match.group("neg").lower() == "never":
        return None  # a past verb ("switched to Linux and never looked back"), not a thing
    cut = cut_en(raw)
    if not cut.display or is_pronoun(cut.display) or opening and not eaten(cut.display):
        return None  # "Hold the door": no thing one buys
    obj = resolve(cut.display, False, context.antecedent)
    if obj is None:
        return None
    words = {"verb": "", "adj": "", "slot": "", "match": match.group(0)}
    return Stance(_NEGATED_RULE, words, "user", obj, "dislike", Cut(cut.display))


__all__ = ["kept", "negated_aversion", "negated_stance", "not_yet"]
