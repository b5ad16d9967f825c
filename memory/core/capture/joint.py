"""A statement the user makes for themself and others together: the user's own share of it.

"My wife and I both love hiking", "We're both allergic to shellfish", "My colleague is
allergic to shellfish and so am I", ``我和同事都对花生过敏``, ``我们俩都不吃香菜``,
``我同事对花生过敏，我也是``: the subject names someone else, so every reader took the
sentence for another person's and stored nothing (issue 17: a missed allergy is the worst
mistake capture makes). Each holds the user's own statement, which :func:`user_share` writes
out ("I love hiking", "I am allergic to shellfish", ``我对花生过敏``) for the readers to read
as any other. Only the grammar of a shared subject is rewritten: a coordinated subject with
the user in it, "we" with a word that counts the user in ("both", "all", ``都``), or a
reply that takes the other's predicate for the user ("so am I", "me too", ``我也是``). What
the user says they told someone ("I told my mom I love tulips", ``我跟我妈说了我不喜欢香菜``)
is the user's word too; what someone told the user is not touched. Plain "we" ("We love
hiking") is left alone: it may be a household's or a team's.

Measured on ``bench/data/statements_holders_blind.jsonl`` (240 messages written blind by a
helper after this design, before any of its rows was read), messages right: English
52 → 76 of 120, Chinese 73 → 102 of 120; its look-alikes (only others hold the preference)
59 → 59 of 60 in both languages together.
"""

from __future__ import annotations

import re

from ...model import has_cjk
from .holders import someone_else
from .past import told_as_past
from .prepare import spell_out_i
from .segment import tag
from .zh_subjects import person_word

