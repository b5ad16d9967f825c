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
4. **Injections**, on every :func:`screening_forms` of the text, kind by kind
   (:mod:`.injection_patterns`): chat-template tokens, role headers, override
   phrases (en, zh), system-prompt requests, new identities, directives, imperatives
   addressed to the assistant, images and links; then wishes that would make answers
   harmful (:mod:`.answer_harms`). The forms keep line structure (a role
   header after a line break starts a line), and besides the plain form there is one
   with spaced-out letters joined (``i g n o r e`` → ``ignore``) and one with digit and
   symbol substitutions folded (``1gn0r3`` → ``ignore``).
5. **Encoded text**: a base64 run that decodes to readable text is refused (a preference
   never needs one; its decoded text is what a model would read).

Screening by meaning (:mod:`.intent_screen`) comes after, on the candidate's embedding,
which the gate computes once and stores.

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
from urllib.parse import unquote

from disarm import normalize_confusables

from ..model import BIDI_CONTROLS, HAN_CHARS, TAG_CHARACTERS, has_cjk, has_han
from .answer_harms import ANSWER_HARM_KINDS
from .blocks import contains_injected_block
from .injection_patterns import INJECTION_KINDS, ROLE_WORDS

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
_SPACE_RE = re.compile(r"[^\S\n]+")
_LINES_RE = re.compile(r"\s*\n\s*")
# A run of at least 4 single letters or digits, each followed by a separator: "i g n o r e",
# "i.g.n.o.r.e", "s-y-s-t-e-m". Two or more spaces (or " / ") between letters end a word.
_SPACED_RUN = re.compile(
    r"(?<![^\W_])(?:[^\W_](?:[ .\-_*·•|/]{1,3}|\s{1,3})){3,}[^\W_](?![^\W_])"
)
_WORD_GAP = re.compile(r"\s{2,}|\s*/\s*|\s*\|\s*")
_SPACED_SEPARATORS = re.compile(r"[\s.\-_*·•]+")
_MIXED_TOKEN = re.compile(r"[^\W_]*(?:\d|[@$!|])[^\s]*")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                       "9": "g", "@": "a", "$": "s", "!": "i", "|": "l", "+": "t"})
_LEET_L = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                         "9": "g", "@": "a", "$": "s", "!": "l", "|": "l", "+": "t"})
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}")
# three or more %XX escapes in one run; [^\s%] keeps the match linear
_PERCENT_RUN = re.compile(r"(?:[^\s%]*%[0-9A-Fa-f]{2}){3,}[^\s%]*")
SQUASHED_PHRASES = (
    "ignoreall", "ignoreprevious", "ignoreprior", "ignoreyour", "ignorethe", "ignoreabove",
    "disregard", "forgetall", "forgetyour", "forgeteverything", "systemprompt",
    "jailbreak", "developermode", "youarenow", "newinstructions", "previousinstructions",
    "yourinstructions", "yourrules", "overrideyour", "bypassyour",
    "norestrictions", "actasdan", "doanythingnow", "fromnowon", "alwaysrecommend",
    "忽略", "无视", "系统提示",
)
"""What a run of spaced-out letters must never spell once joined (``i g n o r e a l l`` →
``ignoreall``): the words of a single-spaced run cannot be told apart, so the joined run is
searched for these instead of the word patterns."""
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
    """The plain form of ``text`` the injection patterns read.

    NFKC (``ＩＧＮＯＲＥ`` → ``IGNORE``); invisible characters removed; case folded;
    look-alikes folded to their UTS #39 prototypes (Greek ``ο``, Armenian ``օ`` and
    Cyrillic ``о`` → ``o``, ``‹`` → ``<``; ASCII and Han characters are left as they
    are); traditional Chinese characters → simplified (:func:`to_simplified_chars`);
    spaces collapsed inside each line, line breaks kept (one per break, blank lines
    dropped), so ``^`` in a pattern is also the start of a line. Not for storing: the
    stored content stays in the user's words.

    Cost, measured here (screen_content, whole): ≈ 10–13 µs for an English sentence of
    50–120 characters, ≈ 10 µs for a 17-character Chinese one, simplified or traditional.
    """
    return _collapse(_unspaced_form(text))


