"""Issue 17, item 4: tools and hooks keep what the model says.

``remember_preference(content, polarity)`` stores with derived objects and category (sync and
async tools); a tool call for one clause of a message never suppresses the capture of the
others. Inside the chat graph the tool call queues its candidate and the end-of-turn capture
writes it with the rule capture of the message in one gate write (one commit in the user's
revision log), each statement once; on its own the tool writes at once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis
from langchain_core.messages import AIMessage, HumanMessage, ToolCall
from langchain_core.utils.function_calling import convert_to_openai_tool
from test_agent_graph import ScriptedChatModel

from penchant.agent.graph import build_chat_graph
from penchant.memory import AsyncMemory, Memory, PreferenceCandidate, Settings, UserKeys
from penchant.memory.embeddings import HashEmbedder
from penchant.tools.preference_tools import make_preference_tools

from conftest import async_client

USER = "tomas"
CONFIG = {"configurable": {"user_id": USER, "thread_id": "t7"}}


def _bare_call(content: str, polarity: str, call_id: str = "call_bare") -> ToolCall:
    """A tool call as a terse model sends it: content and polarity only."""
    return ToolCall(name="remember_preference", args={"content": content, "polarity": polarity},
                    id=call_id)


def test_the_schema_requires_only_content_and_polarity(memory: Memory) -> None:
    remember = make_preference_tools(memory)[0]
    schema = convert_to_openai_tool(remember)["function"]["parameters"]
    assert sorted(schema["required"]) == ["content", "polarity"]


def test_a_bare_tool_call_stores_with_derived_objects_and_category(memory: Memory) -> None:
    remember = make_preference_tools(memory)[0]
    assert memory.preferences(USER) == []
    message = remember.invoke({**_bare_call("I really love ramen", "like"), "type": "tool_call"},
                              config=CONFIG)
    assert str(message.content).startswith("stored new like")
    (pref,) = memory.preferences(USER)
    assert pref.keywords == ["ramen"] and pref.category == "food" and pref.source == "tool"


@pytest.fixture
async def amemory(redis_url: str, settings: Settings, redis_client: redis.Redis) -> AsyncIterator[
    AsyncMemory
]:
    client = async_client(redis_url)
    yield AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    await client.aclose()


async def test_a_bare_async_tool_call_stores_too(amemory: AsyncMemory) -> None:
    remember = make_preference_tools(amemory)[0]
    await remember.ainvoke({**_bare_call("I can't stand okra", "dislike"), "type": "tool_call"},
                           config=CONFIG)
    (pref,) = await amemory.preferences(USER)
    assert pref.polarity == "dislike" and pref.keywords == ["okra"]


def test_memory_methods_take_no_keywords_or_category(memory: Memory) -> None:
    memory.remember(USER, PreferenceCandidate(content="I adore dumplings", polarity="like"))
    (pref,) = memory.preferences(USER)
    assert pref.keywords == ["dumpling"] and pref.category == "food"


def _turn(memory: Memory, text: str, calls: list[ToolCall]) -> dict[str, Any]:
    model = ScriptedChatModel(script=[AIMessage(content="", tool_calls=calls),
                                      AIMessage(content="Noted.")])
    graph = build_chat_graph(memory, model)
    result: dict[str, Any] = graph.invoke({"messages": [HumanMessage(text, id="h1")]}, CONFIG)
    return result


def test_a_tool_call_for_one_clause_keeps_the_rest_of_the_message(memory: Memory) -> None:
    state = _turn(memory, "I love sushi, I hate plastic and I'm allergic to peanuts",
                  [_bare_call("I love sushi", "like")])
    prefs = {(p.polarity, tuple(p.keywords)): p for p in memory.preferences(USER)}
    assert set(prefs) == {("like", ("sushi",)), ("dislike", ("plastic",)),
                          ("dislike", ("peanut",))}, prefs
    assert prefs[("dislike", ("peanut",))].protected
    assert prefs[("like", ("sushi",))].mention_count == 1  # one statement, counted once
    assert prefs[("like", ("sushi",))].source == "tool"
    assert len(state["memory_changes"]["created"]) == 3


def test_tool_calls_for_every_clause_leave_nothing_to_capture_twice(memory: Memory) -> None:
    _turn(memory, "I like green tea and I dislike coffee", [
        _bare_call("I like green tea", "like", "c1"),
        _bare_call("I dislike coffee", "dislike", "c2"),
    ])
    prefs = memory.preferences(USER)
    assert sorted((p.polarity, p.mention_count, p.source) for p in prefs) == [
        ("dislike", 1, "tool"), ("like", 1, "tool")]


def test_a_retried_end_of_turn_writes_nothing_more(memory: Memory) -> None:
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[_bare_call("I love sushi", "like")]),
        AIMessage(content="Noted."),
    ])
    graph = build_chat_graph(memory, model)
    state = graph.invoke({"messages": [HumanMessage("I love sushi and I hate plastic",
                                                    id="h2")]}, CONFIG)
    before = sorted((p.id, p.mention_count) for p in memory.preferences(USER))
    from penchant.agent.hooks import MemoryHooks

    MemoryHooks(memory).end_of_turn(state, CONFIG)  # the node run again after a crash
    assert sorted((p.id, p.mention_count) for p in memory.preferences(USER)) == before
    assert len(before) == 2


def test_the_cli_takes_no_keywords_or_category(
    cli: Any, memory: Memory, cli_env: dict[str, str]
) -> None:
    proc = cli(["remember", "--user", USER, "--polarity", "dislike",
                "--content", "I can't stand anchovies", "--json"], cli_env)
    assert proc.returncode == 0, proc.stderr
    (pref,) = memory.preferences(USER)
    assert pref.keywords == ["anchovy"] and pref.category == "food"


def _commits(client: Any, user: str = USER) -> int:
    """Gate writes committed for ``user``: entries of the revision log (one per commit)."""
    return int(client.llen(UserKeys.for_user(user).revlog))


def _stored(memory: Memory) -> set[tuple[str, tuple[str, ...], str, int]]:
    return {(p.polarity, tuple(p.keywords), p.source, p.mention_count)
            for p in memory.preferences(USER)}


SUSHI = "I love sushi, I hate plastic and I'm allergic to peanuts"
EVERYTHING = {("like", ("sushi",), "tool", 1), ("dislike", ("plastic",), "rule", 1),
              ("dislike", ("peanut",), "rule", 1)}


def test_a_turn_with_a_tool_call_is_one_gate_write(memory: Memory, redis_client: Any) -> None:
    assert _commits(redis_client) == 0
    state = _turn(memory, SUSHI, [_bare_call("I love sushi", "like")])
    assert _commits(redis_client) == 1
    assert _stored(memory) == EVERYTHING
    assert [q["tool_call_id"] for q in state["memory_changes"]["queued"]] == ["call_bare"]
    assert state["queued_preferences"][0]["candidate"]["content"] == "I love sushi"


def test_a_turn_with_two_tool_calls_is_still_one_write(memory: Memory, redis_client: Any) -> None:
    _turn(memory, "I like green tea and I dislike coffee", [
        _bare_call("I like green tea", "like", "c1"),
        _bare_call("I dislike coffee", "dislike", "c2"),
    ])
    assert _commits(redis_client) == 1
    assert len(memory.preferences(USER)) == 2


class _Watching(ScriptedChatModel):
    """A scripted model that notes, at each call, how many preferences Redis holds."""

    memory: Any = None
    seen: list[int] = []

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None,
                  **kw: Any) -> Any:
        self.seen.append(len(self.memory.preferences(USER)))
        return super()._generate(messages, stop, run_manager, **kw)


def test_the_tool_tells_the_model_queued_and_nothing_is_stored_before_the_end(
    memory: Memory,
) -> None:
    model = _Watching(memory=memory, seen=[], script=[
        AIMessage(content="", tool_calls=[_bare_call("I love sushi", "like")]),
        AIMessage(content="I'll remember that."),
    ])
    state = build_chat_graph(memory, model).invoke(
        {"messages": [HumanMessage("I love sushi", id="h1")]}, CONFIG)
    assert model.seen == [0, 0]  # the model answered the queued call before any write
    answer = model.inputs[1][-1]
    assert answer.content.startswith("queued for the end of the turn, NOT stored yet")
    [tool_message] = [m for m in state["messages"] if m.type == "tool"]
    assert tool_message.id == answer.id  # the same message, its outcome recorded after
    assert "At the end of the turn: written" in tool_message.content
    assert "stored new like: 'I love sushi'" in tool_message.content
    assert tool_message.artifact["written"]["created"][0]["content"] == "I love sushi"
    assert len(memory.preferences(USER)) == 1


def test_the_next_turn_starts_with_an_empty_queue(memory: Memory, redis_client: Any) -> None:
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[_bare_call("I love sushi", "like")]),
        AIMessage(content="Noted."),
        AIMessage(content="Hello again."),
    ])
    graph = build_chat_graph(memory, model)
    graph.invoke({"messages": [HumanMessage("I love sushi", id="h1")]}, CONFIG)
    question = HumanMessage("What should I cook tonight?", id="h2")
    state = graph.invoke({"messages": [question]}, CONFIG)
    assert state["queued_preferences"] == [] and state["memory_changes"]["queued"] == []
    assert _commits(redis_client) == 1  # the second turn states nothing: no write
    assert _stored(memory) == {("like", ("sushi",), "tool", 1)}


def test_a_standalone_tool_writes_at_once(memory: Memory, redis_client: Any) -> None:
    remember = make_preference_tools(memory)[0]
    message = remember.invoke({**_bare_call("I love sushi", "like"), "type": "tool_call"},
                              config=CONFIG)
    assert str(message.content).startswith("stored new like")
    assert _commits(redis_client) == 1 and len(memory.preferences(USER)) == 1


async def test_an_async_turn_with_a_tool_call_is_one_gate_write(
    amemory: AsyncMemory, redis_client: Any, memory: Memory
) -> None:
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[_bare_call("I love sushi", "like")]),
        AIMessage(content="Noted."),
    ])
    graph = build_chat_graph(amemory, model)
    await graph.ainvoke({"messages": [HumanMessage(SUSHI, id="h1")]}, CONFIG)
    assert _commits(redis_client) == 1
    assert _stored(memory) == EVERYTHING
