"""Sentences, clauses, and who is speaking in them.

A message is cut into sentences; questions and hypotheticals state nothing
and are skipped whole (:mod:`.questions`). Each remaining sentence is cut into clauses at
conjunctions and commas that start a new statement ("…, but I hate …",
"…, so I avoid …", "…, it bores me"). A stance counts only when everything
before its verb is the user speaking: ``I``, ``我``, adverbs and fillers such
as "just so you know", "these days", "I'm trying to".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

from ...model import has_cjk
from ..lexical import ENGLISH_STOP_WORDS
from .lexicons import EN_BETTER, EN_LY_BEFORE_NOUN, EN_PARTICIPLES, EN_PEOPLE_RE
from .orders import for_someone_else, split_left_out
from .rules import Rule
from .rules_en_evaluations import LET_DOWN, NEVER_TOOK
from .segment import FUNCTION_TAGS, tag
from .zh_subjects import fronted_topic, names_someone, person_word

Speaker = Literal["user", "other", "stale", "unknown"]
"""Who states a clause: the user now, someone else, the user in the past, or not said."""

_EN_FILLERS = frozenset(
    "actually honestly frankly personally really truly genuinely seriously totally absolutely "
    "definitely certainly just also too still always generally usually normally mostly kinda "
    "kind of sort quite pretty very so do and but oh well ok okay yeah yes no hey hmm um uh "
    "now nowadays lately recently today anyway anyways though btw fyi tbh then sometimes often "
    "already simply strongly deeply severely mildly slightly deathly highly extremely super "
    "terribly think guess believe try tend to all certainly plus especially please strictly only "
    "firmly adamantly completely entirely fundamentally ethically morally greatly intensely "
    "passionately wholeheartedly typically much trying tried 've have been increasingly "
    "definitely frankly openly seriously vehemently fiercely staunchly steadfastly generally "
    "naturally obviously clearly nah yep yup ngl lol lmao welp".split()
)
_EN_PREFIX_PHRASES = re.compile(
    r"\b(?:just\s+so\s+you\s+know|you\s+know|to\s+be\s+honest|for\s+the\s+record|"
    r"(?:i\s+)?(?:still\s+)?(?:can'?t|cannot)\s+believe(?:\s+that)?(?=\s+i\b)|"
    r"by\s+the\s+way|as\s+you\s+know|as\s+i\s+(?:said|mentioned)|like\s+i\s+said|"
    r"i\s+told\s+you|i\s+(?:must|have\s+to|gotta|got\s+to)\s+say|i'll\s+be\s+honest|"
    r"(?:please\s+)?(?:remember|note|keep\s+in\s+mind)(?:\s+that)?|"
    r"do(?:n'?t|\s+not)\s+forget(?:\s+that)?|i\s+want\s+you\s+to\s+know(?:\s+that)?|"
    r"you\s+should\s+know(?:\s+that)?|in\s+general|to\s+be\s+fair|these\s+days|"
    r"at\s+the\s+moment|right\s+now|most\s+of\s+the\s+time|for\s+sure|of\s+course|"
    r"if\s+i(?:'m|\s+am)\s+honest|(?:i\s+)?find\s+myself|(?:'ve|have)\s+(?:grown|come|learned|"
    r"learnt|started|begun|decided)\s+to|(?:am|'m)\s+(?:starting|beginning|learning)\s+to|"
    r"(?:it\s+)?turns?\s+out|turned\s+out|after\s+all|"
    r"^(?:for|when|while|on|at|during|around|(?:ever\s+)?since|after|in|because\s+of|thanks\s+to)\s+"
    r"[a-z' ]{1,40}?(?=\s+i(?:\s|$))|"
    r"going\s+forward|moving\s+forward|from\s+(?:now|here)\s+on(?:\s+out)?|in\s+(?:the\s+)?future|"
    r"(?:this|last)\s+(?:year|month|week|summer|winter)|for\s+(?:ethical|health|medical|"
    r"religious|environmental|personal)\s+reasons|(?:ever\s+)?since\s+(?:then|childhood))\b",
    re.IGNORECASE,
)
_EN_STALE_PHRASES = re.compile(
    r"\b(?:back\s+then|as\s+a\s+(?:kid|child|teen|teenager)|in\s+the\s+past|"
    r"when\s+i\s+was\s+(?:young(?:er)?|a\s+kid|a\s+child|little))\b",
    re.IGNORECASE,
)
_EN_STALE_WORDS = frozenset({"used", "once", "formerly", "previously"})
_EN_COPULA = frozenset(
    "'m am get feel become got getting feeling been grown gotten growing".split())
_EN_MODAL = frozenset({"'d", "would"})
_EN_TOKEN_RE = re.compile(r"[a-z]+|'[a-z]+")
EN_OTHER_SUBJECTS = frozenset(
    "my he she they we you his her their our people everyone everybody someone somebody "
    "nobody most many kids friends".split()
)
"""First words of an English clause that name someone other than the user as its subject."""

_ZH_FILLERS = tuple(
    sorted(
        (
            "真的 真 很 特别 非常 超级 超 挺 蛮 比较 更 还是 一直 也 都 就 其实 平时 向来 从来 "
            "从 最近 现在 今天 如今 目前 已经 再也 一点也 一点都 实在 确实 真心 完全 根本 绝对 "
            "说实话 老实说 顺便说一下 顺便说 顺便 跟你说 告诉你 个人 啊 呀 嗯 哦 哈 反正 而且 "
            "并且 另外 还有 然后 但是 可是 不过 对了 请记住 记住 记得 不要忘了 别忘了 不要忘记 "
            "别忘记 你要知道 要知道 你知道 一般 通常 总是 老是 一向 始终 仍然 依然 还 又 所以 "
            "因此 哎 唉 诶 说真的 坦白说 坦白讲 觉得 我觉得 并 一贯 越来越 开始 慢慢 后来 "
            "但 而 那 本人 好吧 好的 算了 尽量 一定 坚决 今年 这些年 这几年 这阵子 决定 想 最 "
            "成功 终于 总算 彻底 果断 早已 拜托 麻烦你 麻烦 求求你 求你 请你 请 "
            "怎么也 怎么都 无论如何 死活 说什么也"  # no matter how: 我怎么都吃不惯香菜
        ).split(),
        key=len,
        reverse=True,
    )
)
_ZH_FILLER_RE = re.compile("|".join(map(re.escape, _ZH_FILLERS)))
ZH_PAST_RE = re.compile(
    r"以前|之前|过去|曾经|原来|小时候|本来|以往|当年|那时候|那时|从前|年轻时|上学时"
)
"""Words that put a Chinese clause in the past (a stance after them is stale; a then-and-now
sentence starts with one, :mod:`.changes`)."""
_ZH_OTHERS = (
    r"(?:我们|咱们|我的?(?:朋友(?!圈)|妈|爸|老婆|老公|女朋友|男朋友|孩子|儿子|女儿|闺女|"
    r"家人|同事|室友|姐|哥|弟|妹|爷|奶|外婆|外公|丈夫|妻子|先生|太太|宝宝|老板|领导|闺蜜|对象)|"
    r"他|她|你|您|大家|别人|人家|朋友(?!圈)|家人|孩子|闺女|有人|很多人|有些人)"
)
"""Chinese words for someone other than the user (``朋友圈``, the feed, is none)."""
_ZH_OTHER_SUBJECT_RE = re.compile(
    rf"^(?:[^\w]*)(?:{_ZH_OTHERS}|它|(?:现在|如今|目前|以前|之前|后来|最近|那时|当时)[^\w]*"
    rf"{_ZH_OTHERS}(?!们?家?的|送|推荐|给))"
)
"""A Chinese clause's subject that is someone else (or ``它``), also after a word of time
(``现在她一想就累``); not a person who only says whose the thing is (``最近他们家的火锅…``)."""


_EN_LY_RE = re.compile(r"[a-z]{3,}ly")
_EN_LY_NOUNS = frozenset(
    "jelly belly family lily rally ally holly folly bully fly butterfly dragonfly firefly "
    "monopoly anomaly assembly italy july curly bubbly chilly sally billy molly polly kelly "
    "friendly ugly smelly oily woolly frilly silly costly elderly".split()
)
"""Words in -ly that name things or people, or what kind of thing (``my family``, ``Molly``,
"ugly sweaters"), not manners."""


def is_ly_adverb(word: str, following: str = "") -> bool:
    """Whether a lower-case word is an adverb in -ly (``finally``, ``honestly``): no part of an
    object, and before a verb it names no one (``I finally quit…``). One of
    :data:`EN_LY_BEFORE_NOUN` is an adverb unless the word ``following`` it (lower case) is a
    content word ("early flights"; not "daily since 2020")."""
    if word in EN_LY_BEFORE_NOUN:  # not before a verb's participle ("daily using Dove soap")
        return not following.isalpha() or following in ENGLISH_STOP_WORDS or (
            following in EN_PARTICIPLES)
    return bool(_EN_LY_RE.fullmatch(word)) and word not in _EN_LY_NOUNS


def en_prefix_speaker(prefix: str, rule: Rule) -> Speaker:
    """Who is speaking, judged from the English words before the matched verb."""
    text = _EN_PREFIX_PHRASES.sub(" ", prefix.lower())
    stale = bool(_EN_STALE_PHRASES.search(text))
    subject = False
    copula = False
    for token in _EN_TOKEN_RE.findall(_EN_STALE_PHRASES.sub(" ", text)):
        if token == "i":
            subject = True
        elif token in _EN_COPULA and rule.copula != "no":
            copula = True
        elif token in _EN_MODAL and rule.copula == "modal":
            continue
        elif token in _EN_STALE_WORDS:
            stale = True
        elif token not in _EN_FILLERS and not is_ly_adverb(token):
            return "other"
    if rule.copula == "required" and not copula:
        return "other" if subject else "unknown"  # "…, not into X": the subject is elided
    return "stale" if stale else ("user" if subject or rule.first_person else "unknown")


_ZH_HOW = r"(?:从来|一般|平时|一直|向来|基本|永远|一律|统统|全都|都|也|就|只)*"
_ZH_FROM_NOW = r"(?:以后|往后|今后|从今往后|从今以后|每次|每回)?"
_ZH_MY_MEALS_RE = re.compile(rf"我(?:[吃喝做煮炒泡烤煎炖拌冲][^\W\d我你他她]{{1,2}}){_ZH_HOW}")
"""The user's way with a meal before the verb (``我吃面从来``, ``我做饭``): the user speaks."""
_ZH_MY_ORDERS_RE = re.compile(
    rf"{_ZH_FROM_NOW}我?(?:每次|每回|平时)?(?:帮我|给我)?"
    r"(?:点|买|订|叫|带|拿|做|选|挑|找|租|推荐|推|放|配|导航)[^\W\d我你他她]{0,4}?"
    r"(?:(?:的时候|时)|(?=都|也|一律|永远|统统|全都|一直|从来|默认|就))"
    r"(?:都|也|一律|永远|统统|全都|一直|从来|默认|就)*"
)
"""A standing order's frame (``每次帮我点咖啡都``, ``以后给我推荐电影都``, ``我订房一直``,
``从今往后买鞋都``, ``以后导航默认``, ``订酒店的时候``): the user's order, whoever is asked to
carry it out."""
_ZH_MY_THING_RE = re.compile(
    rf"{_ZH_FROM_NOW}我的(?!猫|狗|宠物|鸟|兔|鱼|龟|仓鼠|鹦鹉)([^\W\d我你他她的]{{1,4}}?){_ZH_HOW}"
)
"""A thing of the user's before the verb (``以后我的奶茶都``, ``我的咖啡永远``): the user's
taste in it, unless the thing is a person (``我的老婆``) or a pet (``我的猫``)."""


