"""The embeddings cache on Redis: redisvl's ``EmbeddingsCache`` without plaintext, with a
TTL and a bound, and the purge of the plaintext cache of earlier releases.

The embedders (:mod:`penchant.memory.embeddings`) take the cache object ready made, as
``cache=``, and never see the redis-py client under it.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from ..model import (
    CACHE_INDEX_KEY,
    CACHE_MODELS_KEY,
    CACHE_NAME,
    META_KEY,
    cache_entry_id,
)

logger = logging.getLogger(__name__)

LEGACY_CACHE_PATTERN = "penchant:embeddings:*"
"""Entries of the plaintext cache of earlier releases (redisvl's default layout:
the text, no TTL); purged once per server (:func:`purge_legacy_cache`)."""


def _private_cache_class() -> Any:
    from redisvl.extensions.cache.embeddings import EmbeddingsCache
    from redisvl.extensions.cache.embeddings.schema import CacheEntry

    class PrivateEmbeddingsCache(EmbeddingsCache):  # type: ignore[misc]
        """redisvl's ``EmbeddingsCache`` without plaintext, with a TTL and a bound.

        Keys are :func:`cache_entry_id` digests; an entry stores its own id where redisvl
        stores the text, and the vector. Every store adds the keys to :data:`CACHE_INDEX_KEY`
        and trims the cache to ``max_entries`` (oldest first, expired ones dropped). The
        first command of an instance purges the plaintext cache of earlier releases
        (:func:`purge_legacy_cache`), so that building one sends nothing to Redis.
        """

        def __init__(self, client: Any, ttl: int, max_entries: int) -> None:
            super().__init__(name=CACHE_NAME, ttl=ttl, redis_client=client)
            self.max_entries = max_entries
            self._legacy_purged = False

        def _get_redis_client(self) -> Any:
            client = super()._get_redis_client()
            if not self._legacy_purged:
                purge_legacy_cache(client)
                self._legacy_purged = True
            return client

        def _make_entry_id(self, content: bytes | str, model_name: str) -> str:
            text = content.hex() if isinstance(content, bytes) else content
            return cache_entry_id(model_name, text)

        def _prepare_entry_data(
            self, content: bytes | str, model_name: str, embedding: list[float],
            metadata: dict[str, Any] | None = None,
        ) -> tuple[str, dict[str, Any]]:
            entry_id = self._make_entry_id(content, model_name)
            entry = CacheEntry(
                entry_id=entry_id, content=entry_id, model_name=model_name, embedding=embedding
            )
            return self._make_key(entry_id), entry.to_dict()

        def set(self, content: Any, model_name: str, embedding: list[float],
                metadata: dict[str, Any] | None = None, ttl: int | None = None) -> str:
            key = self.mset([{"content": content, "model_name": model_name,
                              "embedding": embedding}], ttl=ttl)[0]  # fmt: skip
            return str(key)

        def mset(self, items: list[dict[str, Any]], ttl: int | None = None) -> list[str]:
            keys: list[str] = super().mset(items, ttl=ttl)
            if keys:
                models = {str(i["model_name"]) for i in items}
                bound_cache(self._get_redis_client(), keys, models, self.ttl or 0,
                            self.max_entries)
            return keys

    return PrivateEmbeddingsCache


def bound_cache(client: Any, keys: list[str], models: set[str], ttl: int, limit: int) -> int:
    """Index newly stored cache keys and trim the cache to ``limit`` entries.

    Returns:
        How many entries were evicted.
    """
    now = time.time()
    pipe = client.pipeline(transaction=False)
    pipe.zadd(CACHE_INDEX_KEY, {k: now + i * 1e-6 for i, k in enumerate(keys)})  # batch order
    pipe.sadd(CACHE_MODELS_KEY, *sorted(models))
    if ttl:
        pipe.zremrangebyscore(CACHE_INDEX_KEY, "-inf", now - ttl)  # expired by their TTL
    pipe.zcard(CACHE_INDEX_KEY)
    size = int(pipe.execute()[-1])
    if size <= limit:
        return 0
    oldest = client.zpopmin(CACHE_INDEX_KEY, size - limit)
    victims = [k for k, _score in oldest]
    for i in range(0, len(victims), 500):
        client.unlink(*victims[i : i + 500])
    return len(victims)


def purge_legacy_cache(client: Any) -> int:
    """Delete the plaintext cache entries of earlier releases (``penchant:embeddings:*``),
    once per server (marked in ``penchant:meta``).

    Returns:
        How many entries were deleted.
    """
    if client.hget(META_KEY, "legacy_embeddings_purged"):
        return 0
    found = list(client.scan_iter(match=LEGACY_CACHE_PATTERN, count=1000))
    for i in range(0, len(found), 500):
        client.unlink(*found[i : i + 500])
    client.hset(META_KEY, "legacy_embeddings_purged", "1")
    if found:
        logger.info("deleted %d plaintext embedding cache entries of a release before", len(found))
    return len(found)


def redis_embeddings_cache(client: Any, ttl_seconds: int, max_entries: int) -> Any:
    """The embeddings cache on a borrowed sync redis-py client, or ``None``.

    Args:
        client: A sync redis-py client (standalone or cluster), borrowed, never closed.
        ttl_seconds: Lifetime of an entry (``Settings.embeddings_cache_ttl_seconds``).
        max_entries: Most entries kept (``Settings.embeddings_cache_max``); 0 turns the
            cache off.

    Returns:
        A ``PrivateEmbeddingsCache`` (a redisvl ``EmbeddingsCache``, what a vectorizer takes
        as ``cache=``), or ``None`` when off or when it cannot be built (a cache is an
        optimisation: embedding goes on without it, logged).
    """
    if client is None or max_entries <= 0:
        return None
    try:
        return _private_cache_class()(client, ttl_seconds, max_entries)
    except Exception as exc:  # a cache is an optimisation: never fail embedding for it
        logger.warning("embedding cache disabled: %s", exc)
        return None


__all__ = [
    "LEGACY_CACHE_PATTERN",
    "bound_cache",
    "purge_legacy_cache",
    "redis_embeddings_cache",
]
