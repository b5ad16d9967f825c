"""Redis backends: :mod:`.sync` (redis-py) and :mod:`.asyncio` (``redis.asyncio``), the only
modules that depend on redis-py, and :mod:`.wire`, the scripts and encodings they share.

Private: only :class:`~penchant.memory.client.Memory` and
:class:`~penchant.memory.client.AsyncMemory` use a backend.
"""
from .asyncio import AsyncRedisBackend, open_async_client
from .cluster_nodes import (
    NodeError,
    cluster_nodes,
    key_slot,
    node_client,
    node_id,
    node_info,
    parse_cluster_info,
)
from .connect import open_client
from .filelock import exclusive_lock
from .process import client_name, server_binary
from .protocols import AsyncBackend, Backend
from .server import EmbeddedRedis
from .sync import SyncBackend

__all__ = [
    "AsyncBackend",
    "AsyncRedisBackend",
    "Backend",
    "EmbeddedRedis",
    "NodeError",
    "SyncBackend",
    "client_name",
    "cluster_nodes",
    "exclusive_lock",
    "key_slot",
    "node_client",
    "node_id",
    "node_info",
    "open_async_client",
    "open_client",
    "parse_cluster_info",
    "server_binary",
]
