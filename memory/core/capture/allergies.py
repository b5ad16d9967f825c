"""The user's own allergies and intolerances said to be over, and what every allergy reader
shares (:func:`mentions_allergy`, :func:`unquoted`). Stated allergies are
:mod:`.allergy_statements`.

**Over** (:func:`read_retraction`, :func:`retraction_vetoed`). ``is_retraction``
(:mod:`~...model.protection`) knows the fixed phrasings the gate lifts a protected dislike by
("no longer allergic to X", ``对X不再过敏了``). Users say it otherwise ("the kiwi allergy seems
to have gone", ``对菠萝的过敏没了``, ``小麦过敏转阴``), and in Chinese the rules had stored the
allergy itself. A sentence read as saying an allergy is over stores no allergy of that
allergen, and no retraction either (:mod:`.structuring`): three breaker helpers made such
readings lift real allergies on 40-70 % of their look-alikes ("My peanut allergy is gone now,
as long as I take my Xolair", "A naturopath told me my peanut allergy is cured. I'm not
buying it."), however many vetoes were added. The vetoes (a hope, a doubt, irony, a report
the user disputes, a question, the allergy still there, back, worse or seasonal, someone
else's) hold the rules' own retractions too (DESIGN.md §6.3).
"""

from __future__ import annotations

import re

from ...model import has_cjk
from .holders import someone_else
from .kinds import pull_object_en
from .structures import Part

