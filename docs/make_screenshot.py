"""Render ``docs/chat.svg``: the terminal chat with its memory panel, for the README.

Runs the real :class:`~penchant.tui.app.ChatApp` headless, offline, on a throwaway
embedded Redis (its own temporary data directory; your data is not touched)::

    .venv/bin/python docs/make_screenshot.py [OUTPUT.svg]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from textual.widgets import Input

from penchant.memory import AsyncMemory, Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import HashEmbedder
from penchant.tui.app import ChatAgent, ChatApp

USER = "ana"
SIZE = (120, 36)
SCRIPT = ["I love plastic toys", "hi", "I hate plastic toys"]
"""The conversation shown: a like, then a flip to a dislike (the panel shows what it replaced)."""


async def render(settings: Settings, output: Path) -> None:
    """Play :data:`SCRIPT` through the chat and save the screen as SVG."""
    async with AsyncMemory.from_settings(settings, embedder=HashEmbedder()) as memory:
        app = ChatApp(
            memory,
            ChatAgent.build(memory),
            user_id=USER,
            redis_label="embedded valkey (demo)",
            health_check_seconds=0,
        )
        async with app.run_test(size=SIZE) as pilot:
            prompt = app.query_one("#prompt", Input)
            prompt.cursor_blink = False
            for line in SCRIPT:
                prompt.value = line
                await pilot.press("enter")
                await app.workers.wait_for_complete()
                await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.save_screenshot(filename=output.name, path=str(output.parent))


def main(argv: list[str]) -> int:
    """Write the screenshot; returns the exit status."""
    output = Path(argv[0]) if argv else Path(__file__).with_name("chat.svg")
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), redis_url=None)
        with Memory.from_settings(settings, embedder=HashEmbedder()) as memory:
            memory.remember(
                USER,
                PreferenceCandidate(
                    content="likes wool", polarity="like", keywords=["wool"], category="material"
                ),
            )
            asyncio.run(render(settings, output.resolve()))
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
