"""Penchant inside someone else's LangGraph agent: one object, four plug points.

::

    pm = PenchantMemory(memory)
    agent = create_react_agent(model, pm.tools, pre_model_hook=pm.inject_node)
    # or, in your own StateGraph (any state with ``messages``):
    builder.add_node("recall", pm.inject_node)     # before your model node
    builder.add_node("remember", pm.capture_node)  # after your agent's last reply
    builder.add_node("penchant", pm.subgraph(model))  # or the whole loop as a node

``pm.inject_node`` and ``pm.capture_node`` are LangGraph nodes that carry a sync and an async
function (:class:`~penchant.agent.hooks.DualNode`): ``invoke`` runs the one, ``ainvoke`` /
``astream`` the other. So the same node names work over a :class:`~penchant.memory.Memory`
and over an :class:`~penchant.memory.AsyncMemory` (async hosts); ``pm.ainject_node`` and
``pm.acapture_node`` are their async functions alone. Over an ``AsyncMemory`` the tools are
coroutines and ``pm.subgraph``'s nodes too.

The user id comes from ``config["configurable"]["user_id"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph

from penchant.tools.preference_tools import make_preference_tools

from .graph import MAX_TOOL_ROUNDS, build_chat_graph
from .hooks import (
    MEMORY_PREFACE,
    DualNode,
    MemoryHooks,
    NodeState,
    with_memory_system_message,
)

if TYPE_CHECKING:
    from penchant.memory import AsyncMemory, Memory

class PenchantState(TypedDict, total=False):
    """A host state that carries every key Penchant's nodes write.

    Any state with ``messages`` works; the other keys are dropped by LangGraph
    when the host state lacks them.

    Attributes:
        messages: The conversation.
        llm_input_messages: The model input with memory blocks (``pre_model_hook``
            convention); never merged into ``messages``.
        memory_context: The rendered memory blocks of this turn.
        memory_changes: What memory did this turn (see :mod:`penchant.agent.hooks`).
    """

    messages: Annotated[list[AnyMessage], add_messages]
    llm_input_messages: list[AnyMessage]
    memory_context: str
    memory_changes: dict[str, Any]


class PenchantMemory:
    """Penchant's tools, inject step, capture step and subgraph over one :class:`Memory` or
    :class:`AsyncMemory`.

    Args:
        memory: The memory (borrowed, never closed here). Over an ``AsyncMemory`` run the
            graph with ``ainvoke``/``astream``; the nodes, the tools and the subgraph follow.
        summary_model: A real chat model for end-of-turn summary capture, or ``None``.
        k: Preferences recalled per request.
        token_budget: Recall's token budget (``None``: recall's default).

    Attributes:
        tools: ``remember_preference``, ``forget_preference``, ``recall_memory``; they write
            at once (a host graph may have no end-of-turn node), and :attr:`capture_node`
            leaves out what they stored. :meth:`subgraph`'s turn queues ``remember_preference``
            for its one end-of-turn write instead (:mod:`penchant.tools.turn_queue`).
        hooks: The underlying :class:`MemoryHooks`.
        inject_node: Node or ``pre_model_hook`` (a :class:`DualNode`): recall for the last
            user message; returns ``{"llm_input_messages": [system message with the memory
            blocks, *messages], "memory_context": blocks}`` and leaves ``messages`` alone.
        capture_node: End-of-turn node (a :class:`DualNode`): capture the user's last
            message; returns ``{"memory_changes": {...}}`` (see :mod:`penchant.agent.hooks`).
    """

    def __init__(
        self,
        memory: Memory | AsyncMemory,
        *,
        summary_model: BaseChatModel | None = None,
        k: int = 5,
        token_budget: int | None = None,
    ) -> None:
        self.memory = memory
        self.hooks = MemoryHooks(
            memory,  # type: ignore[arg-type]  # its a… nodes take an AsyncMemory
            summary_model=summary_model, k=k, token_budget=token_budget,
        )  # fmt: skip
        self.tools: list[BaseTool] = make_preference_tools(memory)
        self.inject_node = DualNode(self._inject, self.ainject_node, name="inject_node")
        self.capture_node = DualNode(self._capture, self.acapture_node, name="capture_node")

    def _inject(self, state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        return self.hooks.inject(state, config)

    async def ainject_node(self, state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        """The async function of :attr:`inject_node` (one round trip over an ``AsyncMemory``)."""
        return await self.hooks.ainject(state, config)

    def _capture(self, state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        return self.hooks.end_of_turn(state, config)

    async def acapture_node(self, state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        """The async function of :attr:`capture_node`."""
        return await self.hooks.aend_of_turn(state, config)

    def subgraph(
        self, model: BaseChatModel | None = None, *, max_tool_rounds: int = MAX_TOOL_ROUNDS
    ) -> CompiledStateGraph[Any, Any, Any, Any]:
        """The whole memory-aware turn (inject → model ⇄ tools → end_of_turn), compiled.

        Compiled without a checkpointer, so as a node it uses its parent's. Over an
        ``AsyncMemory`` its nodes are coroutines: run the parent with ``ainvoke``/``astream``.

        Args:
            model: The chat model; the offline model when ``None``.
            max_tool_rounds: Tool-calling model responses allowed per turn.
        """
        return build_chat_graph(
            self.memory,
            model,
            checkpointer=False,
            summary_model=self.hooks.summary_model,
            k=self.hooks.k,
            token_budget=self.hooks.token_budget,
            max_tool_rounds=max_tool_rounds,
        )


__all__ = ["MEMORY_PREFACE", "PenchantMemory", "PenchantState", "with_memory_system_message"]
