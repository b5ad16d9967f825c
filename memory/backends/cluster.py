"""Redis Cluster support shared by the sync and async backends: choosing the cluster client,
riding out a failover, replica acknowledgement (``WAIT``), and the cluster's shape.

What a cluster changes, and how Penchant answers it:

* **One user, one slot.** Every key of a user carries the hash tag ``{<user>}``
  (:mod:`..keys`), so a commit is one script over one slot and stays atomic. Global keys
  (``penchant:meta``, ``penchant:users``, ``penchant:checkup:due``, the embeddings cache)
  live in other slots and are never touched inside a user's script; commands on several
  keys of different slots (the cache's ``UNLINK``) are split per slot by redis-py's
  cluster client.
* **Redirections.** ``MOVED`` and ``ASK`` are followed and the slot table refreshed by
  redis-py's cluster client (``RedisCluster``, sync and async). Its own retries of a
  command that hit a dead node are immediate, so they are spent before a replica is
  promoted; the backends therefore retry a read or a commit that failed on a connection or
  cluster error with backoff until ``Settings.write_retry_seconds`` has passed
  (:func:`~..client.retry.failover_delays`), which rides out a failover: a ``kill -9`` of a
  primary is failed over in ``cluster-node-timeout`` plus about a second (2–4 s with the local
  cluster's 1.5 s; measured by ``tests/integration/test_cluster_failover.py``). Set
  ``PENCHANT_WRITE_RETRY_SECONDS`` above your cluster's ``cluster-node-timeout`` + 5 s.
* **No write applied twice, no false failure.** A retried commit is the same script with
  the same idempotency record (every write carries one: the caller's key, or an internal
  per-call key, :func:`~..client.retry.internal_idempotency_ttl`), so a commit whose reply was
  lost but that was stored answers ``replayed`` and is reported as the write it was.
* **Acknowledged means replicated.** Redis replicates asynchronously: a primary killed
  right after answering can take the last writes with it. With
  ``Settings.redis_replica_acks`` (default: 1 in cluster mode when the user's shard has a
  replica, else 0) a commit is followed on the same connection by ``WAIT <acks> <timeout>``,
  so a write reported committed is on a replica too and survives a ``kill -9`` of its
  primary (a replica that acknowledged is the one promoted; valkey elects the most
  up-to-date replica). If the replica does not acknowledge within
  ``redis_replica_ack_timeout_ms`` (default 1,000 ms) the write is still reported
  committed — it *is* stored on the primary, and a retry could not make it more so — with
  a logged warning, and the slot table is refreshed (a dead replica leaves it). The cost:
  one replication round trip per write (measured on loopback: see README, "Redis Cluster").
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import redis
import redis.asyncio as aioredis
import redis.asyncio.cluster as aiocluster
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

CLUSTER_CLIENT_RETRIES = 3
"""redis-py's own retries of one command after a connection or cluster error (it refreshes
the slot table before each); the failover itself is ridden out by :func:`failover_delays`."""
ACK_TIMEOUT_MS = 1_000
"""Default ``WAIT`` timeout (``Settings.redis_replica_ack_timeout_ms``): on loopback a
replica acknowledges in well under a millisecond; a second means it is gone or stalled."""

_TRANSIENT = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.ClusterError,
    redis.exceptions.TryAgainError,
    redis.exceptions.AskError,  # MovedError too
    redis.exceptions.ReadOnlyError,
    redis.exceptions.SlotNotCoveredError,
    ConnectionError,  # OSError: refused, reset
    TimeoutError,
)
_TRANSIENT_REPLIES = ("CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "READONLY", "LOADING", "MOVED",
                      "ASK ")  # fmt: skip


def is_cluster_client(client: Any) -> bool:
    """Whether ``client`` is redis-py's cluster client (sync or async)."""
    return isinstance(client, (redis.RedisCluster, aiocluster.RedisCluster))


def cluster_enabled(info: dict[str, Any]) -> bool:
    """Whether an ``INFO cluster`` reply says the server is a cluster node."""
    return str(info.get("cluster_enabled", "0")) == "1"


def cluster_retry() -> Retry:
    """Retry object of the cluster clients (redis-py uses only its count; see
    :data:`CLUSTER_CLIENT_RETRIES`)."""
    return Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.25), CLUSTER_CLIENT_RETRIES)


def cluster_options(name: str) -> dict[str, Any]:
    """Options of Penchant's own cluster clients, sync and async."""
    return {
        "client_name": name, "socket_timeout": 5.0, "socket_connect_timeout": 2.0,
        "retry": cluster_retry(), "require_full_coverage": True,
    }  # fmt: skip


def open_sync_cluster(url: str, name: str) -> redis.RedisCluster:
    """A sync cluster client for ``url`` (any node's address); checked by its start-up,
    which reads the slot table (``CLUSTER SLOTS``)."""
    return redis.RedisCluster.from_url(url, **cluster_options(name))


