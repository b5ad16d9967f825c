"""Orders: a request for a thing, and what it leaves out (issue 17).

A user who orders from a shop or an assistant names what they want ("Order me a pizza", "Can
I get a cheeseburger", "chai latte pls", "whenever you order for me, …") and often what they
do not ("…, no anchovies", "hold the onions", "without croutons", "leave off the pickles"). The
order itself states no lasting taste: the statement head's stance on it is not taken. What it
leaves out is a clause of its own (:func:`split_left_out`), which
:func:`~.negation.negated_stance` reads as a dislike after the want. An order for someone else
("for my girlfriend: sushi, no wasabi", "Dad's order: …") states nothing of the user's.
"""

from __future__ import annotations

import re

from ...model import has_cjk
from .categories import category_for
from .keywords import object_keywords
from .lexicons import EN_PEOPLE_RE
from .segment import tag

_LEAD = (
    r"^\W*(?:(?:and|but|so|oh|well|also|just|ok(?:ay)?|hi|hey|hello|yo|um|always|fyi|"
    r"(?:remember|note|keep\s+in\s+mind)(?:\s+that)?)\b\W*)*"
)
_EN_ASK_RE = re.compile(
    _LEAD + r"(?:i(?:\s+|(?='))(?:(?:really|just|also|only|usually|always)\s+)?(?:want|need|"
    r"'d\s+like|would\s+like|'ll\s+have|'ll\s+take|will\s+have|will\s+take|(?:'d|would)\s+(?:rather|prefer)|"
    r"order)\b(?!\s+(?:to(?!\s+order)|nothing|none|no\s+part)\b)"
    r"|(?:(?:please|pls|plz|(?:can|could|would|will)\s+(?:you|u)(?:\s+please)?)\s+)?(?:order(?:ing)?|"
    r"get|grab|bring|make|fetch|buy|find|book|pick\s+up|send|set\s+up|reserve)"
    r"\s+(?:me|us|my|our|a|an|the|some|one|two|three|\d+)\b"
    r"(?!\s+(?:out|started|wrong|down|going|sure|it|this|that)\b)|(?:recommend|suggest)\s+(?:me|us)\b"
    r"|(?:please|pls|plz|(?:can|could|would|will)\s+(?:you|u)(?:\s+please)?)\s+(?:order|book|grab|"
    r"buy|make|do|get|find)\b"
    r"|(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?(?:get|have|order|grab)\b"
    r"|(?:order|grab|fetch)\s+(?!(?:it|this|that|them|him|her|you|up|out|off|in|on|"
    r"back|over|to|into|for|of|by|now|later|soon|again|more|less|online|ahead|early|number|history|"
    r"status|details|total|summary|form|page|list|bag|confirmed|was|is|has|had|came|went|got|"
    r"shows|says|will|\w+ed)\b)"
    r"(?-i:[a-zA-Z])[\w'-]*)",  # "Order sushi, no wasabi": the thing bare (not "Order arrived")
    re.IGNORECASE,
)
"""A request for a thing, said as one ("I want tea", "Order me a pizza", "Could you make the fried
rice…", "Can I get a burrito"). Plain "I have / I get" state a situation ("I have a dog but no
cat"), not a want."""
_EN_STANDING_RE = re.compile(
    _LEAD + r"(?:(?:(?:whenever|when|every\s+time|any\s*time|each\s+time)\s+(?:you|u|i|we)|"
    r"if\s+(?:you|u))\s+"
    r"(?:\w+\s+){0,4}?(?:order|get|grab|buy|book|make|pick)\w*\b[^,.;:!?—–]*"
    r"|(?:for|on)\s+(?:all|any|every)\s+(?:(?:of\s+)?my|our|future)\b[^,.;:!?—–]*"
    r"|any\s+[\w-]+(?:\s+[\w-]+)?\s+(?:you|u)\s+(?:get|order|book|buy|pick)\s+(?:me|us)\b"
    r"|(?:for\s+future\s+reference|from\s+(?:now|here)\s+on(?:\s+out)?|going\s+forward|"
    r"moving\s+forward|as\s+a\s+rule|in\s+(?:the\s+)?future|by\s+default)\b)",
    re.IGNORECASE,
)
"""What frames a standing order ("whenever you order food for me, …", "for all my coffee
orders, …", "any rental car you get me, …", "from now on …"): what follows leaves out for
good."""
_EN_STANDING_WITHIN_RE = re.compile(
    r"\b(?:from\s+(?:now|here|today)\s+on(?:\s+out)?|going\s+forward|moving\s+forward|"
    r"by\s+default|default\s+to|in\s+(?:the\s+)?future|for\s+(?:all\s+|any\s+)?future)\b",
    re.IGNORECASE,
)
"""Words anywhere in a clause that make what it leaves out standing ("Default to no whipped
cream on my drinks from here on", "no country music going forward")."""
_EN_WITHIN_MARK_RE = re.compile(r"(?<![\w'])(?:no|without|w/o|hold\s+the|skip\s+the)\s+(?=\w)",
                                re.IGNORECASE)
