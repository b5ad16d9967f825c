"""Latency of :meth:`Recaller.recall` over 1k and 10k preferences of one user.

Preferences are synthetic sentences (templates × objects, some Chinese) with random unit
vectors in the real model's space (the cost of ranking does not depend on the values); the
query is embedded by the real, warm all-MiniLM-L6-v2 on every call. Baselines measured in the
same run: the embedding of the query alone, and a plain numpy top-5 (``matrix @ q`` +
``argpartition``) over the same, already-decoded ``float32[n, 384]`` matrix. The lexical
scorer is also timed against ``bm25s`` (index + one query) at each size.

Usage::

    python bench/recall_latency.py [--sizes 1000 10000] [--repeats 30]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from penchant.memory.embeddings import Embedder, LocalEmbedder
from penchant.memory.lexical import BM25Index, tokenize
from penchant.memory.recall import Recaller
from penchant.memory.records import Preference

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
    n_prefs: int, embedder: Embedder | None = None, repeats: int = 30
) -> dict[str, Any]:
    """Time one recall (query embedding included) over ``n_prefs`` preferences.

    Args:
        n_prefs: Preferences of the one user.
        embedder: Defaults to the bundled all-MiniLM-L6-v2 (warmed up before timing).
        repeats: Timed calls per measurement; the median is reported.

    Returns:
        Milliseconds (p50): ``recall_ms`` (end to end, k=5), ``recall_given_vector_ms``
        (without embedding the query), ``embed_query_ms``, ``numpy_top5_ms`` (baseline),
        ``bm25_ms`` (our lexical index + query), ``bm25s_ms`` (bm25s index + query), and
        ``ratio_vs_numpy`` = recall_given_vector / numpy_top5.
    """
    embedder = embedder or LocalEmbedder()
    embedder.embed(["warm up"])
    prefs = synthetic_prefs(n_prefs, embedder)
    recaller = Recaller(embedder)
    q = lambda i: QUERIES[i % len(QUERIES)]  # noqa: E731
    qvecs = embedder.embed(QUERIES)
    recaller.recall(prefs, q(0), k=5)  # fills the token cache, as a live process would have
    matrix = np.frombuffer(b"".join(p.embedding or b"" for p in prefs), np.float32).reshape(
        n_prefs, embedder.dim
    )
    texts = [p.content for p in prefs]

    def numpy_top5(i: int) -> None:
        sims = matrix @ qvecs[i % len(QUERIES)]
        top = np.argpartition(-sims, 5)[:5]
        top[np.argsort(-sims[top])]

    result: dict[str, Any] = {
        "n_prefs": n_prefs,
        "recall_ms": _p50_ms(lambda i: recaller.recall(prefs, q(i), k=5), repeats),
        "recall_given_vector_ms": _p50_ms(
            lambda i: recaller.recall(prefs, q(i), k=5, query_vector=qvecs[i % len(QUERIES)]),
            repeats,
        ),
        "embed_query_ms": _p50_ms(lambda i: embedder.embed([q(i)]), repeats),
        "numpy_top5_ms": _p50_ms(numpy_top5, repeats),
        "bm25_ms": _p50_ms(lambda i: BM25Index(texts).scores(q(i)), repeats),
        "bm25s_ms": _bm25s_ms(texts, q(0), repeats),
    }
    result["ratio_vs_numpy"] = round(result["recall_given_vector_ms"] / result["numpy_top5_ms"], 1)
    return result


def main(argv: list[str] | None = None) -> int:
    """Print a table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args(argv)
    embedder = LocalEmbedder()
    rows = [run_latency(n, embedder, args.repeats) for n in args.sizes]
    keys = [k for k in rows[0] if k != "n_prefs"]
    print(f"{'p50 ms':<24}" + "".join(f"{r['n_prefs']:>12}" for r in rows))
    for key in keys:
        print(f"{key:<24}" + "".join(f"{r[key]!s:>12}" for r in rows))
    print(json.dumps({"embedder": embedder.name, "results": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
