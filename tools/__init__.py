"""LangChain tools over Penchant's memory, and the text of its prompt blocks."""

from .preference_tools import (
    FORGET_TOOL,
    RECALL_TOOL,
    REMEMBER_TOOL,
    TOOL_NAMES,
    make_preference_tools,
    tool_error_message,
    user_id_from_config,
)

__all__ = [
    "FORGET_TOOL",
    "RECALL_TOOL",
    "REMEMBER_TOOL",
    "TOOL_NAMES",
    "make_preference_tools",
    "tool_error_message",
    "user_id_from_config",
]
