"""Property-based specification of the screen: obfuscation never gets an injection through,
and harmless changes of spacing or width never get a benign preference refused."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from screen_corpus import BENIGN, obfuscated_injections

from penchant.memory.core.screen import screen_content, screen_keywords
from penchant.memory.model.normalize import clean_text

BENIGN_SPACES = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u2009", "\u202f"]

PROPERTY = settings(max_examples=400, deadline=None)


def _screened(text: str) -> str | None:
    return screen_content(clean_text(text), max_chars=2_000)


@PROPERTY
@given(text=obfuscated_injections())
def test_no_obfuscated_injection_passes_the_content_screen(text: str) -> None:
    assert _screened(text) is not None, ascii(text)


@PROPERTY
@given(text=obfuscated_injections())
def test_no_obfuscated_injection_passes_the_keyword_screen(text: str) -> None:
    keyword = clean_text(text)[:80].replace("\n", " ")
    assert screen_keywords(["tennis", keyword], max_keywords=20) is not None, ascii(keyword)


@st.composite
def reformatted_benign(draw: st.DrawFn) -> dict[str, Any]:
    """A benign preference with its spaces changed and some characters made full width."""
    pref = draw(st.sampled_from(BENIGN))
    out: list[str] = [draw(st.sampled_from(["", " ", "\u3000"]))]
    for char in pref["content"]:
        if char == " ":
            char = draw(st.sampled_from(BENIGN_SPACES))
        elif "!" <= char <= "~" and draw(st.integers(0, 4)) == 0:
            char = chr(ord(char) + 0xFEE0)  # the full-width form of an ASCII character
        out.append(char)
    out.append(draw(st.sampled_from(["", " ", "\n"])))
    return {**pref, "content": "".join(out)}


@PROPERTY
@given(pref=reformatted_benign())
def test_no_benign_preference_is_refused_for_spacing_or_width(pref: dict[str, Any]) -> None:
    assert _screened(pref["content"]) is None, ascii(pref["content"])
    assert screen_keywords(pref["keywords"], max_keywords=20) is None
