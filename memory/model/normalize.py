"""Text and keyword normalisation shared by the gate, forget and capture.

A keyword is normalised to a canonical form so that spelling variants compare
equal: Unicode NFKC (full-width → half-width), case folding, collapsed
whitespace, traditional → simplified Chinese (:func:`to_simplified`: OpenCC ``tw2sp``
for text that has traditional characters, so Taiwan's ``塑膠`` becomes ``塑料``), and each
English word singularised by rule (``plastics`` → ``plastic``). Hyphenated words stay
one token, so ``plastic-free`` never equals ``plastic``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD_RE = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_SPACE_RE = re.compile(r"\s+")
HAN_CHARS = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Regex character-class body of Han ideographs (extension A, unified, compatibility)."""
CJK_CHARS = r"\u3040-\u30ff" + HAN_CHARS + r"\uac00-\ud7af"
"""Regex character-class body of CJK text: kana, Han ideographs and Hangul syllables."""
_CJK_RE = re.compile(f"[{CJK_CHARS}]")
_HAN_RE = re.compile(f"[{HAN_CHARS}]")
TAG_CHARACTERS = range(0xE0000, 0xE0080)
"""Unicode tag characters: invisible copies of ASCII, used to hide instructions."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidi embeddings, overrides and isolates (Trojan Source, CVE-2021-42574)."""

_INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u061c\u180e"
# Zero-width space/joiners, LRM/RLM/ALM, word joiner, invisible operators, BOM, soft hyphen,
# Mongolian vowel separator. A run of them is removed unless it sits between two word
# characters: there it is kept for the gate's screen (a word split by an invisible mark is
# refused, memory/screen.py), or, for ZWNJ/ZWJ in Persian or Indic words, as spelling.
_INVISIBLE_OUTSIDE_WORDS_RE = re.compile(
    rf"(?<![^\W_])[{_INVISIBLE}]+|[{_INVISIBLE}]+(?![^\W_])"
)
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]+")
# A ZWJ between two pictographs is part of one emoji (👨\u200d👩\u200d👧, 🏳️\u200d🌈), kept.
_PICTOGRAPH_RE = re.compile("[\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f]")


def _drop_invisible(found: re.Match[str]) -> str:
    text, start, end = found.string, found.start(), found.end()
    if (found.group(0) == "\u200d" and 0 < start and end < len(text)
            and _PICTOGRAPH_RE.match(text[start - 1]) and _PICTOGRAPH_RE.match(text[end])):
        return "\u200d"
    return ""


@lru_cache(maxsize=1)
def _opencc():  # type: ignore[no-untyped-def]
    """OpenCC ``t2s`` (to detect traditional text) and ``tw2sp`` (to convert it)."""
    from opencc import OpenCC

    return OpenCC("t2s"), OpenCC("tw2sp")


def to_simplified(text: str) -> str:
    """Simplified Chinese for ``text``, with Taiwan phrases mapped to mainland ones.

    ``tw2sp`` (Taiwan → simplified, with phrase conversion) makes ``塑膠`` ``塑料``
    where ``t2s`` gives ``塑胶``, which never equals ``塑料``. It is applied only to
    text that has traditional characters (``t2s`` changes it): on text that is
    already simplified it would rewrite mainland words (``程序`` → ``进程``,
    ``影片`` → ``视频``). Measured: building both converters ≈ 20 ms once; a
    54-character sentence costs ≈ 150 µs when simplified (``t2s`` only, as
    before) and ≈ 350 µs when traditional; 18,000 traditional characters
    ≈ 195 ms (``t2s`` alone ≈ 36 ms).
    """
    t2s, tw2sp = _opencc()
    simplified: str = t2s.convert(text)
    return simplified if simplified == text else str(tw2sp.convert(text))


def has_cjk(text: str) -> bool:
    """Whether ``text`` contains any Chinese, Japanese or Korean character."""
    return bool(_CJK_RE.search(text))


def has_han(text: str) -> bool:
    """Whether ``text`` contains a Han ideograph (:data:`HAN_CHARS`)."""
    return bool(_HAN_RE.search(text))


def clean_text(text: str) -> str:
    """NFKC-normalise, drop invisible characters outside words and collapse whitespace.

    Case is kept: this is for stored content, which stays in the user's words. An
    invisible character *inside* a word (``ig\\u200bnore``) is kept, so that the gate's
    screen can refuse it; tag characters and bidi controls are kept for the same reason.
    """
    text = _INVISIBLE_OUTSIDE_WORDS_RE.sub(_drop_invisible, unicodedata.normalize("NFKC", text))
    return _SPACE_RE.sub(" ", text).strip()


_HORIZONTAL_SPACE_RE = re.compile(r"[^\S\n]+")
_LINE_BREAK_RE = re.compile(r"\r\n?|[\v\f\x1c-\x1e\x85\u2028\u2029]")


