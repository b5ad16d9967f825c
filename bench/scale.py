"""Costs that must not grow with a user's store (issue 12): gate, recall, check-up, cold CLI.

Figures (all medians; ``<n>`` is ``1k``, ``10k`` and, in the full run, ``50k`` active
preferences of one user, 512-d ``_RandomEmbedder`` vectors, ``Settings(max_preferences=
100000)``):

* ``gate_ms_p50_<n>``: one ``Memory.remember`` of one candidate, the write mix of
  ``bench_gate`` (a third new preferences, a third repeats that merge, a third polarity flips
  that supersede); the embedder is the random one, so embedding costs nothing.
* ``raw_txn_ms_p50_<n>``: the baseline, the *same commands* each of those gate writes
  committed (captured at ``backend.commit``, turned into commands by
  ``wire.encode_commit``), replayed as a redis-py ``WATCH rev; GET rev; MULTI; …; SET rev;
  EXEC`` on a scratch user's keys (``penchant:{bench-raw}:…``), same server, same run.
* ``recall_warm_ms_p50_<n>``: the same query recalled again (the cached snapshot is
  current); ``recall_after_write_ms_p50_<n>``: a recall right after this process's own
  write; ``recall_after_other_writer_ms_p50_<n>``: a recall right after a second ``Memory``
  with its own client wrote (only the recall is timed).
* ``checkup_s_2k``: ``run_checkup`` of a user with 2,000 preferences (a fifth of them
  dislikes, materials from the check-up's lexicon), one run.
* ``cli_cold_s_10k_users``: a new ``penchant prefs --user u1`` process against a data
  directory of 10,000 users × 20 preferences while the embedded server lingers (after
  issue 12); ``cli_cold_stopped_s_10k_users``: the same with the server stopped and
  ``PENCHANT_EMBEDDED_LINGER_SECONDS=0`` (it loads the AOF, then stops without saving);
  ``rdb_save_s_10k_users``: one ``SAVE`` of that dataset, what every stop cost before
  issue 12 (so "before" ≈ stopped + save).

Filling is fast and goes through the gate: a user's store grows by batches of 500
candidates (one commit each: 10k preferences in about 2 s here), users of the CLI dataset
get their 20 preferences in one ``remember`` each (10k users in about 40 s). The CLI dataset
can be kept between runs (``--cli-data DIR``; a ``fill.json`` in it says what it holds and a
mismatching directory is filled again).

Usage::

    python bench/scale.py [--quick] [--cli-data DIR]
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.backends import wire
from penchant.memory.backends.sync import open_client
from penchant.memory.keys import UserKeys
from penchant.memory.server import EmbeddedRedis

MATERIALS = ["plastic", "wool", "leather", "canvas", "cotton", "silk", "bamboo", "glass"]
FILL_BATCH = 500
TARGETS = {
    "gate_10k_vs_1k": 2.0,
    "gate_10k_vs_raw": 3.0,
    "recall_after_write_vs_warm_10k": 2.0,
    "recall_after_other_vs_warm_10k": 3.0,
    "checkup_s_2k": 10.0,
    "cli_cold_s_10k_users": 2.0,
}
"""Issue 12's targets: each ratio (or figure, in seconds) must be at most this."""
PENCHANT = Path(sys.executable).with_name("penchant")


