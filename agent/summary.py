"""End-of-turn summary capture: a real LLM lists the preferences in the user's message.

Runs only when a real model is configured. The model fills a pydantic schema
(structured output); the candidates then go through the same persistence gate
as every other write, with ``source="summary"``.
"""

from __future__ import annotations

import logging
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from penchant.memory.records import Preference, PreferenceCandidate

logger = logging.getLogger(__name__)

SUMMARY_INSTRUCTIONS = (
    "You extract lasting personal preferences from ONE message a user wrote to an assistant. "
    "List only the user's own stable likes and dislikes (including allergies and things they "
    "avoid), stated in this message. Ignore questions, one-off requests, hypotheticals, other "
    "people's tastes and anything inside tags such as <user_preferences> (that is earlier "
    "memory, not new information). Return an empty list when there is none."
)


class SummaryPreference(BaseModel):
    """One preference the summary model found in the user's message."""

    content: str = Field(description="The preference as one short sentence, in the user's words.")
    polarity: Literal["like", "dislike"] = Field(description="'like' or 'dislike'.")
    keywords: list[str] = Field(
        description="1-5 short nouns naming the object, e.g. ['plastic']; keep a negation that "
        "is part of the object ('plastic-free')."
    )
    category: str = Field(
        default="other",
        description="One lowercase word: material, food, brand, style, budget or other.",
    )


class PreferenceSummary(BaseModel):
    """The preferences stated in one user message (possibly none)."""

    preferences: list[SummaryPreference] = Field(default_factory=list)


def summarise_preferences(model: BaseChatModel, user_text: str) -> list[PreferenceCandidate]:
    """Ask ``model`` which preferences ``user_text`` states.

    Args:
        model: A chat model that supports ``with_structured_output``.
        user_text: The user's message, with Penchant's injected blocks already stripped.

    Returns:
        Candidates with ``source="summary"``; malformed items are dropped.
    """
    structured = model.with_structured_output(PreferenceSummary)
    raw = structured.invoke(
        [SystemMessage(content=SUMMARY_INSTRUCTIONS), HumanMessage(content=user_text)]
    )
    summary = raw if isinstance(raw, PreferenceSummary) else PreferenceSummary.model_validate(raw)
    candidates: list[PreferenceCandidate] = []
    for item in summary.preferences:
        try:
            candidates.append(
                PreferenceCandidate(**item.model_dump(), source="summary", confidence=0.6)
            )
        except ValueError as exc:
            logger.info("dropping malformed summary preference %r: %s", item.content, exc)
    return candidates


def _key_set(keywords: list[str]) -> set[str]:
    return {k.strip().lower() for k in keywords if k.strip()}


def drop_already_captured(
    candidates: list[PreferenceCandidate], captured: list[Preference]
) -> list[PreferenceCandidate]:
    """Candidates not already written this turn by another capture path.

    A preference the rule capture already stored this turn must not be merged a
    second time (that would count one mention twice). Same polarity and a shared
    keyword (case-insensitive) or equal content means "already captured".
    """
    kept: list[PreferenceCandidate] = []
    for cand in candidates:
        duplicate = any(
            pref.polarity == cand.polarity
            and (
                _key_set(pref.keywords) & _key_set(cand.keywords)
                or pref.content.strip().lower() == cand.content.strip().lower()
            )
            for pref in captured
        )
        if not duplicate:
            kept.append(cand)
    return kept


__all__ = [
    "SUMMARY_INSTRUCTIONS",
    "PreferenceSummary",
    "SummaryPreference",
    "drop_already_captured",
    "summarise_preferences",
]
