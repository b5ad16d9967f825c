"""Writing a shipped weight file and pinning its digest: what the training scripts share.

``bench/train_statements.py``, ``bench/train_directives.py`` and ``bench/train_objects.py``
each write an ``.npz`` beside the module that reads it and rewrite the SHA-256 that module
pins (:mod:`penchant.memory.core.pinned_weights` refuses a file whose digest differs).
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import numpy as np


def write_npz(path: Path, **arrays: np.ndarray) -> str:
    """Write ``arrays`` to ``path`` as a compressed ``.npz``, byte for byte the same for the
    same arrays (the archive's members carry no time), and return the file's SHA-256."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    data = buffer.getvalue()
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def pin_digest(module: Path, name: str, digest: str) -> None:
    """Rewrite the line ``name = "<64 hex digits>"`` of ``module`` with ``digest``.

    Raises:
        SystemExit: ``module`` has no such line (the digest would silently stay stale).
    """
    text = module.read_text(encoding="utf-8")
    text, count = re.subn(rf'^{name} = "[0-9a-f]{{64}}"', f'{name} = "{digest}"', text,
                          flags=re.M)
    if count != 1:
        raise SystemExit(f"{module} has no line {name} = \"<sha256>\" to pin {digest} in")
    module.write_text(text, encoding="utf-8")
