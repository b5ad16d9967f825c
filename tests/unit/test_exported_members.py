"""``penchant.memory``'s public surface is pinned: adding or removing a name is a decision."""

from __future__ import annotations

import penchant.memory as memory

EXPORTED = [
    "AsyncMemory", "ChangeEvent", "ConcurrencyError", "ForgetResult", "GateResult",
    "HistorySnapshot", "InvalidInputError", "Memory", "MemoryContext", "ModelIntegrityError",
    "PenchantError", "PersistenceGate", "Preference", "PreferenceCandidate", "Rejection",
    "SchemaVersionError", "Settings", "StorageFullError", "StorageUnavailableError",
    "Superseded", "Injection", "select_injection",
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
