"""LangChain tools over a :class:`penchant.memory.Memory`.

Three tools, whose names and model-visible arguments are a contract:

* ``remember_preference(content, polarity, keywords=None, category=None)``: ``keywords``
  and ``category`` are optional; the gate derives them from the content when absent
* ``forget_preference(query, polarity=None)``
* ``recall_memory(query)``

The user id is never an argument the model sees: it comes from the run's
config, ``config["configurable"]["user_id"]``, which LangGraph injects into
the tool call. The tool call id is injected too and becomes the gate's
idempotency key, so a retried tool call is stored once.

Each tool returns ``(text, artifact)`` (``response_format="content_and_artifact"``):
the text is the gate's own account (:meth:`GateResult.describe`), the artifact
its JSON form (:meth:`GateResult.public_dict`), which the end-of-turn hook
reads to know what this turn stored. Built with ``queue_for_turn=True`` (Penchant's chat
graph does), ``remember_preference`` writes nothing itself: it queues its candidate in the
graph state for the end-of-turn write and says so (:mod:`.turn_queue`).

Errors are raised and turned into tool messages by :func:`tool_error_message` (pass it as ToolNode's
``handle_tool_errors``), so a bad argument or a Redis outage never crashes a
turn.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Annotated, Any, Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool, ToolException
from pydantic import BaseModel, Field, ValidationError

from penchant.memory import (
    InvalidInputError,
    PenchantError,
    PreferenceCandidate,
    StorageUnavailableError,
    validate_user_id,
)

from .prompt_blocks import render_recall
from .turn_queue import queued_reply

if TYPE_CHECKING:
    from penchant.memory import AsyncMemory, Memory

logger = logging.getLogger(__name__)

REMEMBER_TOOL = "remember_preference"
FORGET_TOOL = "forget_preference"
RECALL_TOOL = "recall_memory"
TOOL_NAMES = (REMEMBER_TOOL, FORGET_TOOL, RECALL_TOOL)

_REMEMBER_DESCRIPTION = (
    "Save a lasting preference the user has stated about themselves: something they like "
    "or dislike (materials, foods, brands, styles, budget, allergies, ...), so that future "
    "conversations can honour it. Call it only for the user's own stable tastes or aversions "
    "in their own words; not for one-off requests, questions, things you suggested, or "
    "facts about other people. Returns exactly what the memory did: stored, merged into an "
    "existing preference, superseded an older contradicting one, or rejected with a reason. "
    "Tell the user the result truthfully; never claim something was saved when it was not."
)
_QUEUED_DESCRIPTION = (
    "In this chat the write happens at the end of your turn, together with what the user's "
    "message states: the tool answers that the preference is queued, and the outcome is "
    "added to its result after your reply."
)
_FORGET_DESCRIPTION = (
    "Remove stored preferences when the user asks you to forget them. Matching is literal: "
    "the query's words must name the preference (e.g. 'plastic', 'spicy food'); vague "
    "references such as 'that one' match nothing. Optionally limit to one polarity. Returns "
    "exactly what was removed, or that nothing matched."
)
_RECALL_DESCRIPTION = (
    "Look up the user's stored preferences relevant to a query (e.g. 'water bottle', "
    "'dinner ideas'). Returns the best matches, dislikes and likes, as data. The relevant "
    "preferences are usually already in your context; use this for a different topic."
)


class RememberArgs(BaseModel):
    """Arguments of ``remember_preference`` (the model sees all but ``tool_call_id``)."""

    content: str = Field(
        description="The preference as one short sentence in the user's words, "
        "e.g. 'I don't like plastic packaging'."
    )
    polarity: Literal["like", "dislike"] = Field(
        description="'like' for things the user likes or wants, 'dislike' for things to avoid."
    )
    keywords: list[str] | None = Field(
        default=None,
        description="Optional: 1-5 short nouns naming what the preference is about, e.g. "
        "['plastic']; derived from content when omitted. Keep a negation that is part of the "
        "object: 'plastic-free packaging' is about 'plastic-free'.",
    )
    category: str | None = Field(
        default=None,
        description="Optional: one short lowercase word (material, food, brand, style, "
        "budget, other); derived from content when omitted.",
    )
    tool_call_id: Annotated[str, InjectedToolCallId]


class ForgetArgs(BaseModel):
    """Arguments of ``forget_preference``."""

    query: str = Field(description="Words naming the preference to forget, e.g. 'plastic'.")
    polarity: Literal["like", "dislike"] | None = Field(
        default=None, description="Only forget likes or only dislikes; omit for both."
    )


class RecallArgs(BaseModel):
    """Arguments of ``recall_memory``."""

    query: str = Field(description="What to look up, e.g. 'water bottle' or 'dinner'.")


def user_id_from_config(config: RunnableConfig | None) -> str:
    """The user id of a run: ``config["configurable"]["user_id"]``.

    Raises:
        InvalidInputError: No non-empty user id in the config.
    """
    configurable = (config or {}).get("configurable") or {}
    user_id = configurable.get("user_id")
    if not isinstance(user_id, str) or not user_id.strip():
        raise InvalidInputError(
            f"no user id in the run config (got {user_id!r}); invoke the graph with "
            "config={'configurable': {'user_id': 'alice', 'thread_id': '...'}}"
        )
    return user_id


def tool_error_message(error: Exception, *, reading: bool = False) -> str:
    """Turn a tool failure into the text of the tool message the model reads.

    Use as ``ToolNode(tools, handle_tool_errors=tool_error_message)``; every
    exception becomes a message, never a crash.

    Args:
        error: What the tool raised.
        reading: The tool only reads (recall, list): storage down means the memory could
            not be *read*, and the model is told so, not that it could not be updated.

    Returns:
        One paragraph that says what failed and what to do.
    """
    if isinstance(error, ToolException) and str(error).startswith("Error: "):
        return str(error)  # already worded by the tool (a read that failed)
    message = getattr(error, "message", None)
    if isinstance(message, str) and type(error).__name__ == "ToolInvocationError":
        return f"Error: {message}"
    if isinstance(error, StorageUnavailableError):
        return (
            f"Error: memory storage is unavailable ({error}); nothing was changed. "
            f"Tell the user their memory could not be {'read' if reading else 'updated'} "
            "right now."
        )
    if isinstance(error, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        return f"Error: invalid arguments ({problems}). Fix them and call the tool again."
    if isinstance(error, (InvalidInputError, ValueError)):
        return f"Error: invalid input: {error}. Fix it and call the tool again."
    if isinstance(error, PenchantError):
        return f"Error: memory operation failed: {error}. Nothing was changed."
    logger.exception("unexpected tool failure", exc_info=error)
    return f"Error: the tool failed unexpectedly ({type(error).__name__}: {error})."


def _candidate(
    content: str, polarity: str, keywords: list[str] | None, category: str | None
) -> Any:
    """The tool's candidate; missing keywords and category are left for the gate to derive."""
    return PreferenceCandidate(
        content=content, polarity=polarity, keywords=keywords or [],  # type: ignore[arg-type]
        category=category or "other", source="tool",
    )


