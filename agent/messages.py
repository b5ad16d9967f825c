"""The text of a LangChain message: one helper for the agent and the TUI."""

from __future__ import annotations

from typing import Any


def content_text(content: Any) -> str:
    """The text of a message's content: a string as it is, the text parts of a multi-part
    list joined, anything else ``""``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)
    return ""


__all__ = ["content_text"]