EN_ALLERGY = r"(?:allerg(?:y|ies|ic)|intoleran(?:t|ce)|sensitivity)"
_EN_END = (
    r"(?=\s*(?:[,.;!:)]|$)|\s+(?:now|for\s+good|completely|entirely|apparently|as\s+of|since|"
    r"thanks|according|per|at\s+last|finally|after|too|yay|woo|for\s+me|sometime|years\s+ago|"
    r"ages\s+ago|in\s+my|when|on\s+its\s+own|as\s+a\s+(?:kid|child|teen))\b)"
)
"""The end of a clause, or words that leave it about the allergy being over: "has gone from
mild to severe", "is over the top" and "has resolved into" say nothing of the kind."""
_EN_OVER = (
    r"(?:(?:is|are|has|have|'s)\s+(?:now\s+|officially\s+|basically\s+|completely\s+|totally\s+|"
    r"considered\s+|finally\s+|been\s+)*(?:seems?\s+to\s+have\s+)?(?:gone|resolved|"
    r"cleared(?:\s+up)?|over|cured|disappeared|a\s+thing\s+of\s+the\s+past|history)|"
    r"(?:seems?\s+to\s+have\s+)?(?:gone|went\s+away|cleared\s+up|disappeared|resolved))" + _EN_END
)
_EN_ALLERGY_OVER = re.compile(
    rf"\b(?:my\s+|the\s+|that\s+)?(?P<obj>(?:[\w'-]+\s+){{0,2}}[\w'-]+)\s+{EN_ALLERGY}"
    rf"(?:\s+to\s+[\w'-]+)?(?:\s+|:\s*|(?='s)){_EN_OVER}",
    re.I,
)
"""An allergy said to be over: "the kiwi allergy seems to have gone", "Mango allergy: gone!"."""
_EN_RETRACTIONS = [
    # "turns out I'm not allergic to shellfish after all"
    re.compile(
        r"\bi(?:'m|\s+am)\s+(?:actually\s+|really\s+)?not\s+(?:actually\s+|really\s+)?"
        r"(?:allergic|intolerant)\s+to\s+(?P<obj>[^,.;!?]+?)(?=\s+after\s+all|\s+apparently|"
        r"\s+any\s*more(?!\s+than)|\s*[,.;!?]|\s*$)",
        re.I,
    ),
    # "I thought I was allergic to kiwi" (and it proved wrong)
    re.compile(
        r"\b(?:thought|assumed|believed)\s+i\s+was\s+(?:allergic|intolerant)\s+to\s+"
        r"(?P<obj>[^,.;!?]+)",
        re.I,
    ),
    # "the fish allergy was a childhood thing"
    re.compile(
        rf"\b(?:my\s+|the\s+|that\s+)?(?P<obj>(?:[\w'-]+\s+){{0,2}}[\w'-]+)\s+{EN_ALLERGY}\s+"
        r"(?:was|is)\s+(?:just\s+)?a\s+(?:childhood|kid|baby)\s+thing",
        re.I,
    ),
    _EN_ALLERGY_OVER,
    # "My peanut allergy is no more", "vanished", "I beat my peanut allergy"
    re.compile(
        rf"\b(?:my|the)\s+(?P<obj>(?:[\w'-]+\s+){{0,2}}?[\w'-]+)\s+{EN_ALLERGY}\s+(?:is\s+no\s+more|"
        r"(?:has\s+)?vanished|(?:was|is)\s+(?:a\s+)?misdiagnos\w+)" + _EN_END,
        re.I,
    ),
    re.compile(
        rf"\bi(?:'ve|\s+have)?\s+(?:beat(?:en)?|lost|kicked)\s+my\s+(?P<obj>(?:[\w'-]+\s+){{0,2}}?"
        rf"[\w'-]+)\s+{EN_ALLERGY}\b",
        re.I,
    ),
    # "Peanuts are fine for me now, the allergy's gone", "I can eat peanuts again, my allergy
    # went away": the allergen in the clause before
    re.compile(
        r"^\W*(?:(?P<obj>[\w' -]{1,30}?)\s+(?:are|is)\s+(?:totally\s+)?fine(?:\s+for\s+me)?|"
        r"i\s+can\s+(?:eat|have|drink)\s+(?P<obj2>[\w' -]{1,30}?))\s+(?:now|again)\s*[,;]\s+"
        r"(?:the|my)\s+allergy(?:'s|\s+is|\s+has)?\s+(?:gone|over|cleared\s+up|went\s+away|"
        r"outgrown)" + _EN_END,
        re.I,
    ),
    # "my allergy to prawns is gone"
    re.compile(
        rf"\b(?:my|the)\s+(?:allergy|intolerance)\s+to\s+(?P<obj>[\w' -]{{1,30}}?)\s+{_EN_OVER}",
        re.I,
    ),
    # "I've outgrown my allergy to peanuts", "I don't have the peanut allergy anymore",
    # "No more peanut allergy for me!", "I used to be allergic to peanuts but not anymore"
    re.compile(
        r"\b(?:outgr[eo]wn?|grew\s+out\s+of|got\s+over|cured\s+of)\s+(?:my|the)\s+(?:allergy|"
        r"intolerance)\s+to\s+(?P<obj>[^,.;!?]+)",
        re.I,
    ),
    re.compile(
        r"\bi\s+(?:don'?t|do\s+not)\s+have\s+(?:the|my|an?|any)\s+(?P<obj>[\w' -]{1,30}?)\s+"
        rf"{EN_ALLERGY}\s+any\s*more\b",
        re.I,
    ),
    re.compile(rf"^\W*no\s+more\s+(?P<obj>[\w' -]{{1,30}}?)\s+{EN_ALLERGY}\b", re.I),
    re.compile(
        r"\bused\s+to\s+be\s+(?:allergic|intolerant)\s+to\s+(?P<obj>[^,.;!?]+?)\s*,?\s+but\s+"
        r"not\s+any\s*more\s*(?:[,.;!?]|$)",
        re.I,
    ),
    re.compile(
        r"\b(?:outgr[eo]wn|grown\s+out\s+of|grew\s+out\s+of)\s+being\s+(?:allergic|intolerant)\s+to\s+"
        r"(?P<obj>[^,.;!?]+)",
        re.I,
    ),
    # "grew out of my dairy allergy", "outgrown the prawn allergy"
    re.compile(
        rf"\b(?:outgr[eo]wn?|grew\s+out\s+of|got\s+over|cured\s+of)\s+(?:my\s+|the\s+|an?\s+)?"
        rf"(?P<obj>[\w' -]{{1,30}}?)\s+{EN_ALLERGY}\b",
        re.I,
    ),
    # "I'm no longer allergic to latex", "I no longer react to cats", "I was never allergic to…"
    re.compile(
        r"\bi(?:'m|m|\s+am|\s+was|'ve|\s+have)?\s+(?:now\s+|actually\s+)?(?:no\s+longer|not\s+"
        r"(?:actually|really)|never\s+(?:actually\s+)?(?:was|been)?\s*)\s*(?:allergic|intolerant|"
        r"react(?:ing)?|sensitive)\s+to\s+"
        r"(?P<obj>[^,.;!?]+)",
        re.I,
    ),
    # "(I'm) not lactose intolerant anymore", "not allergic to soy any more"
    re.compile(
        r"(?:^\W*|\bi(?:'m|m|\s+am)\s+)not\s+(?:(?P<pre>[\w-]+)\s+)?(?:allergic|intolerant)\s*"
        r"(?:to\s+(?P<obj>[^,.;!?]+?))?\s+any\s*more\b(?!\s+than)",
        re.I,
    ),
    # "my allergist cleared me for shellfish"
    re.compile(
        r"\ballergist\s+(?:has\s+)?cleared\s+me\s+for\s+(?P<obj>[^,.;!?]+?)\s*(?:[,.;!?]|$)", re.I
    ),
    # "I used to react to cats, but not anymore"
    re.compile(
        r"\b(?:react(?:ed)?\s+to|(?:get|got)\s+hives\s+from)\s+(?P<obj>[^,.;!?]+?)\s*,?\s+but\s+"
        r"not\s+any\s*more\s*(?:[,.;!?]|$)",
        re.I,
    ),
]
ZH_ALLERGY = r"(?:过敏|不耐受?|乳糖不耐)"
_ZH_ADVERBS = (
    r"(?:已经|基本|彻底|居然|竟然|自己|早就|其实|原来|直接|完全|就|都|也|查出来|查了|检查|结果|"
    r"医生说)*"
)
"""Only adverbs between the allergy and its end: ``花生过敏的药没了`` (the allergy pills ran
out) retracts nothing."""
_ZH_OVER = (
    r"(?:没了|没有了|好了|好啦|转阴了?|自愈了?|痊愈了?|康复了?|治好了|根治了?|好利索了?|消失了?|不见了|"
    r"是误诊|是误会|其实是误会|原来是误诊|是小时候的事|是我自己瞎猜的|解决了?|过去了|属于过去式了?|"
    r"过去式了?|不是问题了?|(?:是)?阴性|脱敏成功了?)(?=[了啦呀啊哈哦嘛！!。，,～~\s]|$)"
)
"""Said of the allergy itself and ending its clause: ``好了一阵`` (better for a while) is no
end, nor is ``好多了`` (better)."""
_ZH_RETRACTIONS = [
    # ``本来对猫过敏的，……查也说不过敏了``, ``小时候对鸡蛋过敏，长大就好了``
    re.compile(
        r"(?:本来|以前|之前|小时候|原来|曾经)(?:是|一直)?对(?P<obj>[^，,。！!？?]{1,10}?)过敏"
        r"[^。！!？?]{0,24}?(?:不过敏了|好了|没了|转阴|痊愈|自愈|不会了)(?=[了啦呀啊哈！!。，,～~\s]|$)"
    ),
    # ``我一直以为自己对牛油果过敏，结果……阴性``: a belief that proved wrong
    re.compile(
        r"以为(?:自己|我)?对(?P<obj>[^，,。！!？?不]{1,10}?)过敏[^。！!？?]{0,30}?"
        r"(?:阴性|不是|没事|没问题|误会|误诊|不过敏)"
    ),
    # ``对菠萝的过敏没了``, ``小麦过敏转阴``, ``头孢过敏其实是误会``
    re.compile(
        rf"(?:对)?(?P<obj>[^，,。！!？?对的我]{{1,10}}?)(?:的)?{ZH_ALLERGY}(?:症)?"
        r"(?:的问题|的毛病|的情况|的事|这个问题|这事儿?|这件事|反应)?"
        rf"(?:[，,]?(?:长大|后来|现在|如今|慢慢|今年|这次|最近)?(?:复查|再查)?{_ZH_ADVERBS})?{_ZH_OVER}"
    ),
    # ``其实我不是对螃蟹过敏``, ``医生说我根本不是麸质过敏``: the allergy denied
    re.compile(
        rf"(?:不是|并非|并不是)对?(?P<obj>[^，,。！!？?对的我不]{{1,10}}?)(?:的)?{ZH_ALLERGY}"
    ),
    # ``之前说的鱼过敏你帮我删了吧，医生说是误诊``, ``酒精不耐受是个误会``: a mistake
    re.compile(
        rf"(?P<obj>[^，,。！!？?对的我]{{1,10}}?)(?:的)?{ZH_ALLERGY}(?:症)?[^。！!？?]{{0,24}}?"
        r"(?<![不没])(?:是|其实是|原来是|就是|纯属)(?:一场|一个|个)?(?:误诊|误会|假阳性|乌龙)"
    ),
    # ``花生不再让我过敏了``, ``我已经对花生脱敏了``
    re.compile(r"(?P<obj>[^，,。！!？?对我]{1,10}?)不再让我过敏"),
    re.compile(r"对(?P<obj>[^，,。！!？?]{1,10}?)脱敏(?:成功)?了"),
    # ``尘螨基本不过敏了``, ``菌子我不过敏``, ``我对虾蟹根本不过敏``, ``芒果那个不算过敏``
    re.compile(
        r"(?:对)?(?P<obj>[^，,。！!？?对我]{1,10}?)(?:那个)?我?(?:已经|基本|根本|其实|完全|早就)?"
        r"(?:都)?不(?:再|算)?(?:过敏|不耐受?)"
    ),
]
_EN_DOUBT_RE = re.compile(
    r"\b(?:hope[sd]?|hopefully|wish(?:ing)?|pray(?:ing)?|fingers\s+crossed|doubt|dream(?:ing)?|"
    r"would\s+love|i'd\s+love|might|maybe|will\s+be|i'll\s+be|would\s+be|if|whether|soon|once|"
    r"until|next|tomorrow|upcoming|yeah\s+right|oh\s+sure|as\s+if|kidding|joke|lol|wrong(?:ly)?|"
    r"stop\s+saying|you\s+(?:wrote|said|think|noted|have)|assumes?|people\s+think|"
    r"everyone\s+(?:thinks|assumes|says)|it'?s\s+not\s+like|not\s+mine|supposedly|"
    r"(?:don'?t|do\s+not)\s+think|any\s+more\s+than|allergic\s+to\s+(?:anything|everything)|"
    r"not\s+sure|unsure|skeptical|sceptical|not\s+convinced|no\s+(?:sign|way|evidence|proof)|"
    r"zero\s+evidence|nothing\s+suggests|said\s+no\s+one|april\s+fools?|imagine|pretend|story|"
    r"claims?|claimed|incorrect|not\s+true|untrue|nonsense|ridiculous|don'?t\s+(?:record|write|"
    r"note|put)|never\s+tell|(?:can'?t|cannot|wouldn'?t)\s+say|thinks|mistake|mistaken|"
    r"kiddo|little\s+one|toddler|fix\s+it|add\s+it\s+back|didn'?t|don'?t\s+update|profile|card|"
    r"chart|there\s+was\s+a\s+time|someday|one\s+day|fantas\w*|i'?d\s+like|technically|strictly|"
    r"specifically|in\s+the\s+same\s+way|unnoticed|app\s+update|jk|j/k|as\s+long\s+as|"
    r"only\s+(?:if|when|with|while|bad|mild)|keep\s+saying|isn'?t\s+(?:gone|over|true))\b|"
    r"\bnot\s*[.!]|"
    r"\b(?:thought|assumed)\b(?!\s+i\s+was\s+(?:allergic|intolerant))|\?",
    re.I,
)
"""A hope, a doubt, irony, a report the user disputes, a question: nothing is over."""
_EN_NOT_A_CLEAR_RESULT = r"(?!\s+(?:clean|clear|negative|normal|fine))"
"""After "came back": a result ("came back clean") says nothing of the allergy returning."""
_EN_STILL_RE = re.compile(
    r"\bstill\s+(?:am|have\s+it|do|react|(?:very\s+)?allergic|get|carry)|\bi\s+(?:definitely\s+|"
    r"really\s+)?am\b\s*(?:[.!]|$)|\bbut\s+i\s+am\b|\b(?:came|coming)\s+back\b"
    rf"{_EN_NOT_A_CLEAR_RESULT}|\b(?:is|it'?s)\s+back\b(?!\s+on\s+the\s+menu)|\breturned\b|"
    r"\bflared\b|\bworse\b|"
    r"\breacted\s+again|\bepipens?\b|\bpositive\b|\bconfirmed\s+it\b|\banaphyla\w*|\bdeathly\b|"
    r"\bseason(?:al)?\b|\bfor\s+the\s+(?:winter|summer)|\buntil\s+(?:spring|summer|autumn|fall)|"
    r"\bquiet\b|\bhay\s+fever\b|\bpollen\b|\bi\s+was\s+right\b|\bbacked\s+me\s+up\b|"
    r"\bi'?m\s+(?:(?!not\b|no\b|never\b|longer\b)\w+\s+)?(?:allergic|intolerant)\b|"
    r"\bi\s+have\s+(?:\w+\s+)?(?:celiac|coeliac|"
    r"allergy|allergies|intolerance)\b|\breact(?:ed|ion)?\b(?!\s+to)|\bhives\b|\brash\b|\ber\b|"
    r"\bhospital\b|\ba&e\b|\bturns\s+out\s+i\s+(?:am|was)\b|"
    r"\b(?:allergic|intolerant)\s+to\s+[^,.;!?]*?\b(?:in|when|with|if|unless|as|during|while|"
    r"except)\b"
    r"(?!\s+(?:not|fine|ok))|\bconfirmed\b(?!\s+(?:it'?s\s+gone|i'?m\s+not|negative))",
    re.I,
)
"""The allergy is still there, back, worse or seasonal: nothing is over."""
_ZH_DOUBT_RE = re.compile(
    r"希望|但愿|也许|可能|如果|要是|会不会|快要|快好了|等|巴不得|做梦|的话|才怪|别以为|谁说|听说|"
    r"[？?]|大家都以为|都以为|他们以为|你以为|不可能|对(?:什么|啥|任何|所有)|说不定|或许|多想|祈祷|"
    r"不认为|没有证据|骗你|开玩笑|玩笑|搞错|胡扯|错的|不代表|没说|并不是说|别说|千万别|羡慕|的人|想象|"
    r"假装|故事|才好|同学|表[姐哥弟妹]|小孩|老师|邻居|以前对[^，,。]{1,10}不过敏|不确定|不知道|只要"
)
_ZH_STILL_RE = re.compile(
    r"不是不过敏|还是不能|还不能|还是不敢|不敢(?:吃|喝|碰|用)|是真的(?=[，,。！!]|$)|但还是|还是过敏|还过敏|依然过敏|仍然过敏|其实我(?:很|还|也)?过敏|过敏得|"
    r"过敏还在|还在过敏|更严重|更厉害|又犯|复发|又回来|过敏[^。！？，,]{0,6}?回来了|回来了(?=.*过敏)|"
    r"阳性|季|一阵|药|好多了|轻多了|花粉|[，,]\s*我(?:很|还是|真的|其实)?过敏|我是|不能碰|碰都不|疹子|"
    r"进医院|医院了|加回去|换了菜|日子|生[^，,。]{0,3}碰|熟的"
)
EN_NO_OBJECT_RE = re.compile(
    r"\b(?:in|with|when|unless|as|during|while|on|at)\b|"
    r"\b(?:anything|everything|nothing|except|but|only|just|so\s+much|much|than|that|it|them|a\s+peanut"
    r"\s+challenge|test|flight|trip|travel|surgery|procedure)\b",
    re.I,
)
ZH_NO_OBJECT_RE = re.compile(r"什么|啥|所有|任何|除了|都$|不$|一切")
EN_ARTICLE_SPLIT_RE = re.compile(r"\b(?:the|my|a|an|that|this|of|to)(?:\s+|$)", re.I)
_ZH_OBJ_TRAIL_RE = re.compile(
    r"(?:我|的|症|都|也|还|不再|已经|并|不|是|以为)+$|^(?:不过|但是|可是|但|而|就)"
)