_EN_SIZES = (
    r"small|medium|large|regular|tall|grande|venti|double|single|triple|extra[\s-]large|xl|"
    r"mini|half|full|family[\s-]size|to\s+go|for\s+here|iced|hot"
)
_EN_NOT_IN_NAME = frozenset(
    """
    i i'm i've i'd me my you your he she it it's we they them his her our their is are was were
    be been am do does did have has had not no never can could will would should like love
    hate want need this that these those there here what who how why when where if so but and
    or because just really very too also still now day days night week time i'll we'll you'll
    let's please pls plz thanks thx ok okay yes yeah oh well then to of for at in on with by from
    up out about as used first last next every again
    """.split()
)
"""Words no ordered noun phrase holds (the name of a dish or a product)."""
_EN_NAME_RE = re.compile(
    r"^\W*(?:(?:a|an|the|one|two|three|\d+)\s+)?([\w'&-]+(?:\s+[\w'&-]+){0,4}?)"
    rf"(?:\s*,?\s*(?:{_EN_SIZES}|please|pls|plz|thx|thanks))*\W*$",
    re.IGNORECASE,
)
_EN_CUE_RE = re.compile(
    rf"\b(?:{_EN_SIZES}|please|pls|plz|thx|thanks)\b|^\W*(?:one|two|three|\d+)\s", re.IGNORECASE
)
EN_LEFT_OUT = (
    r"(?:without|w/o|minus)(?:\s+the)?|with\s+no|w/?\s*no|(?:hold|skip)\s+the|leave\s+off(?:\s+the)?"
)
"""The words an order leaves a thing out with, besides a bare "no" ("hold the", "w/o", "leave
off the"): one pattern for where an order is cut (:func:`split_left_out`) and for what
:func:`~.negation.negated_stance` reads after them."""
THIS_ONCE_RE = re.compile(
    r"(?<!not\s)\b(?:this\s+(?:time|order|once)|in\s+mine|for\s+(?:now|once)|"
    r"just\s+(?:this|today|tonight|for\s+(?:now|today|tonight))|only\s+(?:today|tonight|this))\b",
    re.IGNORECASE,
)
"""What an order leaves out only this once ("I'll skip the cake this time", "no ice in mine",
"hold the sauce just for tonight"; not "…, not just today"); an order for a day ("make my
oatmeal without raisins this morning") still leaves out what the user does not want."""
_MARK = rf"{EN_LEFT_OUT}|no"
_EN_LEFT_OUT_SPLIT_RE = re.compile(
    rf"(?:,|\s+[—–-])\s*(?=(?:and\s+|but\s+|also\s+)?(?:{_MARK})\s+\w)|\s+(?=(?:{EN_LEFT_OUT})\s+\w)",
    re.IGNORECASE,
)
_EN_OPENS_LEFT_OUT_RE = re.compile(rf"^\W*(?:(?:and|but|also|just|please|pls)\s+)?(?:{_MARK})\s",
                                   re.IGNORECASE)
_EN_BARE_NO_RE = re.compile(r"\s+(?=no\s+(?!(?:part|more|longer|one|way|idea|matter|going)\b)\w)",
                            re.IGNORECASE)
