"""An exclusive advisory lock on a file, shared by Penchant processes on one machine."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Hold ``flock(LOCK_EX)`` on ``path`` (created, with its folder) for the block.

    The lock is released when the block ends or the process dies, so a
    crashed holder never strands it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


__all__ = ["exclusive_lock"]