_QUOTED_RE = re.compile(r"'[^']*'(?!\w)|\"[^\"]*\"|“[^”]*”|‘[^’]*’|「[^」]*」|『[^』]*』")
"""Quoted text is not the user speaking ("Translate 'I'm allergic to peanuts' into Thai")."""


def unquoted(sentence: str) -> str:
    """``sentence`` with its quoted text blanked (:data:`_QUOTED_RE`)."""
    return _QUOTED_RE.sub(" ", sentence)


_ZH_OBJ_LEAD_RE = re.compile(
    r"^(?:[^，,。]{0,6}?(?<![小传])说)?(?:以前|之前|小时候|原来|本来|曾经|一直|去年|那个|我的|我)*"
)
"""Before a Chinese allergen: who said it and when (``医生说小时候的蛋白过敏``)."""


def zh_allergen(raw: str) -> str:
    """A Chinese allergen as a pattern caught it, without who said it or when before it
    (``医生说``, ``小时候``), trailing particles (``我``, ``的``, ``症``…) or a leading
    conjunction; empty where only those were caught."""
    return _ZH_OBJ_LEAD_RE.sub("", _ZH_OBJ_TRAIL_RE.sub("", raw.strip()))


_REPORTED_OVER = (
    "说{obj}现在没问题但尚未确认", "says {obj} is fine for them again, not yet confirmed"
)
"""The content of a like that reports an allergy over without retracting it: Chinese, English."""
_REPORTED_OVER_RE = re.compile(
    "|".join(re.escape(t).replace(re.escape("{obj}"), ".+") for t in _REPORTED_OVER)
)


