"""Calibrate screening by meaning (:mod:`penchant.memory.core.intent_screen`), then measure it.

Calibration reads benign statements only: every PrefEval-dev preference (as ``remember``
stores one without a category: its text alone) and every case of
``tests/data/benign_preferences.jsonl`` and ``tests/data/benign_lookalikes.jsonl`` (content
plus category, as the gate embeds them). The threshold is the highest cosine any of them
reaches to the bank of injection intents plus ``--margin`` (0.03), rounded up to 0.01: none
of them is refused, by construction.

Measurement reads ``tests/data/poison_heldout.jsonl`` (attacks and benign look-alikes
written for this and never read by the calibration) and prints, for the patterns alone, the
meaning alone and both: the share of attacks refused, and of benign statements refused.

Usage::

    python bench/intent_calibration.py [--embedder use-multilingual] [--margin 0.03]

Prints a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory.core import bank_texts, build_bank, screen_content
from penchant.memory.embeddings import build_embedder, embedding_text
from penchant.memory.model import clean_lines

REPO = Path(__file__).resolve().parents[1]
PREFEVAL = REPO.parent / "shared" / "data" / "prefeval-dev"
DATA = REPO / "tests" / "data"


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def prefeval_statements(folder: Path = PREFEVAL) -> list[str]:
    return [r["preference"] for f in sorted(folder.glob("*.json"))
            for r in json.loads(f.read_text(encoding="utf-8"))]


def calibration_texts() -> dict[str, list[str]]:
    benign = jsonl(DATA / "benign_preferences.jsonl") + jsonl(DATA / "benign_lookalikes.jsonl")
    return {
        "prefeval-dev": prefeval_statements(),
        "benign cases": [embedding_text(b["content"], b.get("category")) for b in benign],
    }


def calibrate(embedder: Any, margin: float) -> tuple[float, dict[str, tuple[float, str]]]:
    bank = build_bank(embedder.embed(bank_texts()), threshold=1.0)
    highest: dict[str, tuple[float, str]] = {}
    for name, texts in calibration_texts().items():
        scores = embedder.embed(texts) @ bank.vectors.T
        best = np.unravel_index(int(np.argmax(scores)), scores.shape)
        highest[name] = (float(scores[best]), texts[best[0]])
    top = max(score for score, _ in highest.values())
    return math.ceil((top + margin) * 100) / 100, highest


def measure(embedder: Any, threshold: float) -> dict[str, dict[str, float]]:
    bank = build_bank(embedder.embed(bank_texts()), threshold)
    cases = jsonl(DATA / "poison_heldout.jsonl")
    vectors = embedder.embed([c["content"] for c in cases])
    out: dict[str, dict[str, float]] = {}
    for label, attack in (("attacks", True), ("benign", False)):
        chosen = [(c, v) for c, v in zip(cases, vectors, strict=True) if c["attack"] is attack]
        lexical = [screen_content(clean_lines(c["content"]), max_chars=500) is not None
                   for c, _ in chosen]
        meaning = [bank.reason(v) is not None for _, v in chosen]
        both = [a or b for a, b in zip(lexical, meaning, strict=True)]
        out[label] = {
            "n": len(chosen),
            "patterns": sum(lexical) / len(chosen),
            "meaning": sum(meaning) / len(chosen),
            "both": sum(both) / len(chosen),
        }
        if attack:
            out[label]["missed"] = [c["content"] for (c, _), hit in zip(chosen, both,
                                                                       strict=True) if not hit]
        else:
            out[label]["refused"] = [c["content"] for (c, _), hit in zip(chosen, both,
                                                                        strict=True) if hit]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--embedder", default="use-multilingual")
    parser.add_argument("--margin", type=float, default=0.03)
    args = parser.parse_args(argv)
    embedder = build_embedder(args.embedder)
    threshold, highest = calibrate(embedder, args.margin)
    print(f"embedder {embedder.name}: threshold {threshold:.2f} (margin {args.margin})")
    for name, (score, text) in highest.items():
        print(f"  highest benign cosine, {name}: {score:.3f} ({text[:70]!r})")
    report = measure(embedder, threshold)
    for label, row in report.items():
        print(f"  held-out {label} (n={row['n']}): refused by patterns {row['patterns']:.1%}, "
              f"by meaning {row['meaning']:.1%}, by either {row['both']:.1%}")
        for text in row.get("missed", []) + row.get("refused", []):
            print(f"    - {text[:90]!r}")
    print(json.dumps({"embedder": embedder.name, "threshold": threshold,
                      "highest": {k: v[0] for k, v in highest.items()}, "heldout": report},
                     ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
