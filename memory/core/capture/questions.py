"""Questions and hypotheticals, which state nothing, and the statement a question follows.

"Do you like jazz?", "If I liked beer, what would you suggest?", ``你怎么看``,
``要是我喜欢辣的呢``: a sentence that asks or only imagines is skipped whole by capture. A
statement before a question in the same sentence ("Pixel 8 is my daily driver, what case would
you get?") is still read (:func:`stated_before_question`).
"""

from __future__ import annotations

import re

from ...model import HAN_CHARS, has_cjk
from .clauses import EN_OTHER_SUBJECTS, FIRST_PERSON_RE
from .orders import leaves_out

_EN_WH_WORDS = frozenset("what why how who whom whose where when which".split())
_EN_QUESTION_WORDS = frozenset(
    "what's whats how's who's where's why's do does did can could would will should shall is "
    "are am was were have has had may might isn't aren't wasn't weren't wanna".split()
)
_EN_DROPPED_SUBJECT_AUX = frozenset("was were would could can will did".split())
"""Words that open a question only before its subject ("Was it…", "Would anyone…", "Can my
son…"); chat drops the subject "I" before them ("Could eat tacos every day", "Did a month of
Duolingo and went back to Anki", "Can eat eggplant again, yay"). Not "had": "Had a reaction to
cashews last night" is a report the allergy readers would misread as an allergy over."""
_EN_ASKED_SUBJECTS = frozenset(
    "anyone anybody someone somebody everyone there this that these those your ya".split()
)
_EN_NEG_AUX = frozenset(
    "don't dont doesn't didn't can't cant won't wouldn't shouldn't couldn't".split()
)
_PRONOUNS = frozenset("you we they he she i it u".split())
_EN_LEAD_FILLERS = frozenset(
    "so and but well hey oh ok okay um uh hmm btw also then anyway hi hello actually".split()
)
_EN_HYPOTHETICAL = frozenset(
    "if suppose supposing imagine assuming assume hypothetically unless pretend say".split()
)
_EN_HYPOTHETICAL_RE = re.compile(
    r"^(?:what\s+if|let's\s+say|let\s+us\s+say|in\s+case|in\s+a\s+world\s+where|"
    r"(?:just\s+)?for\s+(?:argument's|the\s+sake\s+of\s+argument))\b"
)
_ZH_QUESTION_RE = re.compile(
    r"[吗么][\W]*$|什么(?![^，。！？]{0,6}?[都也])|(?<![不没])怎么(?![^，。！？,.!?]{0,6}?[都也])|为什么|"
    r"哪(?![儿里]?(?:都|也))(?![个种家款样部][^，。！？,.!?]{0,5}?[都也])|谁(?![都也])|"
    r"多少(?![^，。！？]{0,4}?[都也])|如何|是否|有没有|是不是|" f"([{HAN_CHARS}])不\\1"
)
_ZH_NO_MATTER_RE = re.compile(r"(?:不管|无论|不论)[^，,。！!？?；;]*")
"""A concession (``不管订哪的酒店``, ``无论去哪``): its 哪 or 什么 asks nothing."""
_ZH_HYPOTHETICAL_RE = re.compile(r"如果|要是|假如|假设|万一|倘若|如若|假使|的话|设想|想象一下")


