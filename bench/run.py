"""Penchant benchmarks: the persistence gate, storage cost and recall.

Usage::

    python bench/run.py            # full run
    python bench/run.py --quick    # under ~5 minutes on 2 cores

Every figure is measured against a baseline taken in the same run on the same
server (a plain ``HSET`` of the same record for the gate), and printed as a
ratio. The last line of output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.keys import UserKeys
from penchant.memory.server import EmbeddedRedis

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

MATERIALS = ["plastic", "wool", "leather", "canvas", "cotton", "silk", "bamboo", "glass"]


def _candidate(i: int, polarity: str = "like") -> PreferenceCandidate:
    return PreferenceCandidate(
        content=f"{polarity}s product line {i} in {MATERIALS[i % len(MATERIALS)]}",
        polarity=polarity,  # type: ignore[arg-type]
        keywords=[f"product line {i}"],
        category="style",
    )


def _percentile(samples: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(samples), q))


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


class _RandomEmbedder:
    """384-d random unit vectors: the stored size of all-MiniLM-L6-v2, at no model cost."""

    name, dim = "random-384", 384

    def __init__(self) -> None:
        self.rng = np.random.default_rng(7)

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self.rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def bench_gate(memory: Memory, existing: int, writes: int) -> dict[str, float]:
    """Gate latency with ``existing`` preferences, and the HSET baseline."""
    user = "bench-gate"
    for start in range(0, existing, 200):
        memory.remember(user, [_candidate(i) for i in range(start, min(existing, start + 200))])
    latencies = []
    for n in range(writes):
        i = existing + n
        # a mix of what the gate meets: new preferences, repeats (merge) and flips (supersede)
        if n % 3 == 0:
            cand = _candidate(i)
        elif n % 3 == 1:
            cand = _candidate(n % existing)
        else:
            cand = _candidate(n % existing, "dislike" if (n // 3) % 2 == 0 else "like")
        latencies.append(_timed(functools.partial(memory.remember, user, cand)))
    keys = UserKeys.for_user(user)
    record = memory.preferences(user)[0].to_json()
    baseline = [
        _timed(functools.partial(memory.client.hset, keys.prefs + ":baseline", f"id{j}", record))
        for j in range(writes)
    ]
    memory.client.delete(keys.prefs + ":baseline")
    started = time.perf_counter()
    count = max(200, writes)
    for n in range(count):
        memory.remember(user, _candidate(10_000_000 + n))
    elapsed = time.perf_counter() - started
    return {
        "gate_ms_p50_1k": _percentile(latencies, 50),
        "gate_ms_p95_1k": _percentile(latencies, 95),
        "gate_writes_per_s": count / elapsed,
        "hset_baseline_ms_p50": _percentile(baseline, 50),
        "active_prefs_after": float(len(memory.preferences(user))),
    }


def bench_bytes(memory: Memory, count: int) -> dict[str, float]:
    """Redis memory per stored preference, with a 384-d float32 vector each."""
    user = "bench-bytes"
    keys = UserKeys.for_user(user)
    gate_memory = Memory(memory.client, settings=memory.settings, embedder=_RandomEmbedder())
    for start in range(0, count, 200):
        gate_memory.remember(user, [_candidate(i) for i in range(start, min(count, start + 200))])
    total = sum(memory.storage.memory_usage(k) for k in (keys.prefs, keys.vectors))
    vector_only = 384 * 4
    return {"bytes_per_pref": total / count, "bytes_per_pref_vector_part": vector_only}


def bench_recall(quick: bool, data: Path) -> dict[str, float]:
    """Recall latency and PrefEval-dev quality (see bench/recall_*.py).

    Quality needs the PrefEval-dev JSON files under ``data``; without them it is
    skipped with a message and only latency is reported.
    """
    figures: dict[str, float] = {}
    try:
        from recall_latency import run_latency
        from recall_quality import run_quality
    except ImportError as exc:  # pragma: no cover - reported, not hidden
        print(f"recall benchmarks unavailable: {exc}", file=sys.stderr)
        return figures
    for n, size in ((1_000, "1k"), (10_000, "10k")):
        lat = run_latency(n, queries=20 if quick else 100)
        figures[f"recall_ms_p50_{size}"] = lat["recall_ms"]
        figures[f"recall_cold_ms_p50_{size}"] = lat["recall_cold_ms"]
        figures[f"recall_embed_query_ms_p50_{size}"] = lat["embed_query_ms"]
        figures[f"recall_baseline_ms_p50_{size}"] = lat["baseline_ms"]
    if not any(data.glob("*.json")):
        print(f"PrefEval-dev data not found under {data}: recall quality skipped "
              "(pass --data DIR)", file=sys.stderr)
        return figures
    results = run_quality(data, users=25 if quick else 60)["results"]
    figures["prefeval_dev_recall_at_3"] = results["fused"]["recall@3"]
    figures["prefeval_dev_mrr"] = results["fused"]["mrr"]
    figures["prefeval_dev_recall_at_3_bm25"] = results["bm25"]["recall@3"]
    figures["prefeval_dev_recall_at_3_dense"] = results["embedding"]["recall@3"]
    return figures


def main() -> int:
    """Run the benchmarks; print a table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples (~5 minutes)")
    parser.add_argument("--no-recall", action="store_true", help="skip the recall benchmarks")
    parser.add_argument(
        "--data", type=Path, default=REPO.parent / "shared" / "data" / "prefeval-dev",
        help="PrefEval-dev JSON files (default: ../shared/data/prefeval-dev)",
    )
    args = parser.parse_args()
    writes = 600 if args.quick else 3000
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), redis_url=None)
        server = EmbeddedRedis(settings.redis_dir)
        client = server.connect()
        try:
            memory = Memory(client, settings=settings, embedder=None)
            memory.storage.ensure_schema()
            figures = bench_gate(memory, 1_000, writes)
            figures.update(bench_bytes(memory, 1_000))
        finally:
            server.release(client)
    if not args.no_recall:
        figures.update(bench_recall(args.quick, args.data))
    _print_table(figures)
    print(json.dumps({k: round(v, 4) for k, v in figures.items()}))
    return 0


def _print_table(figures: dict[str, float]) -> None:
    base = figures["hset_baseline_ms_p50"]
    rows = [
        ("gate p50, 1k prefs (ms)", figures["gate_ms_p50_1k"], figures["gate_ms_p50_1k"] / base),
        ("gate p95, 1k prefs (ms)", figures["gate_ms_p95_1k"], figures["gate_ms_p95_1k"] / base),
        ("plain HSET p50 (ms, baseline)", base, 1.0),
        ("gate writes/s (1 process)", figures["gate_writes_per_s"], None),
        ("Redis bytes per preference", figures["bytes_per_pref"], None),
    ]
    for key in sorted(k for k in figures if k.startswith(("recall_", "prefeval_"))):
        rows.append((key, figures[key], None))
    print(f"{'figure':42} {'value':>12} {'x baseline':>11}")
    for name, value, ratio in rows:
        shown = f"{ratio:11.1f}" if ratio is not None else f"{'':11}"
        print(f"{name:42} {value:12.3f} {shown}")


if __name__ == "__main__":
    raise SystemExit(main())
