"""One cluster node's admin commands for the local cluster launcher
(:mod:`penchant.memory.devtools.local_cluster`): the redis-py side of forming, watching and
resharding it, so that only the backends import redis-py.
"""

from __future__ import annotations

from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.retry import Retry

HOST = "127.0.0.1"
NodeError = redis.RedisError
"""What a node's client raises when the node fails or refuses."""


def node_client(port: int, host: str = HOST) -> redis.Redis:
    """A client of one node that fails at once (no retries: every caller polls or reports),
    so a stopped node costs one refused connection, not redis-py's backoff."""
    return redis.Redis(host=host, port=port, socket_timeout=2.0, socket_connect_timeout=1.0,
                       retry=Retry(NoBackoff(), 0))  # fmt: skip


def node_info(port: int) -> dict[str, Any]:
    """``CLUSTER INFO`` and ``INFO replication`` of one node, merged."""
    with node_client(port) as client:
        info: dict[str, Any] = client.info("replication")
        info.update(parse_cluster_info(client.execute_command("CLUSTER", "INFO")))
    return info


def parse_cluster_info(raw: Any) -> dict[str, str]:
    """``CLUSTER INFO``'s ``field:value`` lines as a dict (redis-py may have parsed it)."""
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def cluster_nodes(port: int) -> list[str]:
    """``CLUSTER NODES`` of one node, one line per node."""
    with node_client(port) as client:
        raw = client.execute_command("CLUSTER", "NODES", NEVER_DECODE=True)
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    return [line for line in text.splitlines() if line.strip()]


def node_id(port: int) -> str:
    """``CLUSTER MYID`` of one node."""
    with node_client(port) as client:
        raw = client.execute_command("CLUSTER", "MYID")
    return raw.decode() if isinstance(raw, bytes) else str(raw)


__all__ = [
    "HOST",
    "NodeError",
    "cluster_nodes",
    "key_slot",
    "node_client",
    "node_id",
    "node_info",
    "parse_cluster_info",
]
