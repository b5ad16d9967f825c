"""A small personal assistant over Penchant's chat graph.

Each message goes through ``inject → model ⇄ tools → end_of_turn``: the user's
stored preferences are recalled into the model's system prompt, and what they
say about their tastes is captured through the persistence gate. The model is
the offline rule-based one unless ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` is set.
``/forget WORDS`` and ``/prefs`` act on memory directly, as in ``penchant chat``.

Run it::

    python examples/assistant_bot.py                  # scripted demo turns
    python examples/assistant_bot.py --interactive    # type your own (Ctrl-D to quit)
"""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from penchant.agent import build_chat_graph, chat_model_from_settings, is_offline
from penchant.agent.hooks import message_text
from penchant.memory import Memory, Settings

DEMO_USER = "demo-assistant"
DEMO_TURNS = (
    "Hello!",
    "I'm vegetarian and I love Italian food.",
    "I don't like mushrooms.",
    "Can you suggest a dinner recipe for my guests?",
    "I also hate loud restaurants.",
    "我不吃香菜。",
    "给我推荐一家餐厅吧。",
    "Can you suggest a soup recipe?",
    "Actually, I like mushrooms now - my friend cooked a great risotto.",
    "What do you know about me?",
    "/forget loud restaurants",
    "/prefs",
)

Output = Callable[[str], None]


class Assistant:
    """One user's conversation with the memory-aware chat graph.

    Args:
        memory: The memory (borrowed).
        user_id: Whose memory.
        model: The chat model; ``chat_model_from_settings(memory.settings)`` when ``None``.
    """

    def __init__(self, memory: Memory, user_id: str, model: BaseChatModel | None = None) -> None:
        self.memory = memory
        self.user_id = user_id
        chosen = model or chat_model_from_settings(memory.settings)
        self.offline = is_offline(chosen)
        self.graph = build_chat_graph(
            memory, chosen, summary_model=None if self.offline else chosen
        )
        self.config: RunnableConfig = {
            "configurable": {"user_id": user_id, "thread_id": f"assistant-{uuid.uuid4().hex[:8]}"}
        }

    def ask(self, text: str) -> tuple[str, dict[str, Any]]:
        """One turn: the reply and what memory did (``created``/``merged``/… lists)."""
        if text.startswith("/"):
            return self._command(text), {}
        state = self.graph.invoke({"messages": [HumanMessage(content=text)]}, self.config)
        return message_text(state["messages"][-1]), state.get("memory_changes") or {}

    def _command(self, text: str) -> str:
        name, _, rest = text.partition(" ")
        if name == "/forget" and rest.strip():
            return self.memory.forget(self.user_id, rest.strip()).describe()
        if name == "/prefs":
            prefs = self.memory.preferences(self.user_id)
            return "\n".join(f"{p.polarity}: {p.content}" for p in prefs) or "(none stored)"
        return "commands: /forget WORDS, /prefs"


def describe_changes(changes: dict[str, Any]) -> list[str]:
    """One line per memory change of a turn."""
    lines = []
    for op in ("created", "merged", "superseded", "removed"):
        lines += [f"  [{op}] {item.get('content', '')}" for item in changes.get(op) or []]
    lines += [f"  [rejected] {r['content']}: {r['reason']}" for r in changes.get("rejected") or []]
    lines += [f"  [error] {e}" for e in changes.get("errors") or []]
    return lines


def run(
    memory: Memory,
    user_id: str = DEMO_USER,
    *,
    turns: Iterable[str] = DEMO_TURNS,
    model: BaseChatModel | None = None,
    out: Output = print,
) -> list[tuple[str, str, dict[str, Any]]]:
    """Talk to the assistant.

    Args:
        memory: The memory (borrowed).
        user_id: Whose memory.
        turns: The user's messages (any iterable, e.g. lines typed at a prompt).
        model: The chat model; from settings when ``None``.
        out: Where to print.

    Returns:
        ``(user text, reply, memory changes)`` per turn.
    """
    assistant = Assistant(memory, user_id, model)
    out(f"[{'offline model' if assistant.offline else 'LLM'}; user {user_id}]")
    log = []
    for text in turns:
        reply, changes = assistant.ask(text)
        out(f"\nuser> {text}\nassistant> {reply}")
        for line in describe_changes(changes):
            out(line)
        log.append((text, reply, changes))
    return log


def _typed_lines() -> Iterable[str]:
    while True:
        try:
            line = input("you> ").strip()
        except EOFError:
            return
        if line:
            yield line


def main(argv: Sequence[str] | None = None, memory: Memory | None = None) -> int:
    """Command-line entry: scripted demo turns, or ``--interactive``.

    Args:
        argv: Arguments (``sys.argv[1:]`` when ``None``).
        memory: A memory to borrow; ``Memory.from_settings(Settings())`` (owned,
            closed at the end) when ``None``.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--user", default=DEMO_USER)
    parser.add_argument("--interactive", action="store_true", help="type your own messages")
    args = parser.parse_args(argv)
    owned = memory is None
    mem = Memory.from_settings(Settings()) if memory is None else memory
    try:
        run(mem, args.user, turns=_typed_lines() if args.interactive else DEMO_TURNS)
    finally:
        if owned:
            mem.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