_EN_PERSON = (
    r"(?:wife|husband|partner|spouse|fianc[eé]e?|boyfriend|girlfriend|bf|gf|mom|mum|mother|dad|"
    r"father|parents|sister|brother|sis|bro|siblings?|sons?|daughters?|kids?|children|twin|"
    r"friends?|mates?|room-?mates?|flatmates?|housemates?|boss|colleagues?|co-?workers?|team|"
    r"family|grandma|grandpa|aunt|uncle|cousins?|neighbou?rs?|classmates?|best\s+friend)"
)
"""People a user speaks for together with themself."""
_EN_PARTNER = rf"(?:my|our|the)\s+(?:[\w'-]+\s+)?{_EN_PERSON}"
_EN_AND = r"(?:and|n|&)"
_EN_NAME = r"(?-i:[A-Z][a-z]+)"
_EN_COUNTED = r"(?=(?:\s+(?:are|were|have|do|can|will)|'re|'ve)?\s+(?:both|all)\b)"
_EN_JOINT_RE = re.compile(
    rf"(?P<lead>^|[,;:]\s*|\b(?:and|but|so|because|since)\s+)(?:both\s+)?"
    rf"(?:{_EN_PARTNER}\s+{_EN_AND}\s+(?:I|me)|(?:I|me)\s+{_EN_AND}\s+{_EN_PARTNER}|"
    rf"{_EN_NAME}\s+and\s+I{_EN_COUNTED}|we{_EN_COUNTED}|"
    r"(?:both|all)\s+of\s+us)(?P<aux>\s+(?:are|aren't|r|were|weren't|have|do|did|can|will|"
    r"would)|'re|'ve)?"
    r"(?:\s+(?:both|all|each))?(?=\s+[a-z])",
    re.I,
)
"""A subject of the user and others: "my wife and I", "me and my brother", "Sam and I both",
"we both", "we're all", "both of us", with its auxiliary and the "both" after it. A bare
capitalised word counts only with "both" or "all": "Mushrooms and I don't get along" and
"Mornings and I are not on speaking terms" are the user's dislikes."""
_EN_NEITHER_RE = re.compile(
    rf"(?P<lead>^|[,;:]\s*)neither\s+(?:(?:{_EN_PARTNER}|{_EN_NAME})\s+nor\s+(?:I|me)|of\s+us)\s+"
    r"(?P<verb>[a-z']+)(?=\s)",
    re.I,
)
"""A subject that holds the user out with another: "Neither my dad nor I like mushrooms"."""
_EN_INCLUDED_RE = re.compile(
    r"(?P<lead>^|[,;:]\s*)(?:(?:our|my)\s+)?(?:whole\s+|entire\s+)?(?:family|household|team|"
    r"crew|group|house|friends|company|office|class|department|gang)\s*,\s*(?:me|myself)\s+"
    r"included\s*,\s*(?P<verb>[a-z']+)(?=\s)",
    re.I,
)
"""A group "me included": "Our whole family, me included, loves board games"."""
_EN_NOT_FOR_USER_RE = re.compile(
    r"\b(?:except(?:\s+for)?|but\s+not|apart\s+from|other\s+than|minus|besides|not\s+including)"
    r"\s+(?:me|myself)\b|\bnot\s+me\b|\b(?:maybe|perhaps|probably|might|possibly)\s+(?:so|I)\b|"
    r"\bor\s+so\s+(?:she|he|they)\b|\b(?:she|he|they|my\s+\w+)\s+(?:says|said|claims|insists|"
    r"thinks|reckons)\b|\b(?:says|said)\s+(?:she|he|they|my)\b|\bwell,?\s+(?:she|he|they)\s+"
    r"(?:does|is|do|are)\b|\b(?:hardly|nope|as\s+if|not)\W*$|\bsaid\s+no\s+one\b|"
    r"\b(?:at\s+least\s+I\s+did|as\s+a\s+kid|years\s+ago|back\s+then)\b|"
    r"\beach\s+other\b|\bone\s+another\b",
    re.I,
)
"""What leaves the user out of a shared statement, or makes it another's word or a doubt."""
_ZH_NOT_FOR_USER_RE = re.compile(
    r"除了我|我除外|不包括我|除我以外|除我之外|[他她]说|(?:老婆|老公|妈|爸|同事|朋友|姐|哥)说的|"
    r"说的[。！!]?$|怎么可能|才怪|如果|要是|假如|对方|彼此|互相|只有[他她]"
)
_ASKED_BACK_RE = re.compile(
    r"\b(?:so\s+(?:am|do|did|was)\s+I|me\s+too|same\s+here|I\s+(?:am|do)\s+too)\W*[?？]|"
    r"我也(?:是|一样)\W*[?？]",
    re.I,
)
"""A shared statement asked back ("…, me too? no way"), not made."""
_JOKED_RE = re.compile(
    r"\b(?:kidding|jk|joking|joke|fib|lying|lie|pretend(?:ing)?|not\s+really|not\s+true|untrue|"
    r"doubt\s+it|not\s+sure|nonsense)\b|开玩笑|骗|才怪|假装|不信",
    re.I,
)
"""A shared statement taken back or doubted in its sentence (narrower than
:func:`~.holders.disputed`, for which "lol" and "I'm not" are a report's dispute)."""
_TAKES_BACK_RE = re.compile(
    r"\W*(?:no|nope|not|nah)\W*$|.*\bonly\s+(?:she|he|they)\s+(?:does|do|is|are)\b|"
    r".*\bsaid\s+no\s+one\b",
    re.I,
)
_EN_FANS_RE = re.compile(r"\b(I(?:'m|\s+am)(?:\s+not)?)\s+((?:big|huge|massive)\s+)?fans\b")
""""I am not fans of…" after the subject went singular: "I am not a fan of…"."""
_EN_FIRST_PERSON_AUX = {"are": "am", "r": "am", "'re": "'m", "were": "was", "'ve": "'ve",
                        "aren't": "am not", "weren't": "wasn't"}

