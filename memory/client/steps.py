"""The I/O requests a client's write or read logic yields (read, commit, sleep, erase), and
the helpers that drive such a generator. The logic is shared by ``Memory`` and
``AsyncMemory``; only the loop that answers these requests differs."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core import Erasure, Idempotency
from ..model import UserKeys

T = TypeVar("T")


@dataclass(frozen=True)
class Read:
    """Read the user's snapshot at its current revision (the driver passes the cached one as
    ``known``, so only what changed since is fetched)."""

    keys: UserKeys


@dataclass(frozen=True)
class Commit:
    keys: UserKeys
    ops: list[Any]
    expected_revision: str | None
    idempotency: Idempotency | None


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Erase:
    """Scrub a forget's text from the records that copy it, and drop the cached embeddings
    of ``texts`` (after the forget's commit)."""

    keys: UserKeys
    erasure: Erasure
    texts: list[str]


Request = Read | Commit | Sleep | Erase
Steps = Generator[Request, Any, T]



def prime(steps: Steps[Any]) -> Any:
    """Run a steps generator to its first I/O request (screening, embedding happen here)."""
    try:
        return ("request", steps.send(None))
    except StopIteration as stop:
        return ("done", stop.value)


def resume(steps: Steps[T], first: tuple[str, Any]) -> Steps[T]:
    kind, value = first
    if kind == "done":
        return value  # type: ignore[no-any-return]
    reply = yield value
    while True:
        try:
            request = steps.send(reply)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        reply = yield request


__all__ = ["Commit", "Erase", "Read", "Request", "Sleep", "Steps", "T", "prime", "resume"]