def zh_prefix_speaker(prefix: str, rule: Rule) -> Speaker:
    """Who is speaking in Chinese, judged from the words before the verb (``我这个人``: 我)."""
    prefix = prefix.replace("我这个人", "我").replace("我这人", "我")
    prefix = re.sub(r"^(?:不管|无论|不论)[^我]*(?=我)", "", prefix)  # 不管你怎么说我都: conceded
    ordered = _ZH_MY_ORDERS_RE.fullmatch(prefix) is not None and (
        rule.polarity == "dislike" or not prefix.endswith(("时", "时候"))  # 点菜的时候把…换成了
    )
    if _ZH_MY_MEALS_RE.fullmatch(prefix) or ordered or (
        (mine := _ZH_MY_THING_RE.fullmatch(prefix)) and not close_person_zh(f"我的{mine[1]}")
    ):  # ``我吃面从来不放醋``, ``以后我的奶茶都不要珍珠``, ``每次帮我点咖啡都不加糖``
        return "user"
    if _ZH_OTHER_SUBJECT_RE.search(prefix):
        return "other"
    stale = bool(ZH_PAST_RE.search(prefix))
    present = ZH_PAST_RE.sub("", prefix)
    rest = _ZH_FILLER_RE.sub("", present)
    subject = "我" in rest or "本人" in prefix
    named = re.sub(r"[\W_]", "", present)
    if re.sub(r"[我\W_]", "", rest) and _names_a_subject(named) and not (
        rule.fronted_topic and "我" not in named and fronted_topic(named)  # 手机只认苹果
    ):
        return "other"  # words besides the user and fillers: what they are decides
    return "stale" if stale else ("user" if subject or rule.first_person else "unknown")


