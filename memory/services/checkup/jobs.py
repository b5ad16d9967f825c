"""Check-up jobs: one worker at a time per user, under a lease, retried with backoff.

:func:`checkup_job` takes the user's lease (``SET key token NX PX``), renews it before each
try and, from a :class:`LeaseKeeper`, every third of its TTL during a try, and gives it back
when done. :func:`run_due_checkups` removes a user from the schedule only after a successful
check, so a crashed worker's user is picked up by the next run.
"""


from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ...model import PenchantError, UserKeys, validate_user_id

if TYPE_CHECKING:
    from ...client import AsyncMemory, BaseMemory, Memory
from .detection import CheckupReport, ContradictionJudge, arun_checkup, run_checkup

logger = logging.getLogger(__name__)


@dataclass
class JobOutcome:
    """How one check-up job ended.

    Attributes:
        status: ``done``; ``busy`` (another worker holds the user's lease); ``failed``
            (every try failed; the user stays scheduled).
        attempts: Tries made.
        report: The check-up's report when done.
        error: The last error when failed.
    """

    user_id: str
    status: Literal["done", "busy", "failed"]
    attempts: int = 0
    report: CheckupReport | None = None
    error: str = ""


def checkup_job(
    memory: Memory,
    user_id: str,
    *,
    judge: ContradictionJudge | None = None,
    worker_id: str | None = None,
    lease_ms: int | None = None,
    attempts: int | None = None,
    backoff_seconds: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> JobOutcome:
    """Run one user's check-up under a lease, with retries (a schedulable job function).

    Args:
        memory: The memory.
        user_id: Whose memory.
        judge: Optional model (see :func:`find_issues`).
        worker_id: This worker's lease token; a fresh UUID when ``None``.
        lease_ms: Lease time; ``settings.checkup_lease_ms`` by default. Renewed before each
            try; a worker that dies loses it after this long.
        attempts: Tries; ``settings.checkup_attempts`` by default.
        backoff_seconds: First retry delay, doubled after each failure;
            ``settings.checkup_backoff_seconds`` by default.
        sleep: Waits between tries (injected by tests).

    Returns:
        ``done`` with the report, ``busy`` when another live worker holds the lease, or
        ``failed`` with the last error (logged; the job can be run again).
    """
    job = _Job.of(memory, user_id, worker_id, lease_ms, attempts, backoff_seconds)
    if not memory.acquire_lease(job.lease_key, job.token, job.lease_ms):
        return JobOutcome(user_id=user_id, status="busy")
    error = ""
    try:
        for attempt in range(1, job.tries + 1):
            if not memory.renew_lease(job.lease_key, job.token, job.lease_ms):
                return job.lost(attempt)
            try:
                with LeaseKeeper(job.renewal(memory), job.renew_every, job.limit) as keeper:
                    report = run_checkup(memory, user_id, judge=judge, checkpoint=keeper.check)
                return JobOutcome(user_id=user_id, status="done", attempts=attempt, report=report)
            except LeaseLostError:
                return job.lost(attempt + 1, during=True)
            except Exception as exc:  # any failure is retried; PenchantError or not
                error = job.failed(exc, attempt)
                if attempt < job.tries:
                    sleep(job.delay(attempt))
        return JobOutcome(user_id=user_id, status="failed", attempts=job.tries, error=error)
    finally:
        memory.release_lease(job.lease_key, job.token)


async def acheckup_job(
    memory: AsyncMemory,
    user_id: str,
    *,
    judge: ContradictionJudge | None = None,
    worker_id: str | None = None,
    lease_ms: int | None = None,
    attempts: int | None = None,
    backoff_seconds: float | None = None,
) -> JobOutcome:
    """:func:`checkup_job` over an :class:`~.client.AsyncMemory` (waits with
    :func:`asyncio.sleep`)."""
    job = _Job.of(memory, user_id, worker_id, lease_ms, attempts, backoff_seconds)
    if not await memory.acquire_lease(job.lease_key, job.token, job.lease_ms):
        return JobOutcome(user_id=user_id, status="busy")
    error = ""
    try:
        for attempt in range(1, job.tries + 1):
            if not await memory.renew_lease(job.lease_key, job.token, job.lease_ms):
                return job.lost(attempt)
            try:
                async with AsyncLeaseKeeper(job.arenewal(memory), job.renew_every,
                                            job.limit) as keeper:  # fmt: skip
                    report = await asyncio.wait_for(
                        arun_checkup(memory, user_id, judge=judge, checkpoint=keeper.check),
                        job.limit)  # a try stuck in its worker thread is given up on
                return JobOutcome(user_id=user_id, status="done", attempts=attempt, report=report)
            except TimeoutError:
                error = f"the try ran past checkup_try_seconds ({job.limit:.0f} s)"
                logger.error("check-up of %r: %s; the user is left for another run",
                             user_id, error)  # fmt: skip
                return JobOutcome(user_id=user_id, status="failed", attempts=attempt,
                                  error=error)  # fmt: skip
            except LeaseLostError:
                return job.lost(attempt + 1, during=True)
            except Exception as exc:  # any failure is retried; PenchantError or not
                error = job.failed(exc, attempt)
                if attempt < job.tries:
                    await asyncio.sleep(job.delay(attempt))
        return JobOutcome(user_id=user_id, status="failed", attempts=job.tries, error=error)
    finally:
        await memory.release_lease(job.lease_key, job.token)


class LeaseLostError(PenchantError):
    """The check-up's lease was taken by another worker (or expired) during a try."""


class LeaseKeeper:
    """Renews a check-up lease from a background thread while a try runs.

    A try can outlast the lease (a large store, a slow model or embedder), and a lease
    renewed only between tries would let a second worker take the user mid-run. The keeper
    renews every ``every_seconds``; once a renewal says the lease is not ours, :meth:`check`
    raises :class:`LeaseLostError`, which the check-up calls between blocks of work and
    before it writes. A renewal that fails on a Redis error is logged and tried again at the
    next tick (the lease still holds for the rest of its TTL).

    Args:
        renew: Extends the lease; ``False`` when it is no longer ours.
        every_seconds: Time between renewals.
    """

    def __init__(
        self, renew: Callable[[], bool], every_seconds: float, limit_seconds: float = math.inf
    ) -> None:
        self._renew = renew
        self._every = every_seconds
        self._deadline = time.monotonic() + limit_seconds
        self._lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="penchant-lease", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def check(self) -> None:
        """Raise :class:`LeaseLostError` once the lease was lost (thread-safe)."""
        if self._lost.is_set():
            raise LeaseLostError("the check-up lease was lost to another worker")

    def _overdue(self) -> bool:
        """Past the try's time limit: stop renewing, so that a try stuck for good (a model
        call that never returns) does not hold the user for ever (issue 19: a lease renewed
        27k times); :meth:`check` then stops the try at its next checkpoint."""
        if time.monotonic() < self._deadline:
            return False
        logger.error("check-up try ran past its time limit; its lease is no longer renewed")
        self._lost.set()
        return True

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            if self._overdue():
                return
            try:
                if not self._renew():
                    self._lost.set()
                    return
            except Exception as exc:  # a Redis hiccup: the lease still runs; retry next tick
                logger.warning("could not renew the check-up lease: %s", exc)


class AsyncLeaseKeeper(LeaseKeeper):
    """:class:`LeaseKeeper` as an asyncio task (``async with``); :meth:`check` stays
    callable from the worker thread the comparison runs in."""

    def __init__(
        self, renew: Callable[[], Awaitable[bool]], every_seconds: float,
        limit_seconds: float = math.inf,
    ) -> None:
        super().__init__(lambda: True, every_seconds, limit_seconds)
        self._arenew = renew
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    async def __aenter__(self) -> AsyncLeaseKeeper:
        self._task = asyncio.create_task(self._arun())
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop renewing. The task is cancelled *and* told to stop: a cancellation that
        lands inside a renewal can be swallowed on its way out of the Redis client (it came
        back as a Redis error, caught below), and a keeper that only relied on it renewed
        the lease for ever while this ``await`` never returned (issue 19: a check-up whose
        lease was renewed 27k times; reproduced by the async lease test)."""
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _arun(self) -> None:
        while not self._closing:
            await asyncio.sleep(self._every)
            if self._closing or self._overdue():
                return
            try:
                if not await self._arenew():
                    self._lost.set()
                    return
            except Exception as exc:  # a Redis hiccup: the lease still runs; retry next tick
                if self._closing:
                    return
                logger.warning("could not renew the check-up lease: %s", exc)


@dataclass(frozen=True)
class _Job:
    """One check-up job's lease and retry plan (what the sync and async jobs share)."""

    user_id: str
    lease_key: str
    token: str
    lease_ms: int
    tries: int
    backoff: float
    limit: float = math.inf

    @classmethod
    def of(
        cls,
        memory: BaseMemory,
        user_id: str,
        worker_id: str | None,
        lease_ms: int | None,
        attempts: int | None,
        backoff_seconds: float | None,
    ) -> _Job:
        settings = memory.settings
        return cls(
            user_id=user_id,
            lease_key=UserKeys.for_user(user_id).checkup_lease,
            token=worker_id or uuid.uuid4().hex,
            lease_ms=lease_ms or settings.checkup_lease_ms,
            tries=attempts or settings.checkup_attempts,
            backoff=settings.checkup_backoff_seconds if backoff_seconds is None
            else backoff_seconds,
            limit=settings.checkup_try_seconds,
        )

    def delay(self, attempt: int) -> float:
        """Seconds before the next try: the backoff doubled after each failure."""
        return float(self.backoff * 2 ** (attempt - 1))

    @property
    def renew_every(self) -> float:
        """Seconds between renewals during a try: a third of the lease, so two renewals
        can fail (a slow Redis) before it runs out."""
        return self.lease_ms / 3000.0

    def renewal(self, memory: Memory) -> Callable[[], bool]:
        return lambda: memory.renew_lease(self.lease_key, self.token, self.lease_ms)

    def arenewal(self, memory: AsyncMemory) -> Callable[[], Awaitable[bool]]:
        return lambda: memory.renew_lease(self.lease_key, self.token, self.lease_ms)

    def lost(self, attempt: int, *, during: bool = False) -> JobOutcome:
        where = " during the check-up; nothing was written" if during else ""
        return JobOutcome(user_id=self.user_id, status="busy", attempts=attempt - 1,
                          error=f"lost the lease to another worker{where}")

    def failed(self, exc: Exception, attempt: int) -> str:
        error = f"{type(exc).__name__}: {exc}"
        level = logging.WARNING if isinstance(exc, PenchantError) else logging.ERROR
        logger.log(level, "check-up of %r failed (try %d/%d): %s",
                   self.user_id, attempt, self.tries, error)
        return error


def schedule_checkup(memory: Memory, user_id: str, *, delay_ms: int = 0) -> int:
    """Put a user's check-up on the schedule (an earlier due time is kept).

    Returns:
        The due time, epoch milliseconds.
    """
    validate_user_id(user_id)
    due = int(time.time() * 1000) + max(0, delay_ms)
    memory.schedule_checkup(user_id, due)
    return due


async def aschedule_checkup(memory: AsyncMemory, user_id: str, *, delay_ms: int = 0) -> int:
    """:func:`schedule_checkup` over an :class:`~.client.AsyncMemory`."""
    validate_user_id(user_id)
    due = int(time.time() * 1000) + max(0, delay_ms)
    await memory.schedule_checkup(user_id, due)
    return due


def run_due_checkups(
    memory: Memory,
    *,
    worker_id: str | None = None,
    judge: ContradictionJudge | None = None,
    limit: int = 100,
    now_ms: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> list[JobOutcome]:
    """One worker pass over the due check-ups (call it from cron, a loop or a task queue).

    A user leaves the schedule only after a successful check (and only if nobody rescheduled
    it meanwhile); a busy or failed one stays for the next pass, so a crashed worker strands
    nothing: its lease expires and the user is still due.
    """
    now = int(time.time() * 1000) if now_ms is None else now_ms
    token = worker_id or uuid.uuid4().hex
    outcomes = []
    for user_id, due in memory.due_checkups(now, limit):
        outcome = checkup_job(memory, user_id, judge=judge, worker_id=token, sleep=sleep)
        if outcome.status == "done":
            memory.complete_checkup(user_id, due)
        outcomes.append(outcome)
    return outcomes


async def arun_due_checkups(
    memory: AsyncMemory,
    *,
    worker_id: str | None = None,
    judge: ContradictionJudge | None = None,
    limit: int = 100,
    now_ms: int | None = None,
) -> list[JobOutcome]:
    """:func:`run_due_checkups` over an :class:`~.client.AsyncMemory` (one user at a time,
    like the sync pass)."""
    now = int(time.time() * 1000) if now_ms is None else now_ms
    token = worker_id or uuid.uuid4().hex
    outcomes = []
    for user_id, due in await memory.due_checkups(now, limit):
        outcome = await acheckup_job(memory, user_id, judge=judge, worker_id=token)
        if outcome.status == "done":
            await memory.complete_checkup(user_id, due)
        outcomes.append(outcome)
    return outcomes

