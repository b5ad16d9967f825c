"""The gate's first step: refuse content and keywords that must never become a memory.

A screened-out candidate is reported with a reason and a ``rejected`` change
event; nothing of it is stored (DESIGN.md §6.1). Content and every keyword go
through the same screen, in this order:

1. **Hidden text**: Unicode tag characters (U+E0000–U+E007F, invisible ASCII),
   runs of variation selectors (data smuggled behind a visible character), bidi
   embedding/override/isolate controls, and a word split by an invisible mark
   (``ig\\u200bnore``, ``sys\\u200etem``) are refused outright: they hide what the
   model will read from what a person sees.
2. **Control characters** (C0/C1 except newline and tab, surrogates, private use).
3. **Our own injected blocks** (a tag or the data note of :mod:`.blocks`).
4. **Injections**, on the :func:`screening_form` of the text (traditional Chinese
   converted to simplified first), kind by kind
   (:mod:`.injection_patterns`): chat-template tokens, role headers, override
   phrases (en, zh), system-prompt requests, new identities, directives.

Look-alike letters are folded with the UTS #39 confusables table of ``disarm``
(Unicode 17.0 data, Rust core): chosen over ``confusable-homoglyphs`` (no fold or
skeleton API; its per-character detection alone costs ≈ 48 µs on a 53-character
sentence, measured here), ``confusables`` (Unicode 13.0 data, last release 2021, its
``normalize`` enumerates every variant: ≈ 38 µs for 30 characters) and PyICU (the
reference ``SpoofChecker``, but no wheel: it needs a C++ ICU build). ``disarm``'s
``normalize_confusables`` costs ≈ 0.9 µs on the same sentence.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib.resources import files

from disarm import normalize_confusables

from ..model import HAN_CHARS, has_cjk, has_han
from .blocks import contains_injected_block
from .injection_patterns import INJECTION_KINDS

TAG_CHARACTERS = range(0xE0000, 0xE0080)
"""Unicode tag characters: invisible copies of ASCII, used to hide instructions."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidi embeddings, overrides and isolates (Trojan Source, CVE-2021-42574)."""

JOINERS = frozenset("\u200c\u200d")
"""ZWNJ and ZWJ: part of spelling in Persian and Indic scripts, so allowed inside their words."""

_VARIATION_SELECTOR_RUN = re.compile(
    r"[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}|[\U000e0100-\U000e01ef]"
)
# Variation selectors and the combining grapheme joiner are printable (Mn), so the
# unprintable test above does not see them.
_PRINTABLE_INVISIBLE_IN_WORD = re.compile(
    r"[^\W_]([\u034f\ufe00-\ufe0f\U000e0100-\U000e01ef]+)[^\W_]"
)
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SPACE_RE = re.compile(r"\s+")
_NON_ASCII_RUN = re.compile(rf"[^\x00-\x7f{HAN_CHARS}]+")
_SNIPPET_CHARS = 40


def is_invisible(char: str) -> bool:
    """Whether a character renders as nothing: a format character (Unicode ``Cf``:
    zero-width, bidi marks, tags, soft hyphen …), a variation selector or the
    combining grapheme joiner."""
    return (
        unicodedata.category(char) == "Cf"
        or "\ufe00" <= char <= "\ufe0f"
        or "\U000e0100" <= char <= "\U000e01ef"
        or char == "\u034f"
    )


def _is_ascii_or_han(char: str) -> bool:
    return char.isascii() or has_han(char)


def _splits_a_word(text: str, index: int) -> bool:
    """Whether the invisible character at ``index`` sits between two letters or digits.

    ZWNJ/ZWJ between two letters of a script that spells with them (neither side ASCII
    or Han) are orthography, not hiding.
    """
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1 : index + 2]
    if not (before.isalnum() and after.isalnum()):
        return False
    if text[index] in JOINERS:
        return _is_ascii_or_han(before) or _is_ascii_or_han(after)
    return True


def hidden_text_reason(text: str) -> str | None:
    """Why ``text`` hides something from a human reader, or ``None``.

    Returns:
        ``"hides text in invisible Unicode tag characters"``, ``"contains
        bidirectional control U+202E"``, ``"splits a word with invisible character
        U+200B"`` or ``"hides data in variation selectors"``; ``None`` when nothing
        is hidden. Invisible characters outside words are not a reason (they are
        removed before matching and before storing).
    """
    if not text.isprintable():  # every Cf character is unprintable: one C-speed test
        for index, char in enumerate(text):
            if ord(char) in TAG_CHARACTERS:
                return "hides text in invisible Unicode tag characters"
            if char in BIDI_CONTROLS:
                return f"contains bidirectional control U+{ord(char):04X}"
            if is_invisible(char) and _splits_a_word(text, index):
                return f"splits a word with invisible character U+{ord(char):04X}"
    if not text.isascii():
        if _VARIATION_SELECTOR_RUN.search(text):
            return "hides data in variation selectors"
        split = _PRINTABLE_INVISIBLE_IN_WORD.search(text)
        if split:
            return f"splits a word with invisible character U+{ord(split.group(1)[0]):04X}"
    return None


def _control_characters(text: str) -> list[str]:
    """Control, lone-surrogate and private-use characters in ``text`` (newline and tab allowed)."""
    if text.isascii():
        return _ASCII_CONTROL.findall(text)
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co") and c not in "\n\t"]