_EN_STRONG_MARK_RE = re.compile(r"^(?:hold\s+the|skip\s+the|leave\s+off|minus)\s", re.IGNORECASE)
"""Words only an order leaves out with ("hold the", "skip the", "w/o"): after a dish's name
alone ("Falafel plate, skip the tahini") as after a request."""
_EN_FOR_SOMEONE_RE = re.compile(
    r"^\W*(?:(?:this\s+is\s+|it's\s+)?for\s+(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?"
    r"|(?:my\s+)?[\w'-]+(?:'s|s')\s+order)\W*$",
    re.IGNORECASE,
)
_EN_BENEFICIARY_RE = re.compile(
    r"\b(?:(?:order|get|grab|bring|make|fetch|buy|find|book|pick\s+up|send|reserve)\s+|for\s+)"
    r"(?:(?:my|our|the)\s+(?P<kin>[\w'-]+(?:\s+[\w'-]+)?)|(?P<them>him|her|them)\b"
    r"|(?-i:(?P<name>[A-Z][a-z]+))\b(?=\s+(?:a|an|the|some|one|two)\b)"
    r"|(?<=for\s)(?!(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|"
    r"may|june|july|august|september|october|november|december|christmas|easter|thanksgiving)\b)"
    r"(?-i:(?P<alone>[A-Z][a-z]+))\b(?=\s*(?:[,;:.!?]|$))|(?<=for\s)(?P<bare>[\w'-]+)\b)",
    re.IGNORECASE,
)
"""Whom an order is for, when it names someone: "get my son a kids meal", "book my mom a room",
"get Alex the quesadilla", "order a salad for Priya" (not "every time I order Thai, …": a name
is someone only before what is ordered, or alone after *for*)."""


_ZH_ASK_RE = re.compile(
    r"^\W*(?:老板|麻烦|请)?[，,\s]*(?:你)?(?:帮我|给我)?(?:来|点|买|订|下单|拿)(?:一|两|三|几)?"
    r"(?:个|份|杯|碗|盒|瓶|张|件|双|箱|斤|打|串|碟|盘|笼|块)"
)
"""``来杯杨枝甘露``, ``帮我点一份黄焖鸡``: an order, no taste."""


def asks_for(clause: str) -> bool:
    """Whether an English clause asks for a thing (:data:`_EN_ASK_RE`) or frames a standing
    order (:data:`_EN_STANDING_RE`): a want, no taste; the statement head's stance on it is not
    taken ("Fetch me a coffee" had stored a dislike of coffee)."""
    if has_cjk(clause):
        return bool(_ZH_ASK_RE.match(clause))
    frame = _EN_STANDING_RE.match(clause)
    return bool(_EN_ASK_RE.match(clause)) or frame is not None and not clause[frame.end():].strip(
        " ,.:;!?")  # not "As a rule I buy Vitamix": the user's own statement after the frame


_EN_ORDER_TAIL_RE = re.compile(
    r"\s+(?:for\s+(?:delivery|pick-?up|takeout|take-?away|here|tonight|today|tomorrow|lunch|"
    r"dinner|breakfast|brunch|one|two|three|four)|to\s+go|size\s+\w+)\b[^,]*", re.IGNORECASE
)
"""How an order is to come, after what is ordered ("…for delivery", "…to go", "…size 10")."""
_EN_NAME_JOINS = frozenset("and with or of".split())
"""Words a dish's name may hold after its first word ("fish and chips", "poke bowl with
salmon")."""


EN_PREDICATE_RE = re.compile(r"\s(?:is|are|was|were|makes?|made|means?|sucks?)\b", re.I)
"""A verb that makes what follows a mark of leaving out a statement ("no returns is a
dealbreaker"), not what an order leaves out."""
_EN_LEFT_OUT_WORDS = frozenset(
    "no with without the a an and or of on in at for to please pls thanks thx".split()
)


def _bare(piece: str) -> bool:
    """Whether what follows a thing's bare name only leaves something out ("no ketchup", "with
    no foam"), with no predicate of its own ("with no plan are the best kind of holiday", "no
    nonsense — my daily fuel": a statement about the thing, not an order of it)."""
    return not any(word in _EN_NOT_IN_NAME and word not in _EN_LEFT_OUT_WORDS
                   for word in re.findall(r"[a-z']+", piece.lower()))


_EN_VERB_LIKE_RE = re.compile(r"^\W*\w+\s+(?:\w+\s+)*?(?!(?:and|or|with|of)\b)\w+[^s\W]s\s+\w")
"""A word ending in *s* in the middle of a name, where a verb stands ("The pool requires swim
caps"): without a verb's tag, no name of a thing one buys."""


