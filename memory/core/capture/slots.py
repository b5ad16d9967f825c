"""Single-valued slots: the normalised name of "my favourite X", "my current X", ``我最喜欢的X``."""

from __future__ import annotations

import re

from ...model import has_cjk
from .keywords import en_singular

_SLOT_DROPPED = frozenset(
    "new absolute all-time all time personal very my now today lately "
    "these days at the moment right".split()
)
_SLOT_FAVOURITE = frozenset("favourite favorite fave fav".split())


def slot_key(slot: str) -> str | None:
    """The normalised name of a single-valued slot (``favourite authors`` → ``favorite author``).

    Args:
        slot: The slot as the user wrote it (``"all-time favourite band"``,
            ``"current phone"``, ``"最喜欢的作家"``).

    Returns:
        Lower case, "favourite"/"fave" spelled ``favorite``, modifiers such as
        "all-time" dropped, the noun singular; None when no noun is left.
    """
    if has_cjk(slot):
        return "".join(slot.split()).replace("目前", "现在") or None
    words = [w for w in slot.lower().split() if w not in _SLOT_DROPPED]
    words = ["favorite" if w in _SLOT_FAVOURITE else w for w in words]
    if "favorite" in words:
        words = words[words.index("favorite") :]
    if len(words) < 2:
        return None
    return " ".join([*words[:-1], en_singular(words[-1])])


_ZH_SLOT_TIME_RE = re.compile(
    r"^我(?![家们])|现在|目前|如今|最近|当下|这段时间|这阵子|平时|一般|居然|竟然|仍然|依然|始终|永远|果然|其实|"
    r"一直|还|都|也"
)
"""Times and adverbs, no part of a slot's name (``最爱的居然还是三亚``)."""
ZH_SLOT_QUALIFIERS = "本命|主力|默认|常用|日常"
"""Words that make a noun a slot by themselves (``主力机``, ``默认浏览器``): part of its name."""
_ZH_SLOT_QUALIFIER_RE = re.compile(ZH_SLOT_QUALIFIERS)
_ZH_GROUP_RE = re.compile(r"大家|人|同事|同学|学生|朋友|孩子|公司|单位|学校")
"""People and institutions, whose habit a slot sentence may tell (``大家都用…``). The
segmenter's reading of who acts (:func:`~.zh_subjects.names_someone`) would take a slot
such as ``咖啡店`` or ``外卖平台`` for an institution."""
_ZH_AMOUNT_RE = re.compile(
    r"[一两二三四五六七八九十几半\d]+(?:杯|顿|次|瓶|碗|份|遍|小时|分钟|斤|公里|趟)")
"""How much, not what (``三杯咖啡``); ``五月天`` and ``一个黑色双肩包`` are things."""
_ZH_SLOT_MARKER_RE = re.compile(r"最喜欢|最爱|首选|心中第一|现在|目前|如今|最近|当下")


def zh_slot_reading(lead: str, slot: str, value: str, habit: str | None = None
                    ) -> tuple[str, str | None] | None:
    """(content, slot name) of a Chinese single-valued slot read by a connector.

    Args:
        lead: The words of the match before the slot (``我最爱``, ``主力``, ``我现在的``).
        slot: The slot as matched; times and adverbs in it are dropped (``机现在`` → ``机``),
            and a noun after a modifier keeps only its head (``沉迷的运动`` → ``运动``).
        value: What fills it (``Mac``).
        habit: For a habit (``打车都用高德``), its adverb and verb (``都用``): the content
            says the habit, not a favourite the user never named.

    Returns:
        ``("主力机是Mac", "最喜欢的机")`` (the slot named as ``我最喜欢的相机`` names it, so
        either phrasing supersedes the other), ``("最近沉迷的运动是飞盘", "最喜欢的运动")``;
        ``("最爱邓丽君", None)`` for a favourite of no named kind (``我最爱的还是邓丽君``);
        None when no slot is left (``现在只喝白开水``: 现在 is when, not what).
    """
    said = _ZH_SLOT_TIME_RE.sub("", slot).strip()
    head = said.rsplit("的", 1)[-1] or said
    markers = _ZH_SLOT_MARKER_RE.findall(lead)
    qualifier = _ZH_SLOT_QUALIFIER_RE.findall(lead)
    if not said and qualifier:
        return f"{qualifier[-1]}是{value}", None  # 我的本命一直是易烊千玺
    if not value or not (said or markers[-1:] in (["最爱"], ["最喜欢"], ["首选"])):
        return None
    if _ZH_GROUP_RE.search(said) or _ZH_AMOUNT_RE.match(value):
        return None  # ``现在大家都用微信支付``: theirs; ``现在一天都喝三杯咖啡``: how much
    if habit is not None:
        return f"{said}{habit}{value}", f"最喜欢的{head}"
    if qualifier:  # one slot however it is named
        return f"{qualifier[-1]}{said}是{value}", f"最喜欢的{head}"
    if not said or said in ("首选", "最爱", "最喜欢"):
        return f"{said or markers[-1]}{value}", None  # a favourite of no named kind
    marker = (markers or ["" if "的" in said else "最喜欢"])[-1]  # 这阵子喝的茶 says no 最喜欢
    return f"{marker}{'' if '的' in said else '的'}{said}是{value}", f"最喜欢的{head}"


__all__ = ["ZH_SLOT_QUALIFIERS", "slot_key", "zh_slot_reading"]
