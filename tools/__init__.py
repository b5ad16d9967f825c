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
from .reflect_tool import REFLECT_TOOL, make_reflect_tool

__all__ = [
    "FORGET_TOOL",
    "RECALL_TOOL",
    "REFLECT_TOOL",
    "REMEMBER_TOOL",
    "TOOL_NAMES",
    "make_preference_tools",
    "make_reflect_tool",
    "tool_error_message",
    "user_id_from_config",
]
