"""``penchant chat``: the Textual terminal chat with a live memory panel.

::

    ┌ conversation (ChatLog) ───────────────┐┌ MemoryPanel ─────────┐
    │ you / assistant messages (Markdown)    ││ likes / dislikes     │
    │                                        ││ last changes         │
    │ [Input: message or /command]           ││ recent history       │
    └────────────────────────────────────────┘└──────────────────────┘
     user · model (· degraded when it failed) · redis (connected | degraded) · embedder

The :class:`~penchant.memory.Memory` and the agent are injected into
:class:`ChatApp` (tests run it offline on a real Redis); :func:`run_chat`
builds the real ones from ``Settings()``. Everything slow — model turns,
memory reads and writes, building the agent, warming the embedding model —
runs in thread workers, so the screen never freezes. Workers return their
results; :meth:`ChatApp.on_worker_state_changed` routes them to the widgets.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Concatenate, NoReturn, ParamSpec, TypeVar

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Input, Markdown
from textual.widgets.markdown import MarkdownStream
from textual.worker import Worker, WorkerState

from penchant.memory import Memory, Settings
from penchant.memory.errors import InvalidInputError
from penchant.memory.flags import Flag
from penchant.memory.keys import UserKeys
from penchant.memory.records import ChangeEvent, HistorySnapshot, Preference

from .widgets import ChatLog, ChatMessage, HelpScreen, MemoryPanel, Role, StatusBar

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

OFFLINE_LABEL = "offline (rule-based, no LLM)"
"""How the status bar names the offline model; it must never pass for a real one."""
QUIT_GRACE_SECONDS = 3.0
"""How long a quit waits for a running turn to finish its memory writes."""
HEALTH_CHECK_SECONDS = 5.0
"""Interval of the Redis ping that moves the status between connected and degraded."""
RESTORED_MESSAGES = 40
"""Most messages of the previous transcript shown at start or on ``/user``."""
PANEL_HISTORY = 5
"""History snapshots shown in the panel."""
EXIT_INTERRUPTED = 130
"""Exit status after a Ctrl+C that came before the app took the terminal (128 + SIGINT)."""
THREAD_JOIN_SECONDS = 1.0
"""How long ``run_chat`` waits at exit for worker threads before leaving without them."""
LISTED_CHANGES = 15
"""Change events listed by ``/changes``."""


def thread_id_for(user_id: str) -> str:
    """The conversation thread of a user's terminal chat, e.g. ``chat-alice``."""
    return f"chat-{user_id}"


# -- the agent -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChatAgent:
    """The compiled chat graph, and how the status bar names its model.

    Attributes:
        graph: A compiled LangGraph graph with the contract of
            :func:`penchant.agent.build_chat_graph` (``stream`` over
            ``{"messages": […]}``, ``memory_changes`` from ``end_of_turn``).
        model_label: The model's name for the status bar.
        offline: Whether the model is the offline rule-based one.
    """

    graph: Any
    model_label: str
    offline: bool

    @classmethod
    def build(cls, memory: Memory, model: Any = None, **graph_options: Any) -> ChatAgent:
        """Compile Penchant's chat graph around ``model`` (the offline model when ``None``).

        Args:
            memory: The memory the graph recalls from and writes to (borrowed).
            model: A LangChain chat model, or ``None``.
            **graph_options: Passed to :func:`penchant.agent.build_chat_graph`.
        """
        from penchant.agent import build_chat_graph, is_offline

        offline = model is None or is_offline(model)
        graph = build_chat_graph(memory, model, **graph_options)
        return cls(graph, OFFLINE_LABEL if offline else model_label(model), offline)

    @classmethod
    def from_settings(cls, memory: Memory, settings: Settings) -> ChatAgent:
        """The agent that settings ask for: a real endpoint when ``OPENAI_BASE_URL`` or
        ``OPENAI_API_KEY`` is set (:func:`penchant.agent.models.choose_model` decides)."""
        from penchant.agent import chat_model_from_settings, is_offline

        model = chat_model_from_settings(settings)
        summary = None if is_offline(model) else model
        return cls.build(memory, model, summary_model=summary)