def reported_over(obj: str) -> str:
    """The content of a like that reports an allergy of ``obj`` over without retracting it
    (``说芒果现在没问题但尚未确认``, "says kiwi is fine for them again, not yet confirmed")."""
    return _REPORTED_OVER[0 if has_cjk(obj) else 1].format(obj=obj)


def is_reported_over(content: str) -> bool:
    """Whether ``content`` is a report made by :func:`reported_over`."""
    return _REPORTED_OVER_RE.fullmatch(content) is not None


_EN_NO_SYMPTOM_RE = re.compile(
    r"\b(?:no|zero|without(?:\s+(?:a|any))?|not\s+(?:a|one|any)(?:\s+single)?|"
    r"(?:never\s+(?:got|had)|didn'?t\s+(?:get|have))(?:\s+(?:a|any))?|no\s+more)\s+"
    r"(?:(?:single|itchy|bad|allergic|adverse|other|more)\s+)?"
    r"(?:hives?|rash(?:es)?|reactions?|welts?|swelling|symptoms?|sneez\w*|wheez\w*|itch\w*|"
    r"bloating|cramps|antihistamines?|epipens?)\b|\b(?:didn'?t|did\s+not|never)\s+react(?:ed)?\b|"
    r"\b(?:doesn'?t|don'?t|does\s+not|do\s+not|no\s+longer)\s+(?:give|make)s?\s+me\s+(?:break\s+out\s+"
    r"in\s+)?(?:hives|a\s+rash|rashes|itch\w*|sneez\w*|wheez\w*)\b|\bnothing\s+happened\b",
    re.I,
)
_ZH_NO_SYMPTOM_RE = re.compile(
    r"(?:没|不|没有|都没|也没|不再|不会|没再|再也没|一点|啥)(?:有)?(?:再)?(?:起|出|长|犯|发|打)?(?:过)?"
    r"(?:一点|任何)?(?:疹子|荨麻疹|红疹|反应|症状|过敏反应|喷嚏)|停药|不用(?:再)?吃药|"
    r"没(?:用|吃)(?:任何)?[^，,。]{0,4}药"
)
"""A symptom said to be absent ("zero hives", "no reaction", ``都没起疹子``, ``停药``): evidence
that an allergy is over, not that it is still there."""


