"""Latency of :meth:`Recaller.recall` over 1k and 10k preferences of one user.

Preferences are synthetic sentences (templates × objects, some Chinese) with random unit
vectors in the embedder's space (the cost of ranking does not depend on the values); the
query is embedded by the real, warm model on every call (default: USE multilingual v3,
``--embedder`` for another). Baselines measured in the same run: the embedding of the query
alone, and a plain numpy top-5 (``matrix @ q`` + ``argpartition``) over the same,
already-decoded ``float32[n, dim]`` matrix. The lexical scorer is also timed against
``bm25s`` (index + one query) at each size.

Measured (2 cores shared with other jobs, load average 0.6; p50 ms of 40 calls)::

                                   USE (default)      MiniLM (before)    USE + e5
                                   1k       10k       1k       10k       1k       10k
    recall, cached (cache_key)     1.6      4.6       11.1     13.5      19.5     25.8
    recall, cold (no cache_key)    3.5      39        13.3     35        21.8     79
    rank only, cached              0.27     2.8       0.24     2.3       0.41     6.6
    embed query alone              1.19     1.16      10.9     11.0      18.4     19.4
    numpy top-5 (einsum)           0.10     0.91      0.07     0.66      0.18     1.8
    BM25 index / query             0.9 / 0.008  11 / 0.03  (bm25s index + query: 9.8 / 98)

Earlier, with MiniLM on a busier machine (load 2–4): recall cached 26–36 ms at 1k, embed
query 18–40 ms. The cached recall is the query embedding plus ≈0.3 ms (1k) / ≈3 ms (10k).
The einsum product matters: with OpenBLAS' threaded ``@`` the next query embedding ran at
65 ms instead of 30 under MiniLM (threads spinning against torch on 2 cores).

``--against REV`` measures recall p50 at 10k preferences of this tree and of the code at git
revision ``REV`` (``git archive`` into a temporary directory; each runs its own
``bench/recall_latency.py`` with its own default embedder, in its own process), alternating
``--rounds`` times, and prints the medians and their ratio: issue 18 bounds recall p50 at 10k
to 2× the code's when the issue was filed (``84b705f``, USE alone, before the default space)::

    python bench/recall_latency.py --against 84b705f --rounds 5

Usage::

    python bench/recall_latency.py [--sizes 1000 10000] [--queries 30]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory.core.lexical import BM25Index, tokenize
from penchant.memory.embeddings import DEFAULT_SELECTOR, Embedder, build_embedder
from penchant.memory.model.records import Preference
from penchant.memory.recall import Recaller

QUERIES = [
    "I need a warm sweater for winter",
    "recommend a new sofa for the living room",
    "what should I cook for dinner tonight",
    "推荐几本科幻小说",
    "book me a flight to Berlin",
]
_VERBS = ["likes", "dislikes", "prefers", "avoids", "loves", "hates", "enjoys", "cannot stand"]
_OBJECTS = (
    "wool cotton linen plastic leather silk canvas bamboo jazz techno opera cilantro garlic "
    "tofu sushi pasta curry hiking swimming cycling chess poker sofas lamps rugs mugs boots "
    "sneakers hats trains flights hotels museums beaches mountains novels podcasts anime"
).split()
_ZH = ["不要塑料制品", "喜欢帆布包", "喜欢喝绿茶", "不吃香菜", "爱看科幻小说", "喜欢靠过道的座位"]


def synthetic_prefs(n: int, embedder: Embedder, seed: int = 11) -> list[Preference]:
    """``n`` preferences of one user with random unit vectors in ``embedder``'s space."""
    rng = random.Random(seed)
    vecs = np.random.default_rng(seed).standard_normal((n, embedder.dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    prefs = []
    for i in range(n):
        if i % 10 == 0:
            content = f"{rng.choice(_ZH)}{i}"
        else:
            content = (
                f"{rng.choice(_VERBS)} {rng.choice(_OBJECTS)} and {rng.choice(_OBJECTS)} (note {i})"
            )
        prefs.append(
            Preference(
                user_id="bench",
                content=content,
                polarity=rng.choice(["like", "dislike"]),
                last_seen_at=now - timedelta(seconds=rng.randrange(10**7)),
                embedding=vecs[i].tobytes(),
                embedding_model=embedder.name,
                embedding_dim=embedder.dim,
            )
        )
    return prefs


def _p50_ms(fn: Callable[[int], Any], repeats: int) -> float:
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - start) * 1000.0)
    return round(statistics.median(times), 3)