_EN_REPLY = (
    r"(?:(?:and|but)\s+)?(?:(?:it\s+)?turns\s+out\s+|tbh\s+|honestly\s+|actually\s+)?"
    r"(?:so\s+(?:am|do|did|was|have|will|would|can)\s+I|"
    r"(?:neither|nor)\s+(?:am|do|did|was|have|will|would|can)\s+I|"
    r"I(?:'m|\s+am|\s+do|\s+did|\s+was|\s+have|\s+will)\s+(?:too|as\s+well|also)|"
    r"I(?:'m|\s+am)\s+not\s+either|I\s+(?:don't|do\s+not|can't|won't|wouldn't)\s+either|"
    r"I(?:'m|\s+am)\s+the\s+same(?:\s+way)?|I\s+feel\s+the\s+same(?:\s+way)?|"
    r"I\s+share\s+that|same\s+(?:for|with|as)\s+me|me\s+(?:too|neither)|same(?:\s+here)?)"
    r"(?:\s+(?:these\s+days|now|actually|honestly|lol|haha|tbh))?(?:,?\s+(?:actually|lol|haha|"
    r"tbh|to\s+be\s+honest|honestly))?\W*"
)
_EN_REPLY_RE = re.compile(
    rf"(?:^|[,;:.!\u2014\u2013-]\s*|\s)(?P<reply>{_EN_REPLY})"
    r"(?P<request>[,;]\s*\S.*)?$",
    re.I,
)
"""A reply that takes another's statement for the user ("and so am I", "me too", "I'm not
either", "it turns out I am too", "same as me"), perhaps with a clause after it."""
_EN_REPLY_ALONE_RE = re.compile(rf"{_EN_REPLY}(?:[,;]\s*\S.*)?", re.I)
_EN_PREDICATE_HEADS = frozenset(
    "is isn't was wasn't are aren't were weren't has hasn't have haven't does doesn't do don't "
    "did didn't can can't cannot won't will would never always really absolutely love loves "
    "like likes hate hates adore adores enjoy enjoys prefer prefers avoid avoids".split()
)
_EN_DETERMINERS = frozenset("my our his her their the a an this that these those".split())
_EN_THIRD_PERSON = {"is": "am", "isn't": "am not", "has": "have", "hasn't": "haven't",
                    "does": "do", "doesn't": "don't", "was": "was", "wasn't": "wasn't",
                    "are": "am", "aren't": "am not", "do": "do", "don't": "don't"}  # fmt: skip
_EN_ES_ENDINGS = ("ches", "shes", "sses", "xes", "zes", "oes")

