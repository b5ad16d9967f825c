"""The chat's process wiring that needs no Redis: the exit's job counting, status texts."""

from __future__ import annotations

import asyncio
import threading

from penchant.memory.embeddings import HashEmbedder
from penchant.tui.wiring import CountingExecutor, embedder_status, short_name


async def test_exit_waits_for_a_running_thread_job_then_gives_up_on_it() -> None:
    executor = CountingExecutor()
    release = threading.Event()
    loop = asyncio.get_running_loop()
    job = loop.run_in_executor(executor, release.wait, 5)
    assert executor.busy == 1
    assert not await executor.wait_idle(0.05)
    release.set()
    assert await job is True
    assert await executor.wait_idle(1.0)
    executor.shutdown()


async def test_asyncio_to_thread_is_counted_once_the_executor_is_the_default() -> None:
    executor = CountingExecutor()
    asyncio.get_running_loop().set_default_executor(executor)
    release = threading.Event()
    job = asyncio.ensure_future(asyncio.to_thread(release.wait, 5))
    await asyncio.sleep(0.01)
    assert executor.busy == 1
    release.set()
    await job
    assert await executor.wait_idle(1.0)


def test_status_names_a_loaded_embedder_ready_and_none_as_lexical_only() -> None:
    assert embedder_status(HashEmbedder()) == ("ready hash-64", False)
    assert embedder_status(None) == ("none (lexical recall only)", False)


def test_status_names_every_part_of_a_fused_embedder() -> None:
    assert short_name("google/use-3+intfloat/multilingual-e5-small") == (
        "use-3+multilingual-e5-small"
    )
