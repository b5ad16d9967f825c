"""Opening Penchant's own connections (single node or cluster, detected) and the server report
that ``doctor`` prints; shared by the sync and async drivers.
"""

from __future__ import annotations

from typing import Any

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

from ..model import (
    InvalidInputError,
    StorageUnavailableError,
    redacted_url,
)
from . import cluster as clusters
from .errors import bad_url, cluster_open_error, storage_errors


def client_retry() -> Retry:
    """Retry policy of Penchant's own connections: 3 tries within about half a second.

    redis-py's default (10 tries, several seconds) would freeze a chat turn while Redis is
    down; the spool and the degraded status take over instead. (Write *conflicts* are not
    retried here but by the gate's loop, :class:`~penchant.memory.client.retry.RetryPolicy`.)
    """
    return Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.25), 3)


def client_options(name: str) -> dict[str, Any]:
    """Connection options of Penchant's own clients, sync and async."""
    return {
        "client_name": name, "socket_timeout": 5.0, "socket_connect_timeout": 2.0,
        "health_check_interval": 30,
    }  # fmt: skip


def open_client(url: str, name: str, *, cluster: bool | None = None) -> Any:
    """A client for ``url`` (``redis://``, ``rediss://``, ``unix://``) named ``name``.

    Args:
        url: The server (for a cluster, any node's address).
        name: The connections' ``CLIENT SETNAME``.
        cluster: ``True``: redis-py's ``RedisCluster``; ``False``: a single-node client;
            ``None``: a cluster client when the server's ``INFO cluster`` says
            ``cluster_enabled:1`` (``unix://`` is never a cluster).

    Returns:
        A ``redis.Redis`` or a ``redis.RedisCluster``.

    Raises:
        InvalidInputError: The URL is malformed, or ``cluster=True`` on ``unix://``.
        StorageUnavailableError: The server does not answer.
    """
    if cluster and url.startswith("unix:"):
        raise InvalidInputError(
            f"PENCHANT_REDIS_CLUSTER is true but {redacted_url(url)!r} is a unix socket; a Redis "
            "Cluster is reached over TCP (redis:// or rediss://)"
        )
    if cluster:
        return _open_cluster(url, name)
    try:
        client = redis.Redis.from_url(url, retry=client_retry(), **client_options(name))
    except ValueError as exc:
        raise bad_url(url, exc) from exc
    try:
        with storage_errors(f"connect to {redacted_url(url)}"):
            client.ping()
            detected = cluster is None and not url.startswith("unix:") and (
                clusters.cluster_enabled(client.info("cluster")))
    except StorageUnavailableError:
        client.close()
        raise
    if detected:
        client.close()
        return _open_cluster(url, name)
    return client


def _open_cluster(url: str, name: str) -> redis.RedisCluster:
    try:
        with storage_errors(f"connect to the cluster at {redacted_url(url)}"):
            return clusters.open_sync_cluster(url, name)
    except ValueError as exc:
        raise bad_url(url, exc) from exc
    except StorageUnavailableError as exc:
        raise cluster_open_error(url, exc) from exc.__cause__


def report(
    info: Any, persistence: Any, schema: Any, users: int, query_engine: bool,
    shape: dict[str, Any] | None,
) -> dict[str, Any]:
    """``doctor``'s server report (sync and async backends)."""
    out: dict[str, Any] = {
        "server": f"{info.get('server_name', 'redis')} "
                  f"{info.get('valkey_version') or info.get('redis_version')}",
        "aof_enabled": bool(persistence.get("aof_enabled")),
        "schema_version": int(schema) if schema is not None else None,
        "users": users,
        "query_engine": query_engine,
    }
    if shape is not None:
        out["cluster"] = shape
    return out
