"""The chat graph with a scripted model: tools, injection and end-of-turn capture, on real Redis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from pydantic import Field

from penchant.agent.embed import PenchantMemory, PenchantState
from penchant.agent.graph import MODEL_UNAVAILABLE_PREFIX, build_chat_graph
from penchant.agent.summary import PreferenceSummary
from penchant.memory import (
    InvalidInputError,
    Memory,
    PreferenceCandidate,
    StorageUnavailableError,
)
from penchant.memory.backends.connect import client_retry
from penchant.memory.core.blocks import wrap_block
from penchant.tools.preference_tools import make_preference_tools, tool_error_message

USER = "alice"


class ScriptedChatModel(BaseChatModel):
    """Replies from a script, records every input; ``bind_tools`` is allowed (returns self).

    A script entry that is an exception is raised instead of replied.
    """

    script: list[Any] = Field(default_factory=list)
    inputs: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.bound_tools = [
            t.get("title", str(t)) if isinstance(t, dict)
            else getattr(t, "name", getattr(t, "__name__", str(t)))
            for t in tools
        ]
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        self.inputs.append(list(messages))
        step = self.script.pop(0) if self.script else AIMessage(content="done")
        if isinstance(step, Exception):
            raise step
        return ChatResult(generations=[ChatGeneration(message=step)])


def remember_call(
    content: str,
    polarity: str,
    keywords: list[str],
    category: str = "material",
    call_id: str = "call_1",
) -> ToolCall:
    args = {"content": content, "polarity": polarity, "keywords": keywords, "category": category}
    return ToolCall(name="remember_preference", args=args, id=call_id)


def config(thread: str = "t1", user: str = USER) -> RunnableConfig:
    return {"configurable": {"user_id": user, "thread_id": thread}}


def run_turn(graph: Any, text: str, thread: str = "t1") -> dict[str, Any]:
    result: dict[str, Any] = graph.invoke(
        {"messages": [HumanMessage(content=text)]}, config(thread)
    )
    return result


def contents(memory: Memory) -> list[tuple[str, str]]:
    return sorted((p.polarity, p.content) for p in memory.preferences(USER))


def tool_messages(state: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


# -- tools -----------------------------------------------------------------------------------


def test_tool_schema_shows_the_model_no_user_id_or_call_id(memory: Memory) -> None:
    schemas = {
        t.name: set(convert_to_openai_tool(t)["function"]["parameters"]["properties"])
        for t in make_preference_tools(memory)
    }
    assert schemas == {
        "remember_preference": {"content", "polarity", "keywords", "category"},
        "forget_preference": {"query", "polarity"},
        "recall_memory": {"query"},
    }


def test_remember_tool_call_lands_in_redis_through_the_gate(memory: Memory) -> None:
    model = ScriptedChatModel(
        script=[
            AIMessage(
                content="",
                tool_calls=[remember_call("I don't like plastic", "dislike", ["plastic"])],
            ),
            AIMessage(content="Noted, no plastic."),
        ]
    )
    assert memory.preferences(USER) == []
    state = run_turn(build_chat_graph(memory, model), "Please remember: no plastic for me.")
    prefs = memory.preferences(USER)
    assert [(p.polarity, p.keywords, p.source) for p in prefs] == [("dislike", ["plastic"], "tool")]
    [tool_message] = tool_messages(state)
    # the tool queued it; the end-of-turn write stored it and recorded that in the message
    queued, outcome = str(tool_message.content).split("\nAt the end of the turn: ")
    assert queued.startswith("queued for the end of the turn, NOT stored yet")
    assert 'stored new dislike: "I don\'t like plastic"' in outcome
    assert [p["id"] for p in state["memory_changes"]["created"]] == [prefs[0].id]


def test_a_statement_the_model_stored_is_not_captured_again(memory: Memory) -> None:
    model = ScriptedChatModel(
        script=[
            AIMessage(
                content="", tool_calls=[remember_call("I hate plastic", "dislike", ["plastic"])]
            ),
            AIMessage(content="Noted."),
        ]
    )
    run_turn(build_chat_graph(memory, model), "I hate plastic.")
    [pref] = memory.preferences(USER)
    assert pref.mention_count == 1 and pref.source == "tool"


def test_rule_capture_runs_when_the_model_calls_no_tool(memory: Memory) -> None:
    model = ScriptedChatModel(script=[AIMessage(content="Sure.")])
    state = run_turn(build_chat_graph(memory, model), "I don't like plastic at all.")
    [pref] = memory.preferences(USER)
    assert pref.polarity == "dislike" and pref.source == "rule"
    assert state["memory_changes"]["created"][0]["id"] == pref.id


def test_parallel_tool_calls_are_all_applied(memory: Memory) -> None:
    memory.remember(
        USER,
        PreferenceCandidate(
            content="I like wool", polarity="like", keywords=["wool"], category="material"
        ),
    )
    model = ScriptedChatModel(
        script=[
            AIMessage(
                content="",
                tool_calls=[
                    remember_call("I love spicy food", "like", ["spicy food"], "food", "call_a"),
                    remember_call("I dislike glass", "dislike", ["glass"], "material", "call_b"),
                    ToolCall(name="forget_preference", args={"query": "wool"}, id="call_c"),
                ],
            ),
            AIMessage(content="All done."),
        ]
    )
    state = run_turn(build_chat_graph(memory, model), "spicy yes, glass no, forget wool")
    assert contents(memory) == [("dislike", "I dislike glass"), ("like", "I love spicy food")]
    assert [m.tool_call_id for m in tool_messages(state)] == ["call_a", "call_b", "call_c"]
    changes = state["memory_changes"]
    assert len(changes["created"]) == 2
    assert [p["content"] for p in changes["removed"]] == ["I like wool"]


def test_tool_error_comes_back_as_a_tool_message(memory: Memory) -> None:
    model = ScriptedChatModel(
        script=[
            AIMessage(
                content="",
                tool_calls=[
                    remember_call(
                        "I like tea", "like", ["tea"], category="!!! not a slug", call_id="bad"
                    ),
                    ToolCall(name="remember_preference", args={"content": "x"}, id="missing"),
                ],
            ),
            AIMessage(content="Sorry, that failed."),
        ]
    )
    state = run_turn(build_chat_graph(memory, model), "What's a good tea?")
    errors = tool_messages(state)
    assert [m.status for m in errors] == ["error", "error"]
    assert "category" in str(errors[0].content) and str(errors[0].content).startswith("Error")
    assert "polarity" in str(errors[1].content)
    assert memory.preferences(USER) == []
    assert state["messages"][-1].content == "Sorry, that failed."
    # the model saw the errors and answered
    assert isinstance(model.inputs[-1][-1], ToolMessage)


def test_storage_failure_in_a_tool_is_reported_not_raised(memory: Memory) -> None:
    remember = make_preference_tools(memory)[0]  # on its own, the tool writes at once
    original = memory.remember

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise StorageUnavailableError("Redis at test does not answer")

    memory.remember = broken  # type: ignore[method-assign]
    try:
        call = {**remember_call("I like tea", "like", ["tea"]), "type": "tool_call"}
        with pytest.raises(StorageUnavailableError) as caught:
            remember.invoke(call, config())
    finally:
        memory.remember = original  # type: ignore[method-assign]
    assert "memory storage is unavailable" in tool_error_message(caught.value)
    assert memory.preferences(USER) == []


def test_a_recall_that_cannot_read_says_so_to_the_model(memory: Memory) -> None:
    """Issue 20, defect 13 on the LangChain path: with storage down, ``recall_memory``'s
    tool message says the memory could not be *read*, with an error status (ToolNode hands
    its handler only the exception, so the tool words it)."""
    model = ScriptedChatModel(
        script=[
            AIMessage(content="", tool_calls=[
                ToolCall(name="recall_memory", args={"query": "lunch box"}, id="c1")
            ]),
            AIMessage(content="Sorry, I could not look that up."),
        ]
    )
    graph = build_chat_graph(memory, model)
    original = memory.recall

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise StorageUnavailableError("Redis at test does not answer")

    memory.recall = broken  # type: ignore[method-assign]
    try:
        state = run_turn(graph, "what lunch box should I buy?")
    finally:
        memory.recall = original  # type: ignore[method-assign]
    [message] = [m for m in tool_messages(state) if m.name == "recall_memory"]
    assert message.status == "error"
    assert "could not be read right now" in str(message.content)
    assert "updated" not in str(message.content)
    assert "Redis at test does not answer" in str(message.content)


def test_a_failed_end_of_turn_write_tells_the_queued_call_nothing_was_stored(
    memory: Memory,
) -> None:
    model = ScriptedChatModel(
        script=[
            AIMessage(content="", tool_calls=[remember_call("I like tea", "like", ["tea"])]),
            AIMessage(content="ok"),
        ]
    )
    graph = build_chat_graph(memory, model)
    original = memory.capture

    def broken(*args: Any, **kwargs: Any) -> Any:
        from penchant.memory import StorageUnavailableError

        raise StorageUnavailableError("Redis at test does not answer")

    memory.capture = broken  # type: ignore[method-assign]
    try:
        state = run_turn(graph, "hello")
    finally:
        memory.capture = original  # type: ignore[method-assign]
    [message] = tool_messages(state)
    assert "At the end of the turn: NOT stored" in str(message.content)
    assert "Redis at test does not answer" in str(message.content)
    assert "written" not in message.artifact and "failed" in message.artifact
    assert state["memory_changes"]["errors"] and not state["memory_changes"]["created"]
    assert memory.preferences(USER) == []


def test_a_retried_tool_call_is_stored_once(memory: Memory) -> None:
    remember = make_preference_tools(memory)[0]
    call = {
        **remember_call("I like tea", "like", ["tea"], "food", "call_same"),
        "type": "tool_call",
    }
    for _ in range(2):
        remember.invoke(call, config(thread="x"))
    [pref] = memory.preferences(USER)
    assert pref.mention_count == 1


def test_recall_tool_returns_matching_preferences_as_a_block(memory: Memory) -> None:
    memory.remember(
        USER,
        PreferenceCandidate(
            content="I don't like plastic",
            polarity="dislike",
            keywords=["plastic"],
            category="material",
        ),
    )
    recall = make_preference_tools(memory)[2]
    message = recall.invoke(
        {
            "name": "recall_memory",
            "args": {"query": "plastic bottle"},
            "id": "r1",
            "type": "tool_call",
        },
        config(),
    )
    assert "<recalled_memories" in message.content and "I don't like plastic" in message.content
    assert message.artifact["items"][0]["polarity"] == "dislike"


# -- injection -------------------------------------------------------------------------------


def test_memory_blocks_reach_the_model_in_a_system_message_only(memory: Memory) -> None:
    memory.remember(
        USER,
        [
            PreferenceCandidate(
                content="I love stainless steel bottles",
                polarity="like",
                keywords=["stainless steel", "bottle"],
                category="material",
            ),
            PreferenceCandidate(
                content="I don't like plastic bottles",
                polarity="dislike",
                keywords=["plastic", "bottle"],
                category="material",
            ),
        ],
    )
    model = ScriptedChatModel(script=[AIMessage(content="Try a steel bottle.")])
    state = run_turn(build_chat_graph(memory, model), "Recommend a water bottle")
    system, human = model.inputs[0]
    assert isinstance(system, SystemMessage) and human.content == "Recommend a water bottle"
    text = str(system.content)
    assert "<user_preferences" in text and "<recalled_memories" in text
    assert text.index("I don't like plastic bottles") < text.index("I love stainless steel")
    assert "Constraints" in text
    assert not any(isinstance(m, SystemMessage) for m in state["messages"])
    assert "<user_preferences" not in str(state["messages"][0].content)


def test_recent_history_is_injected(memory: Memory) -> None:
    from penchant.memory import HistorySnapshot

    memory.record_history(USER, HistorySnapshot(kind="search", summary="searched hiking boots"))
    model = ScriptedChatModel(script=[AIMessage(content="ok")])
    run_turn(build_chat_graph(memory, model), "anything new?")
    assert "<user_recent_history" in str(model.inputs[0][0].content)
    assert "searched hiking boots" in str(model.inputs[0][0].content)


def test_a_pasted_memory_block_is_not_captured_again(memory: Memory) -> None:
    pasted = wrap_block("user_preferences", "- like (food): I love durian | keywords: durian")
    model = ScriptedChatModel(script=[AIMessage(content="ok")])
    state = run_turn(build_chat_graph(memory, model), f"{pasted}\nThanks, that is all.")
    assert memory.preferences(USER) == []
    assert state["memory_changes"]["created"] == []


def test_the_users_own_words_beside_a_pasted_block_are_captured_once(memory: Memory) -> None:
    pasted = wrap_block("user_preferences", "- like (food): I love durian | keywords: durian")
    model = ScriptedChatModel(script=[AIMessage(content="ok")])
    run_turn(build_chat_graph(memory, model), f"{pasted}\nI hate olives.")
    [pref] = memory.preferences(USER)
    assert pref.polarity == "dislike" and "durian" not in pref.content


# -- turn mechanics --------------------------------------------------------------------------


def test_model_failure_answers_unavailable_and_still_captures(memory: Memory) -> None:
    model = ScriptedChatModel(script=[RuntimeError("connection refused")])
    state = run_turn(build_chat_graph(memory, model), "I don't like plastic.")
    reply = state["messages"][-1]
    assert isinstance(reply, AIMessage) and str(reply.content).startswith(MODEL_UNAVAILABLE_PREFIX)
    assert "connection refused" in str(reply.content)
    assert [p.polarity for p in memory.preferences(USER)] == ["dislike"]


def test_threads_are_checkpointed_separately_and_transcripts_kept(memory: Memory) -> None:
    model = ScriptedChatModel(
        script=[AIMessage(content="one"), AIMessage(content="two"), AIMessage(content="three")]
    )
    graph = build_chat_graph(memory, model)
    run_turn(graph, "hi", thread="a")
    state = run_turn(graph, "again", thread="a")
    other = run_turn(graph, "elsewhere", thread="b")
    assert [m.content for m in state["messages"]] == ["hi", "one", "again", "two"]
    assert [m.content for m in other["messages"]] == ["elsewhere", "three"]
    assert [(e["role"], e["text"]) for e in memory.transcript(USER, "a")] == [
        ("user", "hi"),
        ("assistant", "one"),
        ("user", "again"),
        ("assistant", "two"),
    ]


def test_a_run_without_user_id_fails_with_the_fix(memory: Memory) -> None:
    graph = build_chat_graph(memory, ScriptedChatModel())
    with pytest.raises(InvalidInputError, match="configurable"):
        graph.invoke(
            {"messages": [HumanMessage(content="hi")]}, {"configurable": {"thread_id": "t"}}
        )


def test_endless_tool_calling_is_cut_off(memory: Memory) -> None:
    looping = [
        AIMessage(
            content="", tool_calls=[ToolCall(name="recall_memory", args={"query": "x"}, id=f"c{i}")]
        )
        for i in range(10)
    ]
    model = ScriptedChatModel(script=looping)
    graph = build_chat_graph(memory, model, max_tool_rounds=2)
    state = run_turn(graph, "loop")
    # two tool rounds, then the model must answer: a third round of tool calls is not run
    assert len(model.inputs) == 3
    assert len(tool_messages(state)) == 2
    assert not state["messages"][-1].tool_calls


def test_summary_capture_adds_only_what_rule_capture_missed(memory: Memory) -> None:
    summary = AIMessage(
        content="",
        tool_calls=[
            ToolCall(
                name="PreferenceSummary",
                id="s1",
                args={
                    "preferences": [
                        {
                            "content": "I don't like plastic",
                            "polarity": "dislike",
                            "keywords": ["plastic"],
                            "category": "material",
                        },
                        {
                            "content": "Cotton feels nicest on my skin",
                            "polarity": "like",
                            "keywords": ["cotton"],
                            "category": "material",
                        },
                    ]
                },
            )
        ],
    )
    summary_model = ScriptedChatModel(script=[summary])
    model = ScriptedChatModel(script=[AIMessage(content="ok")])
    graph = build_chat_graph(memory, model, summary_model=summary_model)
    state = run_turn(graph, "I don't like plastic. Cotton feels nicest on my skin.")
    prefs = {tuple(p.keywords): p for p in memory.preferences(USER)}
    assert prefs[("plastic",)].mention_count == 1
    assert prefs[("cotton",)].source == "summary"
    assert PreferenceSummary.__name__ in summary_model.bound_tools
    assert len(state["memory_changes"]["created"]) == 2


def summary_call(*items: dict[str, Any]) -> AIMessage:
    """The summary model's reply as a forced tool call (how non-OpenAI models answer)."""
    return AIMessage(content="", tool_calls=[
        ToolCall(name="PreferenceSummary", id="s1", args={"preferences": list(items)})
    ])


