"""redis-py's errors, translated once into the :class:`~penchant.memory.model.errors.PenchantError`
tree for both drivers, the embedded server and the cluster helpers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from ..model import (
    SCHEMA_VERSION,
    InvalidInputError,
    PenchantError,
    SchemaVersionError,
    StorageFullError,
    StorageUnavailableError,
    redacted_url,
)

REDIS_ERRORS = (
    redis.RedisError, redis.exceptions.RedisClusterException, OSError,
)
"""What redis-py raises when Redis fails: its errors, the cluster client's own (which are
not ``RedisError``s: no reachable node, a slot not covered) and socket errors."""

StorageClientError = REDIS_ERRORS
"""Errors of a raw client, for callers that must not fail (logging paths)."""


def cluster_open_error(url: str, exc: StorageUnavailableError) -> PenchantError:
    """The error for a cluster client that could not start: a URL naming a database other
    than 0 or a server that is not a cluster node is the caller's to fix (exit 2);
    anything else (no node answers) stays a :class:`StorageUnavailableError`."""
    reason = str(exc.__cause__ or exc)
    url = redacted_url(url)
    if "db" in reason and "only be 0" in reason:
        return InvalidInputError(
            f"PENCHANT_REDIS_URL {url!r} names a database other than 0; a Redis Cluster has "
            "only database 0: drop the /N from the URL"
        )
    if "Cluster mode is not enabled" in reason:
        return InvalidInputError(
            f"PENCHANT_REDIS_CLUSTER is true but the server at {url!r} is not a cluster node; "
            "unset PENCHANT_REDIS_CLUSTER (detect) or set it to false"
        )
    return exc


def bad_url(url: str, exc: Exception) -> InvalidInputError:
    """The error for a malformed ``PENCHANT_REDIS_URL``."""
    return InvalidInputError(
        f"PENCHANT_REDIS_URL {redacted_url(url)!r} is not a Redis URL ({exc}); use redis://, "
        "rediss:// or unix://"
    )


def translate(exc: BaseException, action: str, location: str = "") -> StorageUnavailableError:
    """The Penchant error for a redis-py (or socket) error raised while doing ``action``.

    A server that refuses writes because it cannot persist (``MISCONF``: a full disk or an
    unwritable data directory) or is out of memory (``OOM``: ``maxmemory``) gets a
    :class:`StorageFullError` that names the place and the fix; the write was not stored.
    """
    reason = str(exc).rstrip(". ")
    where = f" at {location}" if location else ""
    if isinstance(exc, redis.ResponseError) and "MISCONF" in reason:
        return StorageFullError(
            f"Redis{where} refused to {action}: it cannot write its data to disk ({reason}). "
            "Nothing was stored. Free space on the disk of its data directory (the embedded "
            "server's is <PENCHANT_HOME>/redis; see CONFIG GET dir), then retry."
        )
    if isinstance(exc, redis.exceptions.OutOfMemoryError) or (
        isinstance(exc, redis.ResponseError) and ("OOM" in reason or "'maxmemory'" in reason)
    ):
        return StorageFullError(
            f"Redis{where} refused to {action}: it is out of memory ({reason}). Nothing was "
            "stored. Raise its 'maxmemory' setting or free memory, then retry."
        )
    return StorageUnavailableError(
        f"Redis{where} unavailable while trying to {action}: {reason}. Check "
        "PENCHANT_REDIS_URL, or run 'penchant doctor'."
    )


@contextmanager
def storage_errors(action: str, location: str = "") -> Iterator[None]:
    """Translate redis-py errors raised inside into the :class:`PenchantError` tree."""
    try:
        yield
    except REDIS_ERRORS as exc:
        raise translate(exc, action, location) from exc


def check_decoding(client: Any) -> None:
    """Refuse a client that decodes responses (stored vectors are raw bytes).

    Raises:
        InvalidInputError: The client was made with ``decode_responses=True``.
    """
    if (client.get_connection_kwargs() or {}).get("decode_responses"):
        raise InvalidInputError(
            "Penchant needs a redis client with decode_responses=False (the default); "
            "stored vectors are raw bytes"
        )


def not_a_cluster_client(exc: BaseException) -> InvalidInputError | None:
    """The error for a single-node client on a cluster node (a ``MOVED`` reply), else None."""
    cause = exc.__cause__
    if isinstance(cause, redis.exceptions.MovedError) or str(cause).startswith("MOVED"):
        return InvalidInputError(
            f"the Redis server is a cluster node and redirected a request ({cause}); set "
            "PENCHANT_REDIS_CLUSTER=true (or leave it unset to detect it), or pass a "
            "redis.RedisCluster client"
        )
    return None


def schema_of(stored: Any) -> int:
    """Check a stored schema version against this release's.

    Raises:
        SchemaVersionError: The data was written by a newer, incompatible release.
    """
    version = int(stored or SCHEMA_VERSION)
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"stored schema version {version} is newer than this release's {SCHEMA_VERSION}; "
            "upgrade penchant"
        )
    return version