def _named(clause: str, strong: bool, goods: bool = False) -> bool:
    """Whether a clause is only the name of what is ordered ("chai latte pls", "cheese pizza,
    large", "Burrito bowl, chicken, brown rice", "Large pepperoni pizza for delivery"): a list
    of names, with a cue of ordering in it (a size, a count, *please*), before words only an
    order leaves out with (``strong``), or, with ``goods``, one name of a thing one buys
    (:func:`sold`: "Latte", "Breakfast sandwich"; not "Sunny afternoon")."""
    text = _EN_ORDER_TAIL_RE.sub("", clause.strip(" .!"))
    chunks = [chunk.strip() for chunk in text.split(",") if chunk.strip()]
    if not 1 <= len(chunks) <= 5:
        return False
    for chunk in chunks:
        found = _EN_NAME_RE.match(chunk)
        words = found[1].lower().split() if found else []
        if not words or words[0] in _EN_NOT_IN_NAME or any(
                w in _EN_NOT_IN_NAME and w not in _EN_NAME_JOINS for w in words[1:]):
            return False
    if strong or _EN_CUE_RE.search(clause):
        return True
    return goods and any(sold(chunk) for chunk in chunks) and not any(
        _EN_VERB_LIKE_RE.search(chunk) for chunk in chunks)


def requested(clause: str) -> bool:
    """Whether an English clause asks for a thing or frames a standing order (:func:`asks_for`),
    or names what is ordered with a cue of ordering ("One large pepperoni", "a hot chocolate,
    thx"): what it leaves out, the user does not want. False for a Chinese clause: what a
    Chinese order leaves out is read by the Chinese rules (``别放葱``), not after a want."""
    return not has_cjk(clause) and (asks_for(clause) or _named(clause, strong=False))


def split_left_out(part: str, last: bool = True) -> list[str]:
    """An order and what it leaves out, as clauses ("Order me sushi", "no wasabi"; "from now
    on", "hold the celery in my soups"); the part alone where it is no order or leaves nothing
    out. A thing's bare name (:func:`sold`) orders only in a sentence's ``last`` part ("Latte
    with no foam", not "Cappuccino with no sugar, it's perfect")."""
    if (frame := _EN_STANDING_RE.match(part)) is not None and frame.end() < len(part):
        rest = part[frame.end():].strip(" ,:")
        if re.match(rf"(?:{_MARK}|never|leave|always\s+(?:hold|skip|leave))\s", rest, re.I) and (
                not EN_PREDICATE_RE.search(rest)):  # not "When I buy shoes, no returns is a…"
            return [part[: frame.end()].strip(), rest]
    pieces = [p.strip() for p in _EN_LEFT_OUT_SPLIT_RE.split(part) if p.strip()]
    if len(pieces) < 2 and (ask := _EN_ASK_RE.match(part)) is not None and (
        bare := _EN_BARE_NO_RE.search(part, ask.end())
    ) and re.fullmatch(r"[^,;:]*\w[^,;:]*", part[ask.end() : bare.start()]):  # "…a bowl no seaweed"
        pieces = [part[: bare.start()].strip(), part[bare.end() :].strip()]
    if len(pieces) < 2:
        return [part]
    strong = bool(_EN_STRONG_MARK_RE.match(pieces[1]))
    if requested(pieces[0]) or _named(pieces[0], strong):
        return pieces
    return pieces if last and _named(pieces[0], False, goods=True) and all(
        _bare(piece) and "," not in piece for piece in pieces[1:]) else [part]


def opens_left_out(clause: str) -> bool:
    """Whether an English clause opens with what an order leaves out ("hold the onions", "no
    wasabi"): after a want, :func:`~.negation.negated_stance` reads it, not the head."""
    return bool(_EN_OPENS_LEFT_OUT_RE.match(clause))


_ZH_ORDERING_RE = re.compile(
    r"(?:帮我|给我|麻烦你?|请你?)(?:订|点|买|约|叫|来|选|找|预约|预订|下单)"
    r"|^\W*(?:来|点|订|买)(?:一|两|三|几)?(?:个|份|杯|碗|张|间|辆|盒|瓶)"
)
"""A Chinese order anywhere in a sentence (``明天中午帮我订个外卖``, ``来份螺蛳粉``); wider than
:data:`_ZH_ASK_RE`, which must open the clause."""
_ZH_THIS_ONCE_RE = re.compile(r"这次|这回|这趟|这一次|今天先|先不|暂时|临时")
"""Only this once (``这次先不要辣``)."""
_ZH_FOR_NOW_RE = re.compile(
    r"舒服|疼|痛|减肥|斋戒|感冒|生病|上火|发炎|开车|忌口|吃素|嗓子|胃|牙|来例假"
)
"""A state the day's order is for (``今天胃不舒服，帮我点个粥，不要辣``): what it leaves out is
for now."""
_EN_FOR_NOW_RE = re.compile(
    r"[,;—–.!]\s*(?:(?:and|but|because|since|as|cause|cuz|coz)\s+)?(?:i|i'm|i've|i'll|we|we're|"
    r"we've|my|our|it's|they|they're|the\s+kids|kids)\b",
    re.IGNORECASE,
)
"""A clause after the order that gives its reason ("…no wine, I'm driving", "…without raisins
this morning, we ran out"): what it leaves out is for the day."""