def _bm25s_ms(texts: list[str], query: str, repeats: int) -> float | None:
    try:
        import bm25s
    except ImportError:
        return None

    def once(_: int) -> None:
        retriever = bm25s.BM25()
        retriever.index([tokenize(t) for t in texts], show_progress=False)
        retriever.get_scores(tokenize(query))

    return _p50_ms(once, max(3, repeats // 5))


def run_latency(
    n_prefs: int, embedder: Embedder | None = None, queries: int = 30
) -> dict[str, Any]:
    """Time one recall (k=5) over ``n_prefs`` preferences of one user, against baselines.

    Args:
        n_prefs: Preferences of the one user.
        embedder: Defaults to the default embedder, USE multilingual v3 (warmed up before
            timing).
        queries: Timed calls per measurement (cycling over :data:`QUERIES`); the median
            is reported.

    Returns:
        Milliseconds (p50) and ratios:

        * ``recall_ms``: the realistic path, what ``Memory.recall`` does while the user's
          data is unchanged: the same list object with ``cache_key``, the query embedded.
        * ``recall_cold_ms``: no ``cache_key`` (every per-list structure rebuilt), query
          embedded.
        * ``rank_ms`` / ``rank_cold_ms``: the same two with the query vector given (ranking
          only).
        * ``embed_query_ms``: embedding one query alone.
        * ``numpy_top5_ms``: baseline, ``matrix @ q`` + ``argpartition`` top-5 over the
          already-decoded ``float32[n, dim]`` matrix; ``baseline_ms`` = embed + that, timed
          together; ``numpy_top5_einsum_ms`` / ``baseline_einsum_ms``: the same with the
          product as ``np.einsum`` (single-threaded, what the recaller uses).
        * ``bm25_index_ms``, ``bm25_query_ms``: our lexical index over all contents, and one
          query on it; ``bm25s_ms``: ``bm25s`` index + query (only when it is installed).
        * ``ratio_recall_vs_baseline`` = recall / baseline, ``ratio_rank_vs_numpy`` =
          rank / numpy_top5, ``ratio_rank_vs_einsum`` = rank / numpy_top5_einsum.
    """
    embedder = embedder or build_embedder(DEFAULT_SELECTOR)
    embedder.embed(["warm up"])
    prefs = synthetic_prefs(n_prefs, embedder)
    recaller = Recaller(embedder)
    key = ("bench", n_prefs)
    q = lambda i: QUERIES[i % len(QUERIES)]  # noqa: E731
    qvecs = embedder.embed(QUERIES)
    recaller.recall(prefs, q(0), k=5, cache_key=key)  # a live process has served one already
    matrix = np.frombuffer(b"".join(p.embedding or b"" for p in prefs), np.float32).reshape(
        n_prefs, embedder.dim
    )
    texts = [p.content for p in prefs]
    index = BM25Index(texts)

    def numpy_top5(vec: np.ndarray, einsum: bool = False) -> np.ndarray:
        sims = np.einsum("ij,j->i", matrix, vec) if einsum else matrix @ vec
        top = np.argpartition(-sims, 5)[:5]
        return top[np.argsort(-sims[top])]

    result: dict[str, Any] = {
        "n_prefs": n_prefs,
        "recall_ms": _p50_ms(lambda i: recaller.recall(prefs, q(i), k=5, cache_key=key), queries),
        "recall_cold_ms": _p50_ms(lambda i: recaller.recall(prefs, q(i), k=5), queries),
        "rank_ms": _p50_ms(
            lambda i: recaller.recall(
                prefs, q(i), k=5, query_vector=qvecs[i % len(QUERIES)], cache_key=key
            ),
            queries,
        ),
        "rank_cold_ms": _p50_ms(
            lambda i: recaller.recall(prefs, q(i), k=5, query_vector=qvecs[i % len(QUERIES)]),
            queries,
        ),
        "embed_query_ms": _p50_ms(lambda i: embedder.embed([q(i)]), queries),
        "numpy_top5_ms": _p50_ms(lambda i: numpy_top5(qvecs[i % len(QUERIES)]), queries),
        "numpy_top5_einsum_ms": _p50_ms(
            lambda i: numpy_top5(qvecs[i % len(QUERIES)], einsum=True), queries
        ),
        "baseline_ms": _p50_ms(lambda i: numpy_top5(embedder.embed([q(i)])[0]), queries),
        "baseline_einsum_ms": _p50_ms(
            lambda i: numpy_top5(embedder.embed([q(i)])[0], einsum=True), queries
        ),
        "bm25_index_ms": _p50_ms(lambda i: BM25Index(texts), max(3, queries // 5)),
        "bm25_query_ms": _p50_ms(lambda i: index.scores(q(i)), queries),
    }
    bm25s_ms = _bm25s_ms(texts, q(0), queries)
    if bm25s_ms is not None:
        result["bm25s_ms"] = bm25s_ms
    result["ratio_recall_vs_baseline"] = round(result["recall_ms"] / result["baseline_ms"], 2)
    result["ratio_rank_vs_numpy"] = round(result["rank_ms"] / result["numpy_top5_ms"], 1)
    result["ratio_rank_vs_einsum"] = round(result["rank_ms"] / result["numpy_top5_einsum_ms"], 1)
    return result


def _recall_ms_at(tree: Path, package_root: Path | None, queries: int) -> float:
    """Recall p50 ms at 10k preferences, as ``tree``'s own bench measures it in a new
    process (``package_root``: a directory whose ``penchant`` is that tree; ``None``: the
    installed package)."""
    env = dict(os.environ, OMP_WAIT_POLICY=os.environ.get("OMP_WAIT_POLICY", "PASSIVE"))
    if package_root is not None:
        env["PYTHONPATH"] = str(package_root)
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "recall_latency.py"), "--sizes", "10000",
         "--queries", str(queries)], env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    last = done.stdout.strip().splitlines()[-1]
    return float(json.loads(last)["results"][0]["recall_ms"])


def against(revision: str, rounds: int, queries: int) -> dict[str, Any]:
    """This tree's recall p50 at 10k against the code at ``revision``, alternating runs.

    Raises:
        subprocess.CalledProcessError: ``git archive`` or a run failed.
    """
    repo = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        old = root / "penchant"
        old.mkdir()
        archive = subprocess.run(["git", "-C", str(repo), "archive", revision],
                                 capture_output=True, check=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        now_ms, then_ms = [], []
        for i in range(rounds):
            print(f"round {i + 1}/{rounds}…", file=sys.stderr, flush=True)
            then_ms.append(_recall_ms_at(old, root, queries))
            now_ms.append(_recall_ms_at(repo, None, queries))
    now, then = statistics.median(now_ms), statistics.median(then_ms)
    return {"revision": revision, "rounds": rounds, "recall_ms_p50_10k": now_ms,
            "recall_ms_p50_10k_then": then_ms, "median_now": now, "median_then": then,
            "ratio": round(now / then, 2)}


def main(argv: list[str] | None = None) -> int:
    """Print a table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--queries", type=int, default=30, help="timed calls per figure")
    parser.add_argument("--embedder", default=DEFAULT_SELECTOR, help="PENCHANT_EMBEDDINGS value")
    parser.add_argument("--against", metavar="REV", help="git revision to compare recall with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs (--against)")
    args = parser.parse_args(argv)
    if args.against:
        found = against(args.against, args.rounds, args.queries)
        print(f"recall p50 at 10k: now {found['median_now']:.2f} ms, at {args.against} "
              f"{found['median_then']:.2f} ms: {found['ratio']}x (medians of {args.rounds})")
        print(json.dumps(found))
        return 0
    embedder = build_embedder(args.embedder)
    rows = [run_latency(n, embedder, args.queries) for n in args.sizes]
    keys = [k for k in rows[0] if k != "n_prefs"]
    print(f"{'p50 ms':<26}" + "".join(f"{r['n_prefs']:>12}" for r in rows))
    for key in keys:
        print(f"{key:<26}" + "".join(f"{r.get(key, '-')!s:>12}" for r in rows))
    print(json.dumps({"embedder": embedder.name, "results": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