def test_a_malformed_summary_item_is_dropped_with_a_note_and_the_rest_stored(
    memory: Memory,
) -> None:
    summary_model = ScriptedChatModel(script=[summary_call(
        {"content": "Cotton feels nicest", "polarity": "like", "keywords": ["cotton"]},
        {"content": "Linen maybe", "polarity": "so-so", "keywords": ["linen"]},
    )])
    model = ScriptedChatModel(script=[AIMessage(content="ok")])
    graph = build_chat_graph(memory, model, summary_model=summary_model)
    state = run_turn(graph, "Cotton feels nicest; linen maybe.")
    assert [(p.keywords, p.source) for p in memory.preferences(USER)] == [(["cotton"], "summary")]
    [note] = state["memory_changes"]["dropped"]
    assert (note["kind"], note["index"], note["content"]) == ("preference", 1, "Linen maybe")
    assert note["reason"].startswith("polarity: Input should be 'like' or 'dislike'")


def test_summary_capture_is_skipped_when_the_chat_model_failed(memory: Memory) -> None:
    summary_model = ScriptedChatModel(script=[summary_call(
        {"content": "Cotton feels nicest", "polarity": "like", "keywords": ["cotton"]})])
    model = ScriptedChatModel(script=[ConnectionError("connection refused")])
    state = run_turn(build_chat_graph(memory, model, summary_model=summary_model),
                     "I don't like plastic.")
    assert summary_model.inputs == []  # the endpoint just failed; don't call it again
    assert [p.source for p in memory.preferences(USER)] == ["rule"]
    assert state["memory_changes"]["errors"] == []
    meta = state["messages"][-1].response_metadata
    assert (meta["penchant_error"], meta["penchant_error_kind"]) == (
        "model_unavailable", "unreachable")


