"""``penchant.memory``'s public surface is pinned: adding or removing a name is a decision.

It is what tools, the agent, the TUI and the examples use (they import nothing else of
``penchant.memory``: tests/unit/test_floor_plan.py checks that).
"""

from __future__ import annotations

import penchant.memory as memory

EXPORTED = [
    "AsyncMemory", "ChangeEvent", "ConcurrencyError", "ContradictionJudge", "Disposition",
    "DroppedItem", "Embedder", "Flag", "ForgetResult", "GateResult", "HistorySnapshot",
    "InProcessStore", "InvalidInputError", "Memory", "MemoryContext", "ModelIntegrityError",
    "Observation",
    "PairVerdict", "PenchantError", "PersistenceGate", "Preference", "PreferenceCandidate",
    "RecallResult", "ReflectModel", "ReflectModelError", "ReflectOutput", "ReflectPrompt",
    "ReflectResult", "Rejection", "SchemaVersionError", "Settings", "StorageFullError",
    "StorageUnavailableError", "Superseded", "UserKeys", "aexport_user", "aimport_document",
    "areflect", "check_history_meaning", "checkup_job",
    "describe_validation_error", "diagnose", "echoed", "export_user", "forget_matches",
    "forget_query_words", "has_cjk", "has_han", "import_document", "keep_valid_items",
    "keyword_covers", "normalise_keywords", "parse_document", "redacted_url", "reembed",
    "reflect", "shorten",
    "strip_injected_blocks", "validate_user_id", "word_tokens", "wrap_block",
    "Injection", "select_injection", "select_turns",
]


def test_all_lists_exactly_the_public_names() -> None:
    assert sorted(memory.__all__) == sorted(EXPORTED)


def test_every_exported_name_is_importable_and_documented() -> None:
    for name in memory.__all__:
        member = getattr(memory, name)
        assert member.__doc__, f"{name} has no docstring"
        assert member.__module__.startswith("penchant.memory"), name


def test_no_backend_is_exported() -> None:
    assert not any("Backend" in name for name in memory.__all__)
