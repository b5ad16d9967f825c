"""End-of-turn summary capture: a real LLM lists the preferences in the user's message.

Runs only when a real model is configured. The model is asked to fill
:class:`PreferenceSummary` (structured output); its reply is accepted item by item: a
malformed preference (a polarity of ``"neutral"``, no content) is dropped with a note in
:attr:`SummaryResult.dropped` (the chat reports it under ``memory_changes["dropped"]``) and
the valid ones are kept. The candidates then go through the same persistence gate as every
other write, with ``source="summary"``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from penchant.memory import DroppedItem, Preference, PreferenceCandidate, keep_valid_items

from .structured import MalformedOutputError, StructuredCall

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


@dataclass
class SummaryResult:
    """What summary capture took from one reply.

    Attributes:
        candidates: Valid preferences, ``source="summary"``, ready for the gate.
        dropped: Malformed items left out, with the reason for each.
    """

    candidates: list[PreferenceCandidate] = field(default_factory=list)
    dropped: list[DroppedItem] = field(default_factory=list)


def summary_candidate(item: Any) -> PreferenceCandidate:
    """One summary item as a gate candidate (``source="summary"``, confidence 0.6).

    Raises:
        ValidationError: The item does not fit :class:`SummaryPreference`, or the candidate
            it makes is invalid (blank content, too many keywords …).
    """
    found = SummaryPreference.model_validate(item)
    return PreferenceCandidate(**found.model_dump(), source="summary", confidence=0.6)


def accept_summary(payload: Any) -> SummaryResult:
    """Accept a summary reply item by item.

    Args:
        payload: The decoded reply: ``{"preferences": [...]}`` (a bare list of items is
            accepted as the list).

    Returns:
        The valid candidates and the notes on dropped items.

    Raises:
        MalformedOutputError: ``payload`` is neither an object nor a list.
    """
    if isinstance(payload, Mapping):
        items = payload.get("preferences")
    elif isinstance(payload, list):
        items = payload
    else:
        raise MalformedOutputError(
            f"the summary reply is not a JSON object with a 'preferences' list (got "
            f"{type(payload).__name__}); nothing stored from it"
        )
    candidates, dropped = keep_valid_items("preference", items, summary_candidate)
    return SummaryResult(candidates=candidates, dropped=dropped)


def summarise_preferences(model: BaseChatModel, user_text: str) -> SummaryResult:
    """Ask ``model`` which preferences ``user_text`` states.

    Args:
        model: A chat model that supports ``with_structured_output``.
        user_text: The user's message, with Penchant's injected blocks already stripped.

    Returns:
        The valid candidates (``source="summary"``) and notes on the malformed items.

    Raises:
        ModelUnavailableError: The model call failed (one line: endpoint, kind, fix).
        MalformedOutputError: The reply holds no JSON object or list.
    """
    payload = StructuredCall(model, PreferenceSummary).invoke(
        [SystemMessage(content=SUMMARY_INSTRUCTIONS), HumanMessage(content=user_text)]
    )
    result = accept_summary(payload)
    for note in result.dropped:
        logger.info("summary capture: %s", note.describe())
    return result


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
    "SummaryResult",
    "accept_summary",
    "drop_already_captured",
    "summarise_preferences",
    "summary_candidate",
]
