"""A real ``penchant serve`` process for the service tests: one per module, on a free
loopback port, against the session's Redis, with tokens minted through the real store."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis

from penchant.memory import Memory, Settings
from penchant.memory.embeddings import HashEmbedder
from penchant.service import TokenScope, TokenStore

from conftest import on_cluster, sync_client


def service_env(redis_url: str, home: Path) -> dict[str, str]:
    """Environment of a service process on the test Redis (deterministic fake embedder)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PENCHANT_", "OPENAI_"))}
    env.update(PENCHANT_HOME=str(home), PENCHANT_REDIS_URL=redis_url, PENCHANT_EMBEDDINGS="hash",
               HF_HUB_OFFLINE="1")
    if on_cluster():
        env["PENCHANT_REDIS_CLUSTER"] = "true"
    return env


def flushed_client(redis_url: str) -> Any:
    """A sync client on a keyspace flushed once (the module's start)."""
    client = sync_client(redis_url)
    if on_cluster():
        client.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
    else:
        client.flushdb()
    return client


def checking_memory(client: Any, home: Path, redis_url: str) -> Memory:
    """A sync ``Memory`` on the same Redis, for reading what the server stored."""
    settings = Settings(home=home, redis_url=redis_url, embeddings="hash",
                        redis_cluster=True if on_cluster() else None)
    memory = Memory(client, settings=settings, embedder=HashEmbedder())
    memory.backend.ensure_schema()
    return memory


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ServiceProcess:
    """A running ``penchant serve``; ``url`` is its base URL."""

    process: subprocess.Popen[str]
    url: str
    tokens: dict[str, str] = field(default_factory=dict)

    def headers(self, who: str) -> dict[str, str]:
        """The Authorization header of one of :attr:`tokens`."""
        return {"Authorization": f"Bearer {self.tokens[who]}"}

    def stop(self) -> str:
        """Stop the process (SIGTERM, then kill); returns its stderr."""
        self.process.terminate()
        try:
            _, err = self.process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return err


def start_service(env: dict[str, str], client: Any, scopes: dict[str, TokenScope],
                  *extra: str) -> ServiceProcess:
    """Mint the tokens, start ``penchant serve`` and wait until ``/healthz`` answers 200.

    Raises:
        AssertionError: The process ended or did not answer within 90 s (its stderr shown).
    """
    store = TokenStore(client)
    tokens = {who: store.create(scope, who)[0] for who, scope in scopes.items()}
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "penchant.tui.cli", "serve", "--port", str(port), *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    service = ServiceProcess(process, f"http://127.0.0.1:{port}", tokens)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"penchant serve exited {process.returncode}: "
                                 f"{process.stderr.read() if process.stderr else ''}")
        try:
            if httpx.get(f"{service.url}/healthz", timeout=2).status_code == 200:
                return service
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"penchant serve did not answer in 90 s: {service.stop()}")