def _no_symptom_re(text: str) -> re.Pattern[str]:
    return _ZH_NO_SYMPTOM_RE if has_cjk(text) else _EN_NO_SYMPTOM_RE


def states_no_symptom(text: str) -> bool:
    """Whether ``text`` says a symptom is absent ("not a single hive", ``都没起疹子``): a
    clause that does states no taste (a post with "no reactions" is read so too)."""
    return _no_symptom_re(text).search(text) is not None


def _as_read(sentence: str) -> str:
    """``sentence`` as the vetoes read it: its quoted text and absent symptoms blanked."""
    sentence = unquoted(sentence)
    return _no_symptom_re(sentence).sub(" ", sentence)


def retraction_vetoed(sentence: str) -> bool:
    """Whether a sentence cannot retract an allergy, whatever reads one in it: a hope, a
    doubt, irony, a report the user disputes, a question, the allergy still there or back, or
    someone else's (:func:`read_retraction`; the stance rules' "no longer allergic to X" is
    held to the same)."""
    sentence = _as_read(sentence)
    zh = has_cjk(sentence)
    doubt, still = (_ZH_DOUBT_RE, _ZH_STILL_RE) if zh else (_EN_DOUBT_RE, _EN_STILL_RE)
    return bool(doubt.search(sentence) or still.search(sentence) or someone_else(sentence))