_ZH_NEGATORS = frozenset("不 没 没有 别 未 非 无 不会 不能 不要 不想 从不 从没 从来".split())


def _names_a_subject(text: str) -> bool:
    """Whether the words before a Chinese verb (besides 我 and fillers) keep the clause
    from being the user's plain stance: anything but function words (``反而挺``, ``一直都``),
    such as another subject (``我妈``, ``他``), a modal or a negation (``不会放弃``)."""
    words = tag(text)
    since = {i for i, (word, flag) in enumerate(words[:-1])
             if flag == "t" and words[i + 1][0] in _ZH_SINCE}  # fmt: skip
    since |= {i + 1 for i in since}
    return any(
        word in _ZH_NEGATORS
        or not (word == "我" or flag.startswith(FUNCTION_TAGS) or _ZH_FILLER_RE.fullmatch(word)
                or i in since)
        for i, (word, flag) in enumerate(words)
    )


_ZH_SINCE = frozenset("起 开始 以来 以后".split())
"""After a time word, a start that lasts to now (``去年起只买鲁花``, ``生日以后一直用钢笔``):
no subject."""


def _modifier(word: str, flag: str) -> bool:
    """A short noun, time word or adjective (``大学``, ``公司``, ``新``) that can stand
    between 我 and a person; not a preposition, conjunction, verb or numeral (``我对宝宝霜``,
    ``我和老公``, ``我是老师``, ``我一个女孩子`` are the user's)."""
    return len(word) <= 2 and flag[:1] in ("n", "t", "a") and flag not in ("nr", "nrt")