_EN_TOLD_RE = re.compile(
    r"(?P<lead>^|[,;:]\s*)(?:[^,;:.!?]*?\s)??(?:I(?:'ve|'d)?\s+|"
    r"^(?=(?:just\s+)?(?:told|mentioned|texted|explained)\b))(?:(?:have|had|just|already|always|keep|kept|once|finally)\s+)*"
    r"(?:told|tell|telling|said\s+to|say\s+to|mentioned\s+to|explained\s+to|reminded|warned|"
    r"assured|informed|let|texted|messaged|emailed|wrote(?:\s+to)?|promised|admitted\s+to|"
    r"made\s+it\s+clear\s+to|"
    r"confessed\s+to|confided\s+in|swore\s+to)\s+(?:[\w'-]+\s+){1,4}?(?:know\s+)?(?:that\s+)?"
    r"(?=I\b|I'm\b|I've\b|im\b|ive\b)",
    re.I,
)
"""The user telling someone their own stance: "I told my mom I love tulips", "I explained to
the waiter that I can't have gluten", "Just mentioned to my trainer that I…": what follows is
the user's word. Words before it in its clause ("On our first date I told him …") go with
it: they set the scene of the telling."""
_ZH_TOLD_RE = re.compile(
    r"(?P<lead>^|[，,；;]\s*)(?P<scene>[^，,；;。！？!?]*?)我(?:(?:跟|和|对|给|向)(?P<listener>[^，。,;；！!？?]{1,6}?)"
    r"(?:说|讲|提|强调|解释|表示|备注|留言|交代|嘱咐|叮嘱)(?:了|过)*(?:一下|好几次|很多次|好多次)?|告诉(?:了|过)?"
    r"(?P<told>[^，。,;；！!？?]{1,6}?))[，,]?(?=我)"
)
"""The same in Chinese: ``我跟我妈说了我不喜欢香菜``, ``吃饭的时候我告诉老公我最爱吃榴莲`` (the
scene goes with the telling, unless it is someone else's report: ``他说我跟…``)."""
_ZH_REPORTED_RE = re.compile(r"说|觉得|以为|认为|听")
_ZH_JOINT_RE = re.compile(
    r"(?:我(?P<conjunction>和|跟|与)(?P<after>[^，。,;；！!？?都也]{1,8}?)|"
    r"(?P<before>[^，。,;；！!？?都也]{1,8}?)(?:和|跟|与)我|"
    r"(?:我们|咱们|咱)(?:俩|两个|两人|几个|一家人|一家|全家人|全家|两口子|仨)?)"
    r"(?:两个人|俩人|俩|两人|几个|两口子)?(?:[，,]?包括我[，,]?)?(?:也)?都"
)
"""A subject of the user and others counted in by 都: ``我和同事都``, ``我跟我老婆都``,
``老公和我都``, ``我们俩都``; the other side must be pronouns and nouns
(:func:`_names_people`)."""
_ZH_REPLY = (
    r"(?:这点|这一点|其实|说实话)?(?:我(?:也|同样|一样)(?:是|一样|这样|如此|差不多|有这个(?:毛病|问题|情况))|"
    r"我(?:跟|和)(?:他|她|ta|TA|他们|她们)一样)"
)
_ZH_ECHO_RE = re.compile(
    r"^(?P<statement>[^，,；;]+?)[，,；;]\s*(?:巧的是|其实|正好|刚好|而且)?"
    r"我(?:也|同样|跟(?:他|她|ta|TA)一样)(?P<echo>[^，,；;。！!？?]{1,6}?)(?P<rest>[，,；;].*)?[。！!]?$"
)
"""A reply that repeats part of another's statement for the user: ``我姐对猫过敏，巧的是我也
过敏``, ``我同事喜欢跑步，我跟他一样喜欢``."""
_ZH_ECHO_LEADS = ("是", "很", "挺", "特别", "超", "也", "一样", "都")
_ZH_REPLY_ALONE_RE = re.compile(rf"{_ZH_REPLY}\W*")
_ZH_SHARE_RE = re.compile(rf"^(?P<statement>[^，,；;]+?)[，,；;]\s*{_ZH_REPLY}\W*$")
_ZH_PERSONAL_PRONOUNS = frozenset("我 你 您 他 她 他们 她们 你们 大家 ta TA".split())
"""The pronouns (tag ``r``) that name people, unlike ``什么``, ``这个``."""


def user_share(sentence: str) -> str:
    """``sentence`` with a subject of the user and others turned into the user alone ("My
    wife and I are both allergic to peanuts" → "I am allergic to peanuts"; ``我和同事都对
    花生过敏`` → ``我对花生过敏``), and the user's word to someone as the user's word ("I told
    my mom I love tulips" → "I love tulips"), or unchanged when it has neither.

    Args:
        sentence: One sentence, prepared (:func:`~.prepare.prepare`).

    Returns:
        The user's own statement, for the readers; the sentence itself otherwise.
    """
    if _not_for_the_user(sentence):
        return sentence
    if has_cjk(sentence):
        told = _ZH_TOLD_RE.sub(_zh_told, sentence)
        return _zh_share(_ZH_JOINT_RE.sub(_zh_user_alone, told))
    told = spell_out_i(_EN_TOLD_RE.sub(lambda match: match.group("lead"), sentence))
    alone = _EN_JOINT_RE.sub(_en_user_alone, _EN_NEITHER_RE.sub(_en_neither, told))
    alone = _EN_INCLUDED_RE.sub(
        lambda m: f"{m.group('lead')}I {_first_person(m.group('verb'))}", alone)
    return _en_share(_EN_FANS_RE.sub(r"\1 a \2fan", alone))


