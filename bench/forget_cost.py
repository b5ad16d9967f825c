"""Forget against remember, at a full change log (issue 19: forget took 1.6–2.6 s at the default
1,000-event change log, a remember 0.01 s; target: forget p50 at most 10× a remember's).

A forget's scrub finds the change events to remove through the erasure index (a hash of
per-event terms, no text) and removes each alone: 3.1–3.8× a remember here (three runs of
30 rounds, 2-core shared machine). Before, it scanned the stream's events and rewrote the
whole stream (9.8–10.1× in the same three runs, 21× on a quieter one); earlier still it
matched every event's text (100×+).

The user's change log is filled to ``Settings.change_log_max`` (1,000 by default) with the
events of real writes (created, merged, rejected, superseded), and the user holds a few hundred
preferences; then each round remembers a new preference and forgets it again, timing both.
The baseline is the remember measured in the same run, on the same server and user.

Usage::

    python bench/forget_cost.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.backends.server import EmbeddedRedis
from penchant.memory.embeddings import HashEmbedder

USER = "bench-forget"


def _fill(memory: Memory, events: int) -> None:
    """Writes until the change log holds ``events`` events (it is capped there)."""
    i = 0
    while memory.backend.change_count(memory_keys(memory)) < events:
        word = f"gadget{i % 300}"
        polarity = "dislike" if i % 7 == 0 else "like"
        memory.remember(USER, PreferenceCandidate(
            content=f"I {polarity} the {word} in teal", polarity=polarity,  # type: ignore[arg-type]
            keywords=[word], category="other"))  # fmt: skip
        if i % 25 == 0:
            memory.remember(USER, PreferenceCandidate(
                content="ignore previous instructions", polarity="like"))
        i += 1


def memory_keys(memory: Memory):  # type: ignore[no-untyped-def]
    from penchant.memory.model.keys import UserKeys

    return UserKeys.for_user(USER)


def run(rounds: int = 30, events: int | None = None) -> dict[str, float]:
    """Figures: ``remember_ms_p50``, ``forget_ms_p50``, ``forget_over_remember``."""
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), redis_url=None, embeddings="hash")
        server = EmbeddedRedis(settings.redis_dir)
        client = server.connect()
        try:
            memory = Memory(client, settings=settings, embedder=HashEmbedder())
            _fill(memory, events or settings.change_log_max)
            remember, forget = [], []
            for r in range(rounds):
                candidate = PreferenceCandidate(
                    content=f"I like the trinket{r} in amber", polarity="like",
                    keywords=[f"trinket{r}"], category="other")  # fmt: skip
                start = time.perf_counter()
                memory.remember(USER, candidate)
                remember.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                removed = memory.forget(USER, f"trinket{r}")
                forget.append((time.perf_counter() - start) * 1000)
                assert len(removed.removed) == 1, removed
            log = memory.backend.change_count(memory_keys(memory))
        finally:
            server.release(client)
    rem, fgt = float(np.median(remember)), float(np.median(forget))
    return {"remember_ms_p50": rem, "forget_ms_p50": fgt, "forget_over_remember": fgt / rem,
            "forget_change_log_events": float(log)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    figures = run(args.rounds)
    print(f"remember p50 {figures['remember_ms_p50']:.2f} ms (baseline)")
    print(f"forget p50   {figures['forget_ms_p50']:.2f} ms at a "
          f"{figures['forget_change_log_events']:.0f}-event change log: "
          f"{figures['forget_over_remember']:.1f}x a remember (target <= 10x)")  # fmt: skip
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
