"""Whose statement a sentence makes: the user's, someone else's, or someone else's word about
the user.

- :func:`someone_else`: the sentence speaks of anyone but the user, anywhere in it ("my son's",
  ``我妈``, "they"). Allergy retractions and the object tagger read nothing in such a sentence.
- :func:`reported_by_another`: a statement about the user is another person's word ("My sister
  thinks I'm allergic to cats", ``我老公说我对猫过敏``): a reporting verb (say, think, claim,
  joke; 说, 觉得, 以为) in the statement's own clause, whose subject is not the user. "I told
  my boss I'm allergic to seafood" and ``我跟老板说了我对海鲜过敏`` are the user's word.
- :func:`disputed`: the sentence disputes or laughs off what it reports ("lol", "which is a
  fib", ``其实不是``, ``骗``); :func:`contested`: that, a quote after a colon, or a contrast
  after the report.
- :func:`answered`: the user answers the report in their own word ("…, but honestly I've
  grown to like it", "she's right").

Issue 17: the user's own allergy ("When I had dinner with my colleague I found out I'm allergic
to mango") was lost in any sentence that named someone else, and another person's word about
the user ("My mom thinks I love spicy food") was stored as the user's; reading such sentences
needs all of these.
"""

from __future__ import annotations

import re

from ...model import PreferenceCandidate, has_cjk
from .clauses import close_person_zh

_EN_SOMEONE_ELSE_RE = re.compile(
    r"\b(?:he|she|they|his|her|their|him|them)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:son|daughter|kids?|"
    r"child(?:ren)?|wife|husband|partner|boyfriend|girlfriend|mum|mom|mother|dad|father|"
    r"parents?|sisters?|brothers?|friends?|flatmates?|roommates?|colleagues?|cousins?|aunt|"
    r"uncle|nephew|niece|grandma|grandpa|dog|cat|fianc[eé]e?|boss|toddler|baby|neighbou?rs?)\b|"
    r"\b(?:fianc[eé]e?|boss|toddler|baby|roommate|neighbou?r|kids)\b|"
    r"\b(?!(?:it|that|what|there|here|who|he|she|let)'s)[\w]+(?:'s|s')\s+(?:[\w-]+\s+){0,2}"
    r"(?:allerg|intoleran)",
    re.I,
)
_ZH_SOMEONE_ELSE_RE = re.compile(
    r"[他她]|爸|妈|儿子|女儿|闺女|孩子|宝宝|老公|老婆|对象|男朋友|女朋友|朋友|同事|室友|舅舅|阿姨|"
    r"叔叔|伯伯|姑姑|婶婶|侄[子女]|外甥|哥哥|姐姐|弟弟|妹妹|我[哥姐弟妹舅姨叔伯姑婶]|爷爷|奶奶|"
    r"姥姥|姥爷|外公|外婆|家人|家里人|闺蜜|男友|女友|老板|领导|我家|^小[王李张刘陈杨黄赵吴周徐孙马朱胡郭何"
    r"林罗高郑梁谢宋唐]"
)
_ZH_ADDRESS_RE = re.compile(r"(?:家人|姐妹|兄弟|宝子|朋友|老铁|集美)们|妈呀|我的妈")
"""Forms of address and exclamations (``家人们谁懂啊``), not someone else."""


def someone_else(sentence: str) -> bool:
    """Whether a sentence speaks of someone other than the user anywhere in it (``他``,
    ``我妈``, "my son's", "they"): an allergy said over there is not the user's to lift
    (``我舅舅查出来对青霉素不过敏``; a doctor who says it is over is the user's news,
    ``医生说已经好了``), and the object tagger reads no stance in it
    (:func:`~.tagged_sides.retagged`)."""
    if has_cjk(sentence):
        text = _ZH_ADDRESS_RE.sub("", sentence)
        return bool(_ZH_SOMEONE_ELSE_RE.search(text)) or close_person_zh(text, anywhere=True)
    return bool(_EN_SOMEONE_ELSE_RE.search(sentence))


_EN_REPORTING_RE = re.compile(
    r"\b(?:says?|said|saying|thinks?|thought|claims?|claimed|insists?|insisted|jokes?|joked|"
    r"jokingly|pretends?|pretended|tells?|told|believes?|believed|reckons?|swears?|swore|"
    r"convinced|according\s+to|texted|wrote|assumes?|assumed|suspects?|suspected|teases?|"
    r"teased|accuses?|accused|figures?|guess(?:es|ed)?)\b",
    re.I,
)
_ZH_REPORTING_RE = re.compile(r"说|觉得|以为|认为|告诉|怀疑|坚持|调侃|吐槽|开玩笑|嫌|笑话|骂")
_EN_CLAUSE_END_RE = re.compile(r"[,;.!?]|\b(?:and|but|so|because)\b", re.I)
_ZH_CLAUSE_END_RE = re.compile(r"[，,。；;！!？?]")


def reported_by_another(sentence: str, start: int) -> bool:
    """Whether the statement at ``start`` is reported by someone other than the user.

    Args:
        sentence: One sentence.
        start: Where the statement begins in it (its "I'm allergic", its ``我对``).

    Returns:
        True when the clause before ``start`` holds a reporting verb whose subject is not
        the user (not "I", nor an auxiliary with "I" dropped, nor 我 alone or before an adverb
        or 跟/和 someone).
    """
    before = sentence[:start]
    zh = has_cjk(sentence)
    ends = list((_ZH_CLAUSE_END_RE if zh else _EN_CLAUSE_END_RE).finditer(before))
    clause = before[ends[-1].end() :] if ends else before
    verb = (_ZH_REPORTING_RE if zh else _EN_REPORTING_RE).search(clause)
    if verb is None:
        return False
    subject = clause[: verb.start()].strip()
    if zh:
        user = subject.startswith("我") and not subject.startswith("我们")
        return not (user and not close_person_zh(subject))
    return not re.match(r"i\b", subject, re.I) and not _EN_DROPPED_I_RE.fullmatch(subject)