def _not_for_the_user(text: str) -> bool:
    """Whether a sentence is no statement the user shares: asked back ("…so am I? no way"),
    taken back or doubted ("…so am I… not", "jk", ``开玩笑``), told as the past, another
    person's word ("…, or so she claims", ``我老婆说的``), or one that leaves the user out
    ("…, except me", ``除了我``)."""
    if _ASKED_BACK_RE.search(text) or _JOKED_RE.search(text):
        return True
    if told_as_past(text):
        return True  # "Both of us used to love mushrooms": left behind
    return bool((_ZH_NOT_FOR_USER_RE if has_cjk(text) else _EN_NOT_FOR_USER_RE).search(text))


def _takes_back(sentence: str) -> bool:
    """Whether the sentence after a shared statement takes it back ("Not!", "Just kidding,
    only she does.", ``开玩笑的``)."""
    return bool(_TAKES_BACK_RE.match(sentence)) or _not_for_the_user(sentence)


def _en_neither(match: re.Match[str]) -> str:
    """"Neither my dad nor I like mushrooms" → "I don't like mushrooms"."""
    verb = match.group("verb").lower()
    said = {"are": "am not", "is": "am not", "am": "am not", "were": "wasn't", "was": "wasn't",
            "have": "haven't", "has": "haven't", "can": "can't", "will": "won't",
            "would": "wouldn't", "do": "don't", "does": "don't"}.get(verb)  # fmt: skip
    return f"{match.group('lead')}I {said or 'do not ' + _first_person(match.group('verb'))}"


def user_shares(sentences: list[str]) -> list[str]:
    """:func:`user_share` of each sentence of a message; a sentence that is only a reply
    ("I am too, actually.", ``我也是。``) takes the sentence before it for the user
    ("Jenna is allergic to peanuts. I am too." → …, "I am allergic to peanuts.")."""
    out = [user_share(sentence) for sentence in sentences]
    for at in range(1, len(sentences)):
        reply = sentences[at].strip()
        if _EN_REPLY_ALONE_RE.fullmatch(reply) or _ZH_REPLY_ALONE_RE.fullmatch(reply):
            joined = f"{sentences[at - 1].strip().rstrip('.!。！')}, {reply}"
            shared = user_share(joined)
            if shared != joined:
                out[at] = shared
    for at in range(len(sentences) - 1):
        if out[at] != sentences[at] and _takes_back(sentences[at + 1]):
            out[at] = sentences[at]  # "…and so am I... not." / "Me too. Just kidding."
    return out


def _zh_told(match: re.Match[str]) -> str:
    listener = match.group("listener") or match.group("told") or ""
    words = tag(listener)
    last = words[-1] if words else ("", "")
    heard = last[0] in _ZH_PERSONAL_PRONOUNS or last[1][:1] == "n" or last[1] == "vn"
    if not heard or _ZH_REPORTED_RE.search(match.group("scene")):  # 外卖商家: whoever hears
        return match.group(0)
    return match.group("lead")


def _zh_user_alone(match: re.Match[str]) -> str:
    if match.group("after") is not None:
        joined = tag(match.group(0))  # 和 a word of its own: not 我和善的…
        own = len(joined) > 1 and joined[1][0] == match.group("conjunction")
        return "我" if own and _names_people(match.group("after")) else match.group(0)
    before = match.group("before")
    if before is None:
        return "我"  # 我们都, 咱俩都
    words = tag(before)
    for at in range(len(words)):  # 其实老公和我都: the lead-in (其实) stays
        if _names_people("".join(word for word, _ in words[at:])):
            return "".join(word for word, _ in words[:at]) + "我"
    return match.group(0)


def _names_people(text: str) -> bool:
    """Whether a text is pronouns and nouns only (``我老婆``, ``同事们``, ``小王``): ``我跟
    老板说了好多次他都不喜欢加班`` has a verb between, and is no shared subject."""
    words = tag(text)
    return bool(words) and all(
        word in _ZH_PERSONAL_PRONOUNS if flag[:1] == "r"
        else flag[:1] == "n" or flag == "vn" or word in "的们"  # 教练 is tagged vn
        for word, flag in words
    )