def model_failure_kind(message: Any) -> str:
    """The failure kind of a reply that stands in for a failed model (``unreachable``,
    ``timeout``, ``rate_limited`` …; see :func:`penchant.agent.graph.unavailable_message`),
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


AgentSource = ChatAgent | Callable[[], ChatAgent]
"""A ready agent, or a factory called once in a worker (keeps start-up under 2 s)."""


# -- slash commands ------------------------------------------------------------------------------


COMMAND_USAGE: dict[str, str] = {
    "prefs": "/prefs",
    "forget": "/forget TEXT",
    "history": "/history",
    "changes": "/changes",
    "user": "/user ID",
    "clear": "/clear",
    "help": "/help",
}
"""Every slash command and its usage line."""
_ARGUMENT_EXAMPLES = {"forget": "/forget plastic", "user": "/user alice"}


@dataclass(frozen=True)
class SlashCommand:
    """A parsed ``/name argument`` line."""

    name: str
    argument: str = ""


def parse_command(line: str) -> SlashCommand:
    """Parse a slash command and check its argument.

    Args:
        line: The input line, starting with ``/``.

    Returns:
        The command.

    Raises:
        InvalidInputError: Unknown command, missing argument, or an argument
            given to a command that takes none; the message says what to type.
    """
    head, _, rest = line.strip().lstrip("/").partition(" ")
    name, argument = head.lower(), rest.strip()
    if name not in COMMAND_USAGE:
        raise InvalidInputError(f"unknown command '/{head}'; type /help for the list of commands")
    takes_argument = name in _ARGUMENT_EXAMPLES
    if takes_argument and not argument:
        raise InvalidInputError(
            f"{COMMAND_USAGE[name]} needs an argument, e.g. {_ARGUMENT_EXAMPLES[name]}"
        )
    if not takes_argument and argument:
        raise InvalidInputError(f"/{name} takes no argument (got {argument!r})")
    return SlashCommand(name, argument)


# -- worker results and messages -----------------------------------------------------------------


@dataclass(frozen=True)
class PanelData:
    """What the memory panel shows for one user."""

    user_id: str
    preferences: list[Preference]
    history: list[HistorySnapshot]
    flags: list[Flag] = field(default_factory=list)


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
class CommandOutcome:
    """What a memory command shows: a note in the conversation, changes in the panel."""

    user_id: str
    note: str
    changes: dict[str, Any] | None = None


@dataclass(frozen=True)
class Transcript:
    """The previous messages of a user's thread, oldest first."""

    user_id: str
    entries: list[dict[str, Any]]


class ReplyChunk(Message):
    """A piece of the assistant's reply, streamed from the turn worker."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


def content_text(content: Any) -> str:
    """The text of a message's content (a string, or a list of text parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)
    return ""


