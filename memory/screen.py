"""The gate's first step: refuse content that must never become a memory.

A screened-out candidate is reported with a reason and a ``rejected`` change
event; nothing of it is stored (DESIGN.md §6.1).
"""

from __future__ import annotations

import re
import unicodedata

from .blocks import contains_injected_block

_INSTRUCTION_PATTERNS = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|your|"
        r"system)\b.{0,20}\b(instructions?|prompts?|rules?|messages?|guidelines?)",
        r"\b(reveal|print|show|repeat|leak)\b.{0,30}\b(system prompt|instructions|hidden prompt)",
        r"\bsystem prompt\b",
        r"\byou are now\b",
        r"\bact as (an?|the) (ai|assistant|system|developer)\b",
        r"\bnew instructions?\s*:",
        r"\b(jailbreak|developer mode|dan mode)\b",
        r"</?\s*(system|assistant|user|developer|tool|im_start|im_end)\s*>",
        r"<\|[a-z_]+\|>",
        r"\[/?(inst|sys)\]",
        r"^\s*(system|assistant|developer)\s*:",
        r"^\s*#{2,}\s*(instruction|system)",
        r"\bdisregard\b.{0,30}\b(above|before|previous|prior|earlier)\b",
        r"\bfrom now on,? (you|the assistant) (must|will|shall|should|are|have to)\b",
        r"\byou must (now )?(obey|follow|comply)\b",
        r"\bpretend (that )?you are\b",
        r"(忽略|无视|不要理会|忘记|忘掉).{0,10}(之前|以上|上面|所有|先前|前面).{0,10}"
        r"(指令|指示|提示|规则|内容|设定)",
        r"系统提示",
        r"你现在是",
        r"从现在开始.{0,6}(你|助手)",
    )
)


_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁɡАЕОРСХІЈЅΑΒΕΗΙΚΜΝΟΡΤΧΥΖοαν",
    "aeopcyxijsdgAEOPCXIJSABEHIKMNOPTXYZoav",
)
"""Cyrillic and Greek letters that look Latin, folded before pattern matching."""

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _control_characters(text: str) -> list[str]:
    """Control, lone-surrogate, private-use and bidi-override characters in ``text``."""
    return [
        c
        for c in text
        if (unicodedata.category(c) in ("Cc", "Cs", "Co") and c not in "\n\t")
        or c in _BIDI_CONTROLS
    ]


def screen_content(content: str, *, max_chars: int) -> str | None:
    """Why ``content`` must not be stored, or ``None`` when it may be.

    Args:
        content: The preference sentence, already whitespace-cleaned.
        max_chars: Longest accepted content, in characters.

    Returns:
        A one-line reason (``"empty content"``, ``"content is 812 characters;
        the limit is 500"`` …) or ``None``.
    """
    if not content.strip():
        return "empty content"
    if len(content) > max_chars:
        return f"content is {len(content)} characters; the limit is {max_chars}"
    bad = _control_characters(content)
    if bad:
        return f"content contains control or invalid character {ascii(bad[0])}"
    if contains_injected_block(content):
        return "content copies Penchant's own injected memory block"
    folded = content.translate(_HOMOGLYPHS)
    for pattern in _INSTRUCTION_PATTERNS:
        if pattern.search(folded):
            return "content looks like an instruction to the assistant, not a preference"
    return None


def screen_keywords(keywords: list[str], *, max_keywords: int) -> str | None:
    """Why a keyword list must not be stored, or ``None`` (checked before normalising)."""
    if len(keywords) > max_keywords:
        return f"{len(keywords)} keywords given; the limit is {max_keywords}"
    for keyword in keywords:
        if len(keyword) > 80:
            return f"keyword {keyword[:20]!r}… is {len(keyword)} characters; the limit is 80"
        if _control_characters(keyword) or "\n" in keyword:
            return f"keyword {ascii(keyword)} contains a control or invalid character"
    return None


__all__ = ["screen_content", "screen_keywords"]
