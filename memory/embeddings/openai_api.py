"""OpenAI (or OpenAI-compatible) embeddings through redisvl's ``OpenAITextVectorizer``."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from ..model import InvalidInputError, PenchantError
from .base import VectorizerCache, embed_with

_OPENAI_DIMS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


class OpenAIEmbedder:
    """OpenAI (or OpenAI-compatible) embeddings through redisvl's ``OpenAITextVectorizer``.

    The client is created on first use; nothing is contacted at construction. redisvl's
    ``EmbeddingsCache`` is kept here: a hit (0.3 ms on the embedded server) saves a network
    round trip.

    Args:
        model: e.g. ``"text-embedding-3-small"`` (``float32[1536]``).
        api_key: The key; ``None`` uses ``OPENAI_API_KEY``.
        base_url: An OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:8000/v1``.
        cache: A ready embeddings cache (the backend's ``embeddings_cache``), or ``None``.

    Attributes:
        multilingual: True.
        relevant_cosine: 0.0 (unmeasured: every semantic candidate counts as relevant).
    """

    multilingual = True
    relevant_cosine = 0.0

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        cache: VectorizerCache | None = None,
    ) -> None:
        if not model:
            raise InvalidInputError(
                "OpenAI embedding model is empty; use e.g. openai:text-embedding-3-small"
            )
        self._model = model
        self._api_key = api_key
        self._base_url = base_url
        self._cache = cache
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

    @property
    def loaded(self) -> bool:
        """Whether the client exists (a remote model has nothing to load)."""
        return self._vectorizer is not None

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed sentences with the API.

        Args:
            texts: Sentences.

        Returns:
            ``float32[len(texts), dim]``, unit rows.

        Raises:
            PenchantError: The client cannot be created (no key, no ``openai`` package).
        """
        return embed_with(self._load(), list(texts), self.dim)

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
                        cache=self._cache,
                    )
                except Exception as exc:
                    raise PenchantError(
                        f"cannot use OpenAI embeddings {self._model!r}: {exc}. Set "
                        "OPENAI_API_KEY (and OPENAI_BASE_URL for compatible servers) or choose "
                        "a local model with PENCHANT_EMBEDDINGS"
                    ) from exc
        return self._vectorizer


__all__ = ["OpenAIEmbedder"]
