"""Recall: rank one user's preferences for a request, and select what it injects.

The layer's door: import from here (``from penchant.memory.recall import Recaller``); the
modules behind it are private. See :mod:`.engine` for the channels and the cache,
``docs/recall-experiments.md`` for the measurements behind the constants.
"""

from .engine import Recaller
from .fusion import CHANNELS, DEFAULT_FUSION, FusionConfig
from .relevance import (
    GENERIC_REQUESTS,
    NEUTRAL_REQUESTS,
    RELEVANT_COSINE,
    cjk_dominant,
    generic_prior,
    generic_vector,
    neutral_vector,
    readable_by,
    relevant_mask,
    request_floor,
)
from .results import NO_VECTOR, RecallItem, RecallResult, estimate_tokens
from .selection import (
    INJECTION_TOKEN_BUDGET,
    MAX_INJECTED,
    Injection,
    dislike_applies,
    select_injection,
    select_turns,
)

__all__ = [
    "CHANNELS",
    "DEFAULT_FUSION",
    "GENERIC_REQUESTS",
    "INJECTION_TOKEN_BUDGET",
    "MAX_INJECTED",
    "NEUTRAL_REQUESTS",
    "NO_VECTOR",
    "RELEVANT_COSINE",
    "FusionConfig",
    "Injection",
    "RecallItem",
    "RecallResult",
    "Recaller",
    "cjk_dominant",
    "dislike_applies",
    "estimate_tokens",
    "generic_prior",
    "generic_vector",
    "neutral_vector",
    "readable_by",
    "relevant_mask",
    "request_floor",
    "select_injection",
    "select_turns",
]
