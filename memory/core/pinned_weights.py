"""Weight files shipped with a pinned SHA-256: the learned heads' one way to be read.

The statement head (:mod:`.capture.statements`) and the directive head
(:mod:`.directive_head`) are small numpy arrays in ``.npz`` files beside their modules; each
module pins its file's digest, and a file whose digest differs is refused before numpy reads
it (a tampered or half-written file never becomes a classifier).
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from ..model import ModelIntegrityError


def read_pinned_weights(path: Path, sha256: str, what: str, retrain: str) -> dict[str, np.ndarray]:
    """The arrays of a ``.npz`` weight file, after checking its SHA-256.

    Args:
        path: The weight file.
        sha256: Its pinned digest (64 hex digits).
        what: The head it holds, for messages (``"statement head"``).
        retrain: The command that rebuilds the file (``"python bench/train_statements.py"``).

    Returns:
        Array name → array (pickles refused).

    Raises:
        ModelIntegrityError: The file is missing, or its digest differs from ``sha256``
            (both named, with the fix).
    """
    if not path.is_file():
        raise ModelIntegrityError(
            f"{what} {path} is missing; reinstall penchant or run `{retrain}`"
        )
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != sha256:
        raise ModelIntegrityError(
            f"{what} {path} has SHA-256 {actual}, expected {sha256}; refusing to load it. "
            f"Reinstall penchant or retrain with `{retrain}`"
        )
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


T = TypeVar("T")


def loaded_once(load: Callable[[], T]) -> Callable[[], T]:
    """``load`` made to run once per process: the first call loads (behind a lock, so
    threads that ask at once share one load), every later call returns what it loaded. A
    load that raises (a file refused) is tried again on the next call.

    Args:
        load: Builds the shipped model (``StatementHead.load`` and the like).

    Returns:
        A function of no arguments with ``load``'s name and docstring.
    """
    lock = threading.Lock()
    loaded: list[T] = []

    @functools.wraps(load)
    def get() -> T:
        with lock:
            if not loaded:
                loaded.append(load())
            return loaded[0]

    return get


__all__ = ["loaded_once", "read_pinned_weights"]
