"""Redis backends: :mod:`.sync` (redis-py) and :mod:`.asyncio` (``redis.asyncio``), the only
modules that depend on redis-py, and :mod:`.wire`, the scripts and encodings they share;
:mod:`.inprocess`, the same reads and commits over a dict, for tests without Redis.

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
from .embeddings_cache import (
    LEGACY_CACHE_PATTERN,
    bound_cache,
    purge_legacy_cache,
    redis_embeddings_cache,
)
from .filelock import exclusive_lock
from .inprocess import (
    AsyncInProcessBackend,
    InjectedFailure,
    InProcessBackend,
    InProcessEmbeddingsCache,
    InProcessStore,
)
from .process import client_name, server_binary
from .protocols import AsyncBackend, Backend
from .server import EmbeddedRedis
from .sync import SyncBackend

__all__ = [
    "LEGACY_CACHE_PATTERN",
    "AsyncBackend",
    "AsyncInProcessBackend",
    "AsyncRedisBackend",
    "Backend",
    "EmbeddedRedis",
    "InProcessBackend",
    "InProcessEmbeddingsCache",
    "InProcessStore",
    "InjectedFailure",
    "NodeError",
    "SyncBackend",
    "bound_cache",
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
    "purge_legacy_cache",
    "redis_embeddings_cache",
    "server_binary",
]
