"""The server's cache of verified tokens (:class:`penchant.service.AsyncTokenStore`), against
the session's real Redis with a fake clock: a revoked token keeps working at most
``cache_seconds`` after the revoke, never longer (a hit does not extend it), and with no
cache it is refused from the next request; unknown tokens are never cached."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from penchant.memory import InvalidInputError, StorageUnavailableError
from penchant.service import AsyncTokenStore, TokenScope, TokenStore
from penchant.service.tokens import TOKENS_KEY

from conftest import async_client


class Clock:
    """Monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CountingClient:
    """The real async client, counting the ``HGET`` calls that reach Redis."""

    def __init__(self, client: Any) -> None:
        self.client, self.hgets = client, 0

    async def hget(self, key: str, field: str) -> Any:
        self.hgets += 1
        return await self.client.hget(key, field)


@pytest.fixture
async def aclient(redis_client: Any, redis_url: str) -> Any:
    client = async_client(redis_url)
    yield client
    await client.aclose()


async def test_a_revoked_token_works_at_most_cache_seconds_after_the_revoke(
    redis_client: Any, aclient: Any
) -> None:
    clock, counting = Clock(), CountingClient(aclient)
    store = AsyncTokenStore(counting, cache_seconds=1.0, clock=clock)
    token, info = TokenStore(redis_client).create(TokenScope(user="ana"))

    assert await store.scope_of(token) == TokenScope(user="ana")
    assert counting.hgets == 1
    clock.now += 0.5
    assert await store.scope_of(token) == TokenScope(user="ana")  # from the cache
    assert counting.hgets == 1

    assert TokenStore(redis_client).revoke(info.id)
    assert redis_client.hget(TOKENS_KEY, info.id) is None
    clock.now += 0.49  # 0.99 s after the HGET: still trusted, and the hit did not extend it
    assert await store.scope_of(token) == TokenScope(user="ana")
    clock.now += 0.01  # 1.0 s after the HGET: asked again, and refused
    assert await store.scope_of(token) is None
    assert counting.hgets == 2
    clock.now += 5
    assert await store.scope_of(token) is None
    assert counting.hgets == 3  # a refused token is never cached


async def test_with_no_cache_a_revoked_token_is_refused_from_the_next_request(
    redis_client: Any, aclient: Any
) -> None:
    clock, counting = Clock(), CountingClient(aclient)
    store = AsyncTokenStore(counting, cache_seconds=0, clock=clock)
    token, info = TokenStore(redis_client).create(TokenScope(tenant="acme:"))
    assert await store.scope_of(token) == TokenScope(tenant="acme:")
    assert await store.scope_of(token) == TokenScope(tenant="acme:")
    assert counting.hgets == 2
    assert TokenStore(redis_client).revoke(info.id)
    assert await store.scope_of(token) is None


async def test_a_token_created_after_a_refusal_works_at_once_and_forgeries_are_not_cached(
    redis_client: Any, aclient: Any
) -> None:
    counting = CountingClient(aclient)
    store = AsyncTokenStore(counting, cache_seconds=60, clock=Clock())
    token, info = TokenStore(redis_client).create(TokenScope(user="bob"))
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")  # same id
    assert await store.scope_of(forged) is None
    assert await store.scope_of(token) == TokenScope(user="bob")
    assert await store.scope_of(forged) is None  # the cached entry is the real token's only
    assert counting.hgets == 3
    other, _ = TokenStore(redis_client).create(TokenScope(user="cy"))
    assert await store.scope_of(other) == TokenScope(user="cy")


async def test_redis_down_is_storage_unavailable_not_a_refusal(redis_client: Any) -> None:
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialWithJitterBackoff

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token, _ = TokenStore(redis_client).create(TokenScope(user="ana"))
    # retried as Penchant's own connections are; redis-py's default spends seconds a command
    down = aioredis.Redis(port=port, socket_connect_timeout=1,
                          retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.25), 3))
    try:
        with pytest.raises(StorageUnavailableError, match="token store"):
            await AsyncTokenStore(down, cache_seconds=1.0).scope_of(token)
    finally:
        await down.aclose()


@pytest.mark.parametrize("seconds", [-1.0, float("inf"), float("nan")])
def test_a_bad_cache_time_is_refused_with_the_range(seconds: float) -> None:
    with pytest.raises(InvalidInputError, match="token cache"):
        AsyncTokenStore(object(), cache_seconds=seconds)
