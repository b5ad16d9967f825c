"""Retrieval quality of recall on PrefEval's explicit preferences (development split).

Each simulated user holds ``prefs_per_user`` preferences sampled evenly across the topic files
(fixed seed); every preference's ``question`` is a query that must bring that preference back.
Preferences are stored as the gate stores them: the vector of
:func:`~penchant.memory.embeddings.embedding_text` (content plus category), the category being
the PrefEval topic of the preference; the fused ranking over content-only vectors (a store
whose preferences are all ``other``) is reported as ``fused (content only)``.
Recall@1/3/5 and MRR are reported for the fused ranking and for the BM25-only and
embedding-only channels, in the same run, with the same vectors. A channel that does not find
the preference at all (no shared term for BM25) counts as a miss, not as a lucky recency fill.

Dataset: Zhao et al., "Do LLMs Recognize Your Preferences? Evaluating Personalized Preference
Following in LLMs", ICLR 2025 (CC BY-NC 4.0; evaluation only).

Measured (25 users × 20 preferences, 500 queries each; R@1 / R@3 / R@5 / MRR)::

    seed  fused (= embedding)           bm25                          fused (content only)
    7     0.688 0.986 0.996 0.834       0.316 0.446 0.452 0.379       0.650 0.956 0.980 0.800
    1     0.668 0.974 0.992 0.820       0.318 0.434 0.442 0.374       0.626 0.930 0.958 0.780
    2     0.708 0.980 0.996 0.842       0.294 0.420 0.432 0.355       0.684 0.940 0.978 0.817

Usage::

    python bench/recall_quality.py [--data DIR] [--users 25] [--seed 7] [--sweep]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory.embeddings import Embedder, LocalEmbedder, embedding_text
from penchant.memory.recall import DEFAULT_FUSION, FusionConfig, Recaller
from penchant.memory.records import Preference

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT / ".." / "shared" / "data" / "prefeval-dev"
SEED = 7

BASELINES = {
    "fused": DEFAULT_FUSION,
    "bm25": FusionConfig(semantic=0.0, lexical=1.0, recency=0.0),
    "embedding": FusionConfig(semantic=1.0, lexical=0.0, recency=0.0),
}
SWEEP = {
    "equal s1 l1 r1 always": FusionConfig(lexical=1.0, recency=1.0, lexical_mode="always"),
    "s1 l1 r0 always": FusionConfig(lexical=1.0, recency=0.0, lexical_mode="always"),
    "s1 l0.2 r0 always": FusionConfig(lexical=0.2, recency=0.0, lexical_mode="always"),
    "s1 l0.05 r0 always": FusionConfig(lexical=0.05, recency=0.0, lexical_mode="always"),
    "s1 l0.02 r0 always": FusionConfig(lexical=0.02, recency=0.0, lexical_mode="always"),
    "s1 l0.5 share0.5 always": FusionConfig(
        lexical=0.5, recency=0.0, lexical_mode="always", lexical_min_share=0.5
    ),
    "rrf10 s1 l0.2 always": FusionConfig(rrf_k=10, lexical=0.2, recency=0.0, lexical_mode="always"),
    "s1 l1 r0.1 fallback": FusionConfig(recency=0.1),
    "s1 l1 r0 fallback": FusionConfig(recency=0.0),
}
"""Alternative fusions measured with ``--sweep``; the numbers are in ``DEFAULT_FUSION``'s docs."""


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


def _embed_all(embedder: Embedder, texts: Sequence[str]) -> dict[str, np.ndarray]:
    unique = sorted(set(texts))
    vectors = embedder.embed(unique)
    return dict(zip(unique, vectors, strict=True))


def _build_prefs(
    user: int,
    held: list[Record],
    vecs: dict[str, np.ndarray],
    name: str,
    seed: int,
    categorised: bool = True,
) -> list[Preference]:
    """The user's preferences as the gate stores them: vector of :func:`embedding_text`.

    With ``categorised``, each preference's category is its PrefEval topic (``"travel_
    restaurant"``), the label a capturing model assigns; without, ``"other"`` (content only).
    """
    rng = random.Random(seed * 1000 + user)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    out = []
    for r in held:
        category = r.topic if categorised else "other"
        vec = vecs[embedding_text(r.preference, category)]
        out.append(
            Preference(
                user_id=f"u{user}",
                content=r.preference,
                polarity="dislike",
                category=category,
                last_seen_at=now - timedelta(minutes=rng.randrange(0, 60 * 24 * 365)),
                embedding=vec.astype(np.float32).tobytes(),
                embedding_model=name,
                embedding_dim=len(vec),
            )
        )
    return out


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks)
    hit = lambda k: sum(1 for r in ranks if r is not None and r <= k) / n  # noqa: E731
    return {
        "recall@1": round(hit(1), 4),
        "recall@3": round(hit(3), 4),
        "recall@5": round(hit(5), 4),
        "mrr": round(sum(1.0 / r for r in ranks if r is not None) / n, 4),
    }


