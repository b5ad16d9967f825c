"""An async LangGraph graph with Penchant's nodes over ``AsyncMemory`` captures and injects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from penchant.agent.hooks import MemoryHooks
from penchant.memory import AsyncMemory, Settings
from penchant.memory.embeddings import HashEmbedder
from penchant.tools.preference_tools import make_preference_tools

from conftest import async_client


class State(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    memory_context: str
    memory_changes: dict[str, Any]


@pytest.fixture
async def amemory(redis_url: str, settings: Settings, redis_client: Any) -> AsyncIterator[
    AsyncMemory
]:
    client = async_client(redis_url)
    yield AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    await client.aclose()


def _graph(hooks: MemoryHooks) -> Any:
    def answer(state: State) -> dict[str, Any]:
        return {"messages": [AIMessage(f"context was: {state.get('memory_context', '')}")]}

    graph = StateGraph(State)
    graph.add_node("inject", hooks.ainject)
    graph.add_node("answer", answer)
    graph.add_node("end_of_turn", hooks.aend_of_turn)
    graph.add_edge(START, "inject")
    graph.add_edge("inject", "answer")
    graph.add_edge("answer", "end_of_turn")
    graph.add_edge("end_of_turn", END)
    return graph.compile()


CONFIG = {"configurable": {"user_id": "alice", "thread_id": "t1"}}


async def test_async_graph_captures_then_injects(amemory: AsyncMemory) -> None:
    app = _graph(MemoryHooks(amemory))  # type: ignore[arg-type]
    first = await app.ainvoke({"messages": [HumanMessage("I hate plastic packaging", id="1")]},
                              CONFIG)
    assert [p["polarity"] for p in first["memory_changes"]["created"]] == ["dislike"]
    second = await app.ainvoke({"messages": [HumanMessage("any lunch box ideas?", id="2")]},
                               CONFIG)
    assert "plastic" in second["memory_context"]
    assert [e["role"] for e in await amemory.transcript("alice", "t1")] == [
        "user", "assistant", "user", "assistant"
    ]


async def test_async_tools_are_coroutines_that_write(amemory: AsyncMemory) -> None:
    remember, forget, recall = make_preference_tools(amemory)
    assert remember.coroutine is not None and remember.func is None
    call = {"name": remember.name, "id": "call-1", "type": "tool_call",
            "args": {"content": "I like green tea", "polarity": "like", "keywords": ["green tea"],
                     "category": "food"}}
    message = await remember.ainvoke(call, CONFIG)
    assert isinstance(message, ToolMessage) and message.artifact["created"]
    assert [p.content for p in await amemory.preferences("alice")] == ["I like green tea"]
    found = await recall.ainvoke({"name": recall.name, "id": "c2", "type": "tool_call",
                                  "args": {"query": "tea"}}, CONFIG)
    assert "green tea" in found.content