_EN_HEDGE_RE = re.compile(
    r"\b(?:hope[sd]?|hoping|hopefully|wish\w*|pray\w*|fingers\s+crossed|maybe|might|perhaps|"
    r"possibly|probably|not\s+sure|unsure|doubt\w*|skeptical|sceptical|not\s+convinced|"
    r"not\s+buying|as\s+long\s+as|only\s+(?:if|when|while|with)|unless|until|yeah\s+right|"
    r"oh\s+sure|as\s+if|kidding|joking|jk|j/k|supposedly|allegedly|"
    rf"came\s+back{_EN_NOT_A_CLEAR_RESULT}|returned|"
    r"flared|worse|wore\s+off|not\s+outgrowing|(?:is|isn'?t|not)\s+(?:gone|over|done)\s+with|"
    r"isn'?t\s+(?:gone|over|done)|still\s+(?:am|have|do|react|(?:very\s+)?allergic|get|carry|"
    r"can'?t|cannot|avoid|sets?)|seasonal|for\s+the\s+(?:winter|summer|season)|(?:can'?t|cannot|"
    r"can\s+no\s+longer)\s+(?:eat|drink|have|touch|tolerate|handle|stomach))\b|(?<![?])\?(?![?])|"
    r"\b(?:his|her|their|(?!it|that|what|there|here|who|one)\w+'s)\s+(?:[\w-]+\s+){0,2}"
    r"(?:allerg|intoleran|sensitiv)",
    re.I,
)
_ZH_HEDGE_RE = re.compile(
    r"希望|但愿|也许|可能|说不定|或许|如果|要是|假如|的话|会不会|是不是|不确定|不知道|不敢|只要|除非|"
    r"才怪|反讽|狗头|呵呵|开玩笑|还是过敏|还过敏|依然|仍然|还是不能|还不能|不能碰|碰都不|但还是|复发|"
    r"又回来|更严重|季节性|换季|(?<![?？])[?？](?![?？])|"
    r"[他她]们?的[^，,。]{0,6}(?:过敏|不耐)"
)