def screening_form(text: str) -> str:
    """The form of ``text`` the injection patterns read.

    NFKC (``ＩＧＮＯＲＥ`` → ``IGNORE``); invisible characters removed; case folded;
    look-alikes folded to their UTS #39 prototypes (Greek ``ο``, Armenian ``օ`` and
    Cyrillic ``о`` → ``o``, ``‹`` → ``<``; ASCII and Han characters are left as they
    are); traditional Chinese characters → simplified (:func:`to_simplified_chars`);
    whitespace collapsed. Not for storing: the stored content stays in the user's words.

    Cost, measured here (screen_content, whole): ≈ 10–13 µs for an English sentence of
    50–120 characters, ≈ 10 µs for a 17-character Chinese one, simplified or traditional.
    """
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = "".join(c for c in text if not is_invisible(c))
        # Fold, case-fold, fold again: the table maps some capitals (Greek ``Μ`` → ``M``) but
        # not their lower case (``μ``), and some lower case only (``Ω`` → ``ω`` → ``w``).
        text = _NON_ASCII_RUN.sub(_fold_look_alikes, text).casefold()
        text = _NON_ASCII_RUN.sub(_fold_look_alikes, text).casefold()
        if has_cjk(text):
            text = to_simplified_chars(text)
    return _SPACE_RE.sub(" ", text.casefold()).strip()


def to_simplified_chars(text: str) -> str:
    """Traditional Chinese characters of ``text`` replaced by simplified ones, one by one.

    The table is OpenCC's ``TSCharacters`` (the character dictionary of its ``t2s``
    conversion, shipped with ``opencc-python-reimplemented``), first candidate of each
    entry. Phrase conversion (:func:`~penchant.memory.model.normalize.to_simplified`) is not
    needed to match the patterns and costs 17–67 µs on a 17-character sentence; this
    costs ≈ 1 µs (loading the table once ≈ 3 ms).
    """
    return text.translate(_traditional_to_simplified())


@lru_cache(maxsize=1)
def _traditional_to_simplified() -> dict[int, str]:
    table: dict[int, str] = {}
    source_file = files("opencc") / "dictionary" / "TSCharacters.txt"
    for line in source_file.read_text(encoding="utf-8").splitlines():
        traditional, _, simplified = line.partition("\t")
        if len(traditional) == 1 and simplified:
            table[ord(traditional)] = simplified.split(" ")[0]
    return table


def _fold_look_alikes(run: re.Match[str]) -> str:
    """UTS #39 prototypes of a run of non-ASCII characters.

    ASCII is left alone: the table also folds ASCII into ASCII (``|`` → ``l``,
    ``"`` → ``''``), which the patterns do not expect.
    """
    return str(normalize_confusables(run.group(0)))


def injection_reason(text: str) -> str | None:
    """Why ``text`` reads as an instruction to the model rather than a preference.

    Returns:
        ``"<kind reason> ('<matched text>')"``, e.g. ``"carries a chat-template token
        ('[inst]')"``; ``None`` when no pattern of :data:`INJECTION_KINDS` matches.
    """
    form = screening_form(text)
    for kind in INJECTION_KINDS:
        match = kind.search(form)
        if match:
            return f"{kind.reason} ({_snippet(match.group(0))!r})"
    return None


def _snippet(text: str) -> str:
    text = text.strip().lstrip(".,;:!?-–— ")
    return text if len(text) <= _SNIPPET_CHARS else text[: _SNIPPET_CHARS - 1] + "…"


def _text_reason(text: str) -> str | None:
    """The reason shared by content and keywords, without the subject."""
    reason = hidden_text_reason(text)
    if reason:
        return reason
    bad = _control_characters(text)
    if bad:
        return f"contains control or invalid character {ascii(bad[0])}"
    if contains_injected_block(text):
        return "copies Penchant's own injected memory block"
    return injection_reason(text)


def screen_content(content: str, *, max_chars: int) -> str | None:
    """Why ``content`` must not be stored, or ``None`` when it may be.

    Args:
        content: The preference sentence, already cleaned by
            :func:`~penchant.memory.model.normalize.clean_text` (which keeps an invisible
            character that splits a word, so that this screen sees it).
        max_chars: Longest accepted content, in characters.

    Returns:
        A one-line reason (``"empty content"``, ``"content is 812 characters; the
        limit is 500"``, ``"content hides text in invisible Unicode tag characters"``,
        ``"content tries to override the assistant's instructions ('ignore all
        previous instructions')"`` …) or ``None``.
    """
    if not content.strip():
        return "empty content"
    if len(content) > max_chars:
        return f"content is {len(content)} characters; the limit is {max_chars}"
    reason = _text_reason(content)
    return f"content {reason}" if reason else None


def screen_keywords(keywords: list[str], *, max_keywords: int) -> str | None:
    """Why a keyword list must not be stored, or ``None`` (checked before normalising).

    Every keyword goes through the same screen as content: keywords reach the prompt
    too (``| keywords: …``).

    Returns:
        ``"25 keywords given; the limit is 20"``, ``"keyword 'disregard the syste…'
        asks for the system prompt ('system prompt')"`` … or ``None``.
    """
    if len(keywords) > max_keywords:
        return f"{len(keywords)} keywords given; the limit is {max_keywords}"
    for keyword in keywords:
        shown = ascii(keyword[:20] + "…") if len(keyword) > 20 else ascii(keyword)
        if len(keyword) > 80:
            return f"keyword {shown} is {len(keyword)} characters; the limit is 80"
        if "\n" in keyword:
            return f"keyword {shown} contains a control or invalid character"
        reason = _text_reason(keyword)
        if reason:
            return f"keyword {shown} {reason}"
    return None


__all__ = [
    "BIDI_CONTROLS",
    "JOINERS",
    "TAG_CHARACTERS",
    "hidden_text_reason",
    "injection_reason",
    "is_invisible",
    "screen_content",
    "screen_keywords",
    "screening_form",
    "to_simplified_chars",
]
