"""PenchantMemory's nodes and subgraph in async LangGraph graphs over ``AsyncMemory``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from penchant.agent.embed import PenchantMemory, PenchantState
from penchant.memory import AsyncMemory, PreferenceCandidate, Settings
from penchant.memory.client.spool import WriteSpool
from penchant.memory.embeddings import HashEmbedder

from conftest import async_client

USER = "alice"
CONFIG = {"configurable": {"user_id": USER, "thread_id": "t1"}}


@pytest.fixture
async def amemory(redis_url: str, settings: Settings, redis_client: redis.Redis) -> AsyncIterator[
    AsyncMemory
]:
    client = async_client(redis_url)
    yield AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    await client.aclose()


def _host_graph(pm: PenchantMemory) -> Any:
    """A host's own async graph: recall → its model node → remember."""

    async def host_model(state: PenchantState) -> dict[str, Any]:
        system = state["llm_input_messages"][0].content
        return {"messages": [AIMessage(f"saw: {system}")]}

    graph = StateGraph(PenchantState)
    graph.add_node("recall", pm.ainject_node)
    graph.add_node("model", host_model)
    graph.add_node("remember", pm.acapture_node)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "model")
    graph.add_edge("model", "remember")
    graph.add_edge("remember", END)
    return graph.compile()


async def test_host_async_graph_with_penchant_nodes_captures_then_injects(
    amemory: AsyncMemory,
) -> None:
    app = _host_graph(PenchantMemory(amemory))
    first = await app.ainvoke({"messages": [HumanMessage("I hate cilantro", id="m1")]}, CONFIG)
    assert [p["polarity"] for p in first["memory_changes"]["created"]] == ["dislike"]
    (stored,) = await amemory.preferences(USER)
    assert stored.polarity == "dislike" and "cilantro" in stored.content
    second = await app.ainvoke({"messages": [HumanMessage("a salsa recipe?", id="m2")]}, CONFIG)
    assert "cilantro" in second["memory_context"]
    assert "cilantro" in second["messages"][-1].content  # the model saw the memory block


async def test_penchant_subgraph_runs_as_a_node_under_ainvoke(amemory: AsyncMemory) -> None:
    pm = PenchantMemory(amemory)
    parent = StateGraph(PenchantState)
    parent.add_node("penchant", pm.subgraph())
    parent.add_edge(START, "penchant")
    parent.add_edge("penchant", END)
    app = parent.compile(checkpointer=InMemorySaver())
    await app.ainvoke({"messages": [HumanMessage("I love hiking in the mountains", id="m1")]},
                      CONFIG)
    (stored,) = await amemory.preferences(USER)
    assert stored.polarity == "like" and "hiking" in stored.content
    reply = await app.ainvoke({"messages": [HumanMessage("weekend plans?", id="m2")]}, CONFIG)
    assert "hiking" in reply["memory_context"]


async def test_capture_while_redis_is_down_is_deferred_then_replayed(
    tmp_path: Path, settings: Settings, redis_url: str, redis_client: redis.Redis
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    dead = async_client(f"unix://{tmp_path}/nothing.sock", socket_timeout=0.5)
    down = AsyncMemory(dead, settings=settings, spool=spool)
    result = await down.remember(USER, PreferenceCandidate(content="I like plums",
                                                           polarity="like", keywords=["plums"]))
    assert result.deferred == ["I like plums"]
    await dead.aclose()
    live = async_client(redis_url)
    up = AsyncMemory(live, settings=settings, spool=spool)
    assert await up.replay_spool() == 1
    assert [p.content for p in await up.preferences(USER)] == ["I like plums"]
    await live.aclose()
