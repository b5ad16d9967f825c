"""Choosing the chat model from settings.

The offline model unless ``OPENAI_API_KEY`` is set; then any OpenAI-compatible
endpoint (OpenAI, Ollama, vLLM, llama.cpp server) through ``langchain-openai``,
imported only in that case.
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from penchant.memory.settings import Settings

from .offline_model import OfflineChatModel

DEFAULT_TIMEOUT_SECONDS = 60.0
"""Per-request timeout of the real model, in seconds."""


def is_offline(model: BaseChatModel) -> bool:
    """Whether ``model`` is Penchant's offline rule-based model."""
    return isinstance(model, OfflineChatModel)


def chat_model_from_settings(
    settings: Settings, *, timeout: float = DEFAULT_TIMEOUT_SECONDS
) -> BaseChatModel:
    """Build the chat model that settings ask for.

    Args:
        settings: Penchant settings; ``openai_api_key`` selects a real model,
            ``model`` and ``openai_base_url`` configure it.
        timeout: Request timeout of the real model, seconds.

    Returns:
        A streaming ``ChatOpenAI`` (one retry) when an API key is set, else an
        :class:`OfflineChatModel`.
    """
    if settings.openai_api_key is None or not settings.openai_api_key.get_secret_value():
        return OfflineChatModel()
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=settings.model,
        base_url=settings.openai_base_url,
        api_key=settings.openai_api_key,
        timeout=timeout,
        max_retries=1,
        streaming=True,
    )


def summary_model_from_settings(settings: Settings) -> BaseChatModel | None:
    """The model for end-of-turn summary capture: the real model, or ``None`` offline."""
    model = chat_model_from_settings(settings)
    return None if is_offline(model) else model


__all__ = [
    "DEFAULT_TIMEOUT_SECONDS",
    "chat_model_from_settings",
    "is_offline",
    "summary_model_from_settings",
]
