"""The chat's widgets: small classes that show what the app hands them.

Attributes go down (the app sets reactive attributes or calls ``show``-style
methods); nothing here touches memory or the agent. Layout and colours live in
``chat.tcss``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Markdown, Static

from penchant.memory import Flag, HistorySnapshot, Preference

Role = Literal["user", "assistant", "note", "error"]
ChangeOp = Literal["created", "merged", "superseded", "forgotten", "rejected", "held", "error"]

ROLE_TITLES: dict[str, str] = {"user": "you", "assistant": "assistant", "note": "", "error": ""}
POLARITY_STYLES: dict[str, str] = {"like": "green", "dislike": "red"}
CHANGE_STYLES: dict[str, str] = {
    "created": "bold black on green",
    "merged": "bold black on cyan",
    "superseded": "bold black on yellow",
    "forgotten": "bold white on magenta",
    "rejected": "bold black on bright_yellow",
    "held": "bold black on bright_magenta",
    "error": "bold white on red",
}
"""Highlight of each change kind in the panel (Rich styles)."""
CHANGE_MARKS: dict[str, str] = {
    "created": "+",
    "merged": "=",
    "superseded": "~",
    "forgotten": "-",
    "rejected": "!",
    "held": "?",
    "error": "x",
}
"""One-character mark per change kind, so the panel reads without colour too."""


class ChatMessage(Markdown):
    """One message of the conversation, rendered as Markdown.

    Args:
        role: ``user``, ``assistant``, ``note`` (command output) or ``error``.
        text: Markdown text (an assistant reply may start empty and stream in).
    """

    def __init__(self, role: Role, text: str = "") -> None:
        super().__init__(text, classes=f"message -{role}")
        self.role = role
        self.border_title = ROLE_TITLES.get(role) or None


class ChatLog(VerticalScroll):
    """The conversation: a scrolling column of :class:`ChatMessage`, kept at the bottom."""

    can_focus = False

    def on_mount(self) -> None:
        self.anchor()

    async def add(self, role: Role, text: str = "") -> ChatMessage:
        """Append a message and return it (to stream into or update later)."""
        message = ChatMessage(role, text)
        await self.mount(message)
        return message

    async def add_many(self, entries: Iterable[tuple[Role, str]], *, at_top: bool = False) -> None:
        """Add several messages in one layout pass (e.g. a restored transcript).

        Args:
            entries: ``(role, text)`` pairs, oldest first.
            at_top: Put them before the messages already shown (a transcript that
                arrives after the user has started typing).
        """
        messages = [ChatMessage(role, text) for role, text in entries]
        if not messages:
            return
        if at_top and self.children:
            await self.mount_all(messages, before=0)
        else:
            await self.mount_all(messages)

    async def clear(self) -> None:
        """Remove every message from the screen."""
        await self.remove_children()


class PreferenceList(Widget):
    """The user's active preferences, likes then dislikes.

    Attributes:
        preferences: Active preferences (oldest first, as memory returns them).
        unavailable: Memory could not be read; show that instead of stale data.
    """

    preferences: reactive[tuple[Preference, ...]] = reactive((), layout=True)
    unavailable: reactive[bool] = reactive(False, layout=True)

    def render(self) -> RenderResult:
        return preferences_text(self.preferences, self.unavailable)


class ChangeList(Widget):
    """What memory did in the last turn or command, one highlighted line per change.

    Attributes:
        changes: ``(op, text)`` pairs from :func:`change_lines`.
    """

    changes: reactive[tuple[tuple[str, str], ...]] = reactive((), layout=True)

    def render(self) -> RenderResult:
        if not self.changes:
            return Text("no changes", style="dim")
        text = Text()
        for index, (op, line) in enumerate(self.changes):
            if index:
                text.append("\n")
            label = f"{CHANGE_MARKS.get(op, '?')} {op:<10}"
            text.append(label, style=CHANGE_STYLES.get(op, "bold"))
            text.append(" ")
            text.append(line)
        return text


class HistoryList(Widget):
    """Recent behaviour history snapshots (what the user did, never what they like).

    Attributes:
        snapshots: Newest first.
    """

    snapshots: reactive[tuple[HistorySnapshot, ...]] = reactive((), layout=True)

    def render(self) -> RenderResult:
        if not self.snapshots:
            return Text("no history", style="dim")
        return Text("\n").join(
            Text.assemble((f"{h.kind:<9}", "bold"), " ", h.summary) for h in self.snapshots
        )


class FlagList(Widget):
    """Questions awaiting the user: check-up findings (contradictions, duplicates) and
    held items (possible instructions, ``/confirm ID`` or ``/dismiss ID``).

    Attributes:
        flags: The user's open flags; the section is hidden when there are none.
    """

    flags: reactive[tuple[Flag, ...]] = reactive((), layout=True)

    def render(self) -> RenderResult:
        return Text("\n").join(
            Text.assemble(
                (f"? {f.kind:<13}", "bold yellow"), " ",
                f"{f.id[:8]}: {f.contents[0]}" if f.kind == "held" else " / ".join(f.contents),
            )
            for f in self.flags
        )


class MemoryPanel(VerticalScroll):
    """The side panel: preferences, the last turn's changes, recent history."""

    can_focus = False

    def compose(self) -> ComposeResult:
        yield Static("Preferences", classes="panel-title")
        yield PreferenceList(id="preferences")
        yield Static("Last changes", classes="panel-title")
        yield ChangeList(id="changes")
        yield Static("Recent history", classes="panel-title")
        yield HistoryList(id="history")
        yield Static("Flagged for confirmation", classes="panel-title", id="flags-title")
        yield FlagList(id="flags")

    def on_mount(self) -> None:
        self.show_flags(())

    def show_memory(
        self,
        preferences: Sequence[Preference],
        history: Sequence[HistorySnapshot],
        flags: Sequence[Flag] = (),
    ) -> None:
        """Show freshly read preferences, history and check-up flags."""
        prefs = self.query_one(PreferenceList)
        prefs.unavailable = False
        prefs.preferences = tuple(preferences)
        self.query_one(HistoryList).snapshots = tuple(history)
        self.show_flags(flags)

    def show_flags(self, flags: Sequence[Flag]) -> None:
        """List check-up flags (``penchant checkup``); hide the section when there are none."""
        self.query_one(FlagList).flags = tuple(flags)
        for widget in (self.query_one("#flags-title"), self.query_one(FlagList)):
            widget.display = bool(flags)

    def show_unavailable(self) -> None:
        """Mark the preferences as unreadable (memory is degraded)."""
        self.query_one(PreferenceList).unavailable = True

    def show_changes(self, changes: Mapping[str, Any]) -> None:
        """Highlight one turn's or command's changes (see :func:`change_lines`)."""
        self.query_one(ChangeList).changes = tuple(change_lines(changes))

    def clear(self) -> None:
        """Forget what is shown (e.g. when switching users)."""
        self.query_one(PreferenceList).preferences = ()
        self.query_one(ChangeList).changes = ()
        self.query_one(HistoryList).snapshots = ()
        self.show_flags(())


