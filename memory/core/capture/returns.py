"""Returns: what the user went back to, and what they will not go back to.

A switch undone in one sentence, or over two: the user tried something and went back to what
they had ("Switched to Android for a month and went crawling back to my iPhone", ``从抖音换到B站
又回来了``, "Tried Firefox for a week. Back on Chrome."). What they came back to is the like;
what was tried on the way is none. Issue 17: a switch's connectors had read the first half
alone (*switched to Android*; ``从抖音换成B站`` a like of B站 and a dislike of 抖音, the opposite
of what was said). A return ruled out is a dislike beside a like of what the user left for
("…, can't go back to cotton", ``用过机械键盘就再也回不去薄膜键盘了``). Kinds of phrasing, never
particular objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import PreferenceCandidate, has_cjk
from .clauses import clause_speaker
from .holders import someone_else
from .negation import kept
from .object_tagger import default_tagger
from .rules_en_kept import EN_NO_GOING_BACK, EN_RETURN_FORMS
from .structures import Part, part_candidate

_EN_RETURN_RES = tuple(re.compile(form, re.I) for form in EN_RETURN_FORMS)
_EN_NO_GOING_BACK_RE = re.compile(EN_NO_GOING_BACK, re.I)
NEW_SIDE_MIN_P = 0.8
"""The object tagger's like, at this probability or more, is what a return ruled out was left
for ("Bamboo bedsheets are a game changer, can't go back to cotton"; the tagger reads the
bedsheets at 1.0): as :data:`~.retagging.RETAG_MIN_P` (the tagger's object replacing the
rules'), not tuned apart."""
_ZH_NOT_A_PLACE_LEFT = r"(?!这个?周末|今天|明天|今年|明年|过年|春节|假期|暑假|寒假|国庆|老?家)"
_ZH_RULED_OUT_RES = (
    re.compile(  # 再也回不去薄膜键盘了, 不会再回那家健身房了, 再也不想回到坐绿皮车的日子
        rf"(?:回不去|不(?:会|想|要)?再?回(?:到|去)?){_ZH_NOT_A_PLACE_LEFT}"
        r"(?P<obj>(?![去到来])[^，,。；;了！!？?（(]{1,12}?)(?:了|[，,。！!（(]|$)"
    ),
    re.compile(  # 超市的盒装豆浆真的回不去了, 那家理发店我是再也不会回去了
        rf"(?:^|(?<=[，,])|(?<=之后)|(?<=以后)){_ZH_NOT_A_PLACE_LEFT}"
        r"(?P<obj>(?!真的|就|是|都|也|再也|实在|确实)[^，,。；;后我]{1,12}?)(?P<me>我)?是?"
        r"(?:真的|就|都|也)?(?:再也)?(?:回不去|不会再?回去|不回去)了"
    ),
)
"""A Chinese return ruled out and what it rules out; the topic before it only after what the
user had (:data:`_ZH_HAD_RE`) or with ``我`` (``这个周末回不去了`` is no preference)."""
_ZH_SAID_RE = re.compile(r"说|觉得|以为|认为")
_ZH_HAD_RE = re.compile(
    r"(?:用过|用了|用惯了|喝过|喝惯了|吃过|吃惯了|坐过|住过|体验过|换了|换成|换到|改用|试过|穿过)"
    r"(?P<new>[^，,。；;就之以后]{1,12}?)(?:的)?(?:之后|以后|后|就|[，,])"
)
"""What the user had and will not go back from (``用过机械键盘就再也回不去薄膜键盘了``,
``喝惯了无糖的，含糖可乐回不去了``): the like beside a Chinese return ruled out."""
_EN_AFTER_USING_RE = re.compile(
    r"\bafter\s+(?:using|trying|having|getting|switching\s+to|owning|driving|wearing|riding|"
    r"eating|drinking|playing|reading|sleeping\s+on)\s+(?:(?:a|an|the|my|our)\s+)?"
    r"(?P<new>[^,;.!?]{1,40}?)\s*(?:[,;.!?]|$)",
    re.I,
)
"""What the user left for, said after a return ruled out ("Can't go back to a regular mouse
after using a trackball")."""
_EN_TRIED_RE = re.compile(
    r"\b(?:(?:switch(?:ed)?|moved|converted|migrated|jumped)\s+(?:over\s+)?(?:to|from)|tried|"
    r"trying|tested|testing|experimented\s+with|gave\s+[^,;]{1,30}?\s+(?:an?|another)\s+"
    r"(?:\w+\s+)?(?:go|shot|try|whirl)|went\s+with|ditched|dropped|swapped|"
    r"did\s+(?:a|one|two|three|\d+)\s+(?:days?|weeks?|months?|years?)\s+of|for\s+(?:(?:like|"
    r"about|around|almost)\s+)?(?:a|one|two|three|a\s+few|a\s+couple\s+(?:of\s+)?|\d+)\s*"
    r"(?:days?|weeks?|months?|years?|while|bit|season))\b",
    re.I,
)
"""A try or switch before the return ("Switched to Android for a month and went back…")."""
_EN_TRIED_AFTER_RE = re.compile(
    r"^[^,;.!?]*?\bafter\s+(?:a|one|two|three|a\s+few|a\s+couple\s+of|\d+|(?:a\s+)?(?:week|month|"
    r"year)s?)\s+(?:(?:days?|weeks?|months?|years?)\s+)?(?:of|with|on)\b",
    re.I,
)
"""The try told after the return ("I'm back on Ubuntu after a year of Arch")."""
_ZH_RETURN_RE = re.compile(
    r"(?:又|后来又?|最后又?|结果又?|还是|就)(?P<verb>换|用|改|搬|转|切|戴|穿|坐|骑|喝|吃|买)?回"
    r"(?!不)(?:来|去|到)?了?(?P<obj>[^，,。！？!?]{0,14}?)(?:了|[，,。！？!?]|$)"
)
_ZH_SWITCHED_RE = re.compile(
    r"(?:从|由)(?P<old>[^，,。]{1,14}?)(?:换成|改成|换到|转到|改用|换用|搬家?到|转)|"
    r"(?:换成|改成|换到|改用|换用|改[喝吃用骑坐穿看听])|(?P<loose>换了|试了|试过|试着)"
)
"""A switch or try before a Chinese return; ``从A`` names what ``又换回来了`` returns to. After a
mere try (``试了``, ``换了``) the return must say what was taken up again (``又换回华为``, not
``后来又回公司加班了``)."""


@dataclass(frozen=True)
class Return:
    """A going back after a try or switch: what was gone back to, where the return starts and
    ends and where the switch it undoes starts (character offsets in the sentence)."""

    obj: str
    start: int
    end: int
    switched: int


def went_back(sentence: str) -> Return | None:
    """The return in a sentence that tries or switches and then goes back, or None."""
    if has_cjk(sentence):
        back = _ZH_RETURN_RE.search(sentence)
        tries = list(_ZH_SWITCHED_RE.finditer(sentence[: back.start()])) if back else []
        switched = next((m for m in tries if not m.group("loose")), tries[0] if tries else None)
        if back is None or switched is None or not (
            back.group("verb") or switched.group("old")
            or (back.group("obj").strip() and not switched.group("loose"))
        ):
            return None  # ``换了衣服又回去了``: a going back, no switch undone
        obj = back.group("obj").strip() or (switched.group("old") or "").strip()
        return Return(obj, back.start(), back.end(), switched.start())
    found = [m for r in _EN_RETURN_RES if (m := r.search(sentence))]
    if not found:
        return None
    back = min(found, key=lambda m: m.start())
    tried = _EN_TRIED_RE.search(sentence[: back.start()])
    if tried is None and _EN_TRIED_AFTER_RE.match(sentence[back.end() :]):
        return Return(back.group("obj").strip(), back.start(), back.end(), back.start())
    if tried is None:
        return None
    return Return(back.group("obj").strip(), back.start(), back.end(), tried.start())


def undone(
    sentence: str, found: list[PreferenceCandidate], confidence: float
) -> list[PreferenceCandidate] | None:
    """What a sentence that tries something and goes back yields, or None if it is none.

    Args:
        sentence: One sentence.
        found: What its clauses' rules read (in message order).
        confidence: The confidence of a candidate made here.

    Returns:
        The sentence's candidates: a like of what the user went back to, the user's stances
        named before the switch, a dislike said after the return (``…还是换回普通拿铁了，燕麦味
        太怪``), and none of what was tried on the way.
    """
    back = went_back(sentence)
    zh = has_cjk(sentence)
    if back is None or (someone_else(sentence) if zh else clause_speaker(sentence) == "other"):
        return None  # ``我妈试了一堆洗发水，最后还是用回了飘柔``: hers
    label = f"用回{back.obj}" if zh else f"likes {back.obj}"
    made = part_candidate(Part("like", back.obj, label), confidence) if back.obj else None
    if made is None:
        return None
    before, after = sentence[: back.switched].lower(), sentence[back.end :].lower()
    stays = [c for c in found if c.protected or all(k in before for k in c.keywords) or (
        c.polarity == "dislike" and any(k in after for k in c.keywords))]  # ``…，燕麦味太怪``
    return [*stays, made]


def returned_over_two(sentences: list[str]) -> list[str]:
    """The sentences of a message, a try and a return told over two of them joined into one
    for :func:`undone` ("switched to android for a year. back on iPhone now" → "switched to
    android for a year, back on iPhone now"; ``试了一周小米。又换回华为了。``). Apart, the return
    had no try before it and stored nothing (a return alone is mostly no preference)."""
    joined: list[str] = []
    for sentence in sentences:
        before = joined[-1] if joined else ""
        head = before.rstrip(" .!。！")
        both = f"{head}{'，' if has_cjk(before) else ', '}{sentence}"
        alone = went_back(sentence) is not None or kept(sentence)  # "I'm back on X for good"
        if before and not before.rstrip().endswith(("?", "？")) and not alone and (
            (back := went_back(both)) is not None and back.start >= len(head)
        ):
            joined[-1] = both
        else:
            joined.append(sentence)
    return joined


def left_for(
    sentence: str, found: list[PreferenceCandidate], confidence: float
) -> list[PreferenceCandidate] | None:
    """A return ruled out and what the user left for, or None to leave ``found`` as it is.

    "Bamboo bedsheets are a game changer, can't go back to cotton": the rules read the
    dislike of cotton (:data:`~.rules_en_kept.EN_NO_GOING_BACK`); the like, said without a
    verb of liking, only the statement head's reading of the whole sentence gave, and it
    reads a sentence only where the rules read nothing. The object tagger's likes outside the
    ruled-out return, at :data:`NEW_SIDE_MIN_P`, and what it names after "after using…",
    are added to the rules' dislike; in Chinese, what the user had before it (``用过机械键盘
    就再也回不去薄膜键盘了``: 机械键盘).

    Args:
        sentence: One sentence.
        found: What its clauses' rules read.
        confidence: The confidence of a candidate made here.

    Returns:
        ``found`` and a like per object the tagger marks (in Chinese: the rules' candidates
        outside the return and what was had before it, a like of what was had and a dislike of
        what is ruled out), or None where the sentence rules out no return, the rules read a
        like already, nothing is marked, or the return is another's.
    """
    if has_cjk(sentence):
        return _left_for_zh(sentence, found, confidence)
    ruled_out = _EN_NO_GOING_BACK_RE.search(sentence)
    if ruled_out is None or any(c.polarity == "like" for c in found):
        return None
    rest = sentence[ruled_out.start() :].lower()
    if not any(c.polarity == "dislike" and all(k in rest for k in c.keywords) for c in found):
        return None  # another's ("my sister says she can't go back to dairy")
    sides = [o.text for o in default_tagger().read(sentence).objects
             if o.polarity == "like" and o.p >= NEW_SIDE_MIN_P and o.text.lower() not in rest]
    if (after := _EN_AFTER_USING_RE.search(sentence, ruled_out.end())) is not None:
        sides.append(after.group("new"))
    made = [candidate for side in sides
            if (candidate := part_candidate(Part("like", side, f"likes {side}"), confidence))]
    return [*found, *made] if made else None


def _left_for_zh(
    sentence: str, found: list[PreferenceCandidate], confidence: float
) -> list[PreferenceCandidate] | None:
    ruled_out = next((m for r in _ZH_RULED_OUT_RES if (m := r.search(sentence))), None)
    if ruled_out is None or someone_else(sentence) or _ZH_SAID_RE.search(
        sentence[: ruled_out.start()]
    ):
        return None  # ``老同学搬回老家了，说再也不想回大城市``: reported
    had = list(_ZH_HAD_RE.finditer(sentence[: ruled_out.start()]))
    fronted = ruled_out.re is _ZH_RULED_OUT_RES[1]
    if fronted and not (had or ruled_out.group("me")):
        return None
    parts = [Part("like", m.group("new"), f"喜欢{m.group('new')}") for m in had]
    obj = ruled_out.group("obj").strip()
    parts.append(Part("dislike", obj, f"不会再回到{obj}"))
    made = [c for p in parts if (c := part_candidate(p, confidence)) is not None]
    if not made:
        return None
    span = sentence[had[0].start() if had else ruled_out.start() : ruled_out.end()].lower()
    stays = [c for c in found if c.protected or not any(k in span for k in c.keywords)]
    return [*stays, *made]


__all__ = ["NEW_SIDE_MIN_P", "Return", "left_for", "returned_over_two", "undone", "went_back"]
