"""A switch's connectors: what the user turned from and to ("from A to B", "swapped A for
B", "A replaced B", ``从A换成B``, ``弃A投B``), or only what they turned to ("switched to B",
``换成B``). Read by :func:`~.structures.read_structure` when :mod:`.structuring` says a
sentence may be a switch; they name connectors, never objects.
"""

from __future__ import annotations

import re

from .lexicons import EN_GOOD_IDIOM

EN_SWITCHED_FROM = (
    rf"(?P<old>(?:(?!\s+for{EN_GOOD_IDIOM}|,\s*(?:i|i'm|it|it's|they|that)\b).)+?)"
)
"""What was dropped, after "ditched", "dropped"…: not past the idiom "for good", nor into a new
clause ("…, I'm too old for it"); over a list ("Coke, Pepsi and Sprite for water")."""
EN_FRONTED_INSTEAD = re.compile(
    r"^(?:instead\s+of|rather\s+than)\s+(?P<old>[^,;]+?)(?:\s*[,;]\s*|\s+(?=(?:i|we)\b))"
    r"(?![\s,;])(?!(?:let'?s|let\s+us|maybe|perhaps|why|how|can|could|should|would|please|you)\b)"
    r"(?P<new>[^,;]+)",
    re.I,
)
"""The side left, put first: "Instead of Netflix I mostly watch YouTube now", "Rather than
cash, I pay by card these days" (the side chosen is the object of the clause after it; a
suggestion is no switch: "Rather than argue, let's just order Thai")."""
EN_INSTEAD = re.compile(r"(?P<new>.+?)\s+(?:instead\s+of|rather\s+than)\s+(?P<old>.+)", re.I)
"""The side chosen, then the side left: "I now shop at Aldi rather than Tesco"."""
EN_ONE_OFF_CLAUSE_RE = re.compile(
    r"^(?:i|we)(?:'ll|'d|\s+(?:will|would|shall|am\s+going\s+to)|'m\s+going\s+to)\b|"
    r"^(?:i|we)\s+(?:(?:just|then|finally|actually|also|ended\s+up)\s+)*(?:(?!(?:switched|moved|"
    r"changed|converted|migrated|started|learned|learnt)\b)[a-z]+ed|took|bought|brought|went|had|drove|made|got|gave|ate|"
    r"drank|wore|ran|rode|flew|sold|came|chose|paid|spent|sent|found|did|fixed)\b",
    re.I,
)
"""A side chosen told as one past act or a plan ("I took the subway to the airport", "I'll bring
beer"): set against another with "instead of" or "rather than" it is no switch."""
EN_SWITCH = [
    re.compile(r"\bfrom\s+(?P<old>.+?)\s+(?:to|for|over\s+to)\s+(?P<new>.+)", re.I),
    re.compile(r"(?P<old>.+?)\s*(?:→|->|=>)\s*(?P<new>[^,;]+)", re.I),
    re.compile(
        r"\b(?:swapped|traded|replaced|exchanged|substituted)\s+(?P<old>.+?)\s+"
        r"(?:for|with)\s+(?P<new>.+)",
        re.I,
    ),
    re.compile(
        r"\b(?:dropped|ditched|quit|left|gave\s+up|abandoned)\s+"
        rf"{EN_SWITCHED_FROM}(?:\s+for{EN_GOOD_IDIOM})?"
        rf",?\s+(?:and|for(?!{EN_GOOD_IDIOM}))\s+(?:then\s+)?"
        r"(?:picked\s+up|took\s+up|started(?:\s+on)?|moved\s+to|went\s+(?:with|for)|got|"
        r"switched\s+to|adopted)?\s*(?P<new>.+)",
        re.I,
    ),
    re.compile(
        r"\b(?:all|only|strictly)\s+(?P<new>.+?)\s+now\s*,?\s*(?:no\s+more|not)\s+"
        r"(?P<old>.+)",
        re.I,
    ),
    EN_INSTEAD,
    EN_FRONTED_INSTEAD,
    re.compile(
        r"(?P<new>.+?)\s+(?:has|have)\s+(?:now\s+)?(?:replaced|taken\s+over\s+from|"
        r"taken\s+the\s+place\s+of)\s+(?P<old>.+?)(?:\s+for\s+me)?\W*$",
        re.I,
    ),
    re.compile(r"\bout\s+with\s+(?P<old>.+?)\s*[,;]?\s+in\s+with\s+(?P<new>.+)", re.I),
    re.compile(r"(?P<old>.+?)(?:\s+is|'s|\s+are|'re)\s+out\s*[,;]\s*(?P<new>.+?)(?:\s+is|'s|\s+are|"
               r"'re)\s+(?:back\s+)?in\b", re.I),
    re.compile(r"(?P<new>.+?)\s+(?:has|have)\s+taken\s+(?P<old>.+?)(?:'s|s')\s+place\b", re.I),
    re.compile(r"\b(?:good)?bye\s+(?P<old>.+?)\s*[,;]\s*hello\s+(?P<new>.+)", re.I),
    re.compile(r"\b(?:gave\s+up|given\s+up|dropped|left)\s+(?P<old>.+?)\s+(?:in\s+favou?r\s+of|"
               r"behind\s+for)\s+(?P<new>.+)", re.I),
    re.compile(
        r"(?P<new>.+?)\s+(?:(?:for\s+me\s+)?now|these\s+days|nowadays)\s*[,;]?\s*(?:and\s+|but\s+)?"
        r"(?:not|no\s+longer|no\s+more|never)\s+(?:an?\s+)?(?P<old>.+)",
        re.I,
    ),
    re.compile(
        r"\b(?:these\s+days|nowadays|now)\s*,?\s+i\s+(?:go\s+for|pick|choose|get|have|take)\s+"
        r"(?P<new>.+?)\s*,?\s+(?:not|over|rather\s+than)\s+(?P<old>.+)",
        re.I,
    ),
]
ZH_V = r"(?:吃|喝|看|玩|用|听|穿|读|打|练|逛|去|追|买|下)"
ZH_SWITCH = [
    re.compile(
        r"(?:从|由)(?P<old>[^，,。]{1,14}?)(?:换成|改成|改为|换到|转到|转向|改用|换用|转用|搬家?到|"
        rf"挪到|降到|转|改{ZH_V})了?(?P<new>[^，,。！]+)"
    ),
    re.compile(r"把(?P<old>[^，,。]{1,14}?)(?:换成|改成|替换成|换为)了?(?P<new>[^，,。！]+)"),
    re.compile(r"用(?P<new>[^，,。]{1,14}?)(?:代替|取代|替代|替换)了?(?P<old>[^，,。！]+)"),
    re.compile(r"弃(?P<old>[^，,。]{1,10}?)投(?P<new>[^，,。！]+)"),
    re.compile(
        rf"(?:不再?{ZH_V}?|放弃了?|戒了?|以前{ZH_V}?)(?P<old>[^，,。]{{1,14}}?)了?(?:[，,]\s*"
        rf"(?:现在|如今)?(?:改|换|转)(?:成|为|到|{ZH_V})?|(?:改|换|转)(?:成|为|到|{ZH_V}))了?"
        r"(?P<new>(?!回)[^，,。！]+)"
    ),
    re.compile(r"(?P<old>[^，,。→]{1,14}?)\s*(?:→|->)\s*(?P<new>[^，,。！]+)"),
]
ZH_SWITCH_TO = re.compile(
    r"(?:换成|改成|换了|换到|改用|换用|转用|转投|转战|搬家?到|改" + ZH_V + r")了?"
    r"(?P<new>[^，,。！]{1,14}?)(?:之后|以后|后|了|[，,。！]|$)"
)
"""A switch that names only what the user turned to (``手机壳都换成磁吸的了``,
``换了电动牙刷之后手动的就再没用过``): the new object is liked."""
EN_NOT_A_TRIAL = (
    r"(?!(?:(?!\band\b)[^,;.!])*\bfor\s+(?:a\s+(?:while|bit|spell|short\s+time)|"
    r"a\s+(?:few\s+|couple\s+(?:of\s+)?)?(?:days?|weeks?|months?|years?)|"
    r"\d+\s+(?:days?|weeks?|months?|years?))\b)"
)
"""Not a switch bounded to a stretch lived ("Switched to tea for a while but…"): a trial; a
stretch in the next clause is how long it has held ("…and haven't looked back for 2 years")."""
EN_SWITCH_TO = re.compile(
    rf"\b(?:switched|shifted|converted|migrated|changed)\s+(?:over\s+)?to\s+{EN_NOT_A_TRIAL}"
    r"(?P<new>[^,;.!]+)",
    re.I,
)
"""Its English form: "I switched to Valorant for good"; not a trial lived ("Switched to tea for
a while but honestly coffee is still my thing")."""
EN_SWITCH_VERB_RE = re.compile(
    r"\b(?:switch\w*|mov\w+|went|gone|go|chang\w+|convert\w*|migrat\w+|shift\w*|swap\w*|"
    r"trad\w+|upgrad\w+|downgrad\w+|transition\w*|jump\w*|ditch\w*)\b",
    re.I,
)

FROM_NOW_ON_RE = re.compile(r"\bfrom\s+now\s+on\b\s*,?", re.I)
"""A time, not a switch's "from": "From now on it's Lidl for the big shop"."""


__all__ = [
    "EN_FRONTED_INSTEAD",
    "EN_INSTEAD",
    "EN_NOT_A_TRIAL",
    "EN_ONE_OFF_CLAUSE_RE",
    "EN_SWITCHED_FROM",
    "EN_SWITCH",
    "EN_SWITCH_TO",
    "EN_SWITCH_VERB_RE",
    "FROM_NOW_ON_RE",
    "ZH_SWITCH",
    "ZH_SWITCH_TO",
    "ZH_V",
]