def _time_word(following: Sequence[tuple[str, str]]) -> bool:
    """Whether the word after a person noun makes it a time (``我学生时代``, ``我宝宝时期``)."""
    return bool(following) and following[0][0].startswith(("时", "那会", "阶段"))


def close_person_zh(text: str, *, anywhere: bool = False) -> bool:
    """Whether a Chinese text opens with ``我`` (or ``我的``) and a noun for a person
    (:data:`_ZH_PERSON_HEADS` by the segmenter's noun tags, or :data:`_ZH_PERSON_WORDS`),
    perhaps after one modifier (``我大学室友``): ``我表姐原神退坑了``, ``我同事花生过敏``, not
    ``我花生过敏`` nor ``我天天喝咖啡`` (a doubled adverb). With ``anywhere``, at any ``我``
    in it (``说真的我表姐花生过敏``)."""
    starts = [i for i, c in enumerate(text) if c == "我"] if anywhere else [0]
    for start in starts:
        words = list(tag(text[start:].lstrip()[:12]))
        if words and len(words[0][0]) > 1 and words[0][0].startswith("我"):
            words[:1] = [("我", "r"), (words[0][0][1:], words[0][1])]  # jieba's 我妈 is one word
        if len(words) < 2 or words[0][0] != "我":
            continue
        at = 2 if words[1][0] == "的" else 1
        named = words[at : at + 3]
        if named and person_word(*named[0]) and not _time_word(named[1:2]):
            return True
        if len(named) >= 2 and _modifier(*named[0]) and person_word(*named[1]) and not (
            _time_word(named[2:3])
        ):
            return True  # one modifier first: 我大学室友, 我公司同事, 我新同事
    return False


