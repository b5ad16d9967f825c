"""Penchant's memory library: records, the persistence gate, storage, capture and recall.

Nothing here imports LangGraph, Textual or OpenAI, and nothing loads a model or
opens a connection at import.
"""

import logging

from .client import Memory
from .errors import (
    ConcurrencyError,
    InvalidInputError,
    ModelIntegrityError,
    PenchantError,
    SchemaVersionError,
    StorageUnavailableError,
)
from .gate import PersistenceGate
from .records import (
    ChangeEvent,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    Preference,
    PreferenceCandidate,
    Rejection,
    Superseded,
)
from .settings import Settings

logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "ChangeEvent",
    "ConcurrencyError",
    "ForgetResult",
    "GateResult",
    "HistorySnapshot",
    "InvalidInputError",
    "Memory",
    "ModelIntegrityError",
    "PenchantError",
    "PersistenceGate",
    "Preference",
    "PreferenceCandidate",
    "Rejection",
    "SchemaVersionError",
    "Settings",
    "StorageUnavailableError",
    "Superseded",
]