def for_a_day(sentence: str) -> bool:
    """Whether a sentence orders a thing and leaves something out, whatever day it is for
    ("make my oatmeal without raisins this morning", ``明天中午帮我订个外卖，不要青椒``): what
    it leaves out is a dislike that outlasts the day, unless only this once ("no ice this
    time", ``这次先不要辣``) or for a reason of the day ("…, I'm driving", ``胃不舒服``)."""
    if has_cjk(sentence):
        return bool(_ZH_ORDERING_RE.search(sentence)) and not (
            _ZH_THIS_ONCE_RE.search(sentence) or _ZH_FOR_NOW_RE.search(sentence))
    first = re.split(r"[,;:—–]", sentence, maxsplit=1)[0]
    return (leaves_out(sentence) or asks_for(first) or _named(first, False, goods=True)) and not (
        THIS_ONCE_RE.search(sentence) or _EN_FOR_NOW_RE.search(sentence))


def standing_left_out(clause: str) -> str | None:
    """What a standing order leaves out inside an English clause, from its word of leaving out
    on ("no whipped cream on my drinks from here on" in "Default to no whipped cream on my
    drinks from here on"); None where nothing makes the clause standing
    (:data:`_EN_STANDING_WITHIN_RE`) or nothing is left out. :func:`~.negation.
    negated_stance` reads what it returns."""
    if has_cjk(clause) or not _EN_STANDING_WITHIN_RE.search(clause):
        return None
    mark = _EN_WITHIN_MARK_RE.search(clause)
    return None if mark is None else clause[mark.start():]


def after_a_name(clause: str, previous: str) -> bool:
    """Whether a clause leaves out with words only an order uses ("skip the tahini") right
    after the name of what is ordered ("Falafel plate"), or with any ("no ketchup", "with no
    foam") after the name of a thing one buys ("Breakfast sandwich", "Latte"): a want, though
    no verb says so."""
    if _EN_STRONG_MARK_RE.match(clause.strip()):
        return _named(previous, strong=True)
    return opens_left_out(clause) and _bare(clause) and "," not in clause and _named(
        previous, False, goods=True)


_EN_OFF_A_DISH_RE = re.compile(
    r"\s(?:on|in|from|off|of)\s+(?:my|the|our|that|this|a|an)\s+\w+|\s(?:please|pls|plz)\W*$",
    re.IGNORECASE,
)
"""What says a message opening with "hold the X" orders: what X is held from ("…on the
cheeseburger"), or *please*."""


def opens_with_left_out(clause: str, previous: str) -> bool:
    """Whether a message opens with what an order leaves out, in words only an order uses
    ("Hold the onions on the cheeseburger please"): a want, when what it leaves out is food
    (:func:`eaten`, which :func:`~.negation.negated_stance` asks; not "Hold the door")."""
    return not previous.strip() and bool(_EN_STRONG_MARK_RE.match(clause.strip())) and bool(
        _EN_OFF_A_DISH_RE.search(clause))  # not "Hold the wine, I need to tell you…"


def _category(name: str) -> str:
    return category_for(object_keywords(name))


def eaten(name: str) -> bool:
    """Whether an English name is of food or drink (the lexicon's ``food``): what "hold the…"
    at a message's start leaves out of an order ("Hold the onions on the cheeseburger"; not
    "Hold the train")."""
    return _category(name) == "food"


def sold(name: str) -> bool:
    """Whether an English name is of a thing one buys: a category of the lexicon (food,
    drink, clothes, travel…), not ``other``."""
    return _category(name) != "other"


def leaves_out(sentence: str) -> bool:
    """Whether an English sentence asks for a thing and leaves something out ("Can I get a
    cheeseburger, hold the onions?"): put as a question, it still says what the user does not
    want (not a thing's bare name: "Coffee with no caffeine? What's the point")."""
    asked = sentence.rstrip().endswith("?")
    return not has_cjk(sentence) and len(split_left_out(sentence.rstrip(" ?"), last=not asked)) > 1


