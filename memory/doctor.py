"""``penchant doctor``: what Penchant sees of its Redis and configuration."""

from __future__ import annotations

from typing import Any

import redis

from .client import Memory
from .keys import META_KEY


def query_engine_available(client: redis.Redis) -> bool:
    """Whether the server has the Redis Query Engine (``FT.*``: Redis 8 / Redis Stack)."""
    try:
        client.execute_command("FT._LIST")
        return True
    except (redis.RedisError, OSError):
        return False


def diagnose(memory: Memory) -> dict[str, Any]:
    """A flat report: Redis reachability, version, persistence, schema, users, embedder."""
    report: dict[str, Any] = {"redis_location": memory.redis_location}
    try:
        info = memory.client.info()
        report["redis"] = "ok"
        report["server"] = f"{info.get('server_name', 'redis')} {info.get('redis_version')}"
        persistence = memory.client.info("persistence")
        report["aof_enabled"] = bool(persistence.get("aof_enabled"))
        report["schema_version"] = memory.client.hget(META_KEY, "schema_version")
        report["users"] = len(memory.storage.users())
        report["query_engine"] = query_engine_available(memory.client)
    except (redis.RedisError, OSError) as exc:
        report["redis"] = f"unavailable: {exc}"
    if isinstance(report.get("schema_version"), bytes):
        report["schema_version"] = int(report["schema_version"])
    embedder = memory.embedder
    report["embedder"] = getattr(embedder, "name", None) or "none"
    report["penchant_home"] = str(memory.settings.home)
    return report


__all__ = ["diagnose", "query_engine_available"]