def _described(result: Any) -> tuple[str, dict[str, Any]]:
    return result.describe(), result.public_dict()


def _recalled(result: Any) -> tuple[str, dict[str, Any]]:
    if not result.items:
        return "no stored preference matches that query", {"items": [], "tokens": 0}
    artifact = {
        "items": [{**item.preference.public_dict(), "score": item.score} for item in result.items],
        "tokens": result.tokens,
    }
    return render_recall(result), artifact


def make_preference_tools(
    memory: Memory | AsyncMemory, *, queue_for_turn: bool = False
) -> list[BaseTool]:
    """Build the three preference tools bound to one :class:`Memory` or :class:`AsyncMemory`.

    Over an ``AsyncMemory`` the tools are coroutines (``StructuredTool(coroutine=…)``), for
    graphs run with ``ainvoke`` / ``astream``; over a ``Memory`` they are plain functions.

    Args:
        memory: The memory the tools read and write (borrowed, never closed).
        queue_for_turn: ``remember_preference`` validates its candidate and queues it in the
            graph state (:data:`~.turn_queue.QUEUE_KEY`) instead of writing, and tells the
            model so; only for a graph whose end-of-turn node writes the queue
            (:func:`penchant.agent.graph.build_chat_graph`). Default: it writes at once.

    Returns:
        ``[remember_preference, forget_preference, recall_memory]``.
    """
    from penchant.memory import AsyncMemory

    tools = _async_tools(memory) if isinstance(memory, AsyncMemory) else _sync_tools(memory)
    if queue_for_turn:
        tools[0] = _queueing_remember_tool()
    return tools