def clause_speaker(clause: str) -> Speaker:
    """Speaker of a clause with no stance in it (``my wife cooks``, ``我朋友``, ``我表姐``)."""
    if has_cjk(clause):
        if _ZH_OTHER_SUBJECT_RE.search(clause) or close_person_zh(clause) or for_someone_else(
                clause):  # fmt: skip
            return "other"
        return "user" if clause.lstrip().startswith("我") else "unknown"
    text = _EN_PREFIX_PHRASES.sub(" ", clause.lower())  # "just so you know, …" is no "you"
    tokens = [t for t in _EN_TOKEN_RE.findall(text) if t not in _EN_FILLERS]
    if not tokens:
        return "unknown"
    if tokens[0] == "i":
        return "user"
    if for_someone_else(clause):
        return "other"  # "for my girlfriend: sushi, no wasabi"
    return "other" if tokens[0] in EN_OTHER_SUBJECTS else "unknown"


EN_PERCEPTION_VERBS = frozenset(
    """
    feel feels felt seem seems seemed sound sounds sounded look looks looked smell smells
    smelled smelt taste tastes tasted
    """.split()
)
"""What a subject seems like to the user (``Blue cheese smells like…``): a clause's
predicate follows one."""
_EN_COPULA_RE = re.compile(
    rf"\b(?:is|are|was|were|{'|'.join(sorted(EN_PERCEPTION_VERBS))})\b|'s\b|'re\b|"
    r"\b(?:me|my|us|our)\b|^\W*i\b",
    re.IGNORECASE,
)

def misread_speaker(clause: str, match: str) -> bool:
    """Whether a rule's stance (its matched text ``match``) was judged another person's only
    because of words before it that name no one: a copula or verb of perception (``Sushi is
    basically my love language``, ``Free jazz sounds like noise to me``, ``叠衣服是最讨厌的
    家务``), the user acted on (``TikTok dances make me cringe into…``) or the user as
    subject (``I've cut up my credit card and stopped…``); never when a person is named
    before it."""
    if clause_speaker(clause) == "other":
        return False
    prefix = clause[: clause.find(match)]
    if has_cjk(clause):
        return "是" in prefix and not prefix.lstrip().startswith("我")
    return bool(_EN_COPULA_RE.search(prefix)) and not EN_PEOPLE_RE.search(prefix)


def own_prefix(prefix: str, matched: str, rule: Rule, zh: bool) -> str:
    """The words before a rule's match that judge who speaks: none for an English subject
    after a comma whose predicate names the user ("…at the expo, Cholula remains my ride or
    die", "Tried ProtonMail, tried Fastmail, Gmail just works for me"): the phrase before the
    comma is one of its own, unless it names a person or a report (:data:`EN_PEOPLE_RE`)."""
    if not zh and rule.first_person and matched.startswith((",", ";")) and not (
        EN_PEOPLE_RE.search(prefix)
    ):
        return ""
    return prefix