def test_summary_failure_is_reported_and_the_turn_goes_on(memory: Memory) -> None:
    summary_model = ScriptedChatModel(script=[RuntimeError("rate limited")])
    model = ScriptedChatModel(script=[AIMessage(content="ok")])
    state = run_turn(
        build_chat_graph(memory, model, summary_model=summary_model), "I don't like plastic."
    )
    assert any("rate limited" in e for e in state["memory_changes"]["errors"])
    assert [p.polarity for p in memory.preferences(USER)] == ["dislike"]


# -- embedding in other graphs ---------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_inject_node_works_as_a_pre_model_hook(memory: Memory) -> None:
    from langgraph.prebuilt import create_react_agent

    memory.remember(
        USER,
        PreferenceCandidate(
            content="I don't like plastic",
            polarity="dislike",
            keywords=["plastic"],
            category="material",
        ),
    )
    pm = PenchantMemory(memory)
    model = ScriptedChatModel(script=[AIMessage(content="steel it is")])
    agent = create_react_agent(
        model, pm.tools, pre_model_hook=pm.inject_node, prompt="You are a shop assistant."
    )
    state = agent.invoke({"messages": [HumanMessage(content="a water bottle?")]}, config())
    system = [str(m.content) for m in model.inputs[0] if isinstance(m, SystemMessage)]
    assert system[0] == "You are a shop assistant."  # create_react_agent's prompt comes first
    assert "I don't like plastic" in "\n".join(system[1:])
    assert not any(isinstance(m, SystemMessage) for m in state["messages"])


