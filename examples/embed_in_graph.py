"""Penchant inside other LangGraph agents, three ways.

1. **Nodes in your own graph**: ``pm.inject_node`` before your model node (it
   writes ``llm_input_messages``: your messages with the memory blocks in a
   system message) and ``pm.capture_node`` after the reply.
2. **The compiled subgraph** as one node: ``pm.subgraph(model)`` runs the whole
   memory-aware turn (inject → model ⇄ tools → capture) inside your graph.
3. **A prebuilt agent**: ``create_react_agent(model, pm.tools,
   pre_model_hook=pm.inject_node)``, followed by ``pm.capture_node``.

The user id comes from ``config["configurable"]["user_id"]``. A tiny scripted
model stands in for your LLM so this runs offline: it answers from the memory
blocks it is given, and can be scripted to call Penchant's tools.

Run it::

    python examples/embed_in_graph.py [--user ID]
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolCall
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from pydantic import Field

from penchant.agent import PenchantMemory, PenchantState
from penchant.agent.hooks import message_text
from penchant.memory import Memory, Settings
from penchant.tools.prompt_blocks import parse_preferences

DEMO_USER = "demo-embed"

Output = Callable[[str], None]


class TinyModel(BaseChatModel):
    """A scripted stand-in for your chat model (no network).

    It replies with the next scripted message when there is one; otherwise it
    says which of the user's dislikes and likes it was shown, read from the
    memory blocks in its system messages.
    """

    script: list[AIMessage] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "tiny-scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> TinyModel:  # type: ignore[override]
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        reply = self.script.pop(0) if self.script else AIMessage(content=self._answer(messages))
        return ChatResult(generations=[ChatGeneration(message=reply)])

    @staticmethod
    def _answer(messages: list[BaseMessage]) -> str:
        system = "\n".join(message_text(m) for m in messages if isinstance(m, SystemMessage))
        prefs = parse_preferences(system)
        avoid = ", ".join(p.content for p in prefs.avoid()) or "nothing"
        favour = ", ".join(p.content for p in prefs.leanings) or "nothing"
        return f"Avoiding: {avoid}. Favouring: {favour}."


def remember_call(content: str, polarity: str, keywords: list[str], category: str) -> ToolCall:
    """A ``remember_preference`` tool call, as a real model would emit it."""
    args = {"content": content, "polarity": polarity, "keywords": keywords, "category": category}
    return ToolCall(name="remember_preference", args=args, id=f"call-{keywords[0]}")


def host_graph(pm: PenchantMemory, model: BaseChatModel) -> Any:
    """Your own graph, with Penchant's inject and capture steps as nodes."""

    def shop_assistant(state: PenchantState) -> dict[str, Any]:
        # Call the model on llm_input_messages (messages + memory blocks), not on messages.
        return {"messages": [model.invoke(state["llm_input_messages"])]}

    builder = StateGraph(PenchantState)
    builder.add_node("recall", pm.inject_node)
    builder.add_node("shop_assistant", shop_assistant)
    builder.add_node("remember", pm.capture_node)
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "shop_assistant")
    builder.add_edge("shop_assistant", "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=InMemorySaver())


def subgraph_host(pm: PenchantMemory, model: BaseChatModel) -> Any:
    """A ``MessagesState`` graph whose ``penchant`` node is Penchant's whole turn."""

    def audit(state: MessagesState) -> dict[str, Any]:
        return {}  # your next step: logging, routing, guardrails …

    builder = StateGraph(MessagesState)
    builder.add_node("penchant", pm.subgraph(model))
    builder.add_node("audit", audit)
    builder.add_edge(START, "penchant")
    builder.add_edge("penchant", "audit")
    builder.add_edge("audit", END)
    return builder.compile(checkpointer=InMemorySaver())


def prebuilt_host(pm: PenchantMemory, model: BaseChatModel) -> Any:
    """LangGraph's prebuilt ReAct agent with Penchant as ``pre_model_hook``, then capture."""
    from langgraph.prebuilt import create_react_agent

    with warnings.catch_warnings():  # langgraph 1.x points to langchain.agents.create_agent
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", message="create_react_agent has been moved")
        agent = create_react_agent(
            model, pm.tools, pre_model_hook=pm.inject_node, prompt="You are a shop assistant."
        )
    builder = StateGraph(PenchantState)
    builder.add_node("agent", agent)
    builder.add_node("remember", pm.capture_node)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=InMemorySaver())


def _talk(graph: Any, config: RunnableConfig, texts: Sequence[str], out: Output) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for text in texts:
        state = graph.invoke({"messages": [HumanMessage(content=text)]}, config)
        stored = [c["content"] for c in (state.get("memory_changes") or {}).get("created", [])]
        out(f"user> {text}\nassistant> {message_text(state['messages'][-1])}")
        if stored:
            out(f"  [stored] {'; '.join(stored)}")
    return state


def run(memory: Memory, user_id: str = DEMO_USER, *, out: Output = print) -> dict[str, Any]:
    """Run the three embeddings, one conversation each, for one user.

    Args:
        memory: The memory (borrowed).
        user_id: Whose memory (shared by the three demos).
        out: Where to print.

    Returns:
        The last state of each demo: ``{"host_graph", "subgraph", "prebuilt"}``.
    """
    pm = PenchantMemory(memory)

    def config(thread: str) -> RunnableConfig:
        return {"configurable": {"user_id": user_id, "thread_id": thread}}

    out("== 1. inject_node and capture_node in your own StateGraph")
    first = _talk(
        host_graph(pm, TinyModel()),
        config("host"),
        ["I don't like plastic.", "Which lunch box should I buy?"],
        out,
    )
    out("\n== 2. the compiled subgraph as one node (the model calls remember_preference)")
    scripted = TinyModel(
        script=[
            AIMessage(
                content="",
                tool_calls=[remember_call("I love linen", "like", ["linen"], "material")],
            ),
            AIMessage(content="Saved: you love linen."),
        ]
    )
    second = _talk(subgraph_host(pm, scripted), config("subgraph"), ["Linen is my thing."], out)
    out("\n== 3. create_react_agent with pre_model_hook=pm.inject_node")
    third = _talk(
        prebuilt_host(pm, TinyModel()),
        config("prebuilt"),
        ["I'm allergic to peanuts.", "Any snack ideas for a picnic?"],
        out,
    )
    out("\nstored preferences: " + "; ".join(p.content for p in memory.preferences(user_id)))
    return {"host_graph": first, "subgraph": second, "prebuilt": third}


def main(argv: Sequence[str] | None = None, memory: Memory | None = None) -> int:
    """Command-line entry.

    Args:
        argv: Arguments (``sys.argv[1:]`` when ``None``).
        memory: A memory to borrow; ``Memory.from_settings(Settings())`` (owned,
            closed at the end) when ``None``.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--user", default=DEMO_USER)
    args = parser.parse_args(argv)
    owned = memory is None
    mem = Memory.from_settings(Settings()) if memory is None else memory
    try:
        run(mem, args.user)
    finally:
        if owned:
            mem.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