class JobCounter:
    """Counts worker-thread jobs in flight, so the exit can tell busy threads from idle ones."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = threading.Condition()

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Count the enclosed job."""
        with self._idle:
            self._count += 1
        try:
            yield
        finally:
            with self._idle:
                self._count -= 1
                self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every job to end; whether they all did."""
        with self._idle:
            return self._idle.wait_for(lambda: self._count == 0, timeout)


def in_daemon_thread(
    method: Callable[Concatenate[ChatApp, P], R],
) -> Callable[Concatenate[ChatApp, P], Coroutine[Any, Any, R]]:
    """Run a blocking method in a daemon thread and await its result (apply below ``@work``).

    Textual's thread workers run in asyncio's default executor, which ``asyncio.run``
    joins at exit: a model call or the embedding model's import would hold the quit
    for as long as it runs. A daemon thread is not joined; :attr:`ChatApp.jobs`
    counts it, so :func:`run_chat` can still let a running write finish.
    """

    @functools.wraps(method)
    async def run(self: ChatApp, *args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not future.done():
                outcome()

        def target() -> None:
            with self.jobs.running():
                try:
                    result = method(self, *args, **kwargs)
                except BaseException as exc:  # handed to the awaiting worker
                    done = functools.partial(settle, functools.partial(future.set_exception, exc))
                else:
                    done = functools.partial(settle, functools.partial(future.set_result, result))
                with contextlib.suppress(RuntimeError):  # the loop is gone: the app has exited
                    loop.call_soon_threadsafe(done)

        threading.Thread(target=target, name=f"penchant-{method.__name__}", daemon=True).start()
        return await future

    return run


# -- the app -------------------------------------------------------------------------------------


class ChatApp(App[int]):
    """Penchant's terminal chat.

    Args:
        memory: The memory (borrowed; :func:`run_chat` closes it after the app).
        agent: A :class:`ChatAgent`, or a factory that builds one in a worker.
        user_id: The user to start as.
        redis_label: How the status bar names the Redis (default
            ``memory.redis_location``).
        health_check_seconds: Interval of the Redis ping; ``0`` disables it.
    """

    CSS_PATH = Path(__file__).with_name("chat.tcss")
    TITLE = "Penchant"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+c", "quit", "Quit", priority=True, show=False),
        Binding("f1", "help", "Help"),
    ]

    def __init__(
        self,
        memory: Memory,
        agent: AgentSource,
        *,
        user_id: str = "me",
        redis_label: str | None = None,
        health_check_seconds: float = HEALTH_CHECK_SECONDS,
    ) -> None:
        super().__init__()
        UserKeys.for_user(user_id)
        self.memory = memory
        self.user_id = user_id
        self._agent: ChatAgent | None = agent if isinstance(agent, ChatAgent) else None
        self._agent_factory = None if isinstance(agent, ChatAgent) else agent
        self._agent_lock = threading.Lock()
        self._seeded: set[str] = set()
        self._redis_label = redis_label or memory.redis_location
        self._health_seconds = health_check_seconds
        self._reply: ChatMessage | None = None
        self._stream: MarkdownStream | None = None
        self._streamed = ""
        self.busy = False
        """Whether a chat turn is running."""
        self.jobs = JobCounter()
        """Worker-thread jobs in flight (a turn, a memory read, the embedding model load …)."""
        self._quitting = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="conversation"):
                yield ChatLog(id="log")
                yield Input(placeholder="Message, or /help for commands", id="prompt")
            yield MemoryPanel(id="panel")
        yield StatusBar(id="status")

    def on_mount(self) -> None:
        status = self.query_one(StatusBar)
        status.user, status.redis = self.user_id, self._redis_label
        self._show_agent_status()
        self._show_embedder_status()
        self.query_one("#prompt", Input).focus()
        self.load_transcript(self.user_id)
        self.refresh_panel(self.user_id)
        if self._agent is None:
            self.build_agent()
        if self._health_seconds > 0:
            self.set_interval(self._health_seconds, self.check_health)

    # -- status ---------------------------------------------------------------------------------

    def _show_agent_status(self) -> None:
        status = self.query_one(StatusBar)
        if self._agent is None:
            status.model, status.offline = "loading…", False
        else:
            status.model, status.offline = self._agent.model_label, self._agent.offline

    def _show_embedder_status(self) -> None:
        embedder = self.memory.embedder
        status = self.query_one(StatusBar)
        if embedder is None:
            status.embedder = "none (lexical recall only)"
        elif getattr(embedder, "loaded", True):
            status.embedder = f"ready {short_name(embedder.name)}"
        else:
            status.embedder = f"loading {short_name(embedder.name)}…"
            self.warm_embedder()

    def _set_redis_ok(self, ok: bool) -> None:
        status = self.query_one(StatusBar)
        if ok and not status.redis_ok:
            self.refresh_panel(self.user_id)
        status.redis_ok = ok

    # -- workers (run in threads; results arrive in on_worker_state_changed) --------------------

    @work(exclusive=True, group="agent", name="agent", exit_on_error=False)
    @in_daemon_thread
    def build_agent(self) -> ChatAgent:
        """Build the agent from its factory (imports LangGraph; seconds)."""
        return self._ensure_agent()

    def _ensure_agent(self) -> ChatAgent:
        with self._agent_lock:
            if self._agent is None:
                assert self._agent_factory is not None
                self._agent = self._agent_factory()
            return self._agent

    @work(exclusive=True, group="embedder", name="embedder", exit_on_error=False)
    @in_daemon_thread
    def warm_embedder(self) -> str:
        """Load the embedding model now, so the first turn does not wait for it."""
        embedder = self.memory.embedder
        assert embedder is not None
        embedder.embed(["warm-up"])
        return str(embedder.name)

    @work(exclusive=True, group="panel", name="panel", exit_on_error=False)
    @in_daemon_thread
    def refresh_panel(self, user_id: str) -> PanelData:
        """Read a user's preferences and recent history for the panel."""
        return PanelData(
            user_id,
            self.memory.preferences(user_id),
            self.memory.history(user_id, PANEL_HISTORY),
            self.memory.flags(user_id),
        )

    @work(exclusive=True, group="health", name="health", exit_on_error=False)
    @in_daemon_thread
    def check_health(self) -> bool:
        """Ping Redis."""
        return self.memory.ping()

    @work(exclusive=True, group="transcript", name="transcript", exit_on_error=False)
    @in_daemon_thread
    def load_transcript(self, user_id: str) -> Transcript:
        """Read the last messages of the user's thread."""
        entries = self.memory.transcript(user_id, thread_id_for(user_id), RESTORED_MESSAGES)
        return Transcript(user_id, entries)

    @work(group="command", name="command", exit_on_error=False)
    @in_daemon_thread
    def run_command(self, command: SlashCommand, user_id: str) -> CommandOutcome:
        """Run a memory command (``/prefs``, ``/forget``, ``/history``, ``/changes``)."""
        if command.name == "forget":
            result = self.memory.forget(user_id, command.argument)
            return CommandOutcome(
                user_id, forget_note(command.argument, result.removed), result.public_dict()
            )
        if command.name == "prefs":
            return CommandOutcome(user_id, prefs_note(self.memory.preferences(user_id)))
        if command.name == "history":
            return CommandOutcome(user_id, history_note(self.memory.history(user_id)))
        return CommandOutcome(user_id, changes_note(self.memory.changes(user_id, LISTED_CHANGES)))

    @work(group="turn", name="turn", exit_on_error=False)
    @in_daemon_thread
    def run_turn(self, user_id: str, text: str) -> TurnOutcome:
        """One chat turn through the graph; reply pieces are posted as :class:`ReplyChunk`."""
        agent = self._ensure_agent()
        thread_id = thread_id_for(user_id)
        config = {"configurable": {"user_id": user_id, "thread_id": thread_id}}
        self._seed_thread(agent, config, user_id, thread_id)
        reply, changes, tools, failure = "", {}, [], ""
        stream = agent.graph.stream(
            {"messages": [("user", text)]}, config, stream_mode=["messages", "updates"]
        )
        for mode, payload in stream:
            if mode == "messages":
                chunk, meta = payload
                if meta.get("langgraph_node") == "model" and (piece := content_text(chunk.content)):
                    self.post_message(ReplyChunk(piece))
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

    def _seed_thread(
        self, agent: ChatAgent, config: dict[str, Any], user_id: str, thread_id: str
    ) -> None:
        """Give a fresh checkpointer thread the stored transcript, so the model sees it."""
        if thread_id in self._seeded:
            return
        self._seeded.add(thread_id)
        try:
            if agent.graph.get_state(config).values.get("messages"):
                return
            entries = self.memory.transcript(user_id, thread_id)
            messages = [transcript_message(e) for e in entries if e.get("text")]
            if messages:
                agent.graph.update_state(config, {"messages": messages}, as_node="end_of_turn")
        except Exception as exc:  # no checkpointer, or memory down: start the thread empty
            logger.info("thread %s not seeded from its transcript: %s", thread_id, exc)

    # -- worker results -------------------------------------------------------------------------

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, state = event.worker, event.state
        try:
            if state == WorkerState.SUCCESS:
                await self._worker_done(worker.name, worker.result)
            elif state == WorkerState.ERROR:
                await self._worker_failed(worker.name, worker.error)
            elif state == WorkerState.CANCELLED and worker.name == "turn":
                self.busy = False
        except NoMatches:  # the app is shutting down; its widgets are gone
            logger.debug("%s finished after the screen closed", worker.name)

    async def _worker_done(self, name: str, result: Any) -> None:
        if name == "turn":
            await self._turn_done(result)
        elif name == "panel":
            self._panel_done(result)
        elif name == "command":
            await self._command_done(result)
        elif name == "transcript":
            await self._transcript_done(result)
        elif name == "health":
            self._set_redis_ok(bool(result))
        elif name == "agent":
            self._show_agent_status()
        elif name == "embedder":
            self.query_one(StatusBar).embedder = f"ready {short_name(str(result))}"

    async def _worker_failed(self, name: str, error: BaseException | None) -> None:
        reason = one_line(error)
        logger.warning("%s worker failed: %s", name, reason, exc_info=error)
        if name == "turn":
            await self._end_reply()
            if self._reply is not None:
                await self._reply.update(f"The turn failed: {reason}")
                self._reply.set_class(True, "-error")
            self._reply, self.busy = None, False
            self._quit_if_pending()
        elif name == "agent":
            self.query_one(StatusBar).model = f"failed ({reason})"
            await self.note(f"The chat model could not be set up: {reason}", "error")
        elif name == "embedder":
            self.query_one(StatusBar).embedder = f"failed ({reason}); lexical recall only"
        elif name == "command" and isinstance(error, InvalidInputError):
            await self.note(reason, "error")
        else:  # panel, transcript, health, or a command: memory cannot be read
            self._set_redis_ok(False)
            self.query_one(MemoryPanel).show_unavailable()
            if name in ("command", "transcript"):
                await self.note(f"Memory is unavailable: {reason}", "error")

    def _panel_done(self, data: PanelData) -> None:
        self._set_redis_ok(True)
        if data.user_id == self.user_id:
            self.query_one(MemoryPanel).show_memory(data.preferences, data.history, data.flags)

    async def _command_done(self, outcome: CommandOutcome) -> None:
        self._set_redis_ok(True)
        if outcome.user_id != self.user_id:
            return
        await self.note(outcome.note)
        if outcome.changes is not None:
            self.query_one(MemoryPanel).show_changes(outcome.changes)
            self.refresh_panel(self.user_id)

    async def _transcript_done(self, transcript: Transcript) -> None:
        if transcript.user_id != self.user_id or not transcript.entries:
            return
        count = len(transcript.entries)
        entries: list[tuple[Role, str]] = [
            (
                "note",
                f"Previous conversation in thread `{thread_id_for(self.user_id)}` "
                f"({count} message{'s' if count != 1 else ''}):",
            )
        ]
        entries += [(transcript_role(e), str(e.get("text", ""))) for e in transcript.entries]
        await self.query_one(ChatLog).add_many(entries, at_top=True)

    async def _turn_done(self, outcome: TurnOutcome) -> None:
        self.query_one(StatusBar).model_problem = outcome.model_failure
        await self._end_reply()
        reply = self._reply
        if reply is not None:
            final = outcome.reply or self._streamed or "_(no reply)_"
            if final != self._streamed:
                await reply.update(final)
            if outcome.tools:
                reply.border_subtitle = "used " + ", ".join(dict.fromkeys(outcome.tools))
        self._reply, self.busy = None, False
        if outcome.user_id == self.user_id:
            self.query_one(MemoryPanel).show_changes(outcome.changes)
            self.refresh_panel(self.user_id)
        self._quit_if_pending()

    # -- streaming ------------------------------------------------------------------------------

    async def on_reply_chunk(self, message: ReplyChunk) -> None:
        if self._reply is None:
            return
        if self._stream is None:
            await self._reply.update("")
            self._stream = Markdown.get_stream(self._reply)
        self._streamed += message.text
        await self._stream.write(message.text)

    async def _end_reply(self) -> None:
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None

    # -- input ----------------------------------------------------------------------------------

    @on(Input.Submitted, "#prompt")
    async def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        if not text:
            return
        if text.startswith("/"):
            await self.command(text)
        else:
            await self.send(text)

    async def send(self, text: str) -> None:
        """Show the user's message and start a turn (one turn at a time)."""
        if self.busy:
            await self.note("Still answering the previous message; send this again in a moment.")
            return
        log = self.query_one(ChatLog)
        await log.add("user", text)
        waiting = "_thinking…_"
        if self.query_one(StatusBar).embedder.startswith("loading"):
            waiting = "_thinking… (the embedding model is still loading; the first reply waits)_"
        self._reply = await log.add("assistant", waiting)
        self._stream, self._streamed, self.busy = None, "", True
        self.run_turn(self.user_id, text)

    async def command(self, line: str) -> None:
        """Run a slash command; mistakes get a message in the conversation."""
        try:
            command = parse_command(line)
        except InvalidInputError as exc:
            await self.note(str(exc), "error")
            return
        if command.name == "help":
            self.action_help()
        elif command.name == "clear":
            if self.busy:
                await self.note("Wait for the current answer before clearing the screen.", "error")
                return
            await self.query_one(ChatLog).clear()
            await self.note("Screen cleared; your memory and the stored transcript are kept.")
        elif command.name == "user":
            await self.switch_user(command.argument)
        else:
            self.run_command(command, self.user_id)

    async def switch_user(self, user_id: str) -> None:
        """Switch to another user: the panel, the status and the thread follow."""
        if self.busy:
            await self.note("Wait for the current answer before switching users.", "error")
            return
        try:
            UserKeys.for_user(user_id)
        except InvalidInputError as exc:
            await self.note(str(exc), "error")
            return
        self.user_id = user_id
        self.query_one(StatusBar).user = user_id
        panel = self.query_one(MemoryPanel)
        panel.clear()
        await self.query_one(ChatLog).clear()
        await self.note(f"Now chatting as **{user_id}** (thread `{thread_id_for(user_id)}`).")
        self.load_transcript(user_id)
        self.refresh_panel(user_id)

    async def note(self, text: str, role: Role = "note") -> None:
        """Show a command's output or an error in the conversation."""
        await self.query_one(ChatLog).add(role, text)

    # -- actions --------------------------------------------------------------------------------

    def action_help(self) -> None:
        """Show the help screen."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """Quit; a running turn gets :data:`QUIT_GRACE_SECONDS` to finish its writes."""
        logger.info("quit requested (turn running: %s)", self.busy)
        if self.busy and not self._quitting:
            self._quitting = True
            self.notify("Finishing the current turn… press Ctrl+Q again to quit now.")
            self.set_timer(QUIT_GRACE_SECONDS, lambda: self.exit(0))
            return
        self.exit(0)

    def _quit_if_pending(self) -> None:
        if self._quitting:
            self.exit(0)


# -- formatting of command output ----------------------------------------------------------------


def short_name(name: str) -> str:
    """The last path part of each model in a name (``sentence-transformers/x`` → ``x``;
    a fused ``a/x+b/y`` → ``x+y``)."""
    return "+".join(part.rstrip("/").rsplit("/", 1)[-1] for part in name.split("+"))


def one_line(error: BaseException | None) -> str:
    """An exception as one line of text."""
    if error is None:
        return "unknown error"
    return " ".join(str(error).split()) or type(error).__name__


def transcript_role(entry: Mapping[str, Any]) -> Role:
    """The chat role of a stored transcript entry."""
    return "user" if entry.get("role") == "user" else "assistant"


def transcript_message(entry: Mapping[str, Any]) -> Any:
    """A stored transcript entry as a LangChain message (for seeding a thread)."""
    from langchain_core.messages import AIMessage, HumanMessage

    text = str(entry.get("text", ""))
    return HumanMessage(text) if entry.get("role") == "user" else AIMessage(text)


def prefs_note(prefs: list[Preference]) -> str:
    """``/prefs`` output in Markdown."""
    if not prefs:
        return "No preferences stored yet. Tell me what you like or dislike."
    lines = ["**Your preferences**", ""]
    for polarity in ("like", "dislike"):
        lines += [
            f"- {polarity}: {p.content} ({', '.join(p.keywords) or 'no keywords'})"
            for p in prefs
            if p.polarity == polarity
        ]
    return "\n".join(lines)


def forget_note(text: str, removed: list[Preference]) -> str:
    """``/forget`` output in Markdown: exactly what was removed, or that nothing matched."""
    if not removed:
        return f"Nothing matched {text!r}; no preference was removed."
    lines = [f"**Forgot {len(removed)} preference{'s' if len(removed) != 1 else ''}**", ""]
    return "\n".join(lines + [f"- {p.polarity}: {p.content}" for p in removed])


def history_note(items: list[HistorySnapshot]) -> str:
    """``/history`` output in Markdown."""
    if not items:
        return "No history snapshots yet."
    lines = ["**Recent history**", ""]
    return "\n".join(lines + [f"- {h.at:%Y-%m-%d %H:%M} {h.kind}: {h.summary}" for h in items])


def changes_note(events: list[ChangeEvent]) -> str:
    """``/changes`` output in Markdown, newest first."""
    if not events:
        return "No memory changes yet."
    lines = ["**Recent memory changes**", ""]
    for e in events:
        subject = (e.after or e.before or {}).get("content") or e.content or ""
        reason = f" — {e.reason}" if e.reason else ""
        lines.append(f"- {e.at:%H:%M:%S} **{e.op}** {subject}{reason}")
    return "\n".join(lines)


# -- entry point ---------------------------------------------------------------------------------


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


def run_chat(user_id: str = "me") -> int:
    """Run ``penchant chat``: the real memory and agent from ``Settings()``.

    Args:
        user_id: The user to start as.

    Returns:
        The exit status (0 after a normal quit).

    Raises:
        InvalidInputError: ``user_id`` cannot be used as a user id.
        StorageUnavailableError: Redis cannot be reached or started.
    """
    UserKeys.for_user(user_id)
    settings = Settings()
    with log_to_file(settings.home / "chat.log"):
        try:
            memory = Memory.from_settings(settings)
        except KeyboardInterrupt:  # Ctrl+C before the app owns the terminal
            return EXIT_INTERRUPTED
        try:
            app = ChatApp(
                memory, lambda: ChatAgent.from_settings(memory, settings), user_id=user_id
            )
            status = app.run()
            logger.info("chat screen closed")
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        finally:
            memory.close()
            logger.info("memory closed")
        code = status if status is not None else (app.return_code or 0)
        if not app.jobs.wait_idle(THREAD_JOIN_SECONDS):
            leave_now(code)
    return code


def leave_now(code: int) -> NoReturn:
    """End the process at once, past worker threads that are still running.

    A turn still waiting on the model (or on the embedding model's load) would go on
    after the app, against a closed memory, and the interpreter would wait at exit
    for the thread pools it started. Everything already written is in Redis and the
    memory is closed, so there is nothing left to save.
    """
    logger.info("worker threads still busy at exit; leaving without them")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


__all__ = [
    "COMMAND_USAGE",
    "OFFLINE_LABEL",
    "AgentSource",
    "ChatAgent",
    "ChatApp",
    "CommandOutcome",
    "PanelData",
    "ReplyChunk",
    "SlashCommand",
    "TurnOutcome",
    "parse_command",
    "run_chat",
    "thread_id_for",
]