def test_inject_and_capture_nodes_in_a_host_graph(memory: Memory) -> None:
    memory.remember(
        USER,
        PreferenceCandidate(
            content="I like feta", polarity="like", keywords=["feta"], category="food"
        ),
    )
    pm = PenchantMemory(memory)
    seen: list[list[Any]] = []

    def host_model(state: PenchantState) -> dict[str, Any]:
        seen.append(state["llm_input_messages"])
        return {"messages": [AIMessage(content="ok")]}

    builder = StateGraph(PenchantState)
    builder.add_node("recall", pm.inject_node)
    builder.add_node("model", host_model)
    builder.add_node("remember", pm.capture_node)
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "model")
    builder.add_edge("model", "remember")
    builder.add_edge("remember", END)
    state = builder.compile().invoke(
        {"messages": [HumanMessage(content="I hate olives")]}, config()
    )
    assert isinstance(seen[0][0], SystemMessage) and "I like feta" in str(seen[0][0].content)
    assert sorted(p.polarity for p in memory.preferences(USER)) == ["dislike", "like"]
    assert state["memory_changes"]["created"][0]["polarity"] == "dislike"


def test_subgraph_runs_as_a_node_of_a_messages_state_graph(memory: Memory) -> None:
    pm = PenchantMemory(memory)
    model = ScriptedChatModel(
        script=[
            AIMessage(content="", tool_calls=[remember_call("I like linen", "like", ["linen"])]),
            AIMessage(content="saved"),
        ]
    )
    builder = StateGraph(MessagesState)
    builder.add_node("penchant", pm.subgraph(model))
    builder.add_edge(START, "penchant")
    builder.add_edge("penchant", END)
    state = builder.compile().invoke({"messages": [HumanMessage(content="linen please")]}, config())
    assert state["messages"][-1].content == "saved"
    assert [p.content for p in memory.preferences(USER)] == ["I like linen"]


def test_an_unreachable_redis_degrades_the_turn_but_it_still_answers(settings: Any) -> None:
    import redis

    from penchant.memory.embeddings import HashEmbedder

    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, socket_timeout=0.2,
                       retry=client_retry())  # as Penchant's own connections retry
    offline_memory = Memory(dead, settings=settings, embedder=HashEmbedder())
    model = ScriptedChatModel(script=[AIMessage(content="Here you go.")])
    state = run_turn(build_chat_graph(offline_memory, model), "I don't like plastic.")
    assert state["messages"][-1].content == "Here you go."
    assert "long-term memory is unavailable" in str(model.inputs[0][0].content)
    assert state["memory_changes"]["errors"]