_SENTENCE_SPLIT_RE = re.compile(
    r"(?<=[!?。！？])\s*"
    r"|(?<=\.)(?<!\.[A-Za-z]\.)\s+"  # not after an abbreviation: e.g., i.e., U.S.
    r"|(?<=[A-Za-z]{2}\.)(?=[A-Z]|i\b)"  # "peanuts.I love": a word, a full stop, a new sentence
    r"|\n+"
)
_EN_AND_VERBS = (
    r"i|i'm|i've|i'd|hate|love|like|prefer|dislike|enjoy|adore|avoid|can'?t|cannot|don'?t|"
    r"hated|loved|liked|disliked|enjoyed|adored|didn'?t|did\s+not|couldn'?t|"
    r"do\s+not|never|no\s+longer|find|refuse|will|won't|would|'ll|tend|try|only|exclusively|"
    r"despise|loathe|detest|steer|stay|follow|am|have\s+an?|has\s+an?|get|feel|strictly|"
    r"much\s+prefer|generally|always|rarely|also|still|usually|can|could|there'?s|there\s+is|"
    r"no\s+going\s+back|(?:went|came)\s+(?:(?:right|straight|crawling|running)\s+)?back"
)
_EN_CLAUSE_SPLIT_RE = re.compile(
    r"\s*(?:;|(?<!\d):|:(?!\d))\s*"  # not a time of day (6:15)
    r"|(?<!\bnothing)(?<!\bnone),?\s+(?:but|however|whereas|although|though|"
    r"yet(?=\s+(?!(?:but|and|or|so)\b)\w)|(?<!\ba\s)while)\b,?\s*"
    r"|,\s*(?=(?:and\s+)?(?:i|i'm|i've|i\s+am|now|these\s+days|nowadays|lately|no\s+more)\b)"
    r"|,\s*(?:and\s+)?(?:so|which\s+is\s+why|that's\s+why|hence|therefore|thus)\s+(?=i\b)"
    r"|\s+(?:so|because|since(?!\s+i\s+was\b)|as)\s+(?=(?:i|i'm|i've|i\s+am)\b)"
    r"|,?\s+(?:because|since|as)\s+(?=(?:they|it)\b)"
    r"|,\s*(?=(?:it|they)\b|that(?:'s|\s+is)\b|(?:the|every|all\s+the)\s+(?:others?|rest)\b)"
    rf"|,\s*(?=(?:(?:and|so)\s+)?{EN_BETTER})"
    r"|,\s*(?=(?:avoiding|preferring|favou?ring|choosing|opting\s+for|steering\s+clear|"
    r"staying\s+away)\b)"
    rf"|,?\s+and\s+(?=(?:(?:\w+ly|also|really|much|then|will|would)\s+)?(?:{_EN_AND_VERBS})\b)"
    r"|,?\s+and\s+(?=(?:no|not|without)\s+\w)|,\s*(?=(?:[\w'&.+-]+\s+){1,4}only\s+(?:now|from)\b)"
    r"|,\s*(?=(?:\w+ly\s+)?(?:can'?t|cannot|don'?t|do\s+not|hate|love|adore|dislike|detest|"
    r"loathe|enjoy|never|(?:not\s+)?(?:a\s+)?(?:big\s+)?fan\s+of|(?:hat|lov|ador|dislik|enjoy|"
    r"lik)ed|didn'?t|couldn'?t)\s)"
    r"|,\s*(?=(?:(?:just|but|only|though|and)\s+)?(?:(?:no|not)\s+more\s+than|at\s+most|"
    r"max(?:imum)?\s|up\s+to\s|only\s+(?:once|twice|on)\b|once\s+a\b|twice\s+a\b))"
    r"|\s+(?:says|said|told\s+me|confirmed|thinks|reckons)\s+(?:that\s+)?(?=i(?:'m|\s))"
    r"|\s+(?=now\s+i\b)"
    r"|,\s*(?=(?:but\s+)?(?:not|no)\s+(?:(?:so\s+much|really)\s+)?(?:any\s*more|any\s+longer|"
    r"longer)(?:\s+(?:lol|haha|though|tbh|for\s+sure|to\s+be\s+honest|these\s+days))*\W*$)"
    r"|,\s*(?=(?:but\s+)?not\s+(?:(?:into|of|a\s+(?:big\s+)?fan\s+of|keen\s+on)\s+)?(?!(?:too|very|so|"
    r"that|really|quite|at|sure|only|just|even|always|often|ever|again|much|many|more|less|"
    r"necessarily|exactly|now|today|yet|when|if|because|as|in|on|for|to|with|by|from|about|"
    r"after|before|during|until|while|since|where|why|how|what|who|every|each|all|alone|late|"
    r"early|a|an|the|one|bad|my|your|it|this|that|those|these|any|anymore|longer|enough)\b)[a-z])"
    r"|,\s*(?=(?:but\s+)?[a-z][\w' &-]{0,40}?\s+(?:not\s+(?:so\s+much|really|at\s+all|as\s+much|"
    r"much)|less\s+so)(?:\s+(?:lol|haha|though|tbh|for\s+sure|to\s+be\s+honest|these\s+days|"
    r"nowadays|lately|anymore))*\W*$)"
    r"|,\s*(?=(?:and\s+)?[a-z0-9][\w' &.+-]{0,40}?\s+(?:(?:just|really|honestly)\s+)?"
    rf"(?:{LET_DOWN}|{NEVER_TOOK}))",
    re.IGNORECASE,
)
_EN_DISCOURSE_RE = re.compile(
    r",?\s*\b(?:like|as)\s+(?:i|you|we)(?:'ve|\s+have)?\s+(?:said|say|mentioned|told\s+you|"
    r"discussed|wrote|noted|explained)(?:\s+(?:before|earlier|already|above))?\b\s*,?",
    re.IGNORECASE,
)
"""``like I said`` / ``as you mentioned``: points back in the talk; ``like`` there is no verb."""
_EN_MIND_CHANGED_RE = re.compile(
    r"\b(?:i(?:'ve|\s+have)\s+|i\s+)?(?:just\s+)?changed\s+my\s+mind(?=\s*[,;:.!—–-])",
    re.IGNORECASE,
)
"""``I've changed my mind, X is fine now``: the announcement alone states nothing; what follows
does (``changed my mind on X`` names its object and stays for the topic rule)."""
_EN_EVERYTHING_BUT_RE = re.compile(
    r"\b((?:every|any)(?:thing|one)|(?:every|any|all)\s+(?:kinds?\s+of\s+)?[a-z]+)\s+but\b"
    r"(?!\s+(?:i|i'm|i've|i'd|it|it's|they|he|she|we|you|not|never|no|only|just|then|also)\b)",
    re.IGNORECASE,
)
"""``any nut but walnuts`` is an exception ("except"), not a new clause; ``any X but I …`` is."""
_ZH_CLAUSE_SPLIT_RE = re.compile(
    r"[，,；;：:]|但是|可是|不过(?!敏)|然而|而且|并且|但(?!是)|(?<=[^，,])(?=现在|如今|目前|后来)"
    r"|(?<=[生夫妈爸师友他她们])说(?=我)"
    r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+(?=[\u4e00-\u9fff])"  # 青岛啤酒🍺 精酿…
    # ``去冰少糖``, ``免葱免蒜``: two things an order leaves out, one after the other
    r"|(?<=[冰糖辣葱蒜菜])(?=(?:去|免|少|多|半)(?:冰|糖|辣|葱|蒜|香菜)|[三五七半全无]分?糖)"
)
_ZH_JOINED_LEADS_RE = re.compile(
    r"^(?:说实话|老实说|对了|跟你说|其实|嗯|哦|好吧)?我?(?:比起|相比|除了|宁愿|宁可)"
)
_ZH_JOINED_TAILS_RE = re.compile(
    r"^(?:除了|除去|只有|唯独|就是|只是)(?![^，,]*(?:过敏|不耐受))[^，,]{1,14}$|"
    r"^[^，,]{1,10}(?:除外|例外)"
    r"|^(?:就|但是?|只是|可是)?(?![我你他她它])[^，,不没]{1,10}"
    r"(?:不要|不行|不(?:吃|喝|看|玩|用|听|穿|读|打|练|逛|去)|除外|例外)[。！!]?$"
)
"""``所有运动我都爱，除了拳击`` / ``我喜欢所有电影，西部片除外`` /
``音乐我都可以，就乡村音乐不要`` / ``我吃各种香料，但孜然不吃``: the exception joins the clause
of the class it is cut from; an allergy stays a clause of its own (``海鲜都行，就是螃蟹过敏``)."""
_ZH_CLASS_RE = re.compile(r"(?:都|全都|来者不拒|所有|各种|一切|任何)")
def sentences(text: str) -> Iterator[str]:
    """The non-empty sentences of a message, stripped."""
    for sentence in _SENTENCE_SPLIT_RE.split(text):
        if sentence and sentence.strip():
            yield sentence.strip()


FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|our|us)\b|我|咱|俺", re.I)
"""A word of the first person: the speaker named."""


_REASON_RE = re.compile(r"\b(?:because|'cause|cos|coz|as|since)\s*$", re.I)
_OF_THE_OBJECT_RE = re.compile(
    r"^(?:i\s+(?:believe|think|find|feel|reckon)\s+(?:that\s+)?)?(?:it|they|these|those)\b"
    r"|^(?:因为|由于)(?!我)",
    re.I,
)


def reason_clauses(sentence: str, parts: list[str]) -> set[int]:
    """The positions in ``parts`` (:func:`clauses` of ``sentence``) of the clauses that give
    the reason for what came before by what the object is or does ("…, since they don't
    itch", "…, as I believe it exposes me to other cultures", ``…，因为它不伤胃``): such a
    clause explains the stance before it, and its words ("don't", "itch") are no stance of
    the user's on that object. A reason the user states of themselves ("…because I can't
    resist them") is a stance, and not one of these. The splitter drops an English
    connector, so it is looked for in the sentence, just before the clause."""
    return {
        i for i, part, start, _gap in located(sentence, parts)
        if i and start >= 0 and _OF_THE_OBJECT_RE.match(part)
        and (has_cjk(part) or _REASON_RE.search(sentence[:start]))
    }  # fmt: skip


