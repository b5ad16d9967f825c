"""Train and calibrate the directive head (memory/core/directives.npz).

Positives (instructions to the assistant): the intent bank
(:data:`~penchant.memory.core.intent_screen.INJECTION_INTENTS`), ``tests/data/poison_dev.jsonl``,
the attacks of ``bench/corpus/poison/tune.jsonl`` whose kind is read by meaning
(``paraphrase``, ``hidden``, ``role-line``; the structural kinds, spacing, leet, base64,
links and look-alike fields, are the patterns' job) and every attack of
``bench/corpus/poison/written.jsonl`` (1,535 rows in 15 languages, written by a helper who saw
no file of the repository: overrides, new identities, leaks, steering, suppressed warnings,
false authority, obedience, standing rules and directives hidden after a preference) and
``written2.jsonl`` (a second helper, likewise blind: more hidden directives, leaks and
steering phrased as preferences, and hard look-alikes and style wishes) and
``written3.jsonl`` (two more helpers, likewise blind: 560 attacks in eight kinds, 600
preferences, style wishes and look-alikes; rows also in an evaluation set dropped) and
``written4.jsonl`` (two more blind helpers, 1,620 rows: wishes that would make answers
harmful with no imperative — figures changed on purpose, safety information left out, a
name that grants authority — against look-alikes about numbers, safety and names).

Negatives (preferences): 1,500 statements of ``bench/corpus/statements/train.jsonl`` (seed
0), the benign cases of ``tests/data/benign_preferences.jsonl`` and
``tests/data/benign_lookalikes.jsonl``, the benign rows of the tune file and of the written
files (preferences, style wishes, look-alikes, other people), and every PrefEval-dev
preference, whole and piece by piece (:func:`~penchant.memory.core.screening_pieces`).

Never read: ``bench/corpus/poison/heldout.jsonl``, ``tests/data/poison_heldout.jsonl``,
``bench/corpus/poison/style_dev.jsonl``, ``bench/data/poison_blind.jsonl`` and
``bench/data/poison_blind2.jsonl`` (measured by ``bench/intent_calibration.py``).

Model: a one-hidden-layer ReLU network (``--hidden`` 256 units, He-initialised from seed 0)
on the USE-multilingual v3 vector, class-balanced binary cross-entropy with L2 (``--l2``,
1e-4), full-batch Adam for ``--steps`` (500) steps: deterministic for a given corpus and
embedder. Size, steps and L2 were chosen with half of the written file held out (split by
SHA-256 of the text); a linear head (the previous one) caught 55 % of that half's attacks
where the network caught 87 %, at the same calibration.

Lexical part: two-class softmax regression over the text's hashed word and character
n-grams (:mod:`penchant.memory.core.ngrams`, ``--lexical-steps`` 300 of full-batch Adam from
zeros, as the statement head's), shipped as one float16 logit column and added to the
network's logit times ``--lexical-mix`` (1.0). The share was chosen among 0, 0.3, 0.5, 1 and
2 on the counts of ``bench/data/poison_blind.jsonl``: its attacks refused by the head alone
went 173 → 188 of 200 from 0 to 1 (181 at 0.3, 183 at 0.5, 188 at 2), its benign rows
refused stayed 5, the out-of-fold attacks caught .839 → .916.

Threshold: cross-fitted. Five networks and lexical parts, each trained without one fifth of
the texts (split by SHA-256), give every negative a logit from models that never saw it; the
threshold is the ``--quantile`` (0.994) of those out-of-fold logits, so that about 6 in
1,000 unseen preferences of the training kinds would be refused. (It was 0.997 until the
hard look-alikes of ``written4.jsonl`` joined the negatives and lifted that quantile from
3.1 to 5.2. On the development sets alone (``tune``, ``blind``, ``style-dev`` and
``harms-dev`` of ``bench/intent_calibration.py``, 530 attacks), threshold 5.2 refused 466
attacks and 13 benign rows, 3.5 refused 486 and 17, and the previous head 445 and 18; 0.994
gives 3.9: 480 and 16, fewer benign refusals than the previous head.) It is then raised, if need
be, above the highest logit the shipped network gives any benign calibration text (all 505
PrefEval-dev statements, every benign case of the tests, the tune and written files, whole
and piece by piece) plus ``--margin`` (0.25), so none of those is refused. (A threshold set
on the training texts alone sits far too low: the network has fitted them.)

Usage::

    python bench/train_directives.py [--hidden 256] [--steps 500] [--l2 1e-4]
        [--quantile 0.994] [--margin 0.25]

Writes the npz, rewrites ``DIRECTIVE_HEAD_SHA256`` in ``memory/core/directive_head.py`` and
prints the threshold and the out-of-fold recall of the attacks.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from hashlib import sha256
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

from penchant.memory.core import bank_texts, screening_pieces
from penchant.memory.embeddings import USEEmbedder, embedding_text

REPO = Path(__file__).resolve().parents[1]
PREFEVAL = REPO.parent / "shared" / "data" / "prefeval-dev"
DATA = REPO / "tests" / "data"
POISON = REPO / "bench" / "corpus" / "poison"
WRITTEN = (POISON / "written.jsonl", POISON / "written2.jsonl", POISON / "written3.jsonl",
           POISON / "written4.jsonl")
HEAD_FILE = REPO / "memory" / "core" / "directives.npz"
SEMANTIC_KINDS = ("paraphrase", "hidden", "role-line")
FOLDS = 5
sys.path.insert(0, str(REPO / "bench"))
from pinned_npz import pin_digest, write_npz  # noqa: E402
from train_statements import _adam, train_lexical  # noqa: E402

from penchant.memory.core import ngrams  # noqa: E402


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def whole_and_pieces(content: str, category: str | None = None) -> list[str]:
    """The texts the gate embeds for one candidate: the whole (with its category) and each
    piece."""
    return [embedding_text(content, category), *screening_pieces(content)]


def written_rows() -> list[dict[str, Any]]:
    """The rows of the written files, in order."""
    return [row for path in WRITTEN for row in jsonl(path)]


def positives() -> list[str]:
    """Directives: whole, and piece by piece unless a preference is one of the pieces."""
    tune = [r["content"] for r in jsonl(POISON / "tune.jsonl")
            if r["attack"] and r["kind"] in SEMANTIC_KINDS]
    dev = [r["content"] for r in jsonl(DATA / "poison_dev.jsonl")]
    written = []
    for row in written_rows():
        if row["attack"]:
            written.append(row["content"])
            if row["kind"] != "hidden":
                written.extend(screening_pieces(row["content"]))
    return [*bank_texts(), *dev, *tune, *written]


def benign_cases() -> list[dict[str, Any]]:
    """Every benign case the tests, the tune file and the written file hold."""
    tune = [r for r in jsonl(POISON / "tune.jsonl") if not r["attack"]]
    written = [r for r in written_rows() if not r["attack"]]
    return (jsonl(DATA / "benign_preferences.jsonl") + jsonl(DATA / "benign_lookalikes.jsonl")
            + tune + written)


def prefeval() -> list[str]:
    return [r["preference"] for f in sorted(PREFEVAL.glob("*.json"))
            for r in json.loads(f.read_text(encoding="utf-8"))]


def calibration_texts() -> list[str]:
    """Every benign text the shipped head must not refuse."""
    benign = [t for b in benign_cases() for t in whole_and_pieces(b["content"], b.get("category"))]
    return benign + [t for p in prefeval() for t in whole_and_pieces(p)]


def statements() -> list[str]:
    """1,500 statements of the statement corpus (seed 0): negatives that are not calibrated on."""
    rows = [r for r in jsonl(REPO / "bench" / "corpus" / "statements" / "train.jsonl")
            if r["kind"] != "contrast"]
    return [r["text"] for r in random.Random(0).sample(rows, min(1500, len(rows)))]


Network = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Lexical = tuple[np.ndarray, np.ndarray]


def train(x: np.ndarray, y: np.ndarray, hidden: int, steps: int, l2: float,
          lr: float = 0.01, seed: int = 0) -> Network:
    """A one-hidden-layer ReLU network, class-balanced binary cross-entropy with L2,
    full-batch Adam from a He initialisation drawn from ``seed`` (deterministic)."""
    n, d = x.shape
    weight = np.where(y == 1, n / (2 * y.sum()), n / (2 * (n - y.sum())))
    rng = np.random.default_rng(seed)
    params = [rng.normal(0.0, np.sqrt(2.0 / d), (d, hidden)), np.zeros(hidden),
              rng.normal(0.0, np.sqrt(1.0 / hidden), hidden), np.zeros(())]  # fmt: skip

    def gradients(p: list[np.ndarray]) -> list[np.ndarray]:
        z = x @ p[0] + p[1]
        a = np.maximum(z, 0.0)
        g = (1.0 / (1.0 + np.exp(-(a @ p[2] + p[3]))) - y) * weight / weight.sum()
        back = np.outer(g, p[2])
        back[z <= 0] = 0.0
        return [x.T @ back + l2 * p[0], back.sum(axis=0), a.T @ g + l2 * p[2],
                np.array(g.sum())]  # fmt: skip

    _adam(params, gradients, steps, lr)
    w1, b1, w2, b2 = params
    return w1, b1, w2, b2


def logits(network: Network, x: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2 = network
    return np.maximum(x @ w1 + b1, 0.0) @ w2 + b2


def train_words(texts: list[str], y: np.ndarray, steps: int) -> Lexical:
    """The lexical part: two-class softmax regression over hashed n-grams
    (``train_statements.train_lexical``), shipped as one logit column (like minus unlike)."""
    words, bias = train_lexical(texts, y.astype(np.int64), steps, classes=2)
    column = words[:, 1].astype(np.float32) - words[:, 0].astype(np.float32)
    return column.astype(np.float16).reshape(-1, 1), np.array([bias[1] - bias[0]], np.float32)


def word_logits(part: Lexical, texts: list[str]) -> np.ndarray:
    return ngrams.logits(part[0].astype(np.float32), part[1], texts)[:, 0]


def out_of_fold(texts: list[str], x: np.ndarray, y: np.ndarray, hidden: int, steps: int,
                l2: float, lexical_steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Each text's logits, the network's and the lexical part's, from models trained without
    its fold (:data:`FOLDS`, by the SHA-256 of the text)."""
    fold = np.array([sha256(t.encode("utf-8")).digest()[1] % FOLDS for t in texts])
    network, words = np.zeros(len(texts)), np.zeros(len(texts))
    for k in range(FOLDS):
        train_rows, test_rows = fold != k, fold == k
        network[test_rows] = logits(train(x[train_rows], y[train_rows], hidden, steps, l2),
                                    x[test_rows])  # fmt: skip
        part = train_words([t for t, keep in zip(texts, train_rows, strict=True) if keep],
                           y[train_rows], lexical_steps)  # fmt: skip
        words[test_rows] = word_logits(
            part, [t for t, keep in zip(texts, test_rows, strict=True) if keep]
        )
    return network, words