def _queueing_remember_tool() -> BaseTool:
    """``remember_preference`` that queues (same name, description and arguments)."""

    def remember_preference(
        content: str,
        polarity: Literal["like", "dislike"],
        tool_call_id: str,
        config: RunnableConfig,
        keywords: list[str] | None = None,
        category: str | None = None,
    ) -> Any:
        validate_user_id(user_id_from_config(config))
        candidate = _candidate(content, polarity, keywords, category)
        return queued_reply(candidate, tool_call_id, REMEMBER_TOOL)

    async def aremember_preference(
        content: str,
        polarity: Literal["like", "dislike"],
        tool_call_id: str,
        config: RunnableConfig,
        keywords: list[str] | None = None,
        category: str | None = None,
    ) -> Any:
        return remember_preference(content, polarity, tool_call_id, config, keywords, category)

    return StructuredTool.from_function(
        func=remember_preference, coroutine=aremember_preference, name=REMEMBER_TOOL,
        description=f"{_REMEMBER_DESCRIPTION} {_QUEUED_DESCRIPTION}", args_schema=RememberArgs,
        infer_schema=False,
    )  # fmt: skip


def _sync_tools(sync_memory: Memory) -> list[BaseTool]:

    def remember_preference(
        content: str,
        polarity: Literal["like", "dislike"],
        tool_call_id: str,
        config: RunnableConfig,
        keywords: list[str] | None = None,
        category: str | None = None,
    ) -> tuple[str, dict[str, Any]]:
        user_id = user_id_from_config(config)
        candidate = _candidate(content, polarity, keywords, category)
        return _described(sync_memory.remember(user_id, candidate, idempotency_key=tool_call_id))

    def forget_preference(
        query: str, config: RunnableConfig, polarity: Literal["like", "dislike"] | None = None
    ) -> tuple[str, dict[str, Any]]:
        return _described(sync_memory.forget(user_id_from_config(config), query, polarity))

    def recall_memory(query: str, config: RunnableConfig) -> tuple[str, dict[str, Any]]:
        try:
            return _recalled(sync_memory.recall(user_id_from_config(config), query))
        except StorageUnavailableError as exc:
            raise _read_failed(exc) from exc

    return _structured([remember_preference, forget_preference, recall_memory], coroutine=False)


def _async_tools(memory: AsyncMemory) -> list[BaseTool]:
    async def remember_preference(
        content: str,
        polarity: Literal["like", "dislike"],
        tool_call_id: str,
        config: RunnableConfig,
        keywords: list[str] | None = None,
        category: str | None = None,
    ) -> tuple[str, dict[str, Any]]:
        user_id = user_id_from_config(config)
        candidate = _candidate(content, polarity, keywords, category)
        return _described(await memory.remember(user_id, candidate, idempotency_key=tool_call_id))

    async def forget_preference(
        query: str, config: RunnableConfig, polarity: Literal["like", "dislike"] | None = None
    ) -> tuple[str, dict[str, Any]]:
        return _described(await memory.forget(user_id_from_config(config), query, polarity))

    async def recall_memory(query: str, config: RunnableConfig) -> tuple[str, dict[str, Any]]:
        try:
            return _recalled(await memory.recall(user_id_from_config(config), query))
        except StorageUnavailableError as exc:
            raise _read_failed(exc) from exc

    return _structured([remember_preference, forget_preference, recall_memory], coroutine=True)


def _read_failed(error: StorageUnavailableError) -> ToolException:
    """A read tool's storage failure, worded for a read (ToolNode hands its error handler
    the exception alone, so the tool says which kind of call failed)."""
    return ToolException(tool_error_message(error, reading=True))


def _structured(functions: list[Any], *, coroutine: bool) -> list[BaseTool]:
    specs: list[tuple[str, str, type[BaseModel]]] = [
        (REMEMBER_TOOL, _REMEMBER_DESCRIPTION, RememberArgs),
        (FORGET_TOOL, _FORGET_DESCRIPTION, ForgetArgs),
        (RECALL_TOOL, _RECALL_DESCRIPTION, RecallArgs),
    ]
    return [
        StructuredTool.from_function(
            func=None if coroutine else function,
            coroutine=function if coroutine else None,
            name=name,
            description=description,
            args_schema=schema,
            response_format="content_and_artifact",
            infer_schema=False,
        )
        for function, (name, description, schema) in zip(functions, specs, strict=True)
    ]


__all__ = [
    "FORGET_TOOL",
    "RECALL_TOOL",
    "REMEMBER_TOOL",
    "TOOL_NAMES",
    "ForgetArgs",
    "RecallArgs",
    "RememberArgs",
    "make_preference_tools",
    "tool_error_message",
    "user_id_from_config",
]
