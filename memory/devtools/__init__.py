"""Development tools: the local Redis Cluster launcher."""
from .local_cluster import DEFAULT_NODE_TIMEOUT_MS, InvalidClusterLayout, Layout, LocalCluster, main

__all__ = [
    "DEFAULT_NODE_TIMEOUT_MS",
    "InvalidClusterLayout",
    "Layout",
    "LocalCluster",
    "main",
]