class StatusItem(Static):
    """One ``label: value`` cell of the status bar."""


class StatusBar(Horizontal):
    """Model, Redis and embedder state along the bottom of the screen.

    Attributes:
        user: The current user id.
        model: The model's name; ``offline`` state is styled as such.
        offline: Whether the model is the offline rule-based one.
        model_problem: How the model failed on the last turn (``unreachable``,
            ``timeout`` …), shown as ``degraded``; ``""`` while it answers.
        redis: Where the data lives (socket path or URL).
        redis_ok: ``True`` connected, ``False`` degraded.
        embedder: The embedder's state line (``loading …``, ``ready …``, ``none``).
    """

    user: reactive[str] = reactive("")
    model: reactive[str] = reactive("loading…")
    offline: reactive[bool] = reactive(False)
    model_problem: reactive[str] = reactive("")
    redis: reactive[str] = reactive("")
    redis_ok: reactive[bool] = reactive(True)
    embedder: reactive[str] = reactive("none")

    def compose(self) -> ComposeResult:
        yield StatusItem(id="status-user")
        yield StatusItem(id="status-model")
        yield StatusItem(id="status-redis")
        yield StatusItem(id="status-embedder")

    def on_mount(self) -> None:
        self.watch_user()
        self.watch_model()
        self.watch_redis()
        self.watch_embedder()

    def _item(self, item_id: str) -> StatusItem | None:
        """The cell ``item_id``, or ``None`` before compose."""
        return next(iter(self.query(f"#{item_id}").results(StatusItem)), None)

    def watch_user(self) -> None:
        if item := self._item("status-user"):
            item.update(f"user: {self.user}")

    def watch_model(self) -> None:
        if item := self._item("status-model"):
            problem = f" · degraded ({self.model_problem})" if self.model_problem else ""
            item.update(f"model: {self.model}{problem}")
            item.set_class(self.offline, "-offline")
            item.set_class(bool(self.model_problem), "-degraded")

    def watch_offline(self) -> None:
        self.watch_model()

    def watch_model_problem(self) -> None:
        self.watch_model()

    def watch_redis(self) -> None:
        if item := self._item("status-redis"):
            state = "connected" if self.redis_ok else "degraded"
            item.update(f"redis: {state} · {self.redis}")  # the state first: a long path wraps
            item.set_class(not self.redis_ok, "-degraded")

    def watch_redis_ok(self) -> None:
        self.watch_redis()

    def watch_embedder(self) -> None:
        if item := self._item("status-embedder"):
            item.update(f"embedder: {self.embedder}")
            item.set_class(self.embedder.startswith("loading"), "-loading")
            item.set_class(self.embedder.startswith("failed"), "-degraded")