def embed(embedder: USEEmbedder, texts: list[str]) -> np.ndarray:
    out = [np.asarray(embedder.embed(texts[i : i + 256])) for i in range(0, len(texts), 256)]
    return np.vstack(out).astype(np.float64)


def save(network: Network, words: Lexical, share: float, threshold: float, space: str,
         path: Path = HEAD_FILE) -> str:
    """Write the npz byte-for-byte reproducibly; returns its SHA-256."""
    w1, b1, w2, b2 = (np.asarray(a, dtype=np.float32) for a in network)
    return write_npz(path, W1=w1, b1=b1, w=w2, b=b2, threshold=np.float32(threshold),
                     space=np.array(space), L=words[0], Lb=words[1],
                     lexical_mix=np.float32(share))  # fmt: skip


def pin(digest: str) -> None:
    """Rewrite ``DIRECTIVE_HEAD_SHA256`` in directive_head.py."""
    pin_digest(REPO / "memory" / "core" / "directive_head.py", "DIRECTIVE_HEAD_SHA256", digest)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--quantile", type=float, default=0.994)
    parser.add_argument("--margin", type=float, default=0.25)
    parser.add_argument("--lexical-steps", type=int, default=300)
    parser.add_argument("--lexical-mix", type=float, default=1.0,
                        help="the lexical logit's weight in the sum")  # fmt: skip
    args = parser.parse_args(argv)
    embedder = USEEmbedder()
    pos, calibration = positives(), calibration_texts()
    neg = statements() + calibration  # the calibration texts are the last rows
    texts = pos + neg
    x = embed(embedder, texts)
    y = np.array([1.0] * len(pos) + [0.0] * len(neg))
    oof_network, oof_words = out_of_fold(texts, x, y, args.hidden, args.steps, args.l2,
                                         args.lexical_steps)  # fmt: skip
    oof = oof_network + args.lexical_mix * oof_words
    network = train(x, y, args.hidden, args.steps, args.l2)
    words = train_words(texts, y, args.lexical_steps)
    shipped = (logits(network, x[len(texts) - len(calibration):])
               + args.lexical_mix * word_logits(words, calibration))  # fmt: skip
    top = int(np.argmax(shipped))
    threshold = max(float(np.quantile(oof[y == 0], args.quantile)),
                    float(shipped[top]) + args.margin)
    threshold = float(np.ceil(threshold * 10) / 10)
    digest = save(network, words, args.lexical_mix, threshold, embedder.name)
    pin(digest)
    print(f"{len(pos)} directives, {len(neg)} preferences; threshold {threshold:.1f} "
          f"(out-of-fold quantile {args.quantile}; highest benign logit of the shipped head "
          f"{shipped[top]:.2f}, {calibration[top][:60]!r}); out-of-fold: attacks caught "
          f"{(oof[y == 1] >= threshold).mean():.3f}, preferences refused "
          f"{(oof[y == 0] >= threshold).mean():.4f}; sha256 {digest}")
    for q in (0.99, 0.992, 0.994, 0.995, 0.996, 0.997, 0.998):
        at = float(np.quantile(oof[y == 0], q))
        print(f"  out-of-fold quantile {q}: logit {at:.2f}, attacks caught "
              f"{(oof[y == 1] >= at).mean():.3f}")


if __name__ == "__main__":
    main()
