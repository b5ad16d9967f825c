"""A deterministic, dependency-free fake embedder for tests."""

from __future__ import annotations

import hashlib

import numpy as np

from ..model import InvalidInputError
from .base import l2_normalise


class HashEmbedder:
    """Deterministic fake embeddings: hashed bag of
    :func:`~penchant.memory.core.lexical.tokenize` terms.

    Texts sharing terms get positive cosine; unrelated texts ≈0. Signs and buckets come from
    BLAKE2b, so vectors are identical across processes and platforms (feature hashing:
    Weinberger et al. 2009, "Feature Hashing for Large Scale Multitask Learning").

    Args:
        dim: Vector width.

    Attributes:
        name: ``"hash-<dim>"``.
        dim: Vector width.
        multilingual: True: the tokens are CJK-aware.
        loaded: Always True (nothing to load).
    """

    multilingual = True
    loaded = True

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
        from ..core import tokenize

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in tokenize(text):
                h = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "big")
                out[row, h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        return l2_normalise(out)


__all__ = ["HashEmbedder"]