def _en_user_alone(match: re.Match[str]) -> str:
    subject = match.group(0).lower()
    if re.search(r"\b(?:we|us)\b", subject) and someone_else(match.string[match.end():]):
        return match.group(0)  # "We both love hiking, my wife and my son": who "we" is
    aux = (match.group("aux") or "").strip().lower()
    if not aux:
        return f"{match.group('lead')}I"
    said = _EN_FIRST_PERSON_AUX.get(aux, aux)
    return f"{match.group('lead')}I{said if said.startswith(chr(39)) else ' ' + said}"


def _en_share(sentence: str) -> str:
    """"My mom's allergic to nickel and so am I" → "I am allergic to nickel."."""
    match = _EN_REPLY_RE.search(sentence.strip())
    if match is None:
        return sentence
    statement = sentence.strip()[: match.start()].strip(" ,;:.!\u2014\u2013-")
    predicate = _predicate(statement.split())
    if predicate is None:
        return sentence
    first, *rest = predicate
    return " ".join(["I", _first_person(first), *rest]) + (match.group("request") or ".")


def _predicate(words: list[str]) -> list[str] | None:
    """The predicate of another person's statement: the words from its verb on ("My mom
    adores orchids" → ``adores orchids``; "My mom's allergic…" → ``is allergic…``); None
    when its subject is the user or no verb is found within its first five words."""
    if not words or words[0].lower() in ("i", "we", "i'm", "we're"):
        return None
    for at, word in enumerate(words[:5]):
        lowered = word.lower()
        if at and lowered.endswith("'s") and at + 1 < len(words):
            return ["is", *words[at + 1 :]]  # my mom's allergic
        if at == 0 or words[at - 1].lower() in _EN_DETERMINERS:
            continue
        if lowered in _EN_PREDICATE_HEADS or (lowered.endswith("s") and len(lowered) > 3
                                             and not lowered.endswith("ss")):  # fmt: skip
            return words[at:]
    return None


def _first_person(verb: str) -> str:
    """A verb of the third person in the first ("loves" → "love", "is" → "am")."""
    lowered = verb.lower()
    if lowered in _EN_THIRD_PERSON:
        return _EN_THIRD_PERSON[lowered]
    if lowered.endswith("ies") and len(lowered) > 4:
        return verb[:-3] + "y"
    if lowered.endswith(_EN_ES_ENDINGS):
        return verb[:-2]
    if lowered.endswith("s") and not lowered.endswith("ss"):
        return verb[:-1]
    return verb


def _zh_share(sentence: str) -> str:
    """``我同事对花生过敏，我也是`` → ``我对花生过敏``: the person the statement opens with
    (a personal pronoun, a name, or a word for someone close, within its first three words)
    replaced by 我."""
    match = _ZH_SHARE_RE.match(sentence.strip())
    rest = ""
    if match is None:
        match = _ZH_ECHO_RE.match(sentence.strip())
        if match is None or not _echoes(match.group("echo"), match.group("statement")):
            return sentence
        rest = match.group("rest") or ""
        if re.search(r"不过|但|可是|只是|而是|是对", rest):
            return sentence  # 我姐对猫过敏，我也过敏，不过是对狗: another allergy
    statement = match.group("statement")
    if not someone_else(statement):
        return sentence  # 这个很好吃，我也是: no one else's statement to share
    words = tag(statement)
    at = next((i + 1 for i, (word, flag) in enumerate(words[:3]) if word != "我" and (
        word in _ZH_PERSONAL_PRONOUNS or flag in ("nr", "nrfg") or person_word(word, flag))),
        0)  # fmt: skip
    if at == 0 or at >= len(words):
        return sentence
    return "我" + "".join(word for word, _ in words[at:]) + (rest or "。")


def _echoes(echo: str, statement: str) -> bool:
    """Whether a reply's words after 我也 repeat the statement's (``过敏``, ``芒果过敏``,
    ``一样喜欢``), so the reply shares the statement rather than saying something else."""
    for lead in _ZH_ECHO_LEADS:
        echo = echo.removeprefix(lead)
    return bool(echo) and echo in statement


__all__ = ["user_share", "user_shares"]