def located(sentence: str, parts: list[str]) -> Iterator[tuple[int, str, int, str]]:
    """Each clause of ``sentence`` (:func:`clauses`, in order) with where it starts in the
    sentence and the text between it and the clause before: ``(index, part, start, gap)``.
    The splitter drops an English connector ("…, but it…", "…, since they…"), so what stood
    between two clauses is read from the gap. A clause the splitter rewrote ("everything
    but" → "except") is not found: its start is ``-1`` and its gap empty, and the next
    clause is looked for after the last one found."""
    at = 0
    for i, part in enumerate(parts):
        start = sentence.find(part, at)
        yield i, part, start, sentence[at:start] if start >= 0 else ""
        at = start + len(part) if start >= 0 else at


def clauses(sentence: str) -> list[str]:
    """The clauses of one sentence, each a candidate for one stance. What a request leaves out
    is a clause of its own ("Order me sushi", "no wasabi"): a dislike, read after the want
    (:func:`~.negation.negated_stance`), not the request's own object."""
    if has_cjk(sentence):
        return _joined_zh(c.strip() for c in _ZH_CLAUSE_SPLIT_RE.split(sentence))
    sentence = _EN_MIND_CHANGED_RE.sub(" ", _EN_DISCOURSE_RE.sub(" ", sentence))
    sentence = _EN_EVERYTHING_BUT_RE.sub(r"\1 except", sentence)
    parts = [c.strip() for c in _EN_CLAUSE_SPLIT_RE.split(sentence) if c and c.strip()]
    return [piece for i, part in enumerate(parts)
            for piece in split_left_out(part, last=i == len(parts) - 1)]


def _bare_someone(part: str) -> bool:
    """A Chinese part of no verb that names someone (``导师``, ``张伟``); a name only as the whole
    part (the segmenter tags some predicates as names: ``奶茶太甜``, 太甜/nr)."""
    words = [(w, f) for w, f in tag(part) if not f.startswith(FUNCTION_TAGS)]
    return bool(words) and not any(f[:1] in "va" for _, f in words) and names_someone(part) and (
        words[-1][1] != "nr" or len(words) == 1)


_ZH_ABOUT_THEN_ME_RE = re.compile(r"对[^，,]{1,12}我")
"""``对健身我``(现在完全无感): what the stance is about and the speaker, no clause (the head
had read the fragment as a like)."""


def _joined_zh(parts: Iterator[str]) -> list[str]:
    """``比起咖啡，我更喜欢茶``: a clause that only sets up a comparison joins the next."""
    joined: list[str] = []
    lead = ""
    for part in parts:
        if not part:
            continue
        if lead:
            part, lead = f"{lead}，{part}", ""
        if joined and re.match(r"现在|如今|目前", part) and (
            _bare_someone(joined[-1]) or _ZH_ABOUT_THEN_ME_RE.fullmatch(joined[-1])
        ):  # ``导师现在写论文全用LaTeX``, ``对健身我现在完全无感``: its subject, not a clause
            joined[-1] += part
            continue
        if joined and _ZH_JOINED_TAILS_RE.match(part) and _ZH_CLASS_RE.search(joined[-1]):
            joined[-1] = f"{joined[-1]}，{part}"
            continue
        if _ZH_JOINED_LEADS_RE.match(part) and "，" not in part and len(part) <= 14:
            lead = part
            continue
        joined.append(part)
    if lead:
        joined.append(lead)
    return joined


__all__ = [
    "EN_OTHER_SUBJECTS",
    "EN_PERCEPTION_VERBS",
    "FIRST_PERSON_RE",
    "ZH_PAST_RE",
    "Speaker",
    "clause_speaker",
    "close_person_zh",
    "misread_speaker",
    "own_prefix",
    "clauses",
    "en_prefix_speaker",
    "is_ly_adverb",
    "located",
    "reason_clauses",
    "sentences",
    "zh_prefix_speaker",
]