def _unspaced_form(text: str) -> str:
    """:func:`screening_form` before its spaces are collapsed."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = "".join(c for c in text if not is_invisible(c))
        # Fold, case-fold, fold again: the table maps some capitals (Greek ``Μ`` → ``M``) but
        # not their lower case (``μ``), and some lower case only (``Ω`` → ``ω`` → ``w``).
        text = _NON_ASCII_RUN.sub(_fold_look_alikes, text).casefold()
        text = _NON_ASCII_RUN.sub(_fold_look_alikes, text).casefold()
        if has_cjk(text):
            text = to_simplified_chars(text)
    return text.casefold()


def _collapse(text: str) -> str:
    return _LINES_RE.sub("\n", _SPACE_RE.sub(" ", text)).strip()


def screening_forms(text: str) -> list[str]:
    """Every form of ``text`` the injection patterns read: :func:`screening_form`, and when
    they differ from it, the form with spaced-out letter runs joined (``i g n o r e  a l l``
    → ``ignore all``: two or more spaces separate words) and the forms with substitutions
    folded in tokens that mix letters with digits or symbols (``1gn0r3`` → ``ignore``; ``1``,
    ``!`` and ``|`` read as ``i`` in one form and as ``l`` in another). A token of digits only
    (``2 cups``, ``1990s``) is left alone.
    """
    spaced = _unspaced_form(text)
    plain = _collapse(spaced)
    forms = [plain]
    joined = _collapse(_SPACED_RUN.sub(_join_spaced, spaced))
    if joined != plain:
        forms.append(joined)
    for base in list(forms):
        for table in (_LEET, _LEET_L):
            folded = _fold_mixed(base, table)
            if folded not in forms:
                forms.append(folded)
    return forms


def _fold_mixed(text: str, table: dict[int, str]) -> str:
    def fold(match: re.Match[str]) -> str:
        return _fold_token(match.group(0), table)

    return _MIXED_TOKEN.sub(fold, text)


def _join_spaced(run: re.Match[str]) -> str:
    words = (_SPACED_SEPARATORS.sub("", w) for w in _WORD_GAP.split(run.group(0)))
    return " ".join(w for w in words if w)


def _fold_token(token: str, table: dict[int, str]) -> str:
    """A token's substitutions folded; with :data:`_LEET`, ``1`` reads as ``l`` after a
    vowel or an ``l`` (``ru1es``, ``a11``, ``po1icy``) and as ``i`` elsewhere (``1gnore``,
    ``d1sregard``)."""
    if not any(c.isalpha() for c in token):
        return token
    if table is not _LEET or "1" not in token:
        return token.translate(table)
    out: list[str] = []
    for char in token:
        if char == "1":
            out.append("l" if out and out[-1] in "aeioul" else "i")
        else:
            out.append(char.translate(table))
    return "".join(out)


def spaced_out_reason(text: str) -> str | None:
    """Why ``text`` spells an override with its letters spaced out, or ``None``.

    A run of single letters (``i g n o r e a l l p r e v i o u s``) is joined and searched
    for :data:`SQUASHED_PHRASES`, substitutions folded as in :func:`screening_forms`.
    """
    form = screening_form(text)
    for run in _SPACED_RUN.finditer(form):
        squashed = re.sub(r"[\W_]+", "", run.group(0))
        if len(squashed) < 6:
            continue
        for variant in {squashed, _fold_token(squashed, _LEET), _fold_token(squashed, _LEET_L)}:
            for phrase in SQUASHED_PHRASES:
                if phrase in variant:
                    shown = _snippet(run.group(0))
                    return f"spells an override with spaced-out letters ({shown!r})"
    return None


def encoded_text_reason(text: str) -> str | None:
    """Why ``text`` hides readable text in base64, or an instruction in percent-encoding
    (``ignore%20all%20previous%20instructions``, decoded and screened), or ``None``.

    Every run of 16 or more base64 characters (standard or URL-safe alphabet) is decoded; a
    run that decodes to UTF-8 text of at least 8 characters, nearly all printable, with a
    space or CJK in it, is refused: a preference never needs encoded text, and the decoded
    text is what a model reading the memory would follow. (A word of 16 letters decodes to
    bytes that are not such text.)

    Returns:
        ``"hides text in base64 ('ignore all previ…')"`` or ``None``.
    """
    for run in _BASE64_RUN.finditer(text):
        decoded = _decoded_text(run.group(0))
        if decoded is not None:
            return f"hides text in base64 ({_snippet(decoded)!r})"
    for run in _PERCENT_RUN.finditer(text):
        decoded = unquote(run.group(0))
        if injection_reason(decoded):  # each level is shorter: double encoding ends
            return f"hides an instruction in percent-encoding ({_snippet(decoded)!r})"
    return None


def _decoded_text(run: str) -> str | None:
    import base64
    import binascii

    body = run.rstrip("=")
    body += "=" * (-len(body) % 4)
    try:
        raw = (base64.urlsafe_b64decode(body) if ("-" in body or "_" in body)
               else base64.b64decode(body, validate=True))
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    if len(decoded) < 8:
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in decoded)
    if printable < 0.95 * len(decoded):
        return None
    if " " not in decoded and not has_cjk(decoded):
        return None
    return decoded


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


_SCREENED_KINDS = INJECTION_KINDS + ANSWER_HARM_KINDS


def injection_reason(text: str) -> str | None:
    """Why ``text`` reads as an instruction to the model rather than a preference.

    Every :func:`screening_forms` of ``text`` is searched; then spaced-out letters
    (:func:`spaced_out_reason`) and base64 (:func:`encoded_text_reason`, whose decoded text
    goes through this screen too, for its reason).

    Returns:
        ``"<kind reason> ('<matched text>')"``, e.g. ``"carries a chat-template token
        ('[inst]')"``; ``None`` when no pattern of :data:`INJECTION_KINDS` or
        :data:`~.answer_harms.ANSWER_HARM_KINDS` matches.
    """
    for form in screening_forms(text):
        for kind in _SCREENED_KINDS:
            match = kind.search(form)
            if match:
                return f"{kind.reason} ({_snippet(match.group(0))!r})"
    return spaced_out_reason(text) or encoded_text_reason(text)


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
    length = len(" ".join(content.split()))  # as stored: blanks collapsed
    if length > max_chars:
        return f"content is {length} characters; the limit is {max_chars}"
    reason = _text_reason(content)
    return f"content {reason}" if reason else None


MAX_SLOT_CHARS = 60
"""Longest accepted slot name, in characters (``"favourite author"``)."""
_SCRIPT_OF_LETTER = re.compile(r"[^\W\d_]")


def _scripts(text: str) -> set[str]:
    """The scripts of the letters of ``text`` among Latin, Greek, Cyrillic and Armenian (the
    alphabets whose letters pass for each other), by their Unicode names."""
    found: set[str] = set()
    for char in _SCRIPT_OF_LETTER.findall(text):
        name = unicodedata.name(char, "")
        for script in ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN"):
            if name.startswith(script):
                found.add(script)
    return found


def look_alike_reason(text: str) -> str | None:
    """Why a label (a category, a slot, a history kind) disguises itself, or ``None``.

    Full-width and other compatibility forms (``ｓｙｓｔｅｍ``) and a word mixing Latin,
    Greek, Cyrillic or Armenian letters (``sуstem`` with a Cyrillic ``у``) are refused: a
    label is short, chosen by the caller, and shown to the model, so one that only looks like
    a word is a disguise. A word written wholly in one of those alphabets is a word of its
    language (``музыка``, ``Москва`` fold to Latin-looking skeletons too), refused only when
    what it passes for is a role (``ѕуѕ`` for ``sys``, :data:`~.injection_patterns.ROLE_WORDS`)
    or something the screen refuses.
    """
    if unicodedata.normalize("NFKC", text) != text:
        return f"uses full-width or compatibility characters ({ascii(text)})"
    if text.isascii():
        return None
    for word in re.split(r"[\s_\-/]+", text):
        scripts = _scripts(word)
        if len(scripts) > 1:
            return f"mixes look-alike letters of {' and '.join(sorted(scripts))} ({ascii(word)})"
        if scripts and scripts != {"LATIN"}:
            skeleton = str(normalize_confusables(word))
            if skeleton.isascii() and skeleton != word and _disguises(skeleton):
                return f"is written in letters that pass for Latin ones ({ascii(word)})"
    return None


def _disguises(skeleton: str) -> bool:
    """Whether the Latin word a look-alike word passes for names a role or is refused."""
    return skeleton.lower() in ROLE_WORDS or _text_reason(skeleton) is not None


def screen_label(name: str, value: str | None, *, max_chars: int) -> str | None:
    """Why a short label field (``category``, ``slot``, history ``kind``) must not be stored.

    The label is screened like a keyword (hidden text, control characters, injections, with
    ``_`` and ``-`` read as spaces) and for look-alike letters (:func:`look_alike_reason`).

    Returns:
        ``"category 'ѕуѕtem' mixes look-alike letters of CYRILLIC and LATIN ('ѕуѕtem')"``,
        ``"slot is 120 characters; the limit is 60"`` … or ``None``.
    """
    if value is None or value == "":
        return None
    shown = ascii(value[:20] + "…") if len(value) > 20 else ascii(value)
    if len(value) > max_chars:
        return f"{name} is {len(value)} characters; the limit is {max_chars}"
    if "\n" in value or "\r" in value:
        return f"{name} {shown} contains a line break"
    reason = look_alike_reason(value) or _text_reason(re.sub(r"[_\-]+", " ", value))
    return f"{name} {shown} {reason}" if reason else None


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
    "SQUASHED_PHRASES",
    "JOINERS",
    "TAG_CHARACTERS",
    "hidden_text_reason",
    "injection_reason",
    "is_invisible",
    "MAX_SLOT_CHARS",
    "look_alike_reason",
    "screen_content",
    "screen_label",
    "screen_keywords",
    "encoded_text_reason",
    "screening_form",
    "screening_forms",
    "spaced_out_reason",
    "to_simplified_chars",
]
