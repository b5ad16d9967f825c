"""Penchant's memory library: records, the pure gate, the Redis backends, capture and recall.

The public surface is :data:`__all__`; every other module is private.

Nothing here imports LangGraph, Textual or OpenAI, and nothing loads a model or
opens a connection at import.
"""

import logging

from .client import AsyncMemory, Memory, MemoryContext
from .core.planning import PersistenceGate
from .model.errors import (
    ConcurrencyError,
    InvalidInputError,
    ModelIntegrityError,
    PenchantError,
    SchemaVersionError,
    StorageFullError,
    StorageUnavailableError,
)
from .model.records import (
    ChangeEvent,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    Preference,
    PreferenceCandidate,
    Rejection,
    Superseded,
)
from .model.settings import Settings
from .recall import Injection, select_injection

logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "AsyncMemory",
    "ChangeEvent",
    "ConcurrencyError",
    "ForgetResult",
    "GateResult",
    "HistorySnapshot",
    "Injection",
    "InvalidInputError",
    "Memory",
    "MemoryContext",
    "ModelIntegrityError",
    "PenchantError",
    "PersistenceGate",
    "Preference",
    "PreferenceCandidate",
    "Rejection",
    "SchemaVersionError",
    "Settings",
    "StorageFullError",
    "StorageUnavailableError",
    "Superseded",
    "select_injection",
]
