"""Single-valued slots: the normalised name of "my favourite X", "my current X", ``我最喜欢的X``."""

from __future__ import annotations

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


__all__ = ["slot_key"]
