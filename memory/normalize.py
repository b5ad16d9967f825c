"""Text and keyword normalisation shared by the gate, forget and capture.

A keyword is normalised to a canonical form so that spelling variants compare
equal: Unicode NFKC (full-width → half-width), case folding, collapsed
whitespace, traditional → simplified Chinese (OpenCC ``t2s``), and each
English word singularised (``plastics`` → ``plastic``). Hyphenated words stay
one token, so ``plastic-free`` never equals ``plastic``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD_RE = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_SPACE_RE = re.compile(r"\s+")
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]")
_INVISIBLE = dict.fromkeys(
    cp for cp in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD)
)

# Words whose trailing "s" is not a plural; inflect singularises some of them wrongly.
_NOT_PLURAL = frozenset(
    {"glass", "grass", "dress", "canvas", "bus", "gas", "jeans", "news", "lens", "series",
     "species", "hummus", "asparagus", "citrus", "cactus", "chess", "mattress", "bass",
     "moss", "floss", "swiss", "always", "less", "across", "pants", "shorts", "trousers",
     "glasses", "leggings", "sunglasses", "analysis", "yes", "this", "its", "his", "has",
     "is", "was", "does", "us", "plus", "bonus", "status", "campus", "virus", "thus"}
)


@lru_cache(maxsize=1)
def _inflect_engine():  # type: ignore[no-untyped-def]
    import inflect

    return inflect.engine()


@lru_cache(maxsize=1)
def _opencc():  # type: ignore[no-untyped-def]
    from opencc import OpenCC

    return OpenCC("t2s")


def has_cjk(text: str) -> bool:
    """Whether ``text`` contains any Chinese, Japanese or Korean character."""
    return bool(_CJK_RE.search(text))


def clean_text(text: str) -> str:
    """NFKC-normalise, drop zero-width characters and collapse whitespace.

    Case is kept: this is for stored content, which stays in the user's words.
    """
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return _SPACE_RE.sub(" ", text).strip()


@lru_cache(maxsize=65_536)
def singular(word: str) -> str:
    """Singular form of one lower-case English word (``boxes`` → ``box``).

    Uses the ``inflect`` library; words in a small exception list (``glass``,
    ``canvas``, ``jeans`` …) and words of three letters or fewer are kept.
    """
    if len(word) <= 3 or word in _NOT_PLURAL or not word.isascii() or not word.endswith("s"):
        return word
    result = _inflect_engine().singular_noun(word)
    return result if isinstance(result, str) and result else word


@lru_cache(maxsize=65_536)
def normalise_keyword(keyword: str) -> str:
    """Canonical form of one keyword.

    Args:
        keyword: A keyword as given (``"Plastics"``, ``"ＰＬＡＳＴＩＣ"``, ``"塑膠"``).

    Returns:
        The canonical keyword (``"plastic"``, ``"plastic"``, ``"塑胶"``), or an
        empty string when nothing word-like remains.
    """
    text = clean_text(keyword).casefold()
    if has_cjk(text):
        text = _opencc().convert(text)
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


__all__ = [
    "clean_text",
    "has_cjk",
    "normalise_keyword",
    "normalise_keywords",
    "singular",
    "word_tokens",
]
