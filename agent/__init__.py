"""Penchant's LangGraph agent: the chat graph, the offline model, and plug points for other graphs.

Nothing here loads a model or opens a connection at import.
"""

from .embed import PenchantMemory, PenchantState
from .graph import ChatState, build_chat_graph
from .hooks import MemoryHooks
from .models import chat_model_from_settings, is_offline, summary_model_from_settings
from .offline_model import OfflineChatModel

__all__ = [
    "ChatState",
    "MemoryHooks",
    "OfflineChatModel",
    "PenchantMemory",
    "PenchantState",
    "build_chat_graph",
    "chat_model_from_settings",
    "is_offline",
    "summary_model_from_settings",
]