HELP_TEXT = """\
## Penchant chat

Talk normally: Penchant captures the likes and dislikes you state, resolves
contradictions (the newer one wins) and recalls what is relevant before each reply.
The panel shows your preferences and what the last turn changed.

| command | what it does |
|---|---|
| `/prefs` | list your active preferences |
| `/forget TEXT` | remove what TEXT names, e.g. `/forget plastic` |
| `/history` | list your recent history snapshots |
| `/changes` | list your recent memory changes |
| `/held` | list what is held for your confirmation |
| `/confirm ID` | store a held item as you wrote it |
| `/dismiss ID` | drop a held item and erase its text |
| `/user ID` | switch user (panel and conversation follow) |
| `/clear` | clear the screen (memory and transcript are kept) |
| `/help` | this help |

**Keys:** `Enter` send · `F1` help · `Esc` close help · `Ctrl+Q` or `Ctrl+C` quit
"""


class HelpScreen(ModalScreen[None]):
    """The slash commands and keys; any of ``Esc``, ``q``, ``F1`` closes it."""

    BINDINGS = [
        ("escape", "app.pop_screen", "Close"),
        ("q", "app.pop_screen", "Close"),
        ("f1", "app.pop_screen", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP_TEXT, id="help-text")


# -- pure formatting -------------------------------------------------------------------------------


def preferences_text(preferences: Sequence[Preference], unavailable: bool = False) -> Text:
    """The preference list as styled text: a likes section, then a dislikes section.

    Args:
        preferences: Active preferences.
        unavailable: Prefix a line saying memory could not be read.

    Returns:
        Rich text for the panel.
    """
    text = Text()
    if unavailable:
        text.append("memory unavailable (degraded)\n", style="bold red")
    for polarity, header, mark in (("like", "Likes", "+"), ("dislike", "Dislikes", "-")):
        chosen = [p for p in preferences if p.polarity == polarity]
        text.append(f"{header} ({len(chosen)})\n", style=f"bold {POLARITY_STYLES[polarity]}")
        if not chosen:
            text.append("  none\n", style="dim")
        for pref in chosen:
            text.append(f" {mark} ", style=POLARITY_STYLES[polarity])
            if pref.protected:
                text.append("[allergy] ", style="bold red")
            text.append(pref.content)
            if pref.slot:
                text.append(f" ({pref.slot})", style="italic")
            if pref.mention_count > 1:
                text.append(f" ×{pref.mention_count}", style="dim")
            text.append("\n")
    text.rstrip()
    return text


def change_lines(changes: Mapping[str, Any]) -> list[tuple[ChangeOp, str]]:
    """One ``(op, text)`` line per change, from a turn's ``memory_changes``.

    Args:
        changes: The JSON form of what memory did: ``created``, ``merged``,
            ``superseded`` (each with ``replaced_by``), ``rejected`` (``content``,
            ``reason``), ``held`` (``id``, ``content``), ``removed`` (forgotten) and
            ``errors`` (strings); any key may be missing.

    Returns:
        Lines in that order; a superseded line names the preference that replaced it.
    """
    winners = {
        p.get("id"): p.get("content", "")
        for key in ("created", "merged")
        for p in changes.get(key) or []
    }
    lines: list[tuple[ChangeOp, str]] = []
    for p in changes.get("created") or []:
        lines.append(("created", f"{p.get('polarity')}: {p.get('content')}"))
    for p in changes.get("merged") or []:
        count = p.get("mention_count")
        lines.append(("merged", f"{p.get('polarity')}: {p.get('content')} (×{count})"))
    for p in changes.get("superseded") or []:
        winner = winners.get(p.get("replaced_by"))
        by = f" → replaced by {winner!r}" if winner else ""
        lines.append(("superseded", f"{p.get('polarity')}: {p.get('content')}{by}"))
    for p in changes.get("removed") or []:
        lines.append(("forgotten", f"{p.get('polarity')}: {p.get('content')}"))
    for r in changes.get("rejected") or []:
        lines.append(("rejected", f"{r.get('content')!r}: {r.get('reason')}"))
    for h in changes.get("held") or []:
        lines.append(("held", f"{h.get('polarity')}: {h.get('content')!r}, held until you "
                              f"/confirm {str(h.get('id'))[:8]} (or /dismiss it)"))
    for error in changes.get("errors") or []:
        lines.append(("error", str(error)))
    return lines


__all__ = [
    "HELP_TEXT",
    "ChangeList",
    "ChatLog",
    "ChatMessage",
    "HelpScreen",
    "HistoryList",
    "MemoryPanel",
    "PreferenceList",
    "StatusBar",
    "StatusItem",
    "change_lines",
    "preferences_text",
]
