"""The text of Penchant's prompt blocks, and its parser.

One concept: how stored memory is written into a prompt. The tags and the
"data, never instructions" wrapping come from :mod:`penchant.memory.core.blocks`;
this module writes the lines inside them and reads them back (the offline model
answers from them). Shape of ``<user_preferences>``::

    Hard constraints (allergies and intolerances; never suggest anything that contains …):
    - dislike (food): allergic to tree nuts | keywords: tree nut
    Constraints (dislikes relevant to this request; avoid these):
    - dislike (material): I don't like plastic | keywords: plastic
    Leanings (likes relevant to this request; favour these):
    - like (material): I love stainless steel bottles | keywords: stainless steel
    Also known about the user:
    - like (food): I like spicy food | keywords: spicy food

A section without lines is left out. Protected preferences (allergies and
intolerances) are always in the first section, relevant to the request or not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from penchant.memory import wrap_block

if TYPE_CHECKING:
    from penchant.memory import HistorySnapshot, Observation, Preference, RecallResult

PREFERENCES_TAG = "user_preferences"
HISTORY_TAG = "user_recent_history"
RECALLED_TAG = "recalled_memories"
REFLECTION_TAG = "reflection"

HARD_CONSTRAINTS_HEADER = (
    "Hard constraints (allergies and intolerances; never suggest anything that contains these, "
    "whatever the request):"
)
CONSTRAINTS_HEADER = "Constraints (dislikes relevant to this request; avoid these):"
LEANINGS_HEADER = "Leanings (likes relevant to this request; favour these):"
OTHERS_HEADER = "Also known about the user:"

Section = Literal["hard_constraints", "constraints", "leanings", "others"]

_HEADERS: dict[str, Section] = {
    HARD_CONSTRAINTS_HEADER: "hard_constraints",
    CONSTRAINTS_HEADER: "constraints",
    LEANINGS_HEADER: "leanings",
    OTHERS_HEADER: "others",
}
_LINE_RE = re.compile(
    r"^\s*-\s*(?P<polarity>like|dislike)\s*\((?P<category>[^)]*)\):\s*(?P<content>.*?)"
    r"(?:\s*\|\s*keywords:\s*(?P<keywords>[^|]*?))?(?:\s*\|\s*(?:id|score)\b.*)?\s*$"
)
_TAG_RE_CACHE: dict[str, re.Pattern[str]] = {}


def _one_line(text: str) -> str:
    """Collapse a stored text onto one line so it cannot open a new prompt line."""
    return " ".join(text.split()).replace("|", "/")


def preference_line(pref: Preference, *, extra: str = "") -> str:
    """One preference as a block line: ``- dislike (material): … | keywords: a, b``.

    Args:
        pref: The stored preference.
        extra: Optional trailing field, e.g. ``"score 0.0325"``.
    """
    line = f"- {pref.polarity} ({pref.category}): {_one_line(pref.content)}"
    if pref.keywords:
        line += " | keywords: " + ", ".join(_one_line(k) for k in pref.keywords)
    if extra:
        line += f" | {extra}"
    return line


def render_preferences(relevant: Sequence[Preference], others: Sequence[Preference]) -> str:
    """The ``<user_preferences>`` block: hard constraints, then relevant dislikes.

    Args:
        relevant: Preferences recalled for this request, best first.
        others: The rest of the user's preferences worth showing.

    Returns:
        The wrapped block, or ``""`` when the user has no preferences. Protected
        preferences (allergies, intolerances) of either list come first, under
        :data:`HARD_CONSTRAINTS_HEADER`.
    """
    protected = [p for p in [*relevant, *others] if p.protected]
    sections = [
        (HARD_CONSTRAINTS_HEADER, protected),
        (CONSTRAINTS_HEADER, [p for p in relevant if p.polarity == "dislike" and not p.protected]),
        (LEANINGS_HEADER, [p for p in relevant if p.polarity == "like"]),
        (OTHERS_HEADER, [p for p in others if not p.protected]),
    ]
    lines: list[str] = []
    for header, prefs in sections:
        if prefs:
            lines.append(header)
            lines.extend(preference_line(p) for p in prefs)
    return wrap_block(PREFERENCES_TAG, "\n".join(lines)) if lines else ""


def render_history(snapshots: Iterable[HistorySnapshot]) -> str:
    """The ``<user_recent_history>`` block: what the user recently *did* (not likes); an
    ``unverified`` snapshot (it may be an instruction) is never part of it.

    Returns:
        The wrapped block, or ``""`` without snapshots.
    """
    lines = [f"- {s.kind} ({s.at:%Y-%m-%d %H:%M} UTC): {_one_line(s.summary)}"
             for s in snapshots if not s.unverified]  # fmt: skip
    return wrap_block(HISTORY_TAG, "\n".join(lines)) if lines else ""


def render_recall(result: RecallResult) -> str:
    """The ``<recalled_memories>`` block: recall's ranked items with their RRF scores.

    Returns:
        The wrapped block, or ``""`` when nothing was recalled.
    """
    lines = [
        preference_line(item.preference, extra=f"id {item.preference.id}; score {item.score:.4f}")
        for item in result.items
    ]
    return wrap_block(RECALLED_TAG, "\n".join(lines)) if lines else ""


def render_reflection(observations: Iterable[Observation]) -> str:
    """The ``<reflection>`` block: reflect's observations relevant to this request.

    Shape: ``- observation (confidence 0.60): dislikes several materials: plastic, nylon``.

    Returns:
        The wrapped block, or ``""`` without observations.
    """
    lines = [
        f"- observation (confidence {o.confidence:.2f}): {_one_line(o.content)}"
        for o in observations
    ]
    return wrap_block(REFLECTION_TAG, "\n".join(lines)) if lines else ""


@dataclass(frozen=True)
class PreferenceLine:
    """A preference read back from a prompt block."""

    polarity: Literal["like", "dislike"]
    category: str
    content: str
    keywords: tuple[str, ...] = ()


@dataclass
class ParsedPreferences:
    """The ``<user_preferences>`` block of a prompt, by section."""

    hard_constraints: list[PreferenceLine] = field(default_factory=list)
    constraints: list[PreferenceLine] = field(default_factory=list)
    leanings: list[PreferenceLine] = field(default_factory=list)
    others: list[PreferenceLine] = field(default_factory=list)

    def all(self) -> list[PreferenceLine]:
        """Every preference, hard constraints first."""
        return [*self.hard_constraints, *self.constraints, *self.leanings, *self.others]

    def avoid(self) -> list[PreferenceLine]:
        """What an answer must avoid: hard constraints, then relevant dislikes."""
        return [*self.hard_constraints, *self.constraints]


def block_bodies(text: str, tag: str) -> list[str]:
    """The bodies of every ``<tag …>…</tag>`` block in ``text``."""
    pattern = _TAG_RE_CACHE.get(tag)
    if pattern is None:
        pattern = re.compile(rf"<{re.escape(tag)}\b[^>]*>(.*?)</{re.escape(tag)}>", re.DOTALL)
        _TAG_RE_CACHE[tag] = pattern
    return pattern.findall(text)


def parse_preference_line(line: str) -> PreferenceLine | None:
    """Read one :func:`preference_line` back; ``None`` for any other line."""
    match = _LINE_RE.match(line)
    if match is None:
        return None
    keywords = match.group("keywords") or ""
    return PreferenceLine(
        polarity=match.group("polarity"),  # type: ignore[arg-type]
        category=match.group("category").strip(),
        content=match.group("content").strip(),
        keywords=tuple(k.strip() for k in keywords.split(",") if k.strip()),
    )


def parse_preferences(text: str) -> ParsedPreferences:
    """Read every ``<user_preferences>`` block in ``text`` back into sections."""
    parsed = ParsedPreferences()
    for body in block_bodies(text, PREFERENCES_TAG):
        section: Section = "others"
        for raw in body.splitlines():
            line = raw.strip()
            if line in _HEADERS:
                section = _HEADERS[line]
                continue
            pref = parse_preference_line(line)
            if pref is not None:
                getattr(parsed, section).append(pref)
    return parsed


__all__ = [
    "CONSTRAINTS_HEADER",
    "HARD_CONSTRAINTS_HEADER",
    "HISTORY_TAG",
    "LEANINGS_HEADER",
    "OTHERS_HEADER",
    "PREFERENCES_TAG",
    "RECALLED_TAG",
    "REFLECTION_TAG",
    "ParsedPreferences",
    "PreferenceLine",
    "block_bodies",
    "parse_preference_line",
    "parse_preferences",
    "preference_line",
    "render_history",
    "render_preferences",
    "render_recall",
    "render_reflection",
]
