"""A message made ready for capture: injected blocks out, NFKC, one space per run, simplified."""

from __future__ import annotations

import logging
import re
import unicodedata

from ...model import has_cjk, to_simplified
from ..blocks import strip_injected_blocks

logger = logging.getLogger(__name__)

MAX_CAPTURE_CHARS = 20_000
"""Only this many characters of a message are read (capture sits on every turn's hot path)."""


def _head(text: str) -> str:
    """At most :data:`MAX_CAPTURE_CHARS` of a text, cut after a whole sentence, else after a
    whole word (a long message with no sentence end is read, not dropped)."""
    if len(text) <= MAX_CAPTURE_CHARS:
        return text
    logger.info("capture reads the first %d of %d characters", MAX_CAPTURE_CHARS, len(text))
    head = text[:MAX_CAPTURE_CHARS]
    ends = [head.rfind(mark) for mark in ".!?。！？\n"]
    if max(ends) > 0:
        return head[: max(ends) + 1]
    space = head.rfind(" ")
    return head[:space] if space > 0 else head


_WHITESPACE_RUN_RE = re.compile(r"\s+")


def _one_space(run: re.Match[str]) -> str:
    """A run of whitespace as one character: a line break if it holds one, else a space."""
    return "\n" if "\n" in run.group(0) else " "


_EN_CHAT_I_RE = re.compile(
    r"(^|[.!?,;:\n]\s*|\b(?:and|but|so|cuz|coz|because|tbh|lol|honestly|ngl|ok|okay|yeah|well|"
    r"also|now|btw|actually|just)\s+)[iI](m|ve)(?=\s+[a-z])"
)
"""Chat spellings of "I'm" and "I've" where a clause starts ("im allergic to…", "and ive
quit…"); neither is an English word there."""


_EN_CHAT_NOT_RE = re.compile(
    r"\b(do|does|did|is|are|was|were|has|have|had|would|could|should)nt\b|\bdo(?:sen|sn)t\b|"
    r"\b(?:(?<=\bi )|(?<=\bu )|(?<=\bwe )|(?<=\bthey )|(?<=\bhe )|(?<=\bshe )|(?<=\bit )|"
    r"(?<=\byou ))(ca|wo)nt\b",
    re.IGNORECASE,
)
"""Chat spellings of a negated auxiliary without its apostrophe ("crowds dont scare me",
"garlic dosent bother me", "i cant stand olives"); "cant" and "wont" only after a pronoun,
where neither is the noun."""


def _not_written_out(match: re.Match[str]) -> str:
    not_ = "N'T" if match.group(0)[-1].isupper() else "n't"
    if stem := match.group(1) or match.group(2):
        return f"{stem}{not_}"
    return f"{match.group(0)[0]}oes{not_}"  # "dosent", "dosnt"


def spell_out_i(text: str) -> str:
    """``text`` with the chat spellings of :data:`_EN_CHAT_I_RE` and :data:`_EN_CHAT_NOT_RE`
    written out."""
    text = _EN_CHAT_I_RE.sub(lambda match: f"{match.group(1)}I'{match.group(2)}", text)
    return _EN_CHAT_NOT_RE.sub(_not_written_out, text)


def prepare(text: str) -> str:
    """NFKC, straight quotes, no zero-width space, each whitespace run one character, chat
    spellings of "I'm", "I've" and "don't" (:func:`spell_out_i`) written out.

    Collapsing the runs keeps every clause rule linear: many of them start with ``\\s+``,
    which costs quadratic time on a long run of blanks (20,000 spaces took 8 s).
    """
    text = unicodedata.normalize("NFKC", _head(strip_injected_blocks(text)))
    text = text.replace("’", "'").replace("‘", "'").replace("\u200b", "")
    text = _WHITESPACE_RUN_RE.sub(_one_space, text)
    return to_simplified(text) if has_cjk(text) else spell_out_i(text)


__all__ = ["MAX_CAPTURE_CHARS", "prepare", "spell_out_i"]