_EN_DROPPED_I_RE = re.compile(
    r"(?:(?:still|honestly|really|just|seriously|literally|genuinely|so|also)\s+)*"
    r"(?:can'?t|cannot|couldn'?t|don'?t|didn'?t|never|do|did)(?:\s+even)?",
    re.I,
)
"""A reporting verb after an auxiliary alone: the user, their "I" dropped ("Can't believe I used
to hate Brussels sprouts")."""


_EN_DISPUTED_RE = re.compile(
    r"\b(?:lol|lmao|haha|jk|kidding|joke[sd]?|joking(?:ly)?|fib|lie|lying|pretend(?:s|ed|ing)?|"
    r"doubt|not\s+(?:so\s+)?sure|not\s+really|untrue|not\s+true|wrong|mistaken|nonsense|"
    r"claims?|claimed|keeps?\s+saying|rude|teas(?:e|es|ed|ing))\b|"
    r"\bi'?m\s+not\b(?!\s+(?:only|just))",
    re.I,
)
_ZH_DISPUTED_RE = re.compile(
    r"以为|(?:其实|根本|并)我?(?:不是|没有)(?=[，,。！!？?]|$)|才不是|不信|搞错|说错|[不没]过敏|骗|假装|"
    r"装的|开玩笑|玩笑|哈哈|心理作用|借口"
)


def disputed(sentence: str) -> bool:
    """Whether a sentence disputes, jokes about or makes up what it reports ("My brother
    claims I'm allergic to dairy; I doubt it", ``我骗同事说我对酒精过敏``, ``我妈以为…``)."""
    return bool((_ZH_DISPUTED_RE if has_cjk(sentence) else _EN_DISPUTED_RE).search(sentence))


_QUOTE_OPENS_RE = re.compile(r"[:：]\s*(?:\S+\s*){0,2}$")
"""A colon just before a reported statement: the reporter's own words, their "I"."""
_EN_CONTRAST_RE = re.compile(r"\b(?:but|though|although|yet|however|actually|really)\b", re.I)
_ZH_CONTRAST_RE = re.compile(r"可|但|其实|明明|不过|然而|结果")


def contested(sentence: str, start: int) -> bool:
    """Whether a report about the user that begins at ``start`` is disputed: the sentence
    disputes it (:func:`disputed`), it is quoted after a colon (the reporter's own "I"),
    asked back ("My roommate says I'm allergic to shellfish?"), or a contrast follows it
    ("My mom insists I'm allergic to wheat, but I eat bread every day",
    ``我奶奶一直觉得我对海鲜过敏，可我吃了好多年都没事``).
    ``我妈说我对青霉素过敏，以后看病要提醒医生`` is not: a reported allergy the user does not
    dispute is kept, the safe side of an allergy."""
    contrast = _ZH_CONTRAST_RE if has_cjk(sentence) else _EN_CONTRAST_RE
    quoted = _QUOTE_OPENS_RE.search(sentence[:start])  # "My friend texted me: I'm allergic…"
    asked = re.search(r"[?？]", sentence[start:])  # "My roommate says I'm allergic to X?"
    return disputed(sentence) or bool(quoted or asked or contrast.search(sentence, start))


_EN_ANSWERED_RE = re.compile(
    r"\b(?:but|though|actually)\b[^.;!?]*\bi\b|\b(?:(?:she|he|they)(?:'s|\s+is|'re|\s+are)\s+"
    r"right|true|guilty\s+as\s+charged|fair\s+enough|not\s+wrong)\b",
    re.I,
)
_ZH_ANSWERED_RE = re.compile(r"(?:可|但|其实|不过)[^。！？!?]*我|没错|说得对|确实|是真的")


def answered(sentence: str, start: int) -> bool:
    """Whether the user answers a report about them after ``start``: agrees ("she's right",
    ``没错``) or says their own word after a contrast ("My roommate thinks I love cats, but I
    actually can't stand them"), so what capture reads there is the user's own."""
    found = (_ZH_ANSWERED_RE if has_cjk(sentence) else _EN_ANSWERED_RE).search(sentence, start)
    return found is not None


def reported(sentence: str, candidate: PreferenceCandidate) -> bool:
    """Whether a candidate is another person's word about the user ("My sister says I hate
    jazz", "My mom thinks I love spicy food", ``我老公说我对猫过敏``): the clause splitter
    takes the reporting verb for a boundary, and the rest read as the user's own statement.
    Asked only of a sentence that names someone else (the caller checks
    :func:`someone_else` once per sentence), so "Doctor says I'm allergic to
    penicillin" stays the user's news (:func:`reported_by_another`); a reported
    allergy only when the sentence contests it (:func:`contested`): a missed
    allergy costs more than one the user takes back."""
    lowered = sentence.lower()
    found = [i for k in candidate.keywords if (i := lowered.rfind(k.lower())) >= 0]
    if not found or not reported_by_another(sentence, at := max(found)):
        return False
    if candidate.protected:
        return contested(sentence, at)
    return not answered(sentence, at)


__all__ = [
    "answered", "contested", "disputed", "reported", "reported_by_another", "someone_else",
]
