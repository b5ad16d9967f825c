"""What the chat reads from and writes to memory for the user: the slash commands, and the
memory panel's and the previous transcript's reads.

Each is a coroutine over an :class:`~penchant.memory.AsyncMemory` that returns what to show
(Markdown notes, :class:`PanelData`, :class:`Transcript`); none touches a widget, so they are
tested on a real Redis without a screen. The app runs them in its workers.

Commands: ``/prefs``, ``/forget TEXT``, ``/history``, ``/changes``, ``/held``, ``/confirm ID``,
``/dismiss ID`` (memory), and ``/user ID``, ``/clear``, ``/help`` (screen only; the app
handles them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from penchant.memory import (
    AsyncMemory,
    ChangeEvent,
    Flag,
    HistorySnapshot,
    InvalidInputError,
    Preference,
    shorten,
)

from .widgets import Role

COMMAND_USAGE: dict[str, str] = {
    "prefs": "/prefs",
    "forget": "/forget TEXT",
    "history": "/history",
    "changes": "/changes",
    "held": "/held",
    "confirm": "/confirm ID",
    "dismiss": "/dismiss ID",
    "user": "/user ID",
    "clear": "/clear",
    "help": "/help",
}
"""Every slash command and its usage line."""
MEMORY_COMMANDS = frozenset({"prefs", "forget", "history", "changes", "held", "confirm",
                             "dismiss"})
"""The commands that read or write memory (:func:`run_memory_command`)."""
_ARGUMENT_EXAMPLES = {"forget": "/forget plastic", "user": "/user alice",
                      "confirm": "/confirm 3f9a2c1e", "dismiss": "/dismiss 3f9a2c1e"}

RESTORED_MESSAGES = 40
"""Most messages of the previous transcript shown at start or on ``/user``."""
PANEL_HISTORY = 5
"""History snapshots shown in the panel."""
LISTED_CHANGES = 15
"""Change events listed by ``/changes``."""


def thread_id_for(user_id: str) -> str:
    """The conversation thread of a user's terminal chat, e.g. ``chat-alice``."""
    return f"chat-{user_id}"


# -- parsing -------------------------------------------------------------------------------------


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


# -- memory commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CommandOutcome:
    """What a memory command shows: a note in the conversation, changes in the panel.

    Attributes:
        user_id: The user the command ran for (the app drops it if the user changed since).
        note: Markdown for the conversation.
        changes: What memory did (``ForgetResult.public_dict()``), for the panel, or ``None``
            for a read-only command.
    """

    user_id: str
    note: str
    changes: dict[str, Any] | None = None


async def run_memory_command(
    memory: AsyncMemory, command: SlashCommand, user_id: str
) -> CommandOutcome:
    """Run a memory command (:data:`MEMORY_COMMANDS`) for a user.

    Args:
        memory: The memory.
        command: A parsed command whose name is in :data:`MEMORY_COMMANDS`.
        user_id: The user.

    Raises:
        InvalidInputError: ``command`` is not a memory command.
        PenchantError: Memory could not be read or written.
    """
    if command.name == "forget":
        result = await memory.forget(user_id, command.argument)
        return CommandOutcome(
            user_id, forget_note(command.argument, result.removed), result.public_dict()
        )
    if command.name == "prefs":
        return CommandOutcome(user_id, prefs_note(await memory.preferences(user_id)))
    if command.name == "history":
        return CommandOutcome(user_id, history_note(await memory.history(user_id)))
    if command.name == "changes":
        return CommandOutcome(user_id, changes_note(await memory.changes(user_id, LISTED_CHANGES)))
    if command.name == "held":
        return CommandOutcome(user_id, held_note(await memory.held(user_id)))
    if command.name == "confirm":
        stored = await memory.confirm(user_id, command.argument)
        said = stored.describe() if stored.rejected else f"Confirmed: {stored.describe()}"
        return CommandOutcome(user_id, said, stored.public_dict())
    if command.name == "dismiss":
        done = await memory.dismiss(user_id, command.argument)
        return CommandOutcome(user_id, done.describe().capitalize() + ".", {})
    raise InvalidInputError(
        f"/{command.name} is not a memory command; use one of "
        + ", ".join(f"/{name}" for name in sorted(MEMORY_COMMANDS))
    )


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


_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def markdown_text(text: str) -> str:
    """``text`` with every ASCII punctuation character backslash-escaped (CommonMark §2.4),
    so that what a held item says is shown as written: a held instruction may carry a link,
    an image or emphasis, which the chat's Markdown would otherwise render."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", " ".join(text.split()))


def held_note(held: list[Flag]) -> str:
    """``/held`` output in Markdown: each held item with the id ``/confirm`` takes, what
    would be stored, the sentence capture read it from (when it differs), and why it is
    held."""
    if not held:
        return "Nothing is held for your confirmation."
    lines = ["**Held for your confirmation** (they may be instructions to the assistant)", ""]
    for f in held:
        said = (f.candidate or {}).get("said")
        source = (f" (from: \u201c{markdown_text(shorten(said))}\u201d)"
                  if isinstance(said, str) and said.strip() and said != f.contents[0] else "")
        lines.append(f"- `{f.id[:8]}` {(f.candidate or {}).get('polarity', 'like')}: "
                     f"{markdown_text(f.contents[0])}{source} — {markdown_text(f.reason)}")
    return "\n".join(lines)


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


# -- the panel and the previous transcript -------------------------------------------------------


@dataclass(frozen=True)
class PanelData:
    """What the memory panel shows for one user."""

    user_id: str
    preferences: list[Preference]
    history: list[HistorySnapshot]
    flags: list[Flag] = field(default_factory=list)


async def read_panel(memory: AsyncMemory, user_id: str) -> PanelData:
    """A user's preferences, their :data:`PANEL_HISTORY` latest snapshots and open flags.

    Raises:
        PenchantError: Memory could not be read.
    """
    snapshot = await memory.snapshot(user_id)
    history = await memory.history(user_id, PANEL_HISTORY)
    return PanelData(user_id, snapshot.preferences(), history, snapshot.open_flags())


@dataclass(frozen=True)
class Transcript:
    """The previous messages of a user's chat thread, oldest first."""

    user_id: str
    entries: list[dict[str, Any]]

    def chat_entries(self) -> list[tuple[Role, str]]:
        """The conversation lines to show: a heading note, then each message."""
        if not self.entries:
            return []
        count = len(self.entries)
        heading = (
            f"Previous conversation in thread `{thread_id_for(self.user_id)}` "
            f"({count} message{'s' if count != 1 else ''}):"
        )
        lines: list[tuple[Role, str]] = [("note", heading)]
        return lines + [(transcript_role(e), str(e.get("text", ""))) for e in self.entries]


async def read_transcript(
    memory: AsyncMemory, user_id: str, limit: int = RESTORED_MESSAGES
) -> Transcript:
    """The last ``limit`` messages of the user's chat thread.

    Raises:
        PenchantError: Memory could not be read.
    """
    return Transcript(user_id, await memory.transcript(user_id, thread_id_for(user_id), limit))


def transcript_role(entry: Mapping[str, Any]) -> Role:
    """The chat role of a stored transcript entry."""
    return "user" if entry.get("role") == "user" else "assistant"


__all__ = [
    "COMMAND_USAGE",
    "MEMORY_COMMANDS",
    "CommandOutcome",
    "PanelData",
    "SlashCommand",
    "Transcript",
    "parse_command",
    "read_panel",
    "read_transcript",
    "run_memory_command",
    "thread_id_for",
]