_ZH_FOR_SOMEONE_RE = re.compile(
    r"^\W*(?:麻烦|请)?(?:你)?(?:给|帮|替)(?!我(?!的?(?:老[公婆妈爸板师]|妈|爸|儿|女|孩|娃|朋友|同事|"
    r"室友|家人|男朋友|女朋友|哥|姐|弟|妹|奶奶|爷爷|外婆|外公|闺蜜|宝宝|领导)))"
    r"(?:我的?)?[^，,。！!？?\s我]{1,5}?(?:点|买|订|带|叫|拿|做|下单|选|挑|找)(?![^，,。！!？?]*我)"
)
"""``给我老婆点份酸辣粉``, ``帮同事点份盖饭``: an order for someone else (not ``帮我点``,
``帮我囤点``, nor ``给娃做辅食我做上瘾了``, where the user speaks)."""


_ZH_NO_NEED = frozenset("不用 不要 别 不必 无需 不需要".split())
"""What a Chinese instruction not to do a thing ends in (:func:`instructs_zh`)."""
_ZH_DEGREE = frozenset("那么 这么 那样 这样 太 很".split())
"""Words of degree after such a negation: an amount, no thing (``不用那么多``)."""


def instructs_zh(clause: str, match: str) -> bool:
    """Whether a Chinese 不用/不要/别 (the rule's ``match``) tells how a thing is to be done
    rather than names one to go without: a verb follows it (``不用送上楼``: no need to take it
    up, ``不要迟到``, ``不用帮我选了``) or an amount (``不用那么多``), not a noun (``不用机械键盘``,
    ``不要香菜``). A verb can open a compound noun (``打车软件``, ``充电宝``), so the statement
    head's reading decides with it (:func:`~.extract.extract_preferences`).

    Args:
        clause: A Chinese clause.
        match: The words a dislike rule matched in it, ending in the negation.

    Returns:
        True when the words after the negation (past adverbs such as 再, 每次) open with a
        verb (a POS tag ``v…`` other than a verbal noun ``vn``) or a word of degree, and
        no 的 makes them describe a thing.
    """
    at = clause.find(match)
    if at < 0 or not any(match.endswith(word) for word in _ZH_NO_NEED):
        return False
    rest = clause[at + len(match):]
    if "的" in rest:
        return False  # 不要过道的位置, 不用排队的店: a thing the words describe
    for word, flag in tag(rest):
        if word in _ZH_DEGREE:
            return True
        if flag.startswith(("d", "r")) and word not in ("我", "你"):
            continue  # 再, 每次
        return flag.startswith("v") and flag != "vn"
    return False


_EN_ASK_FOR_NAME_RE = re.compile(
    _LEAD + r"(?:please\s+)?(?:order|get|grab|bring|make|fetch|buy|book|pick\s+up|send)\s+"
    r"(?-i:[A-Z][a-z]+)\s+(?:a|an|the|some|one|two)\b",
    re.IGNORECASE,
)
"""An order that opens with whom it is for ("get Alex the quesadilla"): a request, though
:data:`_EN_ASK_RE` asks for *me* or a thing after the verb."""


def for_someone_else(clause: str) -> bool:
    """Whether an English clause says an order is for someone else ("for my girlfriend", "Dad's
    order", "get my son a kids meal", "order a salad for Priya"): what it and the rest of the
    sentence leave out is not the user's."""
    if has_cjk(clause):
        return bool(_ZH_FOR_SOMEONE_RE.match(clause))
    if _EN_FOR_SOMEONE_RE.match(clause):
        return bool(EN_PEOPLE_RE.search(clause))
    if (found := _EN_BENEFICIARY_RE.search(clause)) is None or not (
            asks_for(clause) or _EN_ASK_FOR_NAME_RE.match(clause)):
        return False
    kin = found["kin"] or found["bare"]
    return bool(found["them"] or found["name"] or found["alone"] or (kin and EN_PEOPLE_RE.search(
        kin)))


__all__ = [
    "EN_LEFT_OUT", "EN_PREDICATE_RE", "THIS_ONCE_RE",
    "after_a_name", "asks_for", "for_a_day", "for_someone_else", "instructs_zh", "leaves_out",
    "eaten", "opens_left_out", "opens_with_left_out", "requested", "sold", "split_left_out",
    "standing_left_out",
]