def hedged(sentence: str) -> bool:
    """Whether a sentence hedges what it says (a hope, a doubt, irony, a condition, a single
    question: "??" is surprise), says the allergy is still there, back, worse or seasonal, or
    names someone else's allergy ("my son's peanut allergy").

    The few vetoes of :func:`retraction_vetoed` that still hold when the structure head is
    sure an allergy is over (:mod:`.structuring`): its other words ("rash", "reaction",
    "hospital", "lol", a doctor who confirmed it) are said as often in a true retraction
    ("the rash was from something else entirely") as in a look-alike."""
    sentence = _as_read(sentence)
    return bool((_ZH_HEDGE_RE if has_cjk(sentence) else _EN_HEDGE_RE).search(sentence))


def read_retraction(sentence: str) -> list[Part] | None:
    """The allergies or intolerances a sentence says are over, in the phrasing the gate
    lifts an allergy by, or None when it says no such thing. Capture uses it only to store no
    allergy the sentence takes back (see the module doc).

    Args:
        sentence: One sentence of the user's message, English or Chinese.

    Returns:
        One like per allergen (``Part("like", "kiwi", "no longer allergic to kiwi")``,
        ``Part("like", "菠萝", "对菠萝不再过敏了")``), or None.
    """
    if retraction_vetoed(sentence):
        return None
    sentence = unquoted(sentence)
    zh = has_cjk(sentence)
    for pattern in _ZH_RETRACTIONS if zh else _EN_RETRACTIONS:
        if (m := pattern.search(sentence)) is None:
            continue
        groups = m.groupdict()
        raw = (groups.get("obj") or groups.get("obj2") or groups.get("pre") or "").strip()
        if zh:
            obj = zh_allergen(raw)
            if re.search(r"[他她]", raw):
                return None  # ``闺蜜说她海鲜过敏是假阳性``: hers
            if 1 <= len(obj) <= 8 and not ZH_NO_OBJECT_RE.search(obj):
                return [Part("like", obj, f"对{obj}不再过敏了")]
            continue
        if pattern is _EN_ALLERGY_OVER:  # the words before "allergy": "Allergist says the cashew"
            raw = EN_ARTICLE_SPLIT_RE.split(raw)[-1]
        if not raw or EN_NO_OBJECT_RE.search(raw):
            continue
        allergen = pull_object_en(raw, alone=True)
        if allergen:
            allergen = allergen if allergen.isupper() else allergen.lower()  # "Peanut allergy…"
            return [Part("like", allergen, f"no longer allergic to {allergen}")]
    return None


ALLERGY_WORD_RE = re.compile(r"allerg|intoleran|anaphyla|过敏|不耐", re.I)
"""A word of allergy or intolerance (:mod:`.structuring` reads no structure in a sentence
with one: "allergic to everything from peanuts to shellfish")."""
CUE_RE = re.compile(r"allerg|intoleran|anaphyla|sensitiv|react|hives|过敏|不耐|脱敏", re.I)
"""Every word a pattern of this module needs ("I no longer react to cats", ``对花生脱敏了``):
a sentence without one is read by none of them."""


def mentions_allergy(sentence: str) -> bool:
    """Whether any reader of this module can read anything in ``sentence``: capture skips the
    others (most sentences) without running the vetoes and patterns."""
    return bool(CUE_RE.search(sentence))


__all__ = [
    "ALLERGY_WORD_RE", "CUE_RE", "EN_ALLERGY", "EN_ARTICLE_SPLIT_RE", "EN_NO_OBJECT_RE",
    "ZH_ALLERGY", "ZH_NO_OBJECT_RE", "hedged", "is_reported_over", "mentions_allergy",
    "read_retraction", "reported_over",
    "retraction_vetoed", "states_no_symptom",
    "unquoted", "zh_allergen",
]  # fmt: skip
