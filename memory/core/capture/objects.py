"""Cutting a stance's object out of its clause, and what is left over.

The object runs from the verb to the first clause boundary ("because",
"when", a dash …), with fillers trimmed ("anymore", "this year"). Two tails
are kept, not dropped: the compared-against object of a comparison ("tea
*over coffee*") and the exception of a universal ("all vegetables *except
eggplant*"); the stance builder stores them with the opposite polarity. A
pronoun object takes the antecedent named earlier in the message; an object
that names the assistant's own suggestion ("that idea"), a person or a time
is no preference object at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...model import has_cjk
from .keywords import ZH_BAD_OBJECT_RE, ZH_LEADING_RE, ZH_TRAILING_PARTICLE, object_keywords
from .lexicons import CATEGORY_WORDS, EN_DEGREE_OF_MORE, EN_PEOPLE_RE, STOP_WORDS
from .pronoun_ways import way_had
from .segment import noun_runs
from .segment import words as zh_words
from .zh_edges import names_no_thing_zh, without_edge_words_zh

MAX_OBJECT_CHARS = 80
"""A longer object is cut at its first qualifier ("that …", "with …"); one that cannot
be cut that short is a description, not a preference object: it yields nothing."""

OBJECT_WINDOW = 4 * MAX_OBJECT_CHARS
"""Characters after the verb worth reading."""

_EN_HARD_STOP_RE = re.compile(r"[;:()\[\]!?\"“”]|\s[-–—]\s|[–—]|\.\.\.|\.(?:\s|$)")
_EN_SOFT_STOP_RE = re.compile(
    r"\s+(?:because|since|as|when|whenever|while|if|unless|so|which|who|where|though|"
    r"although|but|especially|such\s+as|like|for|and\s+then|then|cause|cuz|coz|until|"
    r"whereas|except|anyway|due\s+to|given|regardless|even|no\s+matter|whether|including|"
    r"namely|notably|specifically|e\.g|every\s+(?:single\s+)?time|any\s+day|hands\s+down|"
    r"and\s+(?:haven't|hasn't|hadn't|never)|"
    r"now\s+that|(?-i:after)\s+(?:my|our|that|this|last|the\s+last|an?\s+(?:bad|awful|"
    r"terrible|horrible))|i|(?-i:we))\b.*$",
    re.IGNORECASE,
)
_EN_EXCEPTION_RE = re.compile(
    r"\s+(?:except(?:\s+for)?|apart\s+from|other\s+than|save\s+for|but\s+not)\s+(?P<exc>.+)$",
    re.IGNORECASE,
)
_EN_COMPARATIVE_RE = re.compile(
    rf"\s+(?:{EN_DEGREE_OF_MORE})?"
    r"(?P<word>over|than|instead\s+of|rather\s+than|more\s+than|better\s+than|above)\s+"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_EN_PREFER_TO_RE = re.compile(r"\s+(?P<word>to)\s+(?P<rest>(?!\w+\s+(?:be|do|go)\b).*)$", re.I)
_EN_GLOSS_RE = re.compile(r"\s*\((?:[A-Z][A-Za-z]{1,5}|[a-z]{2,5})s?\)")
_EN_SEGMENT_AUX = frozenset(
    "i you we they he she it is are was were 's 're do does did can will would has have had "
    "am be been my me his her our their your".split()
)
_EN_SEGMENT_PERSONS = frozenset("i me we us you he him she her they them".split())
_EN_CLAUSE_STARTERS = frozenset(
    "they it it's its which that because since so but especially as though although if when "
    "please thanks thank lol haha i i'm you we he she too either anymore really honestly "
    "actually right ok okay not no there this these those what why how whatever whoever "
    "whenever wherever however regardless".split()
)
_EN_TRAILING_RE = re.compile(
    r"(?:\s+(?:anymore|any\s+more|either|too|as\s+well|please|at\s+all|so\s+much|a\s+lot|"
    r"very\s+much|the\s+most|most|lately|nowadays|these\s+days|now|today|really|though|"
    r"honestly|actually|in\s+general|generally|best|more|much|all\s+the\s+time|lol|haha|tbh|"
    r"ok|okay|a\s+ton|personally|myself|instead|again|whatsoever|anyway|either\s+way|"
    r"from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|right\s+now|ever\s+again|ever|"
    r"any\s+longer|no\s+more|(?:almost\s+|nearly\s+)?(?:completely|"
    r"entirely|altogether)|almost|nearly|permanently|for\s+good|"
    r"any\s+day|every\s+time|hands\s+down|any\s*time|for\s+sure|every\s+(?:\d+|few|couple\s+of)\s+"
    r"(?:sec(?:ond)?s?|min(?:ute)?s?|hours?|days?)|"
    r"cold[-\s]turkey|forever|(?:pretty\s+much\s+)?always|usually|to\s+be\s+(?:honest|fair)|"
    r"(?:this|last|next)\s+(?:year|month|week|summer|winter|spring|autumn|fall|time)|"
    r"(?:(?:about|around|almost|nearly|roughly|over|just\s+over)\s+)?"
    r"(?:a\s+(?:few\s+)?|few\s+|several\s+|many\s+|two\s+|three\s+)?(?:years?|months?|weeks?|"
    r"days?)\s+ago|ages\s+ago|a\s+while\s+(?:ago|back)|(?-i:all\s+the\s+way)|"
    r"\w+\s+times\s+out\s+of\s+\w+|for\s+(?:good|now|years|months|a\s+while|ages)|"
    r"whenever\s+possible|if\s+possible|where\s+possible|(?:for|to|on)\s+(?:me|us)|my\s+way|"
    r"here|first|recently|at\s+all\s+costs|"
    r"in\s+summer|in\s+winter|in\s+my\s+life|before|earlier|back\s+then|in\s+the\s+past|"
    r"as\s+a\s+(?:kid|child|teen(?:ager)?)|and|or|but))+\s*$",
    re.IGNORECASE,
)
_EN_EDGE_SYMBOLS_RE = re.compile(r"^[^\w$£€]++|(?<![^\w)%])[^\w)%]++$")
"""Symbols at either edge; a trailing run is tried once, from its start (linear time)."""
_EN_LONG_CUT_RE = re.compile(
    r"\s+(?:that|which|who|whose|where|with|involving|containing|featuring|including|made|"
    r"from|in|on|at|for|of|to|by|as|like|such)\b",
    re.IGNORECASE,
)
_EN_PRONOUN_OBJECTS = frozenset(
    {"it", "them", "they", "that", "this", "those", "these", "that one", "this one", "one"}
)
_EN_BAD_OBJECT_RE = re.compile(
    r"^(?:you|your|yours|yourself|him|her|his|hers|us|me|myself|we|our|ours|they|their|he|she|"
    r"people|everyone|everybody|someone|somebody|nobody|when|"
    r"whenever|how|what|why|where|who|whether|if|not|no|nothing|none|there|here|because|so|"
    r"just|being|(?-i:it)\s+\w+|(?:or|and|by|at|in|on|off|for|with|from|up|out|down|about|around|"
    r"through|well|time|today|tonight|tomorrow|yesterday|problem|worries|thanks)(?=\s|$)|"
    r".*\byou(?:'ve|\s+have|\s+just)?\s+(?:recommended|suggested|mentioned|picked|found|gave|"
    r"sent|showed|listed|proposed|described)\b|"
    r"(?:that|this)\s+(?:you|i|we|he|she|they|it|people|there|my|our|his|her|their|the|joke|"
    r"pun|poem|explanation|summary)\b|"
    r"(?:(?:that|this|the|your|those|these|such\s+an?|an?)\s+)?(?:(?:first|second|third|last|"
    r"other|latter|former|new|great|good)\s+)?(?:suggestions?|ideas?|recommendations?|advice|"
    r"plans?|options?|proposals?|answers?|responses?|replies|reply|lists?|choices?|picks?|"
    r"approach|tips?|thoughts?|sounds?\s+of\s+(?:that|it))$|"
    r"to\s+(?:say|admit|tell|bother|ask|interrupt|break|complain|be|see|hear|think|know|"
    r"have\s+to|go|do)\b)\b",
    re.IGNORECASE,
)
_EN_NOT_TO_RE = re.compile(
    r"^(?:(?:to\s+)?(?:avoid|stay\s+away\s+from|steer\s+clear\s+of|keep\s+away\s+from|skip)|"
    r"avoiding|staying\s+away\s+from|steering\s+clear\s+of|"
    r"not\s+(?:to\s+)?(?:eat|drink|use|wear|buy|have|get|watch|play|read|visit|attend|do|"
    r"go\s+to|participate\s+in|engage\s+in|dine\s+at|own)(?:ing)?)\s+(?P<rest>.+)$",
    re.IGNORECASE,
)

_ZH_STOP_RE = re.compile(
    r"[，,。.！!？?；;：:…~]|因为|所以|如果|因此|虽然|但是|不过|可是|而且|毕竟|反正|自从|自打|打从|"
    r"\s+(?=[\u4e00-\u9fff])"
)
_ZH_COMPARATIVE_RE = re.compile(r"(?P<word>而不是|而非|胜过|多过|超过|多于)(?P<rest>.*)$")
_ZH_TRAILING_RE = re.compile(  # 青岛啤酒🍺, 别放儿歌就行
    rf"(?:{ZH_TRAILING_PARTICLE}|\s|[\U0001F300-\U0001FAFF\u2600-\u27BF]|就(?:行|好|可以)|即可)+$"
)
ZH_DURATION_RE = re.compile(
    r"(?:已经|都|快|有|好)?(?:(?:[一二三四五六七八九十两几半\d]+|好几|大半)(?:个)?(?:多)?"
    r"(?:年|月|周|星期|礼拜|天)|好久|很久|挺久|蛮久|许久|多年|好多年|好些年|好一阵子?|一阵子|"
    r"(?:好长|很长|一段)时间)(?:多|了|啦)*$"
)
"""``戒咖啡三个月了``, ``咖啡我戒了好久了``: how long since, not part of the object."""
_ZH_PRONOUN_OBJECTS = frozenset("它 它们 这个 那个 这些 那些 这 那 这种 那种".split())
@dataclass(frozen=True)
class Object:
    """What a stance is about: the words shown in content, and the language.

    ``initial`` marks an object that starts its clause (``Apple is my
    favourite``), where a capital letter says nothing about a name. ``subject`` marks an
    antecedent known only as a clause's subject (:func:`leading_subject`): only ``they`` and
    ``them`` go back to it, never an ``it`` that may point at nothing ("I hate it when…").
    """

    display: str
    zh: bool
    initial: bool = False
    subject: bool = False


@dataclass(frozen=True)
class Cut:
    """An object's words and the tails cut from them.

    Attributes:
        display: The object as shown in content.
        contrast: The compared-against object of a comparison ("over coffee" →
            ``coffee``), with ``contrast_word`` the word that introduced it.
        exception: The exception of a universal ("except eggplant" → ``eggplant``).
    """

    display: str
    contrast: str = ""
    contrast_word: str = ""
    exception: str = ""


def _trim_en(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _EN_EDGE_SYMBOLS_RE.sub("", _EN_TRAILING_RE.sub("", text)).strip(" ,.'")
    return " ".join(text.split())


def _shorten(text: str) -> str:
    """A long English object cut at its first qualifier, or ``text`` when none fits."""
    if len(text) <= MAX_OBJECT_CHARS:
        return text
    for match in _EN_LONG_CUT_RE.finditer(text):
        head = _trim_en(text[: match.start()])
        if head and len(head) <= MAX_OBJECT_CHARS:
            return head
        break
    return text


def _continues_object(words: list[str]) -> bool:
    """Whether the words after a comma go on naming the object (a list, stacked adjectives);
    a segment with a person in it is a clause of its own (``…, the doctor cleared me``)."""
    if not words or words[0] in _EN_CLAUSE_STARTERS or set(words[:3]) & _EN_SEGMENT_AUX:
        return False
    if {w.strip(".!?;:") for w in words} & _EN_SEGMENT_PERSONS:
        return False
    return len(words) <= (12 if words[0] in ("and", "or") else 10)


def cut_en(raw: str, comparative: str = "") -> Cut:
    """The object's words at the start of ``raw``: cut at the first clause boundary.

    Args:
        raw: The clause text after the stance's verb.
        comparative: ``"prefer"`` (``to`` also compares: "prefer tea to coffee"),
            ``"yes"`` (over / than / rather than / instead of) or ``""``.
    """
    text = _EN_GLOSS_RE.sub("", raw[:OBJECT_WINDOW]).strip()
    text = _EN_HARD_STOP_RE.split(text, maxsplit=1)[0]
    segments = text.split(",")
    kept = [segments[0]]
    for segment in segments[1:]:  # no list goes on from a pronoun ("liked it, way faster…")
        if is_pronoun(kept[0].strip()) or not _continues_object(segment.lower().split()):
            break
        kept.append(segment)
    text = ",".join(kept)
    exception = ""
    if found := _EN_EXCEPTION_RE.search(text):
        exception = _trim_en(_EN_SOFT_STOP_RE.sub("", found.group("exc")))
        text = text[: found.start()]
    text = _EN_SOFT_STOP_RE.sub("", text)
    contrast = word = ""
    if comparative and not text.lower().startswith("not "):
        found = _EN_COMPARATIVE_RE.search(text)
        if found is None and comparative == "prefer":
            found = _EN_PREFER_TO_RE.search(text)
        if found:
            contrast, word = _trim_en(found.group("rest")), found.group("word").lower()
            text = text[: found.start()]
            if word == "than" and (less := re.match(r"(.+?)\s+less$", text, re.I)):
                text, contrast = contrast, less[1]  # "X less than Y": Y is the one preferred
    return Cut(_shorten(_trim_en(text)), _shorten(contrast), word, _shorten(exception))


_EN_SPAN_STOP_RE = re.compile(
    r",\s|\s+(?:because|since|as|when|whenever|while|if|unless|so|but|though|although|cause|"
    r"until|whereas|regardless|even|whether|due\s+to|especially|and\s+(?:i|i'm|i've|my|it|they)"
    r"|or\s+(?:i|my)|to|over|than|instead\s+of|rather\s+than|versus|vs|into|except|but\s+not)\b",
    re.IGNORECASE,
)


def object_span(raw: str) -> str:
    """The whole object phrase at the start of ``raw``, qualifiers included.

    Cut at the first hard clause boundary (punctuation, a dash), a clause conjunction
    (``because``, ``when``, ``, ``, ``and I …``) or the word that brings in a switch's,
    comparison's or exception's other object (``to``, ``over``, ``than``, ``except``), never
    shortened: ``games that are highly
    competitive and involve a lot of PvP`` keeps its relative clause, which :func:`cut_en`
    drops from a displayed object. The gate reads qualifiers from it (issue 17).
    """
    text = _EN_GLOSS_RE.sub("", raw[:OBJECT_WINDOW]).strip()
    text = _EN_HARD_STOP_RE.split(text, maxsplit=1)[0]
    return _trim_en(_EN_SPAN_STOP_RE.split(text, maxsplit=1)[0])


def cut_zh(raw: str, comparative: bool = False) -> Cut:
    """The Chinese object at the start of ``raw`` (cut at punctuation and conjunctions)."""
    text = _ZH_STOP_RE.split(raw[:OBJECT_WINDOW], maxsplit=1)[0]
    text = re.sub(r"^(?:很|都|太|那么|这么|再|也|还|就|一下(?!子))+", "", text.strip())  # 避开一下
    contrast = word = ""
    if comparative and (found := _ZH_COMPARATIVE_RE.search(text)):
        contrast, word = _ZH_TRAILING_RE.sub("", found.group("rest")).strip(), found.group("word")
        text = text[: found.start()]
    text = ZH_DURATION_RE.sub("", _ZH_TRAILING_RE.sub("", text)).strip()
    if text.startswith("上") and len(text) > 1 and zh_words(text)[0] == "上":
        text = text[1:]  # 爱上动漫: the verb's complement 上; 爱上海 keeps 上海, one word
    return Cut(_ZH_TRAILING_RE.sub("", text).strip(), contrast, word)


def strip_zh_subject(text: str) -> str:
    """``我…`` at the start of a Chinese object group is the speaker, not the object."""
    return ZH_LEADING_RE.sub("", text) if text.startswith("我") else text


def lower_sentence_start(text: str) -> str:
    """``Green tea`` / ``Loud music`` at the start of a sentence → lower case; names keep theirs.

    The first word is lowered when it is a common word (a lexicon entry) or when the
    next word is lower case (``Loud music``, not ``Ted Chiang``), unless it is a brand.
    """
    words = text.split(" ", 2)
    first = words[0]
    if not first[1:].islower() or first.lower() in CATEGORY_WORDS["brand"]:
        return text
    common = first.lower() in STOP_WORDS or any(
        first.lower() in words for cat, words in CATEGORY_WORDS.items() if cat != "brand"
    )
    next_lower = len(words) > 1 and words[1][:1].islower()
    if next_lower and re.match(r"\S+(?:\s+(?:of|the|and|in|on)){1,2}\s+[A-Z]", text):
        return text  # a title: "Game of Thrones", "Lord of the Rings"
    return first.lower() + text[len(first) :] if common or next_lower else text


def avoidance(display: str) -> str | None:
    """The object of "to avoid X" / "not to eat X" after a liking verb, else None."""
    found = _EN_NOT_TO_RE.match(display)
    return found.group("rest") if found else None


_ZH_PARTICLES = "的了啊呀吧呢哦嘛啦"
"""Sentence-final particles: a clause that names nothing else names no object."""
_EN_ALL_OF_IT_RE = re.compile(
    r"^(?:every\s+(?:single\s+)?(?:minute|second|bit|moment|page|bite)\s+of\s+(?P<thing>.+)|"
    r"all\s+of\s+(?P<it>it|them)|(?:an?|the|some|one)\s+(?:[\w-]+\s+)?(?:glass|cup|bowl|slice|"
    r"piece|bite|pint|plate|bottle|can|mug|shot|scoop)(?:es|s)?\s+of\s+(?P<some>it|them))$",
    re.IGNORECASE,
)
"""The whole of a thing ("loved every minute of it", "hated every minute of the crowds") or a
measure of it ("a good glass of it"): the thing (the pronoun, "the crowds")."""


def resolve(
    display: str, zh: bool, antecedent: Object | None, initial: bool = False
) -> Object | None:
    """The object a clause names, following a pronoun to ``antecedent``; None if unusable."""
    if len(display) > MAX_OBJECT_CHARS:
        return None
    if zh:
        if not display.strip(_ZH_PARTICLES) or display in _ZH_PRONOUN_OBJECTS:
            return antecedent  # nothing named but particles ("挺喜欢的"): the object before
        display = without_edge_words_zh(display)
        if names_no_thing_zh(display):
            return None  # 一闻就反胃: "as soon as I smell it", the thing named before
        if ZH_BAD_OBJECT_RE.match(display):
            return None
        return Object(display, zh=True)
    display = _EN_ALL_OF_IT_RE.sub(lambda m: m["thing"] or m["it"] or m["some"], display)
    if display.lower() in _EN_PRONOUN_OBJECTS:
        if antecedent is not None and antecedent.subject:
            return replace(antecedent, subject=False) if display.lower() in _THEY else None
        return antecedent
    if (way := way_had(display)) is not None:  # "I love it black"
        if antecedent is None:  # a subject too: what it is liked as shows *it* is a thing
            return None
        thing = antecedent.display
        thing = lower_sentence_start(thing) if antecedent.initial else thing
        return Object(f"{thing} {way}" if " " in way else f"{way} {thing}", zh=False)
    if not display or _EN_BAD_OBJECT_RE.match(display):
        return None
    return Object(display, zh=False, initial=initial)


def is_pronoun(display: str) -> bool:
    """Whether an object is only a pronoun (``it``, ``them``, ``这个``)."""
    return display.lower() in _EN_PRONOUN_OBJECTS or display in _ZH_PRONOUN_OBJECTS


_EN_MENTION_RE = re.compile(
    r"^(?:(?:no|not|nothing|without|please|just|so|and|but|oh|well)\s+|(?:any|some|every)thing"
    r"\s+(?:with|containing)\s+)*(?P<np>[a-z][a-z' -]{0,40}?)(?:\s+(?:please|thanks))?$",
    re.IGNORECASE,
)
_EN_MENTION_EXCLUDED = frozenset(
    "i i'm i've i'd you he she we they it this that there here my your his her our their "
    "me him them us one ones "  # "Him? never liked him", "The blue one? yes that's it"
    "thanks thank sorry yes yeah ok okay problem way idea worries hi hello".split()
)
_EN_MENTION_VERBS = frozenset(
    "is are was were 's 're gets get got has have had seems tastes looks feels sounds smells "
    "makes".split()
)
"""A short clause names its subject only, the words before one of these ("Salted caramel is
divine", "Glitter gets everywhere")."""
_EN_EDGE_RE = _EN_EDGE_SYMBOLS_RE


def mentioned(clause: str, zh: bool) -> Object | None:
    """A clause that is only a noun phrase (``No nuts please``) names an object for ellipsis."""
    if zh:
        return None
    text = _EN_EDGE_RE.sub("", clause).strip()
    match = _EN_MENTION_RE.match(text)
    if not match:
        return None
    phrase = match.group("np")
    words = phrase.lower().split()
    if not words or len(words) > 4 or set(words) & _EN_MENTION_EXCLUDED:
        return None
    verb = next((i for i, word in enumerate(words) if word in _EN_MENTION_VERBS), len(words))
    phrase = " ".join(phrase.split()[:verb])
    return Object(phrase, zh=False) if object_keywords(phrase) else None


_EN_SUBJECT_RE = re.compile(
    r"^\W*(?:(?:and|but|so|well|honestly|now|though)\s+)*(?:(?:the|these|those|all|most)\s+)?"
    r"(?P<np>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}?)\s+(?:used\s+to|was|were|is|are|'s|'re|"
    r"has|have|had|got|get|gets|seemed|seems|tasted|tastes|felt|feels|looked|looks|sounded|"
    r"sounds|smelled|smells|[a-z]+ed)\b",
    re.IGNORECASE,
)
_NO_SUBJECT = frozenset(
    "i me my we our us you your it this that there here what who someone somebody nobody "
    "one".split()
)
"""Words that name no thing as a subject; a person (he, they, everyone…) is
:data:`~.lexicons.EN_PEOPLE_RE`'s."""


_THEY = frozenset(("they", "them"))


def leading_subject(clause: str, speaker: str) -> Object | None:
    """The noun phrase an English clause with no stance opens with as its subject
    ("Protein shakes tasted fine for years"), the antecedent of a pronoun after it ("…; now
    they make me gag"): the subject is the pronoun's preferred antecedent (centering theory,
    Grosz, Joshi & Weinstein 1995). None for a person, a pronoun, Chinese, or another
    speaker's clause."""
    if speaker == "other" or (match := _EN_SUBJECT_RE.match(clause)) is None:
        return None
    phrase = match.group("np")
    words = phrase.lower().split()
    if set(words) & _NO_SUBJECT or EN_PEOPLE_RE.search(phrase):
        return None
    return Object(phrase, zh=False, initial=True, subject=True) if object_keywords(phrase) else None


_NO_TOPIC_RE = re.compile(
    r"\b(?:anything|something|everything|nothing|else|today|tonight|tomorrow|yesterday|"
    r"weekend|morning|afternoon|evening|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|now|later|when|where|why|how|what|who|really|seriously)\b",
    re.IGNORECASE,
)
"""A bare question about a time or an indefinite thing puts up no topic (``Tomorrow? I can't``,
``Anything else? No thanks``)."""
_ZH_LEAD_RE = re.compile(r"^(?:说实话|说真的|老实说|讲真|其实|那个|话说)[，,]?")
_ZH_NO_TOPIC_RE = re.compile(
    r"[我你他她它谁哪几吗呢吧么啥咋]|什么|怎么|多少|今天|今晚|明天|昨天|周末|待会|一会|"
    r"要不要|能不能|是不是|有没有|可不可以|行不行|还是|或者|和"
)
"""A Chinese question that puts up no thing: a person, a question word, a time, a choice
(``火锅和烧烤？火锅！``)."""
_EN_LEAD_RE = re.compile(
    r"^(?:honestly|ngl|tbh|fyi|oh|ok|okay|well|btw|by\s+the\s+way|just\s+so\s+you\s+know|"
    r"to\s+be\s+honest)"
    r"\s*,\s*", re.IGNORECASE,
)
"""A word of chat before a topic put up as a question (``Honestly, pineapple? Not for me``)."""


def fronted_topic(question: str) -> Object | None:
    """What a question made of a noun phrase alone puts up for the next sentence (``Spicy
    food? Bring it on``, ``榴莲？绝了``); None for any other question."""
    bare = _EN_LEAD_RE.sub("", question.strip().rstrip("?？!！.。 ").strip())
    if not bare:
        return None
    if has_cjk(bare):
        bare = _ZH_LEAD_RE.sub("", bare)
        if len(bare) > 6 or _ZH_NO_TOPIC_RE.search(bare) or not noun_runs(bare):
            return None  # 今晚吃火锅？, 你喜欢吗？, 为什么？
        return Object(bare, zh=True)  # 广场舞？ (广场 + 舞/v), 猫？, 说实话，KTV？
    if len(bare.split()) > 4 or _NO_TOPIC_RE.search(bare):
        return None
    return mentioned(bare, False)


__all__ = [
    "MAX_OBJECT_CHARS",
    "OBJECT_WINDOW",
    "ZH_DURATION_RE",
    "Cut",
    "Object",
    "avoidance",
    "cut_en",
    "cut_zh",
    "fronted_topic",
    "is_pronoun",
    "lower_sentence_start",
    "mentioned",
    "object_span",
    "resolve",
    "strip_zh_subject",
]
