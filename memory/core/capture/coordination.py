"""Coordinated objects: one object phrase as the items it lists (``onions and garlic``,
``leather, wool, and silk``, ``猫和狗``), and what only stacks modifiers (``traditional, in-person
classes``) or follows the object as an aside (``gluten anymore, doctor's orders``)."""

from __future__ import annotations

import re

from .clauses import is_ly_adverb
from .lexicons import AND_COMPOUNDS
from .objects import Object
from .segment import words as zh_words

_COORDINATION_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor|&)\s+", re.IGNORECASE)
"""Where items of a list part; an ``&`` between two names is none (:data:`_NAMED_AMPERSAND_RE`)."""
_NAMED_AMPERSAND_RE = re.compile(r"\b([A-Z][\w'.-]*)\s+&\s+(?=[A-Z])")
"""An ``&`` that joins the words of one name (``Ben & Jerry's``, ``Marks & Spencer``), not the
items of a list (``spiders & snakes``)."""
_COORDINATION_SPLIT_RE = re.compile(f"({_COORDINATION_RE.pattern})", re.IGNORECASE)
_CONJUNCTION_RE = re.compile(r"\s(?:and|or|nor|&)\s", re.IGNORECASE)
_EN_LEADING_CORRELATIVE_RE = re.compile(r"^(?:both|either|neither)\s+", re.IGNORECASE)
_ZH_COORDINATION_RE = re.compile(r"、|以及|或者|还有|和|跟|与|及|或")
_NEGATED_RELATIVE_RE = re.compile(
    r"(?=\s+(?:(?:that|which|who)\s+(?:do|does|did|are|is|have|has|can|will|would)?\s*"
    r"(?:n't|not|never)|without)\b)",
    re.IGNORECASE,
)
_CLAUSE_VERBS = frozenset(
    "involve involves include includes have has require requires use uses contain contains are "
    "is feature features offer offers make makes rely relies focus focuses take takes allow "
    "allows let lets come comes need needs do does don't doesn't".split()
)
_ADJECTIVE_RE = re.compile(r"(?:ive|ous|ful|less|ed|able|ible|ary|ory|ent|-[a-z]+)$", re.I)
_AND_COMPOUND_RE = re.compile(
    "|".join(re.escape(c).replace(r"\ and\ ", r"\s+(?:and|&)\s+") for c in AND_COMPOUNDS),
    re.IGNORECASE,
)


def items(obj: Object) -> list[str]:
    """Coordinated objects (``onions and garlic``) as separate items.

    Commas separate items only in a list closed by "and"/"or" (``leather,
    wool, and silk``); without one they stack modifiers (``traditional,
    in-person classes`` is one object).
    """
    if obj.zh:
        # Cut only where the segmenter finds a coordinator word: ``跟`` in ``高跟鞋`` is no
        # "and", ``和`` in ``和服`` is none either.
        parts, current = [], ""
        for word in zh_words(obj.display):
            if _ZH_COORDINATION_RE.fullmatch(word):
                parts.append(current)
                current = ""
            else:
                current += word
        parts = [p for p in [*parts, current] if p.strip()]
        return parts if len(parts) > 1 else [obj.display]
    text = _AND_COMPOUND_RE.sub(lambda m: m.group(0).replace(" ", "\x00"), obj.display)
    text = _NAMED_AMPERSAND_RE.sub("\\1\x00&\x00", text)
    found = _NEGATED_RELATIVE_RE.search(text)
    head, relative = (text[: found.start()], text[found.start() :]) if found else (text, "")
    if not _CONJUNCTION_RE.search(head):
        return [_restore(" ".join(_before_aside(text).replace(",", " ").split()))]
    pieces = _COORDINATION_SPLIT_RE.split(head)
    parts = [pieces[0]] if pieces[0].strip() else []
    for separator, part in zip(pieces[1::2], pieces[2::2], strict=True):
        if not part.strip():
            continue
        if parts and part.split()[0].lower() in _CLAUSE_VERBS:
            parts[-1] = f"{parts[-1]}{separator}{part}"  # "… and involve X": still the same object
        else:
            parts.append(part)
    if _stacked_adjectives(parts):  # "smaller, independent and local brands": one object
        parts = [" ".join(_COORDINATION_RE.sub(" ", head).split())]
    if relative:
        parts[-1] = f"{parts[-1]}{relative}"
    parts = [_restore(p) for p in parts]
    return [_EN_LEADING_CORRELATIVE_RE.sub("", p) for p in parts] if len(parts) > 1 else parts


_EN_ENDS_BEFORE_RE = re.compile(
    r"\s+(?:anymore|any\s+more|now|lately|again|these\s+days|nowadays|for\s+good)\s*,.*$",
    re.IGNORECASE,
)
"""A time word before a comma ends the object (``gluten anymore, doctor's orders``)."""


def _before_aside(text: str) -> str:
    """``text`` without what follows the object after a comma: after a time word, or an adverb
    alone (``cats, sadly``, ``olives, honestly``); stacked modifiers stay (``traditional,
    in-person classes``)."""
    parts = _EN_ENDS_BEFORE_RE.sub("", text).split(",")
    while len(parts) > 1 and all(is_ly_adverb(w) for w in parts[-1].lower().split()):
        parts.pop()
    return ",".join(parts)


def _stacked_adjectives(parts: list[str]) -> bool:
    """Every item but the last is one adjective-like word and the last names the noun."""
    if len(parts) < 2 or len(parts[-1].split()) < 2:
        return False
    return all(
        _ADJECTIVE_RE.search(part.split()[-1]) and (len(part.split()) == 1 or index == 0)
        for index, part in enumerate(parts[:-1])
    )


def _restore(text: str) -> str:
    return text.replace("\x00", " ")


__all__ = ["items"]
