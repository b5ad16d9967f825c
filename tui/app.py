"""``penchant chat``: the Textual terminal chat with a live memory panel.

::

    ┌ conversation (ChatLog) ───────────────┐┌ MemoryPanel ─────────┐
    │ you / assistant messages (Markdown)    ││ likes / dislikes     │
    │                                        ││ last changes         │
    │ [Input: message or /command]           ││ recent history       │
    └────────────────────────────────────────┘└──────────────────────┘
     user · model (· degraded when it failed) · redis (connected | degraded) · embedder

The :class:`~penchant.memory.AsyncMemory` and the agent are injected into :class:`ChatApp`
(tests run it offline on a real Redis); :func:`penchant.tui.launch.run_chat` builds the real
ones. The app's parts:

* this module — the app: layout, reactive state, input and the workers;
* :mod:`.commands` — the slash commands and the panel's reads, as coroutines over the memory;
* :mod:`.wiring` — settings, the memory, the agent and its turn, status probes, the exit;
* :mod:`.widgets` and ``chat.tcss`` — what is drawn, and how.

Everything slow runs in async workers (``@work``) over the async memory and the graph's
``astream``, so the event loop never waits on Redis or the model; only the agent's build
(imports) and the embedding model's warm-up run in worker threads. Workers update the
widgets themselves when their awaits return; the turn's reply pieces come up as
:class:`ReplyChunk` messages.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import var
from textual.widgets import Input, Markdown
from textual.widgets.markdown import MarkdownStream
from textual.worker import Worker, WorkerState

from penchant.memory import AsyncMemory, InvalidInputError, validate_user_id

from .commands import (
    COMMAND_USAGE,
    CommandOutcome,
    SlashCommand,
    parse_command,
    read_panel,
    read_transcript,
    run_memory_command,
    thread_id_for,
)
from .widgets import ChatLog, ChatMessage, HelpScreen, MemoryPanel, Role, StatusBar
from .wiring import (
    OFFLINE_LABEL,
    AgentSource,
    ChatAgent,
    TurnOutcome,
    embedder_status,
    short_name,
    warm_embedder,
)

logger = logging.getLogger(__name__)

QUIT_GRACE_SECONDS = 3.0
"""How long a quit waits for a running turn to finish its memory writes."""
HEALTH_CHECK_SECONDS = 5.0
"""Interval of the Redis ping that moves the status between connected and degraded."""


class ReplyChunk(Message):
    """A piece of the assistant's reply, posted by the turn worker as it streams."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ChatApp(App[int]):
    """Penchant's terminal chat.

    Args:
        memory: The memory (borrowed; :func:`~penchant.tui.launch.run_chat` closes it).
        agent: A :class:`~penchant.tui.wiring.ChatAgent`, or a factory that builds one
            (called once, in a worker thread).
        user_id: The user to start as.
        redis_label: How the status bar names the Redis (default
            ``memory.redis_location``).
        health_check_seconds: Interval of the Redis ping; ``0`` disables it.

    Raises:
        InvalidInputError: ``user_id`` cannot be used as a user id.
    """

    CSS_PATH = Path(__file__).with_name("chat.tcss")
    TITLE = "Penchant"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+c", "quit", "Quit", priority=True, show=False),
        Binding("f1", "help", "Help"),
    ]

    user_id: var[str] = var("me", init=False)
    """The user chatting; the status bar, the panel and the thread follow it."""

    def __init__(
        self,
        memory: AsyncMemory,
        agent: AgentSource,
        *,
        user_id: str = "me",
        redis_label: str | None = None,
        health_check_seconds: float = HEALTH_CHECK_SECONDS,
    ) -> None:
        super().__init__()
        validate_user_id(user_id)
        self.memory = memory
        self.set_reactive(ChatApp.user_id, user_id)
        self._agent: ChatAgent | None = agent if isinstance(agent, ChatAgent) else None
        self._agent_factory = None if isinstance(agent, ChatAgent) else agent
        self._agent_lock = asyncio.Lock()
        self._redis_label = redis_label or memory.redis_location
        self._health_seconds = health_check_seconds
        self._reply: ChatMessage | None = None
        self._stream: MarkdownStream | None = None
        self._streamed = ""
        self.busy = False
        """Whether a chat turn is running."""
        self._uncaptured: str | None = None
        """The running turn's message until its end-of-turn capture is done."""
        self.unsaved_turn: str | None = None
        """The message of a turn that a quit cut off before its capture finished."""
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
        status.embedder, needs_warm_up = embedder_status(self.memory.embedder)
        if needs_warm_up:
            self.warm_up_embedder()
        self.query_one("#prompt", Input).focus()
        self.load_transcript(self.user_id)
        self.refresh_panel(self.user_id)
        if self._agent is None:
            self.build_agent()
        if self._health_seconds > 0:
            self.set_interval(self._health_seconds, self._health_tick)

    def watch_user_id(self, user_id: str) -> None:
        self.query_one(StatusBar).user = user_id

    # -- status ---------------------------------------------------------------------------------

    def _show_agent_status(self) -> None:
        status = self.query_one(StatusBar)
        if self._agent is None:
            status.model, status.offline = "loading…", False
        else:
            status.model, status.offline = self._agent.model_label, self._agent.offline

    def _set_redis_ok(self, ok: bool, *, refresh: bool = True) -> None:
        """Show Redis as connected or degraded; coming back refreshes the panel."""
        status = self.query_one(StatusBar)
        if ok and not status.redis_ok and refresh:
            self.refresh_panel(self.user_id)
        status.redis_ok = ok

    async def _memory_unavailable(self, what: str, error: Exception, *, say: bool) -> None:
        reason = one_line(error)
        logger.warning("%s: memory is unavailable: %s", what, reason, exc_info=error)
        self._set_redis_ok(False)
        self.query_one(MemoryPanel).show_unavailable()
        if say:
            await self.note(f"Memory is unavailable: {reason}", "error")

    # -- workers (async, in the event loop; each updates the screen when its awaits return) ----

    @work(exclusive=True, group="agent", exit_on_error=False)
    async def build_agent(self) -> None:
        """Build the agent from its factory in a worker thread (imports LangGraph; seconds)."""
        try:
            await self._ready_agent()
        except Exception as exc:  # shown in the status bar and the conversation
            reason = one_line(exc)
            logger.warning("the chat model could not be set up: %s", reason, exc_info=exc)
            self.query_one(StatusBar).model = f"failed ({reason})"
            await self.note(f"The chat model could not be set up: {reason}", "error")
        else:
            self._show_agent_status()

    async def _ready_agent(self) -> ChatAgent:
        """The agent; the first caller builds it from the factory in a worker thread, the
        others wait for that (after a failed build, the next caller tries again)."""
        async with self._agent_lock:
            if self._agent is None:
                assert self._agent_factory is not None
                self._agent = await asyncio.to_thread(self._agent_factory)
            return self._agent

    @work(exclusive=True, group="embedder", exit_on_error=False)
    async def warm_up_embedder(self) -> None:
        """Load the embedding model now, so the first turn does not wait for it."""
        embedder = self.memory.embedder
        assert embedder is not None
        status = self.query_one(StatusBar)
        try:
            status.embedder = await warm_embedder(embedder)
        except Exception as exc:  # recall goes on lexically; the status bar says so
            logger.warning("embedding model failed to load: %s", one_line(exc), exc_info=exc)
            status.embedder = f"failed ({one_line(exc)}); lexical recall only"

    @work(exclusive=True, group="panel", exit_on_error=False)
    async def refresh_panel(self, user_id: str) -> None:
        """Read a user's preferences, recent history and flags into the panel."""
        try:
            data = await read_panel(self.memory, user_id)
        except Exception as exc:
            await self._memory_unavailable("panel", exc, say=False)
            return
        self._set_redis_ok(True, refresh=False)
        if data.user_id == self.user_id:
            self.query_one(MemoryPanel).show_memory(data.preferences, data.history, data.flags)

    def _health_tick(self) -> None:
        """Start a ping unless one is still running: a slow ping (a server reviving, a loaded
        machine) is waited for, not cancelled and restarted on every tick."""
        if not any(w.group == "health" and not w.is_finished for w in self.workers):
            self.check_health()

    @work(group="health", exit_on_error=False)
    async def check_health(self) -> None:
        """Ping Redis (reviving the embedded server if it died)."""
        self._set_redis_ok(await self.memory.ping())

    @work(exclusive=True, group="transcript", exit_on_error=False)
    async def load_transcript(self, user_id: str) -> None:
        """Show the last messages of the user's thread above the conversation."""
        try:
            transcript = await read_transcript(self.memory, user_id)
        except Exception as exc:
            await self._memory_unavailable("transcript", exc, say=True)
            return
        if transcript.user_id == self.user_id and transcript.entries:
            await self.query_one(ChatLog).add_many(transcript.chat_entries(), at_top=True)

    @work(group="command", exit_on_error=False)
    async def run_command(self, command: SlashCommand, user_id: str) -> None:
        """Run a memory command (``/prefs``, ``/forget``, ``/history``, ``/changes``)."""
        try:
            outcome = await run_memory_command(self.memory, command, user_id)
        except InvalidInputError as exc:
            await self.note(one_line(exc), "error")
            return
        except Exception as exc:
            await self._memory_unavailable(f"/{command.name}", exc, say=True)
            return
        self._set_redis_ok(True)
        await self._show_command(outcome)

    async def _show_command(self, outcome: CommandOutcome) -> None:
        if outcome.user_id != self.user_id:
            return
        await self.note(outcome.note)
        if outcome.changes is not None:
            self.query_one(MemoryPanel).show_changes(outcome.changes)
            self.refresh_panel(self.user_id)

    @work(group="turn", exit_on_error=False)
    async def run_turn(self, user_id: str, text: str) -> None:
        """One chat turn; reply pieces come up as :class:`ReplyChunk` while it streams."""
        self._uncaptured = text
        try:
            agent = await self._ready_agent()
            outcome = await agent.run_turn(
                user_id, text, lambda piece: self.post_message(ReplyChunk(piece))
            )
        except Exception as exc:  # the graph itself failed: the turn says so
            self._uncaptured = None
            await self._turn_failed(exc)
            return
        self._uncaptured = None
        await self._turn_done(outcome)

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

    async def _turn_failed(self, error: Exception) -> None:
        reason = one_line(error)
        logger.warning("the turn failed: %s", reason, exc_info=error)
        await self._end_reply()
        if self._reply is not None:
            await self._reply.update(f"The turn failed: {reason}")
            self._reply.set_class(True, "-error")
        self._reply, self.busy = None, False
        self._quit_if_pending()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Workers handle their own failures; one that still raised is a bug: log and show it."""
        if event.state == WorkerState.CANCELLED and event.worker.group == "turn":
            self.busy = False
        elif event.state == WorkerState.ERROR:
            error = event.worker.error
            logger.error("%s worker failed: %s", event.worker.name, one_line(error),
                         exc_info=error)
            self.notify(f"{event.worker.name} failed: {one_line(error)}", severity="error")

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
            validate_user_id(user_id)
        except InvalidInputError as exc:
            await self.note(str(exc), "error")
            return
        self.user_id = user_id
        self.query_one(MemoryPanel).clear()
        await self.query_one(ChatLog).clear()
        await self.note(f"Now chatting as **{user_id}** (thread `{thread_id_for(user_id)}`).")
        self.load_transcript(user_id)
        self.refresh_panel(user_id)

    async def note(self, text: str, role: Role = "note") -> None:
        """Show a command's output or an error in the conversation."""
        try:
            await self.query_one(ChatLog).add(role, text)
        except NoMatches:  # the screen closed while a worker was finishing
            logger.info("not shown (the screen is closed): %s", text)

    # -- actions --------------------------------------------------------------------------------

    def action_help(self) -> None:
        """Show the help screen."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """Quit; a running turn gets :data:`QUIT_GRACE_SECONDS` to finish its writes, and a
        second press quits at once."""
        logger.info("quit requested (turn running: %s)", self.busy)
        if self.busy and not self._quitting:
            self._quitting = True
            self.notify("Finishing the current turn… press Ctrl+Q again to quit now.")
            self.set_timer(QUIT_GRACE_SECONDS, self._quit_now)
            return
        self._quit_now()

    def _quit_if_pending(self) -> None:
        if self._quitting:
            self._quit_now()

    def _quit_now(self) -> None:
        """Exit; a turn whose capture has not finished is named in :attr:`unsaved_turn`."""
        if self._uncaptured is not None:
            self.unsaved_turn = self._uncaptured
            logger.warning("quit before the turn's memory capture finished: %r", self._uncaptured)
        self.exit(0)


def one_line(error: BaseException | None) -> str:
    """An exception as one line of text."""
    if error is None:
        return "unknown error"
    return " ".join(str(error).split()) or type(error).__name__


__all__ = [
    "COMMAND_USAGE",
    "OFFLINE_LABEL",
    "AgentSource",
    "ChatAgent",
    "ChatApp",
    "ReplyChunk",
    "SlashCommand",
    "TurnOutcome",
    "parse_command",
    "short_name",
    "thread_id_for",
]
