"""What a pronoun can point back to in a clause that states no stance: the thing a person
did something with (``My sister gave me a scarf and I hate it``, ``We use Jira at work and I
really like it``).

Without it a later ``it`` went back past that thing to an older antecedent, and stored a
flip of a preference the user never mentioned again: ``I love tea. My sister gave me a
scarf and I hate it`` had stored a dislike of tea. A pronoun takes the nearest thing it can
name (the recency of centering theory's backward-looking centre, Grosz, Joshi & Weinstein
1995, "Centering: a framework for modeling the local coherence of discourse",
Computational Linguistics 21(2)); a clause's subject, where it is a thing and not a person,
is taken first (:func:`~.objects.leading_subject`). Where the thing's words do not make a
clean object (a time, a person, a clause: ``My boss called me at 9pm and I hate it``), the
older antecedent is dropped all the same, and the pronoun names nothing; so too where ``it``
points forward (``I hate it when…``). A diary's clause with its subject left out (``Tried
Linear at work…``) is the user's; in Chinese, another person's clause and a one-off event
(``上周去了那家新开的奶茶店``) hand their thing, and an event told with its day that names
none leaves nothing (``昨天邻居装修了一整天，受不了``).
"""

from __future__ import annotations

import re
from typing import Literal

from ...model import has_cjk
from .clauses import ZH_PAST_RE, clause_speaker, close_person_zh
from .keywords import object_keywords
from .lexicons import EN_PEOPLE_RE, STOP_WORDS
from .objects import Object, cut_en, is_pronoun
from .segment import tag, tagged_noun_runs

