"""A comparison's connectors: which side the user finds better ("I'd rather A than B", "prefer
A over B", "A beats B", ``比起B更喜欢A``, ``A比B好``, ``B比不上A``, ``与其B不如A``). Read by
:func:`~.structures.read_structure` when :mod:`.structuring` says a sentence may be a
comparison; group ``a`` is the better side, ``b`` the worse, and ``c``, where there is one, the
side chosen between the two. They name connectors, never objects.
"""

from __future__ import annotations

import re

from .lexicons import EN_DEGREE_OF_MORE
from .switches import ZH_V

_EN_RATHER = re.compile(
    r"\b(?:i'?d\s+|i\s+would\s+)?(?:much\s+|far\s+)?rather\s+(?:have|take|do|go\s+for|eat|"
    r"drink|watch|get|be|pick)?\s*(?P<a>.+?)\s+than\s+(?P<b>.+)",
    re.I,
)
""""I'd rather A than B", the verb before A out ("I'd rather take the bus than the train")."""
_EN_PREFER = re.compile(
    r"\bprefer(?:s|red)?\s+(?P<a>.+?)\s+(?:over|to|rather\s+than)\s+(?P<b>.+)", re.I
)
_EN_NOT_A_SIDE = r"(?!the\s+(?:weekend|holidays?|summer|winter|years?|past|phone)\b)"
"""A time or a medium after "over" ("over the weekend"): no side of a comparison."""
EN_COMPARE_STRICT = [
    _EN_RATHER,
    _EN_PREFER,
    re.compile(
        r"^(?:(?:give\s+me|gimme|i'?ll\s+take|i'?m\s+an?)\s+)?(?!(?:spent|went|stayed|came|got|"
        r"was|were|had|did|looked|ran|walked|drove|took|moved|talked|argued|went|been)\b)"
        r"(?P<a>(?:(?!\b(?:i|i'm|that|which|who|are|is|was|were|dislike|like|love|hate|want|need)\b)"
        r"[^,;]){1,40}?)\s+(?:(?:wins?|win\s+out)\s+)?(?:over|>|beats?|trumps?)\s+"
        rf"{_EN_NOT_A_SIDE}(?!(?:at|in|on|to|for|with|by|from|"
        r"there|here|and|again|it|budget|time)\b)(?P<b>(?:(?!\b(?:is|are|was|were)\b)[^,;])+)"
        r"(?:[,;]|$)",
        re.I,
    ),
    re.compile(r"(?P<a>.+?)\s+(?:is|'s)\s+my\s+(?:pick|choice)\s+over\s+(?P<b>.+)", re.I),
    re.compile(r"\brate\s+(?P<a>.+?)\s+(?:above|over)\s+(?P<b>.+)", re.I),
]
"""The comparative connectors that name a preference alone ("I'd rather A than B", "A over
B" opening the sentence), for a sentence the head does not read as a comparison: "over",
"to" and "than" inside a clause ("over the weekend", "an aversion to X") name none."""
EN_COMPARE = [
    re.compile(
        r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s*,?\s*(?:i(?:'ll|\s+will|'d|\s+would)?"
        r"\s+)?(?:go\s+(?:with|for)|pick|choose|take|prefer)\s+(?P<c>.+)",
        re.I,
    ),
    *EN_COMPARE_STRICT,
    re.compile(
        rf"(?P<a>.+?)\s+(?:{EN_DEGREE_OF_MORE})?(?:over|rather\s+than|"
        r"more\s+than|better\s+than|instead\s+of|"
        rf"than|beats|wins\s+over|trumps|before|to)\s+{_EN_NOT_A_SIDE}(?P<b>.+)",
        re.I,
    ),
]
"""Every comparative connector, for a sentence the head reads as a comparison: the strict ones
first, which cut their sides more closely ("I'd rather take the stairs than the lift": not
``take``; "Dogs > cats, not even close")."""
_ZH_V_OR_RIDE = ZH_V.replace("(?:", "(?:坐|", 1)
"""A verb of having or doing, or of riding (``与其坐飞机，我宁愿坐高铁``)."""
ZH_COMPARE = [
    re.compile(
        r"(?:比起|相比于?|相较于?|跟|和)(?P<b>[^，,。]{1,14}?)(?:比|相比)?[，,]?\s*我?(?:还是)?更"
        r"(?:喜欢|爱|偏爱|倾向于?|想要?|愿意|习惯)" + ZH_V + r"?(?P<a>[^，,。！]+)"
    ),
    re.compile(
        r"(?:在)?(?P<a>[^，,。和与]{1,14}?)(?:和|与|跟)(?P<b>[^，,。]{1,14}?)(?:之间|中间)?[，,]?\s*"
        r"我?(?:选|挑|要|会选|宁愿选|更喜欢)(?P<c>[^，,。！]+)"
    ),
    re.compile(
        rf"与其{ZH_V}?(?P<b>[^，,。]{{1,14}}?)[，,]?\s*(?:还)?不如{ZH_V}?(?P<a>[^，,。！]+)"
    ),
    re.compile(  # 宁愿 sides of having or riding only: not ``与其在这里等，我宁愿回家``
        rf"与其{_ZH_V_OR_RIDE}(?P<b>[^，,。]{{1,14}}?)[，,]?\s*我?(?:还|倒)?(?:宁愿|宁可|更愿意)"
        rf"{_ZH_V_OR_RIDE}(?P<a>[^，,。！]+)"
    ),
    re.compile(
        r"(?P<a>[^，,。]{1,14}?)(?<![不没])(?:比(?!不上|不过)|胜过|强过|好过)(?P<b>[^，,。]{1,14}?)(?:好|强|棒|"
        r"香|更|合我|适合我|舒服|靠谱|顺手|爽|方便|实用|划算|带劲|过瘾|高一档|可爱|好看|好吃|好喝|好玩|"
        r"好听|干净|安静|便宜|健康|有(?:感觉|意思|"
        r"味道?|劲|质感|档次)|$)"
    ),  # 什么面膜都比不上敷尔佳: the one after 比不上 is better
    re.compile(r"(?P<b>[^，,。]{1,14}?)(?:比不上|比不过)(?P<a>[^，,。！]{1,14})"),
    re.compile(r"(?P<a>[^，,。]{1,14}?)(?:吊打|完爆|秒杀)(?P<b>[^，,。！]{1,14})"),
    re.compile(
        r"(?:更|还是)(?:喜欢|爱|倾向于?|偏向)?" + ZH_V + r"?(?P<a>[^，,。]{1,14}?)[，,]?\s*"
        r"而(?:不是|非)" + ZH_V + r"?(?P<b>[^，,。！]+)"
    ),
    re.compile(
        r"宁(?:愿|可)"
        + ZH_V
        + r"?(?P<a>[^，,。]{1,14}?)[，,]?\s*也不(?:要|想|愿意)?"
        + ZH_V
        + r"?(?P<b>[^，,。！]+)"
    ),
]

__all__ = ["EN_COMPARE", "EN_COMPARE_STRICT", "ZH_COMPARE"]
