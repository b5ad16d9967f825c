"""The process around ``penchant chat``: settings, the :class:`~penchant.memory.AsyncMemory`,
the chat graph and its model, the status probes, and the exit.

:func:`penchant.tui.launch.run_chat` is the CLI's entry over these parts.
:class:`ChatAgent` owns the compiled graph and runs one turn with ``astream`` (the async
nodes of :func:`penchant.agent.build_chat_graph` over an ``AsyncMemory``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

from penchant.memory import AsyncMemory, Embedder, Settings

from .commands import thread_id_for

if TYPE_CHECKING:
    from .app import ChatApp

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

OFFLINE_LABEL = "offline (rule-based, no LLM)"
"""How the status bar names the offline model; it must never pass for a real one."""
EXIT_INTERRUPTED = 130
"""Exit status after a Ctrl+C that came before the app took the terminal (128 + SIGINT)."""
THREAD_JOIN_SECONDS = 1.0
"""How long :func:`~penchant.tui.launch.run_chat` waits at exit for worker threads (a model
call, the embedding model's load) before leaving without them."""


# -- the agent -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnOutcome:
    """The end of one chat turn: the final reply and what memory did."""

    user_id: str
    reply: str
    changes: dict[str, Any] = field(default_factory=dict)
    tools: list[str] = field(default_factory=list)
    model_failure: str = ""
    """The kind of the model's failure this turn (``unreachable``, ``timeout`` …), or ``""``."""


@dataclass(frozen=True)
class ChatAgent:
    """The compiled chat graph over an :class:`AsyncMemory`, and how the status bar names
    its model.

    Attributes:
        graph: A compiled LangGraph graph with the contract of
            :func:`penchant.agent.build_chat_graph` (``astream`` over
            ``{"messages": […]}``, ``memory_changes`` from ``end_of_turn``).
        memory: The memory the graph was built over (borrowed); seeds new threads.
        model_label: The model's name for the status bar.
        offline: Whether the model is the offline rule-based one.
    """

    graph: Any
    memory: AsyncMemory
    model_label: str
    offline: bool
    _seeded: set[str] = field(default_factory=set, repr=False, compare=False)

    @classmethod
    def build(cls, memory: AsyncMemory, model: Any = None, **graph_options: Any) -> ChatAgent:
        """Compile Penchant's chat graph around ``model`` (the offline model when ``None``).

        Args:
            memory: The memory the graph recalls from and writes to (borrowed).
            model: A LangChain chat model, or ``None``.
            **graph_options: Passed to :func:`penchant.agent.build_chat_graph`.
        """
        from penchant.agent import build_chat_graph, is_offline

        offline = model is None or is_offline(model)
        graph = build_chat_graph(memory, model, **graph_options)
        return cls(graph, memory, OFFLINE_LABEL if offline else model_label(model), offline)

    @classmethod
    def from_settings(cls, memory: AsyncMemory, settings: Settings) -> ChatAgent:
        """The agent that settings ask for: a real endpoint when ``OPENAI_BASE_URL`` or
        ``OPENAI_API_KEY`` is set (:func:`penchant.agent.models.choose_model` decides).

        Imports LangGraph and LangChain (seconds): call it in a worker thread.
        """
        from penchant.agent import chat_model_from_settings, is_offline

        model = chat_model_from_settings(settings)
        summary = None if is_offline(model) else model
        return cls.build(memory, model, summary_model=summary)

    async def run_turn(
        self, user_id: str, text: str, on_piece: Callable[[str], object]
    ) -> TurnOutcome:
        """One chat turn through the graph (``astream``); ``on_piece`` gets each reply piece.

        The turn has stored its memory capture once this returns (``end_of_turn`` is the
        graph's last node).

        Raises:
            Exception: Whatever the graph raises outside its own failure handling (the
                model's and memory's failures are part of the reply and of ``changes``).
        """
        thread_id = thread_id_for(user_id)
        config = {"configurable": {"user_id": user_id, "thread_id": thread_id}}
        await self.seed_thread(config, user_id, thread_id)
        reply, changes, tools, failure = "", {}, [], ""
        stream = self.graph.astream(
            {"messages": [("user", text)]}, config, stream_mode=["messages", "updates"]
        )
        async for mode, payload in stream:
            if mode == "messages":
                chunk, meta = payload
                if meta.get("langgraph_node") == "model" and (piece := content_text(chunk.content)):
                    on_piece(piece)
                continue
            for node, update in (payload or {}).items():
                if node == "model" and isinstance(update, dict):
                    for message in update.get("messages") or []:
                        calls = getattr(message, "tool_calls", None) or []
                        tools += [str(c.get("name")) for c in calls]
                        reply = reply if calls else content_text(message.content)
                        failure = model_failure_kind(message)
                elif node == "end_of_turn" and isinstance(update, dict):
                    changes = dict(update.get("memory_changes") or {})
        return TurnOutcome(user_id, reply, changes, tools, failure)

    async def seed_thread(self, config: dict[str, Any], user_id: str, thread_id: str) -> None:
        """Give a fresh checkpointer thread the stored transcript, so the model sees it.

        Once per thread; a thread that cannot be seeded (no checkpointer, memory down)
        starts empty, and that is logged.
        """
        if thread_id in self._seeded:
            return
        self._seeded.add(thread_id)
        try:
            if (await self.graph.aget_state(config)).values.get("messages"):
                return
            entries = await self.memory.transcript(user_id, thread_id)
            messages = [transcript_message(e) for e in entries if e.get("text")]
            if messages:
                await self.graph.aupdate_state(
                    config, {"messages": messages}, as_node="end_of_turn"
                )
        except Exception as exc:  # no checkpointer, or memory down: start the thread empty
            logger.info("thread %s not seeded from its transcript: %s", thread_id, exc)


AgentSource = ChatAgent | Callable[[], ChatAgent]
"""A ready agent, or a factory the app calls once in a worker thread (it imports LangGraph;
keeps start-up under 2 s)."""


def model_failure_kind(message: Any) -> str:
    """The failure kind of a reply that stands in for a failed model (``unreachable``,
    ``timeout``, ``rate limited`` …; see :func:`penchant.agent.graph.unavailable_message`),
    or ``""`` for a real reply."""
    meta = getattr(message, "response_metadata", None) or {}
    if meta.get("penchant_error") != "model_unavailable":
        return ""
    return str(meta.get("penchant_error_kind") or "failed").replace("_", " ")


def model_label(model: Any) -> str:
    """``name @ endpoint`` of a real chat model (``ChatOpenAI`` attributes, when present)."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or type(model)
    base = getattr(model, "openai_api_base", None)
    return f"{name} @ {base}" if base else str(name)


def content_text(content: Any) -> str:
    """The text of a message's content (a string, or a list of text parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)
    return ""


def transcript_message(entry: Mapping[str, Any]) -> Any:
    """A stored transcript entry as a LangChain message (for seeding a thread)."""
    from langchain_core.messages import AIMessage, HumanMessage

    text = str(entry.get("text", ""))
    return HumanMessage(text) if entry.get("role") == "user" else AIMessage(text)


# -- status probes -------------------------------------------------------------------------------


def embedder_status(embedder: Embedder | None) -> tuple[str, bool]:
    """The status bar's embedder text, and whether the model still has to be loaded."""
    if embedder is None:
        return "none (lexical recall only)", False
    if getattr(embedder, "loaded", True):
        return f"ready {short_name(embedder.name)}", False
    return f"loading {short_name(embedder.name)}…", True


async def warm_embedder(embedder: Embedder) -> str:
    """Load the embedding model now (in a worker thread), so the first turn does not wait
    for it; returns the status text."""
    await asyncio.to_thread(embedder.embed, ["warm-up"])
    return f"ready {short_name(str(embedder.name))}"


def short_name(name: str) -> str:
    """The last path part of each model in a name (``sentence-transformers/x`` → ``x``;
    a fused ``a/x+b/y`` → ``x+y``)."""
    return "+".join(part.rstrip("/").rsplit("/", 1)[-1] for part in name.split("+"))


# -- the process ---------------------------------------------------------------------------------


class CountingExecutor(ThreadPoolExecutor):
    """The event loop's default executor, counting the jobs in flight.

    The library's CPU work (embedding, ranking), a sync model call and the agent's build
    run here (``asyncio.to_thread``, LangChain's ``run_in_executor``). At exit
    :func:`~penchant.tui.launch.run_chat` gives a running job :data:`THREAD_JOIN_SECONDS`, then
    leaves
    without it: ``asyncio.run`` and the interpreter would otherwise join it for as long
    as it runs (a model call can take a minute).
    """

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="penchant-chat")
        self._count = 0
        self._lock = threading.Lock()

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        with self._lock:
            self._count += 1
        try:
            future = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._job_done(None)
            raise
        future.add_done_callback(self._job_done)
        return future

    def _job_done(self, _future: object) -> None:
        with self._lock:
            self._count -= 1

    @property
    def busy(self) -> int:
        """Jobs submitted and not yet done."""
        with self._lock:
            return self._count

    async def wait_idle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every job to end; whether they all did."""
        deadline = time.monotonic() + timeout
        while self.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return not self.busy


@contextlib.contextmanager
def log_to_file(path: Path) -> Iterator[None]:
    """Send the root logger to ``path`` while the app owns the terminal."""
    root = logging.getLogger()
    saved = root.handlers[:]
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.handlers = [handler]
    try:
        yield
    finally:
        root.handlers = saved
        handler.close()


def report_unsaved_turn(app: ChatApp) -> None:
    """Say on stderr (and in the log) when a quit cut off a turn before its memory capture."""
    if app.unsaved_turn is None:
        return
    line = (
        f"penchant chat: the last message ({app.unsaved_turn!r}) was cut off by the quit "
        "before its memory capture finished, so it may not be stored; say it again next time"
    )
    logger.warning(line)
    sys.stderr.write(line + "\n")


def leave_now(code: int) -> NoReturn:
    """End the process at once, past worker threads that are still running.

    A model call or the embedding model's load would go on after the app, against a
    closed memory, and the interpreter would wait at exit for the threads it started.
    Everything already written is in Redis and the memory is closed, so there is
    nothing left to save.
    """
    logger.info("worker threads still busy at exit; leaving without them")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


__all__ = [
    "OFFLINE_LABEL",
    "AgentSource",
    "ChatAgent",
    "CountingExecutor",
    "TurnOutcome",
    "embedder_status",
    "model_failure_kind",
    "model_label",
    "short_name",
    "warm_embedder",
]
