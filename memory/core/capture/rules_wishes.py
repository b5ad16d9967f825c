"""Rules for what the user asks the assistant to suggest or to stop suggesting, en and zh.

"Only show me vegetarian recipes", "please keep suggesting indie bookstores", "going forward,
lean toward Japanese brands", "stop pushing timeshare offers on me", ``别给我推那种甜腻的``,
``多给我推推小众的地方``, ``以后推荐酒店的时候优先考虑带泳池的``: a standing wish about what the
assistant brings up says what the user likes or does not want. The statement head read most
of them as no preference, and the older rules knew only "don't/stop recommending" and
``别再推荐`` (a blind breaker's 18 wishes: 7 right). Issue 17; kinds of phrasing, never
particular objects.

A one-off request ("recommend me a laptop", "suggest a book for my flight",
``推荐几本书吧``) is no preference: a like needs a word that makes the wish standing (only,
always, keep, from now on, prioritise, lean toward; ``以后``, ``优先``, ``尽量``, ``只``, ``多``).
The gate holds a wish phrased as a standing order to the assistant for the user's
confirmation (:mod:`~..standing_orders`); these rules only say what it is about.
"""

from __future__ import annotations

from .rules import Rule, en, zh

_EN_START = (
    r"(?:^|[,;:]\s*)\W*(?:(?:please|pls|kindly|so|and|also|but|then|now|going\s+forward|"
    r"from\s+now\s+on|in\s+(?:the\s+)?future|for\s+future\s+(?:reference|chats)|"
    r"(?:could|can|would|will)\s+you(?:\s+please)?|i'?d\s+(?:love|like)\s+(?:it\s+)?if\s+you|"
    r"i\s+want\s+you\s+to|i'?d\s+like\s+you\s+to|make\s+sure\s+(?:to|you)|be\s+sure\s+to)"
    r"\s*,?\s+)*"
)
"""Where an imperative to the assistant starts: a clause's start, after politeness, a time
to start from, a question that asks for it ("could you…"), or a wish put to it ("I'd love it
if you…", "make sure to…")."""
_EN_OFFER = (
    r"(?:recommend|suggest|show|send|offer|push|pitch|bring\s+up|mention|serve\s+up|"
    r"give)(?:ing|s)?"
)
_EN_PERSON = r"(?:\s+(?:me|us))?"
_EN_ASKED = (
    r"(?:(?:could|can|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+|kindly\s+|just\s+)?|"
    r"would\s+you\s+mind\s+|is\s+it\s+possible\s+to\s+|any\s+(?:way|chance)\s+(?:you\s+"
    r"(?:could|can)\s+)?)?"
)
"""A request put as a question ("could you stop…", "would you mind not…"): the user's own."""

