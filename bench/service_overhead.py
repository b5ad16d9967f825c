"""What the service face costs per call: p50 of the same operation as a direct
``AsyncMemory`` call, over the REST API (httpx against a real ``penchant serve``), over MCP
on streamable HTTP (the SDK's client, same server) and over MCP on stdio (the SDK's client
against ``penchant mcp``), all in the same run on the same embedded Redis.

Operations: ``list`` (every preference of a user holding :data:`PREFS`; ``GET
/v1/users/{id}/preferences``, the ``list_preferences`` tool) and ``remember`` (one gate write
that merges into an existing preference; ``POST …/preferences``, ``remember_preference``).
The direct call runs in this process; the served ones cross loopback to another process, so
their overhead includes HTTP or JSON-RPC framing, the token check (one ``HGET``) and the
process hop. Target (issue 20): p50 within 2 ms of the direct call on loopback.

Usage::

    python bench/service_overhead.py [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PREFS = 20
"""Preferences of the measured user."""
TARGET_MS = 2.0
"""Issue 20's target: served p50 within this of the direct call."""
USER = "bench-service"


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _p50(call: Callable[[], Awaitable[Any]], calls: int) -> float:
    for _ in range(max(3, calls // 10)):  # warm-up
        await call()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(samples)


def _remember_body(i: int) -> dict[str, Any]:
    return {"content": f"I like product line {i}", "polarity": "like",
            "keywords": [f"product line {i}"]}


async def run(calls: int = 200) -> dict[str, float]:
    """Measure; returns ``{"<transport>_<op>_ms_p50": …, "<transport>_<op>_over_direct_ms":
    …, "<transport>_<op>_vs_direct": …}`` for transport in direct, http, mcp_http,
    mcp_stdio, and ``http_floor_ms_p50`` (a bare ASGI app on uvicorn, the loopback floor)."""
    import httpx
    import httpx2
    from mcp import Client, StdioServerParameters
    from mcp.client.streamable_http import streamable_http_client

    from penchant.memory import AsyncMemory, Settings
    from penchant.memory.backends.server import EmbeddedRedis
    from penchant.service import TokenScope, TokenStore
    from penchant.service.inputs import preference_candidate

    with tempfile.TemporaryDirectory() as home:
        redis_server = EmbeddedRedis(Path(home) / "redis")
        sync_client = redis_server.connect()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PENCHANT_")}
        env.update(PENCHANT_HOME=home, PENCHANT_EMBEDDINGS="hash",
                   PENCHANT_REDIS_URL=redis_server.url)
        settings = Settings(home=Path(home), embeddings="hash", redis_url=redis_server.url)
        token, _ = TokenStore(sync_client).create(TokenScope(user=USER))
        async with AsyncMemory.from_settings(settings) as memory:
            for i in range(PREFS):
                await memory.remember(USER, preference_candidate(**_remember_body(i)))
            figures: dict[str, float] = {}
            figures["direct_list_ms_p50"] = await _p50(lambda: memory.preferences(USER), calls)
            figures["direct_remember_ms_p50"] = await _p50(
                lambda: memory.remember(USER, preference_candidate(**_remember_body(0))), calls)

            figures["http_floor_ms_p50"] = await _floor(calls)
            port = free_port()
            server = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "penchant.tui.cli", "serve", "--port", str(port),
                env=env, stderr=asyncio.subprocess.DEVNULL)
            url = f"http://127.0.0.1:{port}"
            headers = {"Authorization": f"Bearer {token}"}
            try:
                await _wait_up(url)
                async with httpx.AsyncClient(base_url=url, headers=headers) as http:
                    path = f"/v1/users/{USER}/preferences"
                    figures["http_list_ms_p50"] = await _p50(lambda: http.get(path), calls)
                    figures["http_remember_ms_p50"] = await _p50(
                        lambda: http.post(path, json=_remember_body(0)), calls)
                transport = streamable_http_client(
                    f"{url}/mcp", http_client=httpx2.AsyncClient(headers=headers))
                async with Client(transport) as client:
                    await _mcp_figures(client, "mcp_http", calls, figures)
            finally:
                server.terminate()
                await server.wait()
            stdio = StdioServerParameters(command=sys.executable, env=env, args=[
                "-m", "penchant.tui.cli", "mcp", "--user", USER])
            async with Client(stdio) as client:
                await _mcp_figures(client, "mcp_stdio", calls, figures)
        redis_server.release(sync_client)
    for transport in ("http", "mcp_http", "mcp_stdio"):
        for op in ("list", "remember"):
            served, direct = figures[f"{transport}_{op}_ms_p50"], figures[f"direct_{op}_ms_p50"]
            figures[f"{transport}_{op}_over_direct_ms"] = served - direct
            figures[f"{transport}_{op}_vs_direct"] = served / direct
    return figures


_BARE_APP = """
import sys, uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"[]"})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


async def _floor(calls: int) -> float:
    """p50 of a GET to a bare ASGI app on uvicorn in another process: what loopback HTTP,
    uvicorn and httpx cost here before any Penchant code runs."""
    import httpx

    port = free_port()
    bare = await asyncio.create_subprocess_exec(sys.executable, "-c", _BARE_APP, str(port))
    url = f"http://127.0.0.1:{port}"
    try:
        await _wait_up(url, "/")
        async with httpx.AsyncClient(base_url=url) as http:
            return await _p50(lambda: http.get("/"), calls)
    finally:
        bare.terminate()
        await bare.wait()


async def _mcp_figures(client: Any, label: str, calls: int, figures: dict[str, float]) -> None:
    figures[f"{label}_list_ms_p50"] = await _p50(
        lambda: client.call_tool("list_preferences", {}), calls)
    figures[f"{label}_remember_ms_p50"] = await _p50(
        lambda: client.call_tool("remember_preference", _remember_body(0)), calls)


async def _wait_up(url: str, path: str = "/healthz") -> None:
    import httpx

    deadline = time.monotonic() + 120
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            try:
                if (await http.get(f"{url}{path}")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"penchant serve did not answer at {url}")


def print_table(figures: dict[str, float]) -> None:
    """One row per transport and operation: p50, difference and ratio to the direct call."""
    print(f"{'service overhead per call':38} {'p50 ms':>8} {'+ms':>8} {'x direct':>9}")
    print(f"  bare uvicorn GET (loopback floor)    {figures['http_floor_ms_p50']:8.2f}")
    for op in ("list", "remember"):
        print(f"  direct AsyncMemory {op:18} {figures[f'direct_{op}_ms_p50']:8.2f}")
        for transport in ("http", "mcp_http", "mcp_stdio"):
            key = f"{transport}_{op}"
            extra = figures[f"{key}_over_direct_ms"]
            mark = "ok" if extra <= TARGET_MS else f"over the {TARGET_MS:g} ms target"
            print(f"  {transport + ' ' + op:37} {figures[f'{key}_ms_p50']:8.2f} "
                  f"{extra:8.2f} {figures[f'{key}_vs_direct']:9.2f}  {mark}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per measurement")
    args = parser.parse_args()
    figures = asyncio.run(run(args.calls))
    print_table(figures)
    print(json.dumps({k: round(v, 4) for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