class RandomEmbedder:
    """512-d random unit vectors: the stored size of USE multilingual v3, at no model cost."""

    name, dim = "random-512", 512

    def __init__(self, seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self.rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def candidate(i: int, polarity: str = "like") -> PreferenceCandidate:
    """Preference number ``i``: its own keyword, one of eight materials."""
    return PreferenceCandidate(
        content=f"{polarity}s product line {i} in {MATERIALS[i % len(MATERIALS)]}",
        polarity=polarity,  # type: ignore[arg-type]
        keywords=[f"product line {i}"],
        category="style",
    )


def _median_ms(samples: list[float]) -> float:
    return float(statistics.median(samples))


def _timed_ms(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def fill_user(memory: Memory, user: str, upto: int, *, polarity: Callable[[int], str]) -> None:
    """Grow ``user`` to ``upto`` active preferences, ``FILL_BATCH`` candidates per commit."""
    have = len(memory.preferences(user))
    for start in range(have, upto, FILL_BATCH):
        batch = [candidate(i, polarity(i)) for i in range(start, min(upto, start + FILL_BATCH))]
        memory.remember(user, batch)
    got = len(memory.preferences(user))
    if got < upto:
        raise RuntimeError(f"filling {user!r} stored {got} preferences, wanted {upto}")


# -- the gate against the raw transaction of the same commands ---------------------------------


@contextmanager
def captured_commits(memory: Memory) -> Iterator[list[inspect.BoundArguments]]:
    """Record the arguments of every ``memory.backend.commit`` inside the block (cheaply:
    they are encoded afterwards, so the gate's timings do not include the capture)."""
    original = memory.backend.commit
    signature = inspect.signature(original)
    calls: list[inspect.BoundArguments] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(signature.bind(*args, **kwargs))
        return original(*args, **kwargs)

    memory.backend.commit = spy  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        del memory.backend.commit  # back to the class's method


def commit_commands(memory: Memory, call: inspect.BoundArguments) -> list[list[Any]]:
    """The Redis commands (``[name, key, *args]``) one gate commit ran inside its script."""
    args = call.arguments
    idem = args.get("idempotency")
    script_keys, argv = wire.encode_commit(
        args["keys"], args["ops"], expected_revision=args["expected_revision"],
        new_revision="0" * 32, idempotency=idem, settings=memory.settings,
    )  # fmt: skip
    count = int(argv[5])  # the head: guard, expected, new revision, idem ttl, result, count …
    for start in range(6, 16):  # … and whatever the script's head grows to after it
        commands = _triples(script_keys, argv, start, count)
        if commands is not None:
            return commands
    raise RuntimeError("cannot decode encode_commit's ARGV: has its layout changed? "
                       "update bench/scale.py's commit_commands")  # fmt: skip


def _triples(keys: list[str], argv: list[Any], i: int, count: int) -> list[list[Any]] | None:
    """``count`` commands ``name, key number, n, *n args`` from ``argv[i:]`` to its end,
    or ``None`` when they do not fit exactly there."""
    out = []
    try:
        for _ in range(count):
            name, key_index, n = argv[i], int(argv[i + 1]), int(argv[i + 2])
            if not (isinstance(name, str) and name.isupper() and 1 <= key_index <= len(keys)):
                return None
            out.append([name, keys[key_index - 1], *argv[i + 3 : i + 3 + n]])
            i += 3 + n
    except (IndexError, ValueError, TypeError):
        return None
    return out if i == len(argv) else None


def raw_transaction_ms(client: Any, user_tag: str, commands: list[list[Any]]) -> float:
    """Time one ``WATCH``/``MULTI``/``EXEC`` of ``commands`` moved to the scratch user's keys."""
    scratch = UserKeys.for_user("bench-raw")
    moved = [[c[0], str(c[1]).replace(user_tag, scratch.tag, 1), *c[2:]] for c in commands]

    def run() -> None:
        with client.pipeline(transaction=True) as pipe:
            pipe.watch(scratch.rev)
            pipe.get(scratch.rev)
            pipe.multi()
            for command in moved:
                pipe.execute_command(*command)
            pipe.set(scratch.rev, os.urandom(16).hex())
            pipe.execute()

    return _timed_ms(run)


def gate_mix(n: int, existing: int, fresh: int) -> PreferenceCandidate:
    """``bench_gate``'s mix: new (``fresh + n``), a repeat, a polarity flip."""
    if n % 3 == 0:
        return candidate(fresh + n)
    if n % 3 == 1:
        return candidate(n % existing)
    return candidate(n % existing, "dislike" if (n // 3) % 2 == 0 else "like")


def bench_gate_at(memory: Memory, user: str, size: int, writes: int) -> dict[str, float]:
    """Gate and raw-transaction p50 at ``size`` active preferences of ``user``."""
    fill_user(memory, user, size, polarity=lambda i: "like")
    latencies = []
    with captured_commits(memory) as calls:
        for n in range(writes):
            cand = gate_mix(n, size, 10_000_000 + size * 10)
            latencies.append(_timed_ms(functools.partial(memory.remember, user, cand)))
    if not calls:
        raise RuntimeError("no gate commit was captured: has Memory stopped calling "
                           "backend.commit?")  # fmt: skip
    tag = UserKeys.for_user(user).tag
    raw = [raw_transaction_ms(memory.client, tag, commit_commands(memory, c)) for c in calls]
    for key in memory.client.scan_iter(match=UserKeys.for_user("bench-raw").tag + ":*"):
        memory.client.delete(key)
    label = _size_label(size)
    return {f"gate_ms_p50_{label}": _median_ms(latencies),
            f"gate_ms_p95_{label}": float(np.percentile(latencies, 95)),
            f"raw_txn_ms_p50_{label}": _median_ms(raw)}  # fmt: skip


def _size_label(size: int) -> str:
    return f"{size // 1000}k"


# -- recall: warm, after an own write, after another writer ------------------------------------


def bench_recall_at(
    memory: Memory, other: Memory, user: str, size: int, samples: int
) -> dict[str, float]:
    """Recall p50 at ``size`` (``user`` already holds them): warm, after own, after other."""
    query = "product line in wool"
    memory.recall(user, query)  # the snapshot is cached from here on
    warm = [_timed_ms(functools.partial(memory.recall, user, query)) for _ in range(samples)]
    own, foreign = [], []
    for n in range(samples):
        memory.remember(user, candidate(20_000_000 + n))
        own.append(_timed_ms(functools.partial(memory.recall, user, query)))
    for n in range(samples):
        other.remember(user, candidate(30_000_000 + n))
        foreign.append(_timed_ms(functools.partial(memory.recall, user, query)))
    label = _size_label(size)
    return {f"recall_warm_ms_p50_{label}": _median_ms(warm),
            f"recall_after_write_ms_p50_{label}": _median_ms(own),
            f"recall_after_other_writer_ms_p50_{label}": _median_ms(foreign)}  # fmt: skip


def bench_checkup(memory: Memory, size: int) -> dict[str, float]:
    """Seconds of one ``run_checkup`` at ``size`` preferences."""
    from penchant.memory.checkup import run_checkup

    user = "bench-checkup"
    fill_user(memory, user, size, polarity=lambda i: "dislike" if i % 5 == 0 else "like")
    started = time.perf_counter()
    run_checkup(memory, user)
    return {f"checkup_s_{_size_label(size)}": time.perf_counter() - started}


def bench_store(quick: bool) -> dict[str, float]:
    """Gate, raw transaction, recall and check-up figures on one embedded server."""
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 50_000]
    writes, samples = (150, 15) if quick else (600, 40)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="penchant-scale-") as home:
        settings = Settings(home=Path(home), redis_url=None, max_preferences=100_000,
                            embedded_linger_seconds=0)  # fmt: skip
        server = EmbeddedRedis(settings.redis_dir)
        client = server.connect()
        other_client = open_client(server.url, "penchant-bench-other")
        try:
            memory = Memory(client, settings=settings, embedder=RandomEmbedder())
            other = Memory(other_client, settings=settings, embedder=RandomEmbedder(8))
            memory.backend.ensure_schema()
            for size in sizes:
                figures.update(bench_gate_at(memory, "bench-scale", size, writes))
                print(f"gate at {size}: {figures[f'gate_ms_p50_{_size_label(size)}']:.2f} ms",
                      file=sys.stderr, flush=True)  # fmt: skip
                if size >= 10_000:
                    n = samples if size == 10_000 else max(5, samples // 4)
                    figures.update(bench_recall_at(memory, other, "bench-scale", size, n))
            figures.update(bench_checkup(memory, 2_000))
        finally:
            other_client.close()
            server.release(client)
    return figures


# -- a cold CLI command against 10k users ------------------------------------------------------


def fill_cli_data(home: Path, users: int, per_user: int) -> None:
    """Give ``users`` users (``u0`` …) ``per_user`` preferences each, unless ``fill.json``
    says ``home`` already holds exactly that."""
    marker = home / "fill.json"
    wanted = {"users": users, "per_user": per_user}
    if marker.exists() and json.loads(marker.read_text()) == wanted:
        return
    _stop(home)
    shutil.rmtree(home / "redis", ignore_errors=True)  # a fresh store, then the users
    settings = Settings(home=home, redis_url=None, embedded_linger_seconds=0)
    with Memory.from_settings(settings, embedder=RandomEmbedder()) as memory:
        for u in range(users):
            memory.remember(f"u{u}", [candidate(i) for i in range(per_user)])
        memory.client.execute_command("WAITAOF", 1, 0, 60_000)
    marker.write_text(json.dumps(wanted))


def _cli_env(home: Path, linger: float) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PENCHANT_", "OPENAI_"))}
    env.update(PENCHANT_HOME=str(home), PENCHANT_EMBEDDED_LINGER_SECONDS=repr(linger),
               HF_HUB_OFFLINE="1")  # fmt: skip
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def _cli_prefs_s(env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([str(PENCHANT), "prefs", "--user", "u1"], env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or "product line" not in done.stdout:
        raise RuntimeError(f"penchant prefs failed ({done.returncode}): "
                           f"{(done.stderr or done.stdout).strip()[-300:]}")  # fmt: skip
    return elapsed


def _stop(home: Path) -> None:
    server = EmbeddedRedis(home / "redis")
    if not server.stop():
        raise RuntimeError(f"the embedded server in {home} is still in use; cannot measure")


def bench_cli_cold(home: Path, *, users: int = 10_000, per_user: int = 20,
                   runs: int = 5, stopped_runs: int = 3) -> dict[str, float]:  # fmt: skip
    """Cold ``penchant prefs`` at ``users`` × ``per_user``: lingering, stopped, and a SAVE."""
    home.mkdir(parents=True, exist_ok=True)
    fill_cli_data(home, users, per_user)
    _stop(home)
    stopped = []
    for _ in range(stopped_runs):
        stopped.append(_cli_prefs_s(_cli_env(home, 0.0)))  # loads, then stops (no save)
    _cli_prefs_s(_cli_env(home, 600.0))  # starts the server, which lingers
    lingering = [_cli_prefs_s(_cli_env(home, 600.0)) for _ in range(runs)]
    import redis  # a client without Penchant's socket timeout: a SAVE takes seconds

    socket = str(EmbeddedRedis(home / "redis").socket_path)
    client = redis.Redis(unix_socket_path=socket, socket_timeout=300)
    try:
        save_s = _timed_ms(client.save) / 1000.0  # what each stop did before issue 12
        (home / "redis" / "dump.rdb").unlink(missing_ok=True)
    finally:
        client.close()
    _stop(home)
    label = f"{users // 1000}k_users"
    return {f"cli_cold_s_{label}": statistics.median(lingering),
            f"cli_cold_stopped_s_{label}": statistics.median(stopped),
            f"rdb_save_s_{label}": save_s}  # fmt: skip


# -- ratios against the targets -----------------------------------------------------------------


def ratios(figures: dict[str, float]) -> dict[str, float]:
    """Issue 12's ratio figures, for those whose inputs were measured."""
    pairs = {
        "gate_10k_vs_1k": ("gate_ms_p50_10k", "gate_ms_p50_1k"),
        "gate_10k_vs_raw": ("gate_ms_p50_10k", "raw_txn_ms_p50_10k"),
        "recall_after_write_vs_warm_10k": ("recall_after_write_ms_p50_10k",
                                           "recall_warm_ms_p50_10k"),
        "recall_after_other_vs_warm_10k": ("recall_after_other_writer_ms_p50_10k",
                                           "recall_warm_ms_p50_10k"),
    }  # fmt: skip
    out = {name: figures[a] / figures[b] for name, (a, b) in pairs.items()
           if a in figures and b in figures and figures[b] > 0}  # fmt: skip
    if "gate_ms_p50_50k" in figures:
        out["gate_50k_vs_1k"] = figures["gate_ms_p50_50k"] / figures["gate_ms_p50_1k"]
        out["gate_50k_vs_raw"] = figures["gate_ms_p50_50k"] / figures["raw_txn_ms_p50_50k"]
    return out


def target_rows(figures: dict[str, float]) -> list[tuple[str, float, float, float]]:
    """``(name, value, target, value / target)`` of every target that was measured
    (a figure over 1.0 in the last column misses its target)."""
    rows = []
    for name, target in TARGETS.items():
        if name in figures:
            rows.append((name, figures[name], target, figures[name] / target))
    return rows


def print_targets(figures: dict[str, float]) -> None:
    """A readable table of issue 12's targets, to stdout."""
    print(f"{'issue 12 target':34} {'value':>10} {'target':>8} {'/target':>8}  ")
    for name, value, target, share in target_rows(figures):
        verdict = "ok" if share <= 1.0 else "MISSED"
        print(f"{name:34} {value:10.2f} {target:8.1f} {share:8.2f}  {verdict}")


def main(argv: list[str] | None = None) -> int:
    """Run the scale benchmarks; print the targets table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k only, fewer samples")
    parser.add_argument("--no-cli", action="store_true", help="skip the cold CLI at 10k users")
    parser.add_argument("--no-store", action="store_true",
                        help="skip the gate, recall and check-up figures")  # fmt: skip
    parser.add_argument("--cli-data", type=Path, default=None,
                        help="keep the 10k-user data directory here between runs")  # fmt: skip
    args = parser.parse_args(argv)
    figures: dict[str, float] = {} if args.no_store else bench_store(args.quick)
    if not args.no_cli:
        figures.update(run_cli(args.quick, args.cli_data))
    figures.update(ratios(figures))
    for key in sorted(figures):
        print(f"{key:42} {figures[key]:12.3f}")
    print_targets(figures)
    print(json.dumps({k: round(v, 4) for k, v in figures.items()}))
    return 0


def run_cli(quick: bool, data: Path | None) -> dict[str, float]:
    """The cold CLI figures, in ``data`` (kept) or a temporary directory."""
    runs = {"runs": 5, "stopped_runs": 3 if quick else 5}
    if data is not None:
        return bench_cli_cold(data, **runs)
    with tempfile.TemporaryDirectory(prefix="penchant-cli-", dir="/tmp") as home:
        return bench_cli_cold(Path(home), **runs)


if __name__ == "__main__":
    raise SystemExit(main())