_ASKED_TO_STOP_RE = re.compile(
    r"^\W*(?:(?:so|and|but|also|hey|ok|okay|in\s+(?:the\s+)?future|from\s+now\s+on|going\s+"
    r"forward)\W+)*(?:could|can|would|will)\s+(?:you|u|ya)\s+"
    r"(?:please\s+|pls\s+|kindly\s+|just\s+)?(?:stop|quit|not|never|no\s+longer|favou?r|"
    r"prioriti[sz]e|keep|always|only|leave\s+out|drop\s+the)\b|"
    r"^\W*(?:would\s+you\s+mind\s+(?:not|leaving\s+out)|is\s+it\s+possible\s+to\s+stop|any\s+"
    r"(?:way|chance)\s+(?:you\s+(?:could|can)\s+)?(?:stop|quit|drop|leave\s+out))\b|"
    r"(?:能不能|可不可以|能否|可以|能)(?:你)?(?:别|不要|不再|少)",
    re.IGNORECASE,
)
"""A request put as a question for the assistant to stop, or to keep to something ("Could you
stop pushing timeshare offers on me?", "would you mind not suggesting cruises?", "could you
favour merino wool?", ``能不能别再推荐恐怖片了``): a wish, which states what the user wants or
does not (:mod:`.rules_wishes`)."""


def is_question_or_hypothetical(sentence: str) -> bool:
    """Questions, and sentences that only imagine a preference, state nothing; a request to
    stop put as a question (:data:`_ASKED_TO_STOP_RE`) is no question, nor is a request that
    leaves something out (:func:`~.orders.leaves_out`: "Can I get a burger, no onions?")."""
    if _ASKED_TO_STOP_RE.search(sentence) or leaves_out(sentence):
        return False
    if sentence.rstrip().endswith(("?", "？")):
        return True
    if has_cjk(sentence):
        sentence = _ZH_NO_MATTER_RE.sub("", sentence)  # 不管订哪的酒店: whichever, no question
        return bool(_ZH_QUESTION_RE.search(sentence) or _ZH_HYPOTHETICAL_RE.search(sentence))
    tokens = re.findall(r"[a-z']+", sentence.lower())
    while tokens and tokens[0] in _EN_LEAD_FILLERS:
        tokens.pop(0)
    if not tokens:
        return False
    if _EN_HYPOTHETICAL_RE.match(" ".join(tokens)):
        return True
    first, following = tokens[0], tokens[1] if len(tokens) > 1 else ""
    if first in _EN_HYPOTHETICAL or (first == "do" and following != "not"):
        return True
    if first in _EN_WH_WORDS:  # "when I travel, I prefer …" is no question
        return following in _EN_QUESTION_WORDS
    if first in _EN_DROPPED_SUBJECT_AUX:  # "Could eat tacos every day": no subject asked of
        return following in _PRONOUNS or following in _EN_ASKED_SUBJECTS or (
            first == "can" and following in EN_OTHER_SUBJECTS | {"the", "a", "an"})
    if first in _EN_QUESTION_WORDS and first != "do":
        return True
    return first in _EN_NEG_AUX and following in _PRONOUNS


_QUESTION_AFTER_RE = re.compile(r"^(?P<lead>.*\w.*?)\s*[,，;；]\s*(?P<asked>[^,，;；]+[?？]?)\s*$")


def stated_before_question(sentence: str) -> str | None:
    """The statement a question is asked after, in one sentence: "Pixel 8 is my daily
    driver these days, what case would you get?" → "Pixel 8 is my daily driver these days",
    ``我现在主力机是小米14，推荐个手机壳？`` → ``我现在主力机是小米14`` (Chinese often asks
    with no question mark: ``我不吃香菜，这道菜还能怎么做``). None where the sentence
    is no question, its last part is no question of its own, or what comes before is a
    question or a hypothetical too ("Do you like jazz, or rock?", "If I like jazz, would I
    like blues?") or names no speaker of the first person ("Sushi or ramen, which is
    better?")."""
    if (match := _QUESTION_AFTER_RE.match(sentence.strip())) is None:
        return None
    lead = match["lead"].strip()
    if any(map(is_question_or_hypothetical, [lead, *re.split(r"[,，;；]", lead)])) or (
        not is_question_or_hypothetical(match["asked"])
    ):
        return None  # "By the way, if I liked beer, what would you suggest?" asks too
    return lead if FIRST_PERSON_RE.search(lead) else None  # not "Sushi or ramen, which…?"


__all__ = ["is_question_or_hypothetical", "stated_before_question"]