EN_WISH_RULES: tuple[Rule, ...] = (
    # "Only show me vegetarian recipes", "please keep suggesting indie bookstores", "always
    # recommend the budget option": standing, so a like (not "recommend me a laptop")
    en(rf"{_EN_START}(?:(?:only|always|keep(?:s|ing)?(?:\s+on)?|kept(?:\s+on)?)\s+)+"
       rf"{_EN_OFFER}{_EN_PERSON}(?:\s+(?:more|only))?\b",
       "like", "likes {obj}"),
    # "make sure to include hiking trails"
    en(rf"{_EN_START}(?<=sure\sto\s)(?:always\s+)?(?:include|add|mention|suggest|recommend)\b",
       "like", "likes {obj}"),
    en(rf"{_EN_START}(?:always\s+)?(?:lean|skew|tilt|steer)\s+(?:more\s+)?(?:towards?|to)\b|"
       rf"{_EN_START}(?:always\s+)?(?:prioriti[sz]e|favou?r)\b",
       "like", "likes {obj}"),
    # "stop pushing timeshare offers on me", "never suggest anything with peanuts", "don't
    # ever send me cruise deals"
    en(rf"\b{_EN_ASKED}(?:stop|quit|no\s+more|enough\s+with(?:\s+the)?)\s+{_EN_OFFER}"
       rf"{_EN_PERSON}\b|\b{_EN_ASKED}(?:never|don'?t|do\s+not|not)\s+(?:ever\s+)?{_EN_OFFER}"
       rf"{_EN_PERSON}\b|\b{_EN_ASKED}(?:stop|quit)\s+(?:putting|including|adding|listing)\b|"
       rf"\b{_EN_ASKED}(?:leave|leaving)\s+out\b",
       "dislike", "doesn't want {obj}"),
    # "never book me on red-eye flights", "don't ever order me anchovies", "please never seat
    # me near the kitchen": a standing order not to get a thing (not "don't get me wrong",
    # "don't get me started")
    en(rf"\b{_EN_ASKED}(?:never|don'?t|do\s+not)\s+(?:ever\s+)?(?:order|book|get|buy|seat|serve|"
       r"schedule|reserve|pour)\s+(?:me|us)\s+(?!(?:wrong|started|going|down|out|up|laugh|"
       r"cry|mad|angry|sick|feel|think|wait|say|do|go|pay|sign|anything|something|everything|"
       r"nothing|yet|now|again|just|involved|one|two|three|more|less|before|after|until|the\s+same)\b)"
       r"(?![^,.;!?]*\b(?:this\s+time|again|this\s+year|tonight|today)\b)"  # once, not standing
       r"(?:(?:on|in|into|at|near|with|by)\s+)?(?:(?:a|an|any|the|some)\s+)?",
       "dislike", "doesn't want {obj}"),
    # what an order is told to leave out: "please don't put mushrooms on it", "don't add any with
    # sprinkles", "don't sub in soy milk", "make sure there's no peanuts in it", "somewhere
    # without live music" (not "don't put me on hold", "don't put all your eggs in one basket",
    # "somewhere without near…": a place, not a thing). "Anything but X" is left to the readers
    # of exceptions: as an order's words, it read held-out look-alikes as dislikes
    en(rf"(?:[,;:—–]\s*|^\W*)(?:(?:and|but|also|just|so|oh|please|pls)\s+)*"
       rf"(?:{_EN_ASKED}(?:please\s+)?(?:never|don'?t|do\s+not)\s+(?:ever\s+)?(?:add|put|include|"
       r"pack|sub(?:stitute)?(?:\s+in)?|swap\s+in|throw\s+in|toss\s+in)\s+(?!(?:me|us|him|her|them|"
       r"it)\b)(?:any(?:thing)?\s+(?:with|that\s+has|containing)\s+|any\s+)?"
       r"|make\s+sure\s+(?:there'?s|there\s+is|there\s+are|it\s+has|it'?s\s+got)\s+no\s+"
       r"|(?:something|somewhere|anywhere|anything|one)\s+(?:without|with\s+no)\s+)"
       r"(?!(?:all\s+)?(?:your|his|her|their|our|near|in|at|on|by|around|close|far|next|too|so|"
       r"very)\b)(?P<obj>[^,.;!?—–]{1,40}?)(?=\s+(?:on|in|into|onto|to|for|from|with)\s+(?:it|them|my|"
       r"the|this|that|mine|there)\b|\s+(?:would|will|is|are|please|pls|when|if|because|as|since|"
       r"though|thanks)\b|\s*[,.;!?—–]|$)",
       "dislike", "doesn't want {obj}", no_possessive=True, first_person=True),
    # "drop the energy drink suggestions": what the suggestions are of
    en(rf"\b{_EN_ASKED}(?:drop|dropping|ditch|ditching|skip|skipping|lose)\s+the\s+"
       r"(?P<obj>[^,.;!?]{1,30}?)\s+(?:suggestions|recommendations|recs|ads|offers)\b",
       "dislike", "doesn't want {obj}"),
)
"""English wishes about what the assistant suggests."""

_ZH_OFFER = r"(?:推荐|推送|推推|安利|(?<=给我)推|推(?=那种|这种|那类|这类|那些|这些|点|些|一些))"
"""Suggesting, not 推 of 推车, 推特, 推理 (a genre)."""
_ZH_KIND = r"(?:那种|这种|那类|这类|什么|啥|那些|这些|一点|一些|点|些)?"

ZH_WISH_RULES: tuple[Rule, ...] = (
    # 别给我推那种甜腻的, 拜托不要再推送直播带货了, 游戏就别推荐手游了
    zh(rf"(?:能不能|可不可以|能否|可以|能)?你?(?:别|不要|不用|少|甭|不许|不准)(?:再|老|总|一直)?"
       rf"(?:给我|帮我|跟我)?(?:{_ZH_OFFER}|发){_ZH_KIND}",
       "dislike", "别推荐{obj}", fronted_topic=True),
    # 多给我推推小众的地方, 以后只推荐国产的, 优先考虑带泳池的, 给我推荐的书尽量是历史类的
    zh(rf"(?:多|只|优先|尽量)(?:给我|帮我)?{_ZH_OFFER}{_ZH_KIND}|"
       rf"{_ZH_OFFER}(?:的时候|时)?[^，,。；;我]{{0,6}}?(?:优先(?:考虑|选)?|尽量(?:是|选)?|"
       r"最好(?:是|选)?)",
       "like", "优先{obj}", fronted_topic=True),
    # 以后找餐厅尽量优先川菜馆, 选手机壳的时候优先选透明款, 买衣服帮我多留意纯棉的
    zh(r"^(?:我(?![妈爸的们家朋老同姐哥弟妹儿女孩])|以后|今后|往后|麻烦|拜托|请)*"
       r"(?:[^，,。；;我你他她这那]|帮我|给我){0,14}?(?:尽量)?优先(?:选择?|考虑|挑|找|看|推)?"
       r"(?![了过级权]|处理|完成|解决|安排|办)|(?:帮我)?多(?:留意|关注|找找|看看)(?:一下)?",
       "like", "优先{obj}", fronted_topic=True),
)
"""Chinese wishes about what the assistant suggests."""

__all__ = ["EN_WISH_RULES", "ZH_WISH_RULES"]
