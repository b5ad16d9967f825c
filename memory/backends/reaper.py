"""``python -m penchant.memory.backends.reaper --reap DIR``: the embedded server's reaper
process (see :mod:`.server`).

Its own module so that ``-m`` does not run :mod:`.server` a second time: the backends'
door has already imported it by the time ``-m`` would execute it as ``__main__``.
"""

from __future__ import annotations

from .server import main

if __name__ == "__main__":
    raise SystemExit(main())
