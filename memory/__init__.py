"""Penchant's memory library: records, the pure gate, the Redis backends, capture and recall.

The public surface is :data:`__all__` (what tools, the agent, the TUI and the examples use);
every other module is private. Inside, one folder per layer, each entered through its own
``__init__``: ``model`` ← ``core`` ← ``embeddings``, ``recall`` ← ``client`` → ``backends``;
``services`` over the client; ``devtools`` over the backends.

Nothing here imports LangGraph, Textual or OpenAI, and nothing loads a model or
opens a connection at import.
"""

import logging

from .backends import InProcessStore
from .client import (
    AsyncMemory,
    Memory,
    MemoryContext,
)
from .core import (
    Observation,
    PersistenceGate,
    forget_matches,
    forget_query_words,
    keyword_covers,
    strip_injected_blocks,
    wrap_block,
)
from .embeddings import (
    Embedder,
)
from .model import (
    ChangeEvent,
    ConcurrencyError,
    Flag,
    ForgetResult,
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    ModelIntegrityError,
    PenchantError,
    Preference,
    PreferenceCandidate,
    ReflectModelError,
    Rejection,
    SchemaVersionError,
    Settings,
    StorageFullError,
    StorageUnavailableError,
    Superseded,
    UserKeys,
    describe_validation_error,
    echoed,
    has_cjk,
    has_han,
    normalise_keywords,
    redacted_url,
    shorten,
    validate_user_id,
    word_tokens,
)
from .recall import (
    Injection,
    RecallResult,
    select_injection,
    select_turns,
)
from .services import (
    ContradictionJudge,
    Disposition,
    DroppedItem,
    PairVerdict,
    ReflectModel,
    ReflectOutput,
    ReflectPrompt,
    ReflectResult,
    aexport_user,
    aimport_document,
    areflect,
    check_history_meaning,
    checkup_job,
    diagnose,
    export_user,
    import_document,
    keep_valid_items,
    parse_document,
    reembed,
    reflect,
)

logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "AsyncMemory",
    "ChangeEvent",
    "ConcurrencyError",
    "ContradictionJudge",
    "Disposition",
    "DroppedItem",
    "Embedder",
    "Flag",
    "ForgetResult",
    "GateResult",
    "HistorySnapshot",
    "Injection",
    "InProcessStore",
    "InvalidInputError",
    "Memory",
    "MemoryContext",
    "ModelIntegrityError",
    "Observation",
    "PairVerdict",
    "PenchantError",
    "PersistenceGate",
    "Preference",
    "PreferenceCandidate",
    "RecallResult",
    "ReflectModel",
    "ReflectModelError",
    "ReflectOutput",
    "ReflectPrompt",
    "ReflectResult",
    "Rejection",
    "SchemaVersionError",
    "Settings",
    "StorageFullError",
    "StorageUnavailableError",
    "Superseded",
    "UserKeys",
    "aexport_user",
    "aimport_document",
    "areflect",
    "check_history_meaning",
    "checkup_job",
    "describe_validation_error",
    "diagnose",
    "echoed",
    "export_user",
    "forget_matches",
    "forget_query_words",
    "has_cjk",
    "has_han",
    "import_document",
    "keep_valid_items",
    "keyword_covers",
    "normalise_keywords",
    "parse_document",
    "redacted_url",
    "reembed",
    "reflect",
    "select_injection",
    "select_turns",
    "shorten",
    "strip_injected_blocks",
    "validate_user_id",
    "word_tokens",
    "wrap_block",
]
