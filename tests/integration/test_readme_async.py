"""Issue 19, finding 8: async integration works as README documents it.

README's async block runs as written (``llm`` is the host's chat model: the offline model
here); ``PenchantMemory(AsyncMemory)``'s ``capture_node`` and ``inject_node`` run under
``ainvoke`` (before the fix: ``'coroutine' object has no attribute 'public_dict'``), and
``MemoryHooks.ainject`` writes the ``llm_input_messages`` key README's assistant reads
(before: only ``memory_context``, a KeyError in the host's node)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

from penchant.agent import PenchantMemory, PenchantState
from penchant.agent.hooks import MemoryHooks
from penchant.agent.offline_model import OfflineChatModel
from penchant.memory import AsyncMemory, Memory, Settings
from penchant.memory.embeddings import HashEmbedder

from conftest import REPO, async_client

CONFIG = {"configurable": {"user_id": "bea", "thread_id": "t9"}}


def readme_async_block() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- async-example:[^\n]*-->\n```python\n(.*?)```", text, re.DOTALL)
    assert found, "README has no async example block"
    return found.group(1)


def test_readme_async_block_runs_as_written(
    settings: Settings, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch,
    memory: Memory,
) -> None:
    for key in ("PENCHANT_HOME", "PENCHANT_REDIS_URL", "PENCHANT_EMBEDDINGS"):
        monkeypatch.setenv(key, cli_env[key])
    assert memory.preferences("alice") == []
    exec(compile(readme_async_block(), "README.md", "exec"),  # noqa: S102
         {"__name__": "readme_async", "llm": OfflineChatModel()})
    (stored,) = memory.preferences("alice")
    assert stored.polarity == "dislike" and "plastic" in stored.content


@pytest.fixture
async def amemory(redis_url: str, settings: Settings, redis_client: redis.Redis) -> AsyncIterator[
    AsyncMemory
]:
    client = async_client(redis_url)
    yield AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    await client.aclose()


def _graph(inject: Any, capture: Any, seen: list[Any]) -> Any:
    async def host(state: PenchantState) -> dict[str, Any]:
        seen.append(state["llm_input_messages"])
        return {"messages": [AIMessage("ok")]}

    builder = StateGraph(PenchantState)
    builder.add_node("recall", inject)
    builder.add_node("host", host)
    builder.add_node("remember", capture)
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "host")
    builder.add_edge("host", "remember")
    builder.add_edge("remember", END)
    return builder.compile()


async def test_sync_named_nodes_over_async_memory_under_ainvoke(amemory: AsyncMemory) -> None:
    pm = PenchantMemory(amemory)
    seen: list[Any] = []
    app = _graph(pm.inject_node, pm.capture_node, seen)
    out = await app.ainvoke({"messages": [HumanMessage("I can't stand olives", id="a")]}, CONFIG)
    assert [p["polarity"] for p in out["memory_changes"]["created"]] == ["dislike"]
    (stored,) = await amemory.preferences("bea")
    assert "olive" in stored.content
    await app.ainvoke({"messages": [HumanMessage("a pizza for tonight?", id="b")]}, CONFIG)
    system = seen[-1][0]
    assert isinstance(system, SystemMessage) and "olive" in str(system.content)


async def test_memory_hooks_async_nodes_write_readme_keys(amemory: AsyncMemory) -> None:
    hooks = MemoryHooks(amemory)  # type: ignore[arg-type]
    seen: list[Any] = []
    app = _graph(hooks.ainject, hooks.aend_of_turn, seen)
    await app.ainvoke({"messages": [HumanMessage("I love hiking boots", id="c")]}, CONFIG)
    assert seen and isinstance(seen[0][-1], HumanMessage)
    (stored,) = await amemory.preferences("bea")
    assert stored.polarity == "like"


async def test_a_sync_memory_also_runs_under_ainvoke(memory: Memory) -> None:
    pm = PenchantMemory(memory)
    app = _graph(pm.inject_node, pm.capture_node, [])
    await app.ainvoke({"messages": [HumanMessage("I hate loud bars", id="d")]}, CONFIG)
    (stored,) = memory.preferences("bea")
    assert stored.polarity == "dislike" and "bar" in stored.content


def test_a_sync_step_over_async_memory_says_what_to_use(amemory: AsyncMemory) -> None:
    hooks = MemoryHooks(amemory)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="aend_of_turn"):
        hooks.end_of_turn({"messages": [HumanMessage("I like tea")]}, CONFIG)  # type: ignore[arg-type]