_EN_DONE_WITH_RE = re.compile(
    r"^\W*(?:(?:and|but|so|then|also|just|recently|finally|yesterday|today|last\s+\w+)"
    r"[\s,]+)*"
    r"(?:i|we|you|he|she|they|mom|mum|dad|"
    r"(?P<owned>(?:my|our|his|her|their)(?:\s+[a-z]+){1,2}?))\s+"
    r"(?:(?:'ve|have|has|had|'d|just|finally|recently|also|been|first|once|always|often|"
    r"usually|sometimes)\s+)*"
    r"(?P<verb>[a-z]+)\s+"
    r"(?:(?:me|us|him|her|them|to|at|in|on|into|with|out|up|home|back|over|along|down)\s+)?"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
"""A person (the user or another) doing something with a thing: the subject, auxiliaries and
adverbs, one verb, an indirect object or particle, then what is done with. A subject of two
words after ``my`` (``My best friend recommended…``) is taken where the first is no verb."""

_EN_ON_RE = re.compile(
    r"^\W*(?:(?:at\s+(?:work|home|school|the\s+office)|these\s+days|now|so|and|but)[\s,]+)*"
    r"(?:i|we|they)(?:'re|'m|\s+are|\s+am)\s+(?:(?:still|now|all|mostly|currently|also)\s+)*"
    r"on\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
"""Being on a thing, as one is on a platform or a tool one uses (``we're on Slack``)."""

_EN_ELIDED_RE = re.compile(
    r"^\W*(?:(?:and|but|so|then|also|just|recently|finally|yesterday|last\s+\w+)[\s,]+)*"
    r"(?=(?:[a-z]+ed|saw|went|got|bought|took|read|ate|drank|wore|gave|made|met|rode|flew|"
    r"drove|ran|caught|began|brought|sent|won|lost|heard|paid|sat|slept|spent|built)\s)",
    re.IGNORECASE,
)
"""A clause that opens with a verb of the past, its subject (the user) left out as in a diary
(``Tried Linear at work last sprint``, ``Went to Lisbon in May``)."""

_EN_PARTICIPLE_RE = re.compile(
    r"(?!(?:went|ate|stayed|listened|switched|moved|flew|travell?ed|signed|checked|dined|"
    r"shopped|got)\s)[a-z]+ed\s+(?:with|in|on|by|into|under|over|for|from|at|to|and)\b",
    re.IGNORECASE,
)
"""A participle that qualifies what the sentence goes on to name (``Roasted with bacon,
they're my favourite``), not a verb of the user's with its subject left out: a verb in -ed
before a preposition, other than one of going, eating or staying somewhere."""


def _participle(words: str) -> bool:
    """Whether a clause opening with a verb in the past opens with a participle instead."""
    return bool(_EN_PARTICIPLE_RE.match(words))


_NOT_DONE_WITH = frozenset(
    """
    am is are was were be being 'm 's 're do does did don't doesn't didn't can can't could
    will won't would should must may might shall not never want wanted wants need needs
    needed like likes liked love loves loved hate hates hated prefer prefers preferred enjoy
    enjoys enjoyed think thinks thought say says said told tell tells know knows knew feel
    feels felt guess hope hoped wish wished believe believes believed mean means meant
    realise realised realize realized notice noticed hear see learn learned
    learnt find found decide decided announce announced
    used going gonna wanna try trying no still for of about as
    """.split()
)
"""Verbs after which what follows is no thing done with: a copula or auxiliary, a modal, a
stance (a stance clause is read by the rules, not here), a verb of saying, thinking or
finding out (a clause follows), ``used to``; a word that is no verb (``I no longer mind…``,
``My love for mayo…``; and every stop word, :data:`~.lexicons.STOP_WORDS`)."""

_EN_ADJUNCT_RE = re.compile(
    r"(?:^|\s+)(?:at|in|on|for|from|with|during|last|this|every|each|all|yesterday|today|"
    r"tonight|since|when|while|because|and|but|so|again|once|twice|constantly|"
    r"the\s+other\s+day|over\s+the|an?\s+(?:shot|try|go|whirl|chance))\b.*$",
    re.IGNORECASE,
)
"""Where the thing's words end: a place, a time or a conjunction (``Jira at work``), or
the trial of it (``gave oat milk a shot``)."""
_EN_ARTICLE_RE = re.compile(r"^(?:a|an|the|some|this|that|these|those)\s+", re.IGNORECASE)
_EN_NO_THING_RE = re.compile(
    r"\d|\b(?:me|us|you|him|her|them|my|our|your|his|their|i|i'm|we|we're|we'd|they|he|she|"
    r"it|it's|that|what|how|if|whether|late|early|overtime|one|two|three|four|five|six|"
    r"ten|few|several|hours?|minutes?|days?|weeks?|months?|years?|am|pm)\b",
    re.IGNORECASE,
)
"""Words after the verb that make no thing one has a taste for: a person or a pronoun, a
clause (``…announced that we're going back…``), a time or an amount of it."""
_DEMONSTRATIVES = frozenset("this that these those".split())
"""Pronouns that are determiners before a noun (``that new club``)."""
_NOT_A_NOUN = frozenset("too a lot much often every always all yesterday today ago".split())
"""Words after a demonstrative that start no noun: it stands alone (``I had that too``)."""
_QUANTIFIERS = frozenset("some any one more both all another few lots".split())
"""A determiner standing for a thing named before (``She bought some``): a pronoun."""
_EN_FORWARD_IT_RE = re.compile(r"\bit\s+(?:when|whenever|if|that|how|because)\b", re.IGNORECASE)
"""An ``it`` that points to a clause after it (``I hate it when it snows``)."""


def _a_noun(word: str) -> bool:
    """Whether the word after a demonstrative may start the noun it determines (``that new
    club``), not a time, a place or a manner (``I had that at dinner``, ``that too``)."""
    return not (
        _EN_ADJUNCT_RE.match(f" {word}") or word in _NOT_A_NOUN or word.endswith("ly")
    )


def done_with(clause: str) -> tuple[bool, Object | None]:
    """Whether an English clause says a person did something with something, and the thing,
    as a pronoun's antecedent (``We got a Roomba last month`` → ``Roomba``).

    Args:
        clause: One clause with no stance in it.

    Returns:
        ``(said, thing)``: ``said`` is False for Chinese, a clause of another shape or one
        whose words after the verb open with a pronoun (``I drink it daily``: the pronoun
        goes on pointing where it did); ``thing`` is the object (cut as a stance's object
        is, :func:`~.objects.cut_en`), None where the words name no clean thing (a person,
        a time, a clause), which leaves a later pronoun without an antecedent.
    """
    if has_cjk(clause):
        return _done_with_zh(clause)
    if (on := _EN_ON_RE.match(clause)) is not None:  # "At work we're on Jira": using it
        clause = f"I use {on['rest']}"
    if (elided := _EN_ELIDED_RE.match(clause)) is not None and not _participle(
        clause[elided.end() :]
    ):  # "Tried Linear…": the user's
        clause = f"I {clause[elided.end():]}"
    match = _EN_DONE_WITH_RE.match(clause)
    if match is not None and (
        EN_PEOPLE_RE.fullmatch(match.group("verb"))
        or (
            match.group("owned")
            and match.group("verb").lower() not in STOP_WORDS
            and match.group("rest").split()[0].lower().endswith("ed")
        )
    ):  # "My little sister gave me…", "Our new manager introduced…": the verb is one on
        match = _EN_DONE_WITH_RE.match(f"I {match.group('rest')}")
    verb = "" if match is None else match.group("verb").lower()
    if verb == "used" and match and not re.match(r"\s*to\b", match.string[match.end("verb") :]):
        verb = "use"  # "I used Notion for a while", not "I used to…"
    if match is None or verb in _NOT_DONE_WITH or verb in STOP_WORDS:
        return False, None
    rest = match.group("rest")
    first, *after = rest.lower().split()
    if is_pronoun(first) and not (first in _DEMONSTRATIVES and after and _a_noun(after[0])):
        return False, None  # "I drink it daily"; not "We went to that new club"
    words = _EN_ADJUNCT_RE.sub("", cut_en(rest).display)
    if words.lower() in _QUANTIFIERS:
        return False, None  # "She bought some and I hate it": *some* is a pronoun here
    display = _EN_ARTICLE_RE.sub("", words)
    if not display or _EN_NO_THING_RE.search(display) or EN_PEOPLE_RE.search(display):
        return True, None
    return True, (Object(display, zh=False) if object_keywords(display) else None)


_ZH_KEEPS_OLDER_RE = re.compile(r"[没不别未它]")
"""What keeps a Chinese clause from handing a pronoun anything: a negation or prohibition
(``我老公没买空气炸锅``, ``我妈不让我吃冰淇淋``: nothing was done with it) or a pronoun of its
own (``每天给它买罐头``: the older thing goes on)."""
_ZH_NO_THING_RE = re.compile(r"小时|分钟|[天年月周]$|假$")
"""A time or an amount of it taken for a noun (``站了一个小时``, ``装修了一整天``): no thing."""
_ZH_ASPECT = frozenset("了 过 完".split())
"""The marks of a verb done once (``去了``, ``吃过``, ``看完``)."""

_ZH_DAY_RE = re.compile(r"(?:刚才|刚刚|上周|上个?月|昨天|昨晚|前天|前几天|前两天|上次|周末|今天)")
"""A day the clause is told on, where the segmenter tags it as no time word (``刚去``)."""


def _done_with_zh(clause: str) -> tuple[bool, Object | None]:
    """:func:`done_with` of a Chinese clause of another person (``我姐送了我一条围巾`` →
    ``围巾``) or of a one-off event, a verb with 了, 过 or 完: the last noun phrase after it,
    unless it is a person or a time (``上周去了那家新开的奶茶店`` → ``奶茶店``), else the place
    it happened at (``前天在楼下那家兰州拉面吃了一碗`` → ``兰州拉面``). An event told with its
    day (``昨天…``) that names no thing, or whose subject is named before the verb
    (``学校组织了一次春游``: the subject's act, not the user's), still leaves the pronoun
    nothing: what follows is about that day, not the older thing (``我喜欢安静。昨天邻居装修
    了一整天，受不了`` had stored a dislike of quiet).

    Not the user's clause told in a then-and-now (``我以前不喜欢跑步，后来加入了一个跑团，
    现在爱上它了``: *它* is running), nor one without an event (``我每天喝``, ``喝了一口`` after
    the thing: no day, the thing before goes on)."""
    if _ZH_KEEPS_OLDER_RE.search(clause):
        return False, None
    tagged = tag(clause)
    done = next((i for i, (word, flag) in enumerate(tagged)  # not a final 了: a change of state
                 if 0 < i < len(tagged) - 1 and word in _ZH_ASPECT and flag[0] in "uv"
                 and not tagged[i - 1][1].startswith("n")), None)  # fmt: skip
    verb = done - 1 if done is not None else next(
        (i for i, (_, flag) in enumerate(tagged) if flag.startswith("v")), None)
    if verb is None:
        return False, None
    placed = next((i for i, (_, flag) in enumerate(tagged[:verb]) if flag == "p"), verb)
    subject = any(flag.startswith("n") and flag != "ns" for _, flag in tagged[:placed])
    dated = tagged[0][1] == "t" or _ZH_DAY_RE.match(clause) is not None
    other = clause_speaker(clause) == "other"
    own = done is not None and not subject and not ZH_PAST_RE.search(clause) and (
        "后来" not in clause)
    if not (other or own or (done is not None and dated)):
        return False, None
    runs = tagged_noun_runs(tagged[verb + 1 :])
    if not runs and own:  # the place it happened at: 在楼下那家兰州拉面吃了…
        runs = tagged_noun_runs(tagged[placed + 1 : verb])
    if not runs or close_person_zh(f"我{runs[-1]}") or _ZH_NO_THING_RE.search(clause) or (
        subject and not other
    ):  # a person (我 + it reads as one), a time, or the act of a subject named before
        return (True, None) if dated else (False, None)
    return True, Object(runs[-1], zh=True)


_OLDER_THING_RE = re.compile(
    r"\b(?:even\s+more|all\s+the\s+more|more\s+than\s+ever|more\s+and\s+more|still)\b|"
    r"更|还是|依然|仍然|越来越|一如既往",
    re.IGNORECASE,
)
"""A stance said again of the older thing, now more or still (``I love my job. My boss gave
me a raise and I love it even more``): the pronoun goes back past the nearer thing."""

Reach = Literal["nearest", "older", "forward"]


def pronoun_reach(sentence: str) -> Reach:
    """Where a pronoun of the sentence points: ``forward`` to a clause after it (``I hate it
    when it snows``), ``older`` past a thing done with to the older thing the stance is said
    again of (:data:`_OLDER_THING_RE`), else ``nearest`` (:func:`done_with`)."""
    if _EN_FORWARD_IT_RE.search(sentence):
        return "forward"
    return "older" if _OLDER_THING_RE.search(sentence) else "nearest"


__all__ = ["Reach", "done_with", "pronoun_reach"]