def open_async_cluster(url: str, name: str) -> aiocluster.RedisCluster:
    """An async cluster client for ``url``; connects on first use (``initialize``)."""
    return aiocluster.RedisCluster.from_url(url, **cluster_options(name))


def is_transient(exc: BaseException | None) -> bool:
    """Whether an error (or the redis-py error it was translated from) is one a failover or
    a slot move causes, so that the same request may succeed a moment later."""
    while exc is not None:
        if isinstance(exc, _TRANSIENT):
            return True
        if isinstance(exc, redis.ResponseError):
            return str(exc).startswith(_TRANSIENT_REPLIES)
        exc = exc.__cause__
    return False


def replicas_of_slot(client: Any, key: str) -> int:
    """Replicas that serve ``key``'s slot, from the cluster client's slot table (no round
    trip; the table is refreshed on redirections and errors)."""
    nodes = client.nodes_manager.slots_cache.get(client.keyslot(key)) or []
    return max(0, len(nodes) - 1)


def ack_target(setting: int | None, cluster: bool, replicas: int | None) -> int:
    """How many replicas a commit waits for.

    Args:
        setting: ``Settings.redis_replica_acks`` (``None``: automatic).
        cluster: Whether the client is a cluster client.
        replicas: Replicas of the user's shard, when known (cluster mode).

    Returns:
        ``setting`` (capped at the known replicas); automatic: 1 in cluster mode when the
        shard has a replica, else 0.
    """
    if setting is None:
        return 1 if cluster and (replicas or 0) > 0 else 0
    return setting if replicas is None else min(setting, replicas)


def node_client_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Options of a single-node client built beside a cluster client (for ``WAIT`` on the
    commit's connection): credentials, timeouts, name and TLS of the cluster's connections."""
    keep = ("username", "password", "socket_timeout", "socket_connect_timeout", "client_name",
            "credential_provider", "ssl_certfile", "ssl_keyfile", "ssl_ca_certs",
            "ssl_cert_reqs", "ssl_check_hostname")  # fmt: skip
    options = {k: kwargs[k] for k in keep if kwargs.get(k) is not None}
    connection_class = kwargs.get("connection_class")
    if connection_class is not None and "SSL" in getattr(connection_class, "__name__", ""):
        options["ssl"] = True
    return options


def async_node_client(node: Any, kwargs: dict[str, Any]) -> aioredis.Redis:
    """A single-node async client of a cluster node (``host``/``port`` of ``node``)."""
    return aioredis.Redis(host=node.host, port=node.port, **node_client_options(kwargs))


def shape(nodes_reply: Any, info_reply: Any) -> dict[str, Any]:
    """The cluster's shape from ``CLUSTER NODES`` and ``CLUSTER INFO`` of one node.

    Returns:
        ``{"cluster_state", "masters", "replicas", "slots_covered", "failed_nodes"}``:
        primaries that serve slots, replicas attached to a primary, the slots assigned
        (16,384 when the cluster covers them all), and nodes flagged ``fail``.
    """
    masters = replicas = failed = slots = 0
    for flags, owned in _nodes(nodes_reply):
        if "fail" in flags:
            failed += 1
        elif "master" in flags:
            slots += owned
            masters += 1 if owned else 0
        elif "slave" in flags:
            replicas += 1
    info = _fields(info_reply)
    return {
        "cluster_state": info.get("cluster_state", "unknown"),
        "masters": masters,
        "replicas": replicas,
        "slots_covered": slots,
        "failed_nodes": failed,
    }


def _nodes(reply: Any) -> Iterator[tuple[list[str], int]]:
    """``(flags, slots owned)`` of each node of a ``CLUSTER NODES`` reply: its text, or
    redis-py's parsed form (``{address: {"flags": "myself,master", "slots": [[a, b]]}}``)."""
    if isinstance(reply, dict):
        for node in reply.values():
            ranges = [f"{r[0]}-{r[-1]}" for r in node.get("slots", [])]
            yield str(node.get("flags", "")).split(","), _slot_count(ranges)
        return
    text = reply.decode() if isinstance(reply, bytes) else str(reply)
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 8:
            yield fields[2].split(","), _slot_count(fields[8:])


def _slot_count(ranges: list[str]) -> int:
    total = 0
    for item in ranges:
        if item.startswith("["):  # a slot being imported or migrated
            continue
        first, _, last = item.partition("-")
        total += int(last or first) - int(first) + 1
    return total


def _fields(raw: Any) -> dict[str, str]:
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


__all__ = [
    "ACK_TIMEOUT_MS",
    "CLUSTER_CLIENT_RETRIES",
    "ack_target",
    "async_node_client",
    "cluster_enabled",
    "cluster_options",
    "cluster_retry",
    "is_cluster_client",
    "is_transient",
    "node_client_options",
    "open_async_cluster",
    "open_sync_cluster",
    "replicas_of_slot",
    "shape",
]
