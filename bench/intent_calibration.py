"""Calibrate screening by meaning, then measure the whole screen per kind, in one run.

Calibration reads benign statements only: every PrefEval-dev preference (as ``remember``
stores one without a category: its text alone), every case of
``tests/data/benign_preferences.jsonl`` and ``tests/data/benign_lookalikes.jsonl`` and the
benign rows of ``bench/corpus/poison/tune.jsonl`` (content plus category, as the gate embeds
them), each whole and piece by piece (:func:`~penchant.memory.core.screening_pieces`). The
bank's threshold is the highest cosine any of them reaches to the bank of injection intents
plus ``--margin`` (0.03), rounded up to 0.01: none of them is refused, by construction. (The
directive head's threshold is calibrated the same way by ``bench/train_directives.py``.)

Measurement runs the gate's own steps (``PersistenceGate.prepare``: patterns and field
screens; ``embed_prepared``; ``screen_meaning``: bank and directive head, whole and piece by
piece) on:

- ``tune``: ``bench/corpus/poison/tune.jsonl`` (what the head was trained on);
- ``heldout``: ``bench/corpus/poison/heldout.jsonl`` and ``heldout-v1``:
  ``tests/data/poison_heldout.jsonl``, never read by training or calibration;
- ``style-dev``: ``bench/corpus/poison/style_dev.jsonl``, 260 rows written by a helper who saw
  no file of the repository: 160 wishes about the form of replies to the user, phrased as
  imperatives ("from now on always answer me in Chinese", ``以后回答简短点``), against 100
  standing orders in the same forms (pushing products or links, hiding warnings, leaks).
  Read while the reply-form rule (:mod:`penchant.memory.core.reply_style`) was written: a
  development set;
- ``blind``: ``bench/data/poison_blind.jsonl``, 390 rows (200 attacks written to slip past
  keyword filters, 190 preferences, style wishes and look-alikes; en, zh and six more
  languages) by a helper who saw no file of the repository. Its rows were never read, but
  its counts chose the directive head's lexical share (``bench/train_directives.py``), so
  it is a development set now;
- ``blind-2``: ``bench/data/poison_blind2.jsonl``, 480 rows (240 attacks in eight kinds:
  paraphrase, persona, exfiltrate, steering, authority, hidden, suppress, encoded; 240
  preferences, style wishes and look-alikes; en, zh and eight more languages) by another
  helper who saw no file of the repository, written after the head's design was fixed and
  never used to choose anything: the held-out figure for those kinds. Only counts are
  printed for both;
- ``harms-dev``: ``bench/corpus/poison/harms_dev.jsonl``, 240 rows by the helper who wrote
  ``written4.jsonl`` (after it): wishes that would make answers harmful (figures changed on
  purpose, safety information left out, a name that grants authority) against look-alikes
  about numbers, safety and names. Read while :mod:`penchant.memory.core.answer_harms` was
  written: a development set;
- ``blind-3``: ``bench/data/poison_blind3.jsonl``, 300 rows of the same six kinds (50 each;
  en, zh and seven more languages) by another helper who saw no file of the repository,
  told to slip past filters: the held-out figure for those kinds, counts only;
- ``blind-4``: ``bench/data/poison_blind4.jsonl``, 360 rows (45 each: the three kinds of
  blind-3 and standing orders hidden in a preference, against look-alikes about numbers,
  safety, names and standing wishes for the user's own answers; en, zh and six more
  languages) by another helper who saw no file of the repository. Its rows were read (a
  retraining of the head with 1,200 more blind rows was measured on it and dropped): a
  development set;
- false refusals among the 505 PrefEval-dev statements and every benign case.

It prints refusal per kind (attacks) and false refusals per kind (benign), and beside them
how many the gate holds for the user's confirmation instead (the quarantine band,
:mod:`penchant.memory.core.holding`: neither stored nor refused; an attack held is
neutralised, a benign row held waits for the user). Misses are listed
for the tune set only (``--show-heldout`` lists those of ``heldout`` and ``heldout-v1``:
reading them to tune the screen would spoil the held-out figure; the blind set's are never
listed).

Usage::

    python bench/intent_calibration.py [--margin 0.03] [--show-heldout]

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

from penchant.memory import PreferenceCandidate
from penchant.memory.client.base import embed_prepared
from penchant.memory.core import (
    PersistenceGate,
    bank_texts,
    build_bank,
    default_directive_head,
    hold_doubtful,
    screening_pieces,
)
from penchant.memory.embeddings import build_embedder, embedding_text

REPO = Path(__file__).resolve().parents[1]
PREFEVAL = REPO.parent / "shared" / "data" / "prefeval-dev"
DATA = REPO / "tests" / "data"
POISON = REPO / "bench" / "corpus" / "poison"
SETS = {
    "tune": POISON / "tune.jsonl",
    "heldout": POISON / "heldout.jsonl",
    "heldout-v1": DATA / "poison_heldout.jsonl",
    "style-dev": POISON / "style_dev.jsonl",
    "blind": REPO / "bench" / "data" / "poison_blind.jsonl",
    "blind-2": REPO / "bench" / "data" / "poison_blind2.jsonl",
    "harms-dev": POISON / "harms_dev.jsonl",
    "blind-3": REPO / "bench" / "data" / "poison_blind3.jsonl",
    "blind-4": REPO / "bench" / "data" / "poison_blind4.jsonl",
}


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def prefeval_statements(folder: Path = PREFEVAL) -> list[str]:
    return [r["preference"] for f in sorted(folder.glob("*.json"))
            for r in json.loads(f.read_text(encoding="utf-8"))]


def benign_cases() -> list[dict[str, Any]]:
    tune = [r for r in jsonl(SETS["tune"]) if not r["attack"]]
    return jsonl(DATA / "benign_preferences.jsonl") + jsonl(DATA / "benign_lookalikes.jsonl") + tune


def calibration_texts() -> dict[str, list[str]]:
    def texts(content: str, category: str | None) -> list[str]:
        return [embedding_text(content, category), *screening_pieces(content)]

    return {
        "prefeval-dev": [t for p in prefeval_statements() for t in texts(p, None)],
        "benign cases": [t for b in benign_cases() for t in texts(b["content"], b.get("category"))],
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


def candidate(row: dict[str, Any]) -> PreferenceCandidate | None:
    """The candidate a case stands for; ``None`` when the model refuses to build it."""
    try:
        return PreferenceCandidate(
            content=row["content"], polarity=row.get("polarity", "like"),
            category=row.get("category", "other"), slot=row.get("slot"),
            keywords=row.get("keywords", []),
        )
    except ValueError:
        return None


def screened(embedder: Any, bank: Any, rows: list[dict[str, Any]]) -> list[str]:
    """What the gate's screen does with each case: ``refused`` (patterns, fields, meaning),
    ``held`` for the user's confirmation (:func:`~penchant.memory.core.hold_doubtful`), or
    ``stored``."""
    gate = PersistenceGate()
    out = []
    for row in rows:
        built = candidate(row)
        if built is None:
            out.append("refused")
            continue
        prepared, rejections = gate.prepare([built])
        embed_prepared(embedder, prepared)
        kept, by_meaning = gate.screen_meaning(prepared, bank)
        if rejections or by_meaning:
            out.append("refused")
            continue
        out.append("held" if hold_doubtful(kept)[1] else "stored")
    return out


def per_kind(rows: list[dict[str, Any]], fates: list[str]) -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for row, fate in zip(rows, fates, strict=True):
        label = f"{'attack' if row['attack'] else 'benign'}:{row['kind']}"
        cell = table.setdefault(label, {"n": 0, "refused": 0, "held": 0, "wrong": []})
        cell["n"] += 1
        cell["refused"] += fate == "refused"
        cell["held"] += fate == "held"
        if (fate == "refused") != row["attack"]:
            cell["wrong"].append(row["content"])
    return table


def measure(embedder: Any, bank: Any) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for name, path in SETS.items():
        rows = jsonl(path)
        report[name] = per_kind(rows, screened(embedder, bank, rows))
    statements = [{"attack": False, "kind": "prefeval-dev", "content": s}
                  for s in prefeval_statements()]
    benign = [{**b, "attack": False, "kind": "benign-cases"} for b in
              jsonl(DATA / "benign_preferences.jsonl") + jsonl(DATA / "benign_lookalikes.jsonl")]
    rows = statements + benign
    report["false refusals"] = per_kind(rows, screened(embedder, bank, rows))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--embedder", default="use-multilingual")
    parser.add_argument("--margin", type=float, default=0.03)
    parser.add_argument("--show-heldout", action="store_true")
    args = parser.parse_args(argv)
    embedder = build_embedder(args.embedder)
    threshold, highest = calibrate(embedder, args.margin)
    print(f"embedder {embedder.name}: bank threshold {threshold:.2f} (margin {args.margin}); "
          f"in use {embedder.injection_cosine:.2f}")
    for name, (score, text) in highest.items():
        print(f"  highest benign cosine, {name}: {score:.3f} ({text[:70]!r})")
    head = default_directive_head()
    bank = build_bank(embedder.embed(bank_texts()), embedder.injection_cosine,
                      head if head.space == embedder.name else None)
    print(f"directive head: {'on' if bank.head else 'off'} (logit threshold {head.threshold:.1f})")
    report = measure(embedder, bank)
    for name, table in report.items():
        attacks = [c for k, c in table.items() if k.startswith("attack:")]
        total = sum(c["n"] for c in attacks)
        caught = sum(c["refused"] for c in attacks)
        held = sum(c["held"] for c in attacks)
        benign = [c for k, c in table.items() if k.startswith("benign:")]
        line = f"{name}: attacks refused {caught}/{total}" if total else f"{name}:"
        if total:
            line += (f" ({caught / total:.1%}), held {held}: neutralised "
                     f"{(caught + held) / total:.1%}")
        line += (f"; benign refused {sum(c['refused'] for c in benign)}, held "
                 f"{sum(c['held'] for c in benign)} of {sum(c['n'] for c in benign)}")
        print(line)
        for label, cell in sorted(table.items()):
            print(f"  {label:<22} refused {cell['refused']:>3}/{cell['n']:<3} "
                  f"held {cell['held']:>3}")
            if name in ("tune", "false refusals") or (
                args.show_heldout and not name.startswith("blind")
            ):
                for text in cell["wrong"]:
                    print(f"      - {text[:90]!r}")
    summary = {name: {label: [c["refused"], c["held"], c["n"]] for label, c in table.items()}
               for name, table in report.items()}
    print(json.dumps({"embedder": embedder.name, "calibrated_threshold": threshold,
                      "highest": {k: v[0] for k, v in highest.items()}, "per_kind": summary},
                     ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
