"""Train and calibrate the directive head (memory/core/directives.npz).

Positives (instructions to the assistant): the intent bank
(:data:`~penchant.memory.core.intent_screen.INJECTION_INTENTS`), ``tests/data/poison_dev.jsonl``
and the attacks of ``bench/corpus/poison/tune.jsonl`` whose kind is read by meaning
(``paraphrase``, ``hidden``, ``role-line``; the structural kinds, spacing, leet, base64,
links and look-alike fields, are the patterns' job).

Negatives (preferences): 1,500 statements of ``bench/corpus/statements/train.jsonl`` (seed
0), the benign cases of ``tests/data/benign_preferences.jsonl`` and
``tests/data/benign_lookalikes.jsonl``, the benign rows of the tune file, and the PrefEval-dev
preferences of the five development topics (:data:`capture_quality.DEV_TOPICS`), whole and
piece by piece (:func:`~penchant.memory.core.screening_pieces`).

Never read: ``bench/corpus/poison/heldout.jsonl`` and ``tests/data/poison_heldout.jsonl``
(measured by ``bench/intent_calibration.py``), PrefEval's other five topics (only their
highest logit sets the threshold).

Model: logistic regression on the USE-multilingual v3 vector, class-balanced cross-entropy
with L2 (``--l2``, 1e-4: the best of 1e-4 / 1e-3 / 1e-2 by 5-fold cross-validation on the
tune file), full-batch Adam from zeros for ``--steps`` steps: deterministic for a given
corpus and embedder.

Threshold: the highest logit of any benign calibration text (all 505 PrefEval-dev
statements, every benign case of the tests and of the tune file, whole and piece by piece)
plus ``--margin`` (0.25 logit), so that none of them is refused.

Usage::

    python bench/train_directives.py [--steps 600] [--l2 1e-4] [--margin 0.5]

Writes the npz, rewrites ``DIRECTIVE_HEAD_SHA256`` in ``memory/core/directive_head.py`` and
prints the threshold and the training accuracy.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

from penchant.memory.core import bank_texts, screening_pieces
from penchant.memory.embeddings import USEEmbedder, embedding_text, sha256_file

REPO = Path(__file__).resolve().parents[1]
PREFEVAL = REPO.parent / "shared" / "data" / "prefeval-dev"
DATA = REPO / "tests" / "data"
POISON = REPO / "bench" / "corpus" / "poison"
HEAD_FILE = REPO / "memory" / "core" / "directives.npz"
SEMANTIC_KINDS = ("paraphrase", "hidden", "role-line")
sys.path.insert(0, str(REPO / "bench"))
from capture_quality import DEV_TOPICS  # noqa: E402


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def whole_and_pieces(content: str, category: str | None = None) -> list[str]:
    """The texts the gate embeds for one candidate: the whole (with its category) and each
    piece."""
    return [embedding_text(content, category), *screening_pieces(content)]


def positives() -> list[str]:
    tune = [r["content"] for r in jsonl(POISON / "tune.jsonl")
            if r["attack"] and r["kind"] in SEMANTIC_KINDS]
    dev = [r["content"] for r in jsonl(DATA / "poison_dev.jsonl")]
    return [*bank_texts(), *dev, *tune]


def benign_cases() -> list[dict[str, Any]]:
    """Every benign case the tests and the tune file hold."""
    tune = [r for r in jsonl(POISON / "tune.jsonl") if not r["attack"]]
    return jsonl(DATA / "benign_preferences.jsonl") + jsonl(DATA / "benign_lookalikes.jsonl") + tune


def prefeval(topics: tuple[str, ...] | None = None) -> list[str]:
    files = sorted(PREFEVAL.glob("*.json"))
    return [r["preference"] for f in files if topics is None or f.stem in topics
            for r in json.loads(f.read_text(encoding="utf-8"))]


def negatives() -> list[str]:
    rows = [r for r in jsonl(REPO / "bench" / "corpus" / "statements" / "train.jsonl")
            if r["kind"] != "contrast"]
    statements = [r["text"] for r in random.Random(0).sample(rows, min(1500, len(rows)))]
    benign = [t for b in benign_cases() for t in whole_and_pieces(b["content"], b.get("category"))]
    dev = [t for p in prefeval(DEV_TOPICS) for t in whole_and_pieces(p)]
    return statements + benign + dev


def calibration_texts() -> list[str]:
    """Every benign text whose logit the threshold must stay above."""
    benign = [t for b in benign_cases() for t in whole_and_pieces(b["content"], b.get("category"))]
    return benign + [t for p in prefeval() for t in whole_and_pieces(p)]


def train(x: np.ndarray, y: np.ndarray, steps: int, l2: float, lr: float = 0.05
          ) -> tuple[np.ndarray, float]:
    """Class-balanced logistic regression by full-batch Adam from zeros (deterministic)."""
    n, d = x.shape
    weight = np.where(y == 1, n / (2 * y.sum()), n / (2 * (n - y.sum())))
    w, b = np.zeros(d), 0.0
    m_w, v_w, m_b, v_b = np.zeros(d), np.zeros(d), 0.0, 0.0
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for t in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        g = (p - y) * weight / weight.sum()
        g_w, g_b = x.T @ g + l2 * w, float(g.sum())
        m_w = beta1 * m_w + (1 - beta1) * g_w
        v_w = beta2 * v_w + (1 - beta2) * g_w * g_w
        m_b = beta1 * m_b + (1 - beta1) * g_b
        v_b = beta2 * v_b + (1 - beta2) * g_b * g_b
        w -= lr * (m_w / (1 - beta1**t)) / (np.sqrt(v_w / (1 - beta2**t)) + eps)
        b -= lr * (m_b / (1 - beta1**t)) / (np.sqrt(v_b / (1 - beta2**t)) + eps)
    return w, b


def embed(embedder: USEEmbedder, texts: list[str]) -> np.ndarray:
    out = [np.asarray(embedder.embed(texts[i : i + 256])) for i in range(0, len(texts), 256)]
    return np.vstack(out).astype(np.float64)


def save(w: np.ndarray, b: float, threshold: float, space: str, path: Path = HEAD_FILE) -> str:
    """Write the npz byte-for-byte reproducibly; returns its SHA-256."""
    buffer = io.BytesIO()
    np.savez(buffer, w=w.astype(np.float32), b=np.float32(b), threshold=np.float32(threshold),
             space=np.array(space))
    path.write_bytes(buffer.getvalue())
    return sha256_file(path)


def pin(digest: str) -> None:
    source = REPO / "memory" / "core" / "directive_head.py"
    text = source.read_text(encoding="utf-8")
    text = re.sub(r'DIRECTIVE_HEAD_SHA256 = "[0-9a-f]{64}"',
                  f'DIRECTIVE_HEAD_SHA256 = "{digest}"', text)
    source.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--margin", type=float, default=0.25)
    args = parser.parse_args(argv)
    embedder = USEEmbedder()
    pos, neg = positives(), negatives()
    x = embed(embedder, pos + neg)
    y = np.array([1.0] * len(pos) + [0.0] * len(neg))
    w, b = train(x, y, args.steps, args.l2)
    calibration = calibration_texts()
    logits = embed(embedder, calibration) @ w + b
    top = int(np.argmax(logits))
    threshold = float(np.ceil((logits[top] + args.margin) * 10) / 10)
    accuracy = float((((x @ w + b) >= threshold) == (y == 1)).mean())
    digest = save(w, b, threshold, embedder.name)
    pin(digest)
    print(f"{len(pos)} directives, {len(neg)} preferences; highest benign logit "
          f"{logits[top]:.2f} ({calibration[top][:70]!r}); threshold {threshold:.1f}; "
          f"training accuracy {accuracy:.3f}; sha256 {digest}")


if __name__ == "__main__":
    main()
