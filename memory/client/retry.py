"""The one retry policy of optimistic writes: exponential backoff with full jitter, time-boxed.

A write reads the user's snapshot, plans, and commits only if the revision is still the one it
read. When another writer got there first, it backs off and plans again on fresh data. The
wait before try *n* is uniform in ``[0, min(cap, base · 2ⁿ)]`` ("full jitter": Marc Brooker,
"Exponential Backoff And Jitter", AWS Architecture Blog, 2015), which spreads colliding
writers apart instead of having them retry in lock step. The budget is time, not a count of
tries: 8 processes writing one user (a measurement that lost 5 of 960 writes after
50 immediate retries) all get through within it.

Pure: the sync :class:`~.client.Memory` sleeps with :func:`time.sleep`, the async one with
:func:`asyncio.sleep`; both iterate the same :meth:`RetryPolicy.delays`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from ..model import ConcurrencyError


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff of a write that lost its optimistic lock.

    Attributes:
        budget_seconds: Longest time spent retrying before :class:`ConcurrencyError` (10 s).
        base_seconds: First backoff ceiling (2 ms).
        cap_seconds: Largest backoff ceiling (200 ms).
    """

    budget_seconds: float = 10.0
    base_seconds: float = 0.002
    cap_seconds: float = 0.2

    def delays(self, what: str) -> Iterator[float]:
        """Seconds to wait before each retry; raises when the budget is spent.

        Args:
            what: The write, for the error (``"write preferences of 'alice'"``).

        Yields:
            The next backoff, ``uniform(0, min(cap, base · 2ⁿ))``.

        Raises:
            ConcurrencyError: ``budget_seconds`` passed; nothing of the write was stored.
        """
        deadline = time.monotonic() + self.budget_seconds
        attempt = 0
        while True:
            ceiling = min(self.cap_seconds, self.base_seconds * 2**attempt)
            delay = random.uniform(0.0, ceiling)
            if time.monotonic() + delay > deadline:
                raise ConcurrencyError(
                    f"could not {what}: other writers kept changing this user's memory for "
                    f"{self.budget_seconds:.0f} s ({attempt + 1} tries); nothing was stored, "
                    "retry the write"
                )
            attempt += 1
            yield delay


def failover_delays(budget_seconds: float) -> Iterator[float]:
    """Backoff between retries of one request while a Redis Cluster fails over or moves a
    slot: 50 ms doubling to 500 ms, until ``budget_seconds`` (wall time, the failing tries
    included) have passed; then the generator ends and the caller raises.

    A failover takes ``cluster-node-timeout`` plus about a second to elect and promote a
    replica (the Redis Cluster specification); redis-py's own retries are immediate and
    spent long before that.
    """
    deadline = time.monotonic() + budget_seconds
    delay = 0.05
    while time.monotonic() + delay <= deadline:
        yield delay
        delay = min(delay * 2, 0.5)


def internal_idempotency_ttl(write_retry_seconds: float) -> int:
    """Lifetime in seconds of the idempotency record of a write whose caller gave no key:
    long enough to recognise every resend of it (``3 ×`` the write budget, at least 60 s),
    short so that the records of frequent writes do not pile up (about 150 bytes each)."""
    return max(60, math.ceil(3 * write_retry_seconds))


__all__ = ["RetryPolicy", "failover_delays", "internal_idempotency_ttl"]
