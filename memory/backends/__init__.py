"""Redis backends: :mod:`.sync` (redis-py) and :mod:`.asyncio` (``redis.asyncio``), the only
modules that depend on redis-py, and :mod:`.wire`, the scripts and encodings they share.

Private: only :class:`~penchant.memory.client.Memory` and
:class:`~penchant.memory.client.AsyncMemory` use a backend.
"""