def clean_lines(text: str) -> str:
    """:func:`clean_text` that keeps line structure: what the screen reads.

    Line breaks of any kind (``\\r\\n``, ``\\r``, U+2028 …) become ``\\n``; other blanks
    become spaces, runs kept (two spaces between spaced-out letters separate their words:
    ``i g n o r e  a l l``); lines are stripped and blank lines go. So a role header that
    starts a new line (``likes tea\\nDeveloper: …``) still starts one for the screen's
    patterns, where :func:`clean_text` would have run it into the sentence before.
    """
    text = _INVISIBLE_OUTSIDE_WORDS_RE.sub(_drop_invisible, unicodedata.normalize("NFKC", text))
    lines = (_HORIZONTAL_SPACE_RE.sub(lambda m: " " * len(m.group(0)), line).strip()
             for line in _LINE_BREAK_RE.sub("\n", text).split("\n"))
    return "\n".join(line for line in lines if line)


_INVARIANT = frozenset(
    """news series species means physics mathematics economics athletics gymnastics politics
    ethics electronics graphics aerobics clothes pants jeans shorts glasses scissors always
    perhaps sometimes towards whereas canvas atlas alias christmas gas bias leggings
    sunglasses trousers yes this its his has was does plus bonus status campus virus thus""".split()
)
_IRREGULAR = {
    "children": "child", "men": "man", "women": "woman", "people": "person", "mice": "mouse",
    "feet": "foot", "teeth": "tooth", "geese": "goose", "knives": "knife", "wives": "wife",
    "lives": "life", "leaves": "leaf", "shelves": "shelf", "halves": "half", "loaves": "loaf",
    "wolves": "wolf", "potatoes": "potato", "tomatoes": "tomato", "heroes": "hero",
    "echoes": "echo", "mangoes": "mango", "scarves": "scarf", "dwarves": "dwarf",
    "hooves": "hoof", "wharves": "wharf", "thieves": "thief", "calves": "calf", "elves": "elf",
    "selves": "self",
}  # fmt: skip
_IE_WORDS = frozenset(
    """movie cookie pie tie lie die zombie hoodie smoothie brownie selfie veggie calorie rookie
    auntie beanie freebie foodie indie newbie cutie birdie genie prairie lingerie""".split()
)


@lru_cache(maxsize=65_536)
def singular(word: str) -> str:
    """Return a singular form of a lower-case English word, by suffix rules.

    ``inflect`` was measured and not used: importing it costs 3–10 s here (its
    type-checking decorators), on every CLI call; the gate and BM25 only need
    the same form on both sides.

    The forms need to be consistent, not always correct dictionary words: ``bags`` → ``bag``,
    ``movies`` → ``movie``, ``berries`` → ``berry``, ``dishes`` → ``dish``, ``shoes`` →
    ``shoe``, ``glass`` → ``glass``.

    Args:
        word: One lower-case word.

    Returns:
        The singular form, or ``word`` itself when it does not look plural.
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) < 4 or not word.endswith("s") or word in _INVARIANT:
        return word
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-1] if word[:-1] in _IE_WORDS else word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


@lru_cache(maxsize=65_536)
def normalise_keyword(keyword: str) -> str:
    """Canonical form of one keyword.

    Args:
        keyword: A keyword as given (``"Plastics"``, ``"ＰＬＡＳＴＩＣ"``, ``"塑膠"``).

    Returns:
        The canonical keyword (``"plastic"``, ``"plastic"``, ``"塑料"``), or an
        empty string when nothing word-like remains.
    """
    text = _INVISIBLE_RE.sub("", clean_text(keyword)).casefold()
    if has_cjk(text):
        text = to_simplified(text)
    words = [singular(w) for w in _WORD_RE.findall(text)]
    return " ".join(words)


def normalise_keywords(keywords: list[str]) -> list[str]:
    """Normalise, de-duplicate (keeping order) and drop empty keywords."""
    seen: dict[str, None] = {}
    for keyword in keywords:
        norm = normalise_keyword(keyword)
        if norm:
            seen.setdefault(norm, None)
    return list(seen)


def word_tokens(text: str) -> list[str]:
    """Normalised word tokens of a text, hyphenated words kept whole.

    CJK runs come back as single tokens (their matching is by substring).
    """
    return normalise_keyword(text).split(" ") if text else []

def embedding_text(content: str, category: str | None = None) -> str:
    """The text to embed for a stored preference: its content, plus its category when known.

    ``"prefers aisle seats (travel)"``: the category carries the domain that a short
    preference leaves implicit, so "book me a flight to Berlin" finds it (cosine with
    all-MiniLM-L6-v2 0.12 → 0.25, rank 5 → 2 of 10 in the ``shopping-mix`` recall case).
    Metadata in the embedded text is the "contextual retrieval" idea (Anthropic, 2024).
    Only a real category is added: ``"other"`` (what a store without labels holds) adds
    nothing. The query is embedded as it is.

    Args:
        content: The preference sentence.
        category: Its category; ``None``, ``""`` and ``"other"`` add nothing.

    Returns:
        The sentence to embed.
    """
    if not category or category == "other":
        return content
    return f"{content} ({category.replace('_', ' ')})"


__all__ = [
    "CJK_CHARS",
    "HAN_CHARS",
    "clean_lines",
    "clean_text",
    "embedding_text",
    "has_cjk",
    "has_han",
    "normalise_keyword",
    "normalise_keywords",
    "singular",
    "to_simplified",
    "word_tokens",
]
