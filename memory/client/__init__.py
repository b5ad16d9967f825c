"""``Memory`` and ``AsyncMemory``: the gate's two doors, one sync and one async.

Every write of a user's memory is a method of theirs — remember, capture, forget, import,
reflect's observations, the check-up's flags, re-embedded vectors, history, transcripts.

* :mod:`.base` — :class:`BaseMemory`: the write loop (a generator of I/O requests), the
  planning of every write and the snapshot cache; no I/O.
* :mod:`.sync` — :class:`Memory`, over the sync backend.
* :mod:`.asyncio` — :class:`AsyncMemory`, the same methods as coroutines over
  ``redis.asyncio``.
"""

from .asyncio import AsyncMemory
from .base import BaseMemory, MemoryContext
from .holds import screen_summary, with_held
from .sync import Memory

__all__ = ["AsyncMemory", "BaseMemory", "Memory", "MemoryContext", "screen_summary", "with_held"]