def evaluate(
    configs: dict[str, FusionConfig],
    users: list[list[Record]],
    embedder: Embedder,
    seed: int = SEED,
    uncategorised: Sequence[str] = ("fused",),
) -> dict[str, dict[str, float]]:
    """Rank each user's preferences for each of their questions under each fusion config.

    Args:
        configs: Name → fusion, evaluated on categorised preferences.
        users: Each user's records.
        embedder: Embeds preferences and questions.
        seed: Seed of the recency stamps.
        uncategorised: Config names also evaluated on content-only vectors, reported as
            ``"<name> (content only)"``.

    Returns:
        Config name → ``{"recall@1", "recall@3", "recall@5", "mrr"}``.
    """
    texts = [
        t
        for held in users
        for r in held
        for t in (embedding_text(r.preference, r.topic), r.preference, r.question)
    ]
    vecs = _embed_all(embedder, texts)
    runs = [(name, cfg, True) for name, cfg in configs.items()]
    runs += [(f"{name} (content only)", configs[name], False) for name in uncategorised]
    ranks: dict[str, list[int | None]] = {name: [] for name, _, _ in runs}
    recallers = {name: Recaller(embedder, cfg) for name, cfg, _ in runs}
    for u, held in enumerate(users):
        stores = {c: _build_prefs(u, held, vecs, embedder.name, seed, c) for c in (True, False)}
        for t, record in enumerate(held):
            for name, _, categorised in runs:
                prefs = stores[categorised]
                result = recallers[name].recall(
                    prefs,
                    record.question,
                    k=len(prefs),
                    query_vector=vecs[record.question],
                    cache_key=(u, categorised),
                )
                ranks[name].append(
                    next(
                        (
                            pos
                            for pos, it in enumerate(result.items, start=1)
                            if it.preference.id == prefs[t].id and it.matched
                        ),
                        None,
                    )
                )
    return {name: _metrics(r) for name, r in ranks.items()}


def run_quality(
    data_dir: str | Path = DEFAULT_DATA,
    users: int = 25,
    seed: int = SEED,
    prefs_per_user: int = 20,
    embedder: Embedder | None = None,
    sweep: bool = False,
) -> dict[str, Any]:
    """Measure recall@1/3/5 and MRR for fused, BM25-only and embedding-only rankings.

    Args:
        data_dir: Folder of PrefEval topic files.
        users: Simulated users.
        seed: Sampling seed.
        prefs_per_user: Preferences each user holds.
        embedder: Defaults to the bundled all-MiniLM-L6-v2.
        sweep: Also evaluate the alternative fusions of :data:`SWEEP`.

    Returns:
        ``{"users", "queries", "seed", "embedder", "fusion", "results": {name: metrics}}``.
    """
    embedder = embedder or LocalEmbedder()
    sampled = sample_users(load_records(Path(data_dir)), users, prefs_per_user, seed)
    configs = {**BASELINES, **(SWEEP if sweep else {})}
    start = time.perf_counter()
    results = evaluate(configs, sampled, embedder, seed)
    return {
        "users": users,
        "queries": sum(len(h) for h in sampled),
        "seed": seed,
        "embedder": embedder.name,
        "fusion": asdict(DEFAULT_FUSION),
        "seconds": round(time.perf_counter() - start, 2),
        "results": results,
    }


def main(argv: list[str] | None = None) -> int:
    """Print a table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--users", type=int, default=25)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--prefs-per-user", type=int, default=20)
    parser.add_argument("--sweep", action="store_true", help="also try alternative fusions")
    args = parser.parse_args(argv)
    report = run_quality(args.data, args.users, args.seed, args.prefs_per_user, sweep=args.sweep)
    print(f"{report['queries']} queries, {report['users']} users, seed {report['seed']}")
    print(f"{'ranking':<22} {'R@1':>6} {'R@3':>6} {'R@5':>6} {'MRR':>6}")
    for name, m in report["results"].items():
        print(
            f"{name:<22} {m['recall@1']:>6.3f} {m['recall@3']:>6.3f} "
            f"{m['recall@5']:>6.3f} {m['mrr']:>6.3f}"
        )
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
