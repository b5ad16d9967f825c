"""Train the verdict head (memory/core/capture/verdicts.npz) on ``bench/corpus/verdicts/``.

Data: ``bench/corpus/verdicts/*.jsonl``, one clause per line with its ``label``
(``favourable``, ``unfavourable`` or ``neutral``: :data:`~penchant.memory.core.capture.
verdicts.VERDICTS`) and ``lang``, written for this head by helpers who saw no file of the
repository: per language 200 of each, the speaker's own verdicts on a thing in varied
phrasing (taste, function, price, health, trust, slang, exasperation, understatement) and
look-alikes that name a thing without a verdict of the speaker's (a fact, a plan, a question,
one occasion, someone else's verdict, a hypothetical). Every example is learned with the thing
capture reads in it said as a pronoun (:func:`with_things_masked`, as capture asks the head),
in its written form and as chat types it (:func:`train_statements.with_casual_forms`).

Model: as the statement head's (``bench/train_statements.py``): softmax regression on the
clause's USE-multilingual v3 vector mixed (``--mix``) with a one-hidden-layer network over the
same vector, both mixed (``--lexical-mix``) with softmax regression over hashed n-grams;
class-balanced cross-entropy, full-batch Adam from fixed starts: deterministic for a given
corpus and embedder.

Measured before writing the file: ``--folds`` cross-validation (each fold's clauses held out
of that fold's training, by a SHA-256 of the text), printed per language and label: the share
read as their label, and for ``unfavourable`` at :data:`~penchant.memory.core.capture.
alternatives.JUDGED_MIN_P` the share caught and the share of the other labels wrongly read as
it (what :mod:`~penchant.memory.core.capture.alternatives` stores).

Usage::

    python bench/train_verdicts.py            # cross-validate, train on all, write, pin
    python bench/train_verdicts.py --dry-run  # cross-validate only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

from penchant.memory.core.capture.alternatives import JUDGED_MIN_P
from penchant.memory.core.capture.kinds import pull_object_en
from penchant.memory.core.capture.verdicts import (
    VERDICT_HEAD_PATH,
    VERDICTS,
    VerdictHead,
    masked,
)
from penchant.memory.core.capture.zh_objects import pull_object_zh
from penchant.memory.model import has_cjk

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pinned_npz import pin_digest, write_npz  # noqa: E402
from train_statements import (  # noqa: E402
    embed,
    train,
    train_hidden,
    train_lexical,
    with_casual_forms,
)

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "bench" / "corpus" / "verdicts"


def corpus(folder: Path = CORPUS) -> list[dict[str, str]]:
    """Every labelled clause of the corpus, in file and line order."""
    rows = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row["label"] not in VERDICTS:
                    raise SystemExit(f"{path.name}: unknown label {row['label']!r}")
                rows.append(row)
    return rows


def fold_of(text: str, folds: int) -> int:
    """The cross-validation fold of a text (by its SHA-256: stable across runs)."""
    return hashlib.sha256(text.encode("utf-8")).digest()[0] % folds


def with_things_masked(texts: list[str]) -> list[str]:
    """Each text with the thing capture would read in it said as a pronoun (:func:`~penchant.
    memory.core.capture.verdicts.masked`), as the head is asked at capture."""
    found = []
    for text in texts:
        thing = pull_object_zh(text) if has_cjk(text) else pull_object_en(text)
        found.append(masked(text, thing) if thing else text)
    return found


def fit(texts: list[str], labels: list[str], args: argparse.Namespace) -> VerdictHead:
    """A head trained on ``texts`` (their things masked) and their casual forms."""
    texts = with_things_masked(texts)
    pairs = with_casual_forms(list(zip(texts, labels, strict=True)))
    words = [t for t, _ in pairs]
    y = np.array([VERDICTS.index(label) for _, label in pairs])
    x = embed(words)
    k = len(VERDICTS)
    w, b = train(x, y, args.steps, args.l2, classes=k)
    hidden = train_hidden(x, y, args.hidden, args.hidden_steps, args.l2, classes=k) if (
        args.hidden) else None
    lexical = train_lexical(words, y, args.lexical_steps, classes=k) if (
        args.lexical_mix) else None
    return VerdictHead(w, b, VERDICTS, hidden, args.mix if hidden else 1.0, lexical,
                       args.lexical_mix if lexical else 0.0)


def cross_validate(rows: list[dict[str, str]], args: argparse.Namespace) -> None:
    """Print out-of-fold figures per language and label."""
    folds = args.folds
    probs = np.zeros((len(rows), len(VERDICTS)))
    for f in range(folds):
        train_rows = [r for r in rows if fold_of(r["text"], folds) != f]
        test = [i for i, r in enumerate(rows) if fold_of(r["text"], folds) == f]
        head = fit([r["text"] for r in train_rows], [r["label"] for r in train_rows], args)
        texts = with_things_masked([rows[i]["text"] for i in test])
        probs[test] = head.probabilities(embed(texts), texts=texts)
        print(f"fold {f + 1}/{folds} done", flush=True)
    bad = VERDICTS.index("unfavourable")
    print(f"{'lang':4s} {'label':13s} {'n':>4s} {'read as it':>10s} "
          f"{'unfav. ≥ ' + format(JUDGED_MIN_P, '.2f'):>14s}")
    for lang in sorted({r["lang"] for r in rows}):
        for label in VERDICTS:
            at = [i for i, r in enumerate(rows) if r["lang"] == lang and r["label"] == label]
            if not at:
                continue
            right = np.mean([VERDICTS[int(np.argmax(probs[i]))] == label for i in at])
            judged = np.mean([probs[i, bad] >= JUDGED_MIN_P for i in at])
            print(f"{lang:4s} {label:13s} {len(at):4d} {right:10.3f} {judged:14.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--hidden", type=int, default=128, help="hidden units (0: none)")
    parser.add_argument("--hidden-steps", type=int, default=400)
    parser.add_argument("--mix", type=float, default=0.5, help="the linear part's share")
    parser.add_argument("--lexical-steps", type=int, default=300)
    parser.add_argument("--lexical-mix", type=float, default=0.2,
                        help="the n-grams' share (0: no lexical part)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--dry-run", action="store_true", help="cross-validate only")
    args = parser.parse_args(argv)
    rows = corpus()
    print(f"{len(rows)} clauses: " + ", ".join(
        f"{lang} {label} {sum(r['lang'] == lang and r['label'] == label for r in rows)}"
        for lang in sorted({r['lang'] for r in rows}) for label in VERDICTS
    ))
    cross_validate(rows, args)
    if args.dry_run:
        return
    head = fit([r["text"] for r in rows], [r["label"] for r in rows], args)
    arrays = {"W": head.weights, "b": head.bias, "kinds": np.array(VERDICTS)}
    if head.hidden is not None:
        arrays.update(zip(("W1", "b1", "W2", "b2"), head.hidden, strict=True))
        arrays["mix"] = np.array(head.mix, dtype=np.float32)
    if head.lexical is not None:
        arrays.update(L=head.lexical[0].astype(np.float16), Lb=head.lexical[1],
                      lexical_mix=np.array(head.lexical_mix, dtype=np.float32))
    digest = write_npz(VERDICT_HEAD_PATH, **arrays)
    pin_digest(REPO / "memory" / "core" / "capture" / "verdicts.py", "VERDICT_HEAD_SHA256",
               digest)
    print(f"wrote {VERDICT_HEAD_PATH.relative_to(REPO)} sha256 {digest}")


if __name__ == "__main__":
    main()
