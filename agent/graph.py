"""Penchant's chat graph: ``inject → model ⇄ tools → end_of_turn``.

::

    START → inject → model ──tool calls──► tools ─┐
                       ▲                          │
                       └──────────────────────────┘
                     model ──no tool calls──► end_of_turn → END

Run it with ``config={"configurable": {"user_id": …, "thread_id": …}}``; the
checkpointer keeps each thread's messages. After a turn, ``state["memory_changes"]``
holds what memory did (see :mod:`penchant.agent.hooks`). A failing model
(unreachable, timeout, 429, 5xx) yields an ``AIMessage`` that says so in one line
(endpoint, kind, fix; :func:`unavailable_message`) and carries
``response_metadata["penchant_error"] == "model_unavailable"``; the turn still ends
with its memory capture (the rule capture of the user's words, through the gate).
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import GraphBubbleUp
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode

from penchant.tools.preference_tools import make_preference_tools, tool_error_message
from penchant.tools.reflect_tool import make_reflect_tool
from penchant.tools.turn_queue import CLEAR_QUEUE, QUEUE_KEY, QueuedPreference, queue_reducer

from .hooks import (
    DEFAULT_SYSTEM_PROMPT,
    MODEL_UNAVAILABLE,
    MemoryChanges,
    MemoryHooks,
    NodeState,
    last_human_index,
    message_text,
    model_failure_in,
    recent_turns,
)
from .models import describe_model_error
from .offline_model import OfflineChatModel

if TYPE_CHECKING:
    from penchant.memory import AsyncMemory, Memory, ReflectModel

logger = logging.getLogger(__name__)

MODEL_UNAVAILABLE_PREFIX = "The model is unavailable"
MAX_TOOL_ROUNDS = 4
"""Model calls with tool calls per turn; after that the model must answer without tools."""


class ChatState(TypedDict, total=False):
    """State of the chat graph.

    Attributes:
        messages: The conversation (LangGraph's ``add_messages`` reducer).
        memory_context: The memory blocks injected into this turn's system prompt.
        memory_changes: What memory did this turn: ``created``, ``merged``,
            ``superseded``, ``rejected``, ``removed`` (JSON lists, as in the CLI),
            ``errors`` (strings) and ``dropped`` (malformed items of the summary
            model's reply that were left out, each with its reason) and ``queued`` (the
            turn's queued ``remember_preference`` calls, written in its one gate write).
        queued_preferences: This turn's ``remember_preference`` calls, queued for the
            end-of-turn write (:mod:`penchant.tools.turn_queue`); emptied as a turn starts.
    """

    messages: Annotated[list[AnyMessage], add_messages]
    memory_context: str
    memory_changes: MemoryChanges
    queued_preferences: Annotated[list[QueuedPreference], queue_reducer]


def tool_rounds_this_turn(messages: list[AnyMessage]) -> int:
    """Model responses with tool calls since the last user message."""
    start = last_human_index(messages)
    turn = messages[(start + 1 if start is not None else 0) :]
    return sum(1 for m in turn if isinstance(m, AIMessage) and m.tool_calls)


def unavailable_message(error: Exception, model: Any = None) -> AIMessage:
    """The reply that stands in for a model that failed.

    Its text is ``The model is unavailable: <endpoint> is unreachable (<detail>); <fix>. …``
    (:meth:`~penchant.agent.models.ModelFailure.line`); its ``response_metadata`` has
    ``penchant_error`` (:data:`MODEL_UNAVAILABLE`), ``penchant_error_kind``,
    ``penchant_error_line`` and ``penchant_error_failure`` (the
    :class:`~penchant.agent.models.ModelFailure` as a dict), for status bars and scripts;
    :func:`~penchant.agent.hooks.model_failure_in` reads them back.

    Args:
        error: What the model call raised.
        model: The chat model that failed (names its endpoint), if known.
    """
    failure = describe_model_error(error, model)
    return AIMessage(
        content=f"{MODEL_UNAVAILABLE_PREFIX}: {failure.line()}. Your message was received "
        "and memory updates from it still apply; please try again later.",
        response_metadata={
            "penchant_error": MODEL_UNAVAILABLE,
            "penchant_error_kind": failure.kind,
            "penchant_error_line": failure.line(),
            "penchant_error_failure": failure.to_dict(),
        },
    )


class ModelStep:
    """The ``model`` node: the chat model with memory blocks in its system message.

    Args:
        model: The chat model (offline or real).
        hooks: Supplies the system prompt text.
        tools: Tools bound to the model.
        max_tool_rounds: Tool-calling responses allowed per turn.
    """

    def __init__(
        self,
        model: BaseChatModel,
        hooks: MemoryHooks,
        tools: list[Any],
        max_tool_rounds: int = MAX_TOOL_ROUNDS,
    ) -> None:
        self.model = model
        self.bound = model.bind_tools(tools) if tools else model
        self.hooks = hooks
        self.max_tool_rounds = max_tool_rounds

    def model_input(self, state: NodeState) -> list[BaseMessage]:
        """The messages sent to the model: a system message, then the conversation."""
        system = SystemMessage(content=self.hooks.system_text(state.get("memory_context", "")))
        return [system, *recent_turns(state.get("messages", []))]

    def __call__(self, state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        tools_allowed = self._tools_allowed(state)
        runnable = self.bound if tools_allowed else self.model
        try:
            reply = runnable.invoke(self.model_input(state), config)
        except GraphBubbleUp:
            raise
        except Exception as exc:  # provider errors of any SDK; the turn must go on
            reply = self._failed(exc)
        return self._reply(reply, tools_allowed)

    async def acall(self, state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        """The node for async graphs (``ainvoke``/``astream``): the model's ``ainvoke``."""
        tools_allowed = self._tools_allowed(state)
        runnable = self.bound if tools_allowed else self.model
        try:
            reply = await runnable.ainvoke(self.model_input(state), config)
        except GraphBubbleUp:
            raise
        except Exception as exc:  # provider errors of any SDK; the turn must go on
            reply = self._failed(exc)
        return self._reply(reply, tools_allowed)

    def _tools_allowed(self, state: NodeState) -> bool:
        return tool_rounds_this_turn(state.get("messages", [])) < self.max_tool_rounds

    def _failed(self, exc: Exception) -> AIMessage:
        reply = unavailable_message(exc, self.model)
        # info, not warning: the reply itself reports it (and the CLI keeps stderr to one line)
        logger.info("chat model failed: %s", reply.response_metadata["penchant_error_line"])
        return reply

    def _reply(self, reply: Any, tools_allowed: bool) -> dict[str, Any]:
        if not tools_allowed and isinstance(reply, AIMessage) and reply.tool_calls:
            reply = _without_tool_calls(reply, self.max_tool_rounds)
        return {"messages": [reply]}


def _without_tool_calls(reply: AIMessage, rounds: int) -> AIMessage:
    text = message_text(reply) or f"(Stopped after {rounds} rounds of tool calls this turn.)"
    return AIMessage(content=text, id=reply.id, response_metadata=reply.response_metadata)


def _after_model(state: NodeState) -> Literal["tools", "end_of_turn"]:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else "end_of_turn"


def _starting_turn(inject: Any) -> Any:
    """The ``inject`` node, which also empties the queue of ``remember_preference`` calls:
    a turn's end-of-turn write takes only its own (sync or async, as ``inject`` is)."""
    if inspect.iscoroutinefunction(inject):

        async def ainject(state: NodeState, config: RunnableConfig) -> dict[str, Any]:
            return {**await inject(state, config), QUEUE_KEY: CLEAR_QUEUE}

        return ainject

    def sync_inject(state: NodeState, config: RunnableConfig) -> dict[str, Any]:
        return {**inject(state, config), QUEUE_KEY: CLEAR_QUEUE}

    return sync_inject


def build_chat_graph(
    memory: Memory | AsyncMemory,
    model: BaseChatModel | None = None,
    *,
    checkpointer: BaseCheckpointSaver[Any] | Literal[False] | None = None,
    summary_model: BaseChatModel | None = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    k: int = 5,
    token_budget: int | None = None,
    max_tool_rounds: int = MAX_TOOL_ROUNDS,
    with_reflect: bool = False,
    reflect_model: ReflectModel | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile Penchant's chat graph.

    Args:
        memory: The memory to recall from and write to (borrowed). Over an
            :class:`~penchant.memory.AsyncMemory` every node is a coroutine: run the graph
            with ``ainvoke``/``astream``.
        model: The chat model; the offline model when ``None``.
        checkpointer: Keeps each ``thread_id``'s messages; an ``InMemorySaver``
            when ``None``; ``False`` compiles without one (a subgraph then uses
            its parent's).
        summary_model: A real model for end-of-turn summary capture, or ``None``.
        system_prompt: Text before the injected memory blocks.
        k: Preferences recalled per request.
        token_budget: Recall's token budget (``None``: recall's default).
        max_tool_rounds: Tool-calling model responses allowed per turn.
        with_reflect: Also give the model the ``reflect`` tool.
        reflect_model: The model reflect uses (``None``: the offline reflect).

    Returns:
        The compiled graph; invoke with ``{"messages": [("user", text)]}`` and
        ``config={"configurable": {"user_id": …, "thread_id": …}}``.

    Raises:
        InvalidInputError: ``with_reflect`` over an ``AsyncMemory`` (the reflect tool is
            sync only).
    """
    from penchant.memory import AsyncMemory, InvalidInputError

    is_async = isinstance(memory, AsyncMemory)
    if is_async and with_reflect:
        raise InvalidInputError(
            "with_reflect=True needs a sync Memory (the reflect tool has no async path); "
            "build the graph over Memory, or leave with_reflect off"
        )
    hooks = MemoryHooks(
        memory,  # type: ignore[arg-type]  # its a-nodes take the AsyncMemory (hooks.py)
        summary_model=summary_model,
        k=k,
        token_budget=token_budget,
        system_prompt=system_prompt,
    )
    tools = make_preference_tools(memory, queue_for_turn=True)
    if with_reflect and not isinstance(memory, AsyncMemory):
        tools.append(make_reflect_tool(memory, reflect_model))
    builder = StateGraph(ChatState)
    step = ModelStep(model or OfflineChatModel(), hooks, tools, max_tool_rounds)
    builder.add_node("inject", _starting_turn(hooks.ainject if is_async else hooks.inject))
    builder.add_node("model", step.acall if is_async else step)
    builder.add_node("tools", ToolNode(tools, handle_tool_errors=tool_error_message))
    builder.add_node("end_of_turn", hooks.aend_of_turn if is_async else hooks.end_of_turn)
    builder.add_edge(START, "inject")
    builder.add_edge("inject", "model")
    builder.add_conditional_edges("model", _after_model)
    builder.add_edge("tools", "model")
    builder.add_edge("end_of_turn", END)
    if checkpointer is False:
        return builder.compile()
    return builder.compile(checkpointer=checkpointer or InMemorySaver())


__all__ = [
    "MAX_TOOL_ROUNDS",
    "MODEL_UNAVAILABLE",
    "MODEL_UNAVAILABLE_PREFIX",
    "ChatState",
    "ModelStep",
    "build_chat_graph",
    "model_failure_in",
    "tool_rounds_this_turn",
    "unavailable_message",
]
