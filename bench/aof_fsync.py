"""What the embedded server's AOF fsync policy costs a ``remember``, measured in one run.

One embedded server under a temporary ``PENCHANT_HOME``; the policy is switched with
``CONFIG SET appendfsync`` between rounds, so every policy sees the same machine state,
and the rounds of the policies are interleaved. Each round times ``n`` writes of one
writer (each a new preference) and ``n`` writes spread over ``--writers`` threads.
Policies: ``everysec`` (what the server ran until a ``kill -9`` lost acknowledged
writes), ``always`` (what it runs now), and ``everysec`` followed by ``WAITAOF 1 0`` on the
same connection (the option not taken: valkey 9.1.2's ``WAITAOF`` answers 1 for a write not
yet fsynced when the last fsync is under a second old, the bug redis/redis#13793 fixed).

    python bench/aof_fsync.py [--n 200] [--rounds 5] [--writers 8] [--embedder hash|use]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import threading
import time
from pathlib import Path

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import HashEmbedder

POLICIES = ("everysec", "always", "everysec+waitaof")


def _timed_remember(memory: Memory, policy: str, i: int) -> float:
    began = time.perf_counter()
    memory.remember(f"u{i % 50}", PreferenceCandidate(
        content=f"likes thing {i}", polarity="like", keywords=[f"thing{i}"]))
    if policy.endswith("+waitaof"):
        memory.client.execute_command("WAITAOF", 1, 0, 5000)
    return time.perf_counter() - began


def _round(memory: Memory, policy: str, n: int, writers: int, ids: itertools.count[int],
           ) -> tuple[float, float, float]:
    """``(p50 of one writer, p50 under writers, writes/s under writers)``, seconds."""
    memory.client.config_set("appendfsync", policy.split("+")[0])
    alone = statistics.median(_timed_remember(memory, policy, next(ids)) for _ in range(n))
    latencies: list[float] = []

    def writer() -> None:
        for _ in range(max(1, n // writers)):
            latencies.append(_timed_remember(memory, policy, next(ids)))

    threads = [threading.Thread(target=writer) for _ in range(writers)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rate = len(latencies) / (time.perf_counter() - began)
    return alone, statistics.median(latencies), rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200, help="writes per policy and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--embedder", choices=("hash", "use"), default="hash")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), embeddings="hash", embedded_linger_seconds=0)
        embedder: HashEmbedder | str = HashEmbedder() if args.embedder == "hash" else "auto"
        if args.embedder == "use":
            settings = settings.model_copy(update={"embeddings": "use-multilingual"})
        with Memory.from_settings(settings, embedder=embedder) as memory:
            ids = itertools.count()
            _round(memory, "everysec", 20, args.writers, ids)  # warm up (embedder, scripts)
            runs: dict[str, list[tuple[float, float, float]]] = {p: [] for p in POLICIES}
            for _ in range(args.rounds):
                for policy in POLICIES:
                    runs[policy].append(_round(memory, policy, args.n, args.writers, ids))
            memory.client.config_set("appendfsync", "always")
    base = statistics.median(r[0] for r in runs["everysec"])
    print(f"remember, embedder {args.embedder}, medians of {args.rounds} rounds × {args.n}")
    for policy, rounds in runs.items():
        alone, busy, rate = (statistics.median(r[k] for r in rounds) for k in range(3))
        print(f"{policy:<17} 1 writer p50 {alone * 1e3:6.2f} ms (×{alone / base:.2f})   "
              f"{args.writers} writers p50 {busy * 1e3:6.2f} ms, {rate:6.0f} writes/s")


if __name__ == "__main__":
    main()
