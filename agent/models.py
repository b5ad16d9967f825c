"""Choosing the chat model from settings, and naming its failures in one line.

One function decides whether Penchant talks to a real model, :func:`choose_model`; the chat,
the CLI (``reflect``, ``replay``, ``checkup``), the examples and the status bar all go
through it (via :func:`chat_model_from_settings` and friends):

=========================  ====================  =========================================
``OPENAI_BASE_URL``         ``OPENAI_API_KEY``    model
=========================  ====================  =========================================
unset                       unset                 the offline rule-based model
set                         unset                 that OpenAI-compatible server, keyless
                                                  (Ollama, llama.cpp server, vLLM)
unset                       set                   OpenAI
set                         set                   that server, with the key
=========================  ====================  =========================================

A real model is a ``langchain-openai`` ``ChatOpenAI`` (imported only then) with short,
bounded limits, so a dead endpoint costs seconds: a connect timeout of
:data:`CONNECT_TIMEOUT_SECONDS`, a read timeout of :data:`READ_TIMEOUT_SECONDS` (between
bytes of the streamed reply, so a slow local model that streams is not cut off) and
:data:`MAX_RETRIES` retry (after the SDK's back-off of about 0.5 s, or the server's
``Retry-After``).

A failing endpoint is described by :func:`describe_model_error` as a :class:`ModelFailure`:
the endpoint, the kind of failure (unreachable, timeout, rate limited, server error, …) and
the fix, as one line; :class:`ModelUnavailableError` carries it where a command must fail.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from penchant.memory import InvalidInputError, PenchantError, Settings

from .offline_model import OfflineChatModel

logger = logging.getLogger(__name__)

OPENAI_BASE_URL = "https://api.openai.com/v1"
"""The endpoint ``ChatOpenAI`` uses when ``OPENAI_BASE_URL`` is unset."""
KEYLESS_API_KEY = "penchant-no-key"
"""Placeholder key sent to a keyless local server: ``ChatOpenAI`` refuses to start without a
key, and Ollama, llama.cpp server and vLLM (without ``--api-key``) ignore it."""
CONNECT_TIMEOUT_SECONDS = 5.0
"""Seconds to open a connection to the model endpoint (the openai SDK's own default)."""
READ_TIMEOUT_SECONDS = 60.0
"""Seconds of silence allowed while waiting for the model's reply (httpx's read timeout)."""
DEFAULT_TIMEOUT_SECONDS = READ_TIMEOUT_SECONDS
"""Former name of :data:`READ_TIMEOUT_SECONDS`."""
MAX_RETRIES = 1
"""Retries of a failed request (connection errors, timeouts, 408/409/429/5xx) before the
failure is reported; the openai SDK's default is 2."""

ModelErrorKind = Literal[
    "unreachable", "timeout", "rate_limited", "server_error", "auth", "not_found", "rejected",
    "failed",
]
"""What went wrong with a model call, from the user's side of the endpoint."""

_PHRASES: dict[str, str] = {
    "unreachable": "is unreachable",
    "timeout": "did not answer in time",
    "rate_limited": "is rate limiting requests",
    "server_error": "returned a server error",
    "auth": "refused the API key",
    "not_found": "does not serve the model",
    "rejected": "rejected the request",
    "failed": "failed",
}


# -- choosing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelChoice:
    """Which chat model settings select.

    Attributes:
        offline: True for the offline rule-based model (nothing configured).
        model: Model name sent to the endpoint (``PENCHANT_MODEL``).
        base_url: ``OPENAI_BASE_URL``; ``None`` means OpenAI's own endpoint.
        api_key: ``OPENAI_API_KEY``; ``None`` for a keyless local server.
    """

    offline: bool
    model: str
    base_url: str | None = None
    api_key: SecretStr | None = None

    @property
    def endpoint(self) -> str:
        """Where requests go (``"offline"`` for the offline model)."""
        if self.offline:
            return "offline"
        return self.base_url or OPENAI_BASE_URL

    @property
    def label(self) -> str:
        """``model @ endpoint`` of a real model, ``offline`` otherwise."""
        return "offline" if self.offline else f"{self.model} @ {self.endpoint}"


def _set(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def choose_model(settings: Settings) -> ModelChoice:
    """Decide, from settings alone, whether the real model or the offline one is used.

    Args:
        settings: ``openai_base_url`` (``OPENAI_BASE_URL``), ``openai_api_key``
            (``OPENAI_API_KEY``) and ``model`` (``PENCHANT_MODEL``). Either of the first two
            selects a real model; blank values count as unset.

    Returns:
        The choice (see the table in this module's docstring).

    Raises:
        InvalidInputError: ``OPENAI_BASE_URL`` is not an ``http://`` or ``https://`` URL.
    """
    base_url = _set(settings.openai_base_url)
    key = settings.openai_api_key
    api_key = key if key is not None and _set(key.get_secret_value()) else None
    if base_url is None and api_key is None:
        return ModelChoice(offline=True, model=settings.model)
    if base_url is not None and not base_url.lower().startswith(("http://", "https://")):
        raise InvalidInputError(
            f"OPENAI_BASE_URL must be an http(s) URL such as http://localhost:11434/v1, "
            f"got {base_url!r}"
        )
    return ModelChoice(offline=False, model=settings.model, base_url=base_url, api_key=api_key)


def is_offline(model: BaseChatModel) -> bool:
    """Whether ``model`` is Penchant's offline rule-based model."""
    return isinstance(model, OfflineChatModel)


def build_real_model(
    choice: ModelChoice,
    *,
    timeout: float = READ_TIMEOUT_SECONDS,
    connect_timeout: float = CONNECT_TIMEOUT_SECONDS,
    max_retries: int = MAX_RETRIES,
) -> BaseChatModel:
    """A streaming ``ChatOpenAI`` for a real :class:`ModelChoice`.

    Args:
        choice: A choice with ``offline=False``.
        timeout: Read timeout, seconds (see :data:`READ_TIMEOUT_SECONDS`).
        connect_timeout: Connect timeout, seconds (at most ``timeout``).
        max_retries: Retries of a failed request.

    Raises:
        ValueError: ``choice`` is the offline model.
    """
    if choice.offline:
        raise ValueError("build_real_model needs a real model choice, got the offline one")
    import openai
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=choice.model,
        base_url=choice.base_url,
        api_key=choice.api_key or SecretStr(KEYLESS_API_KEY),
        timeout=openai.Timeout(timeout, connect=min(connect_timeout, timeout)),
        max_retries=max_retries,
        streaming=True,
    )


def chat_model_from_settings(
    settings: Settings,
    *,
    timeout: float = READ_TIMEOUT_SECONDS,
    connect_timeout: float = CONNECT_TIMEOUT_SECONDS,
    max_retries: int = MAX_RETRIES,
) -> BaseChatModel:
    """Build the chat model that settings ask for (:func:`choose_model` decides).

    Args:
        settings: Penchant settings.
        timeout: Read timeout of the real model, seconds.
        connect_timeout: Connect timeout of the real model, seconds.
        max_retries: Retries of a failed request to the real model.

    Returns:
        A streaming ``ChatOpenAI`` when ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` is set,
        else an :class:`OfflineChatModel`.

    Raises:
        InvalidInputError: ``OPENAI_BASE_URL`` is not an http(s) URL.
    """
    choice = choose_model(settings)
    if choice.offline:
        return OfflineChatModel()
    return build_real_model(
        choice, timeout=timeout, connect_timeout=connect_timeout, max_retries=max_retries
    )


def real_model_from_settings(settings: Settings) -> BaseChatModel | None:
    """The real model settings ask for, or ``None`` when they select the offline one."""
    choice = choose_model(settings)
    return None if choice.offline else build_real_model(choice)


def summary_model_from_settings(settings: Settings) -> BaseChatModel | None:
    """The model for end-of-turn summary capture: the real model, or ``None`` offline."""
    return real_model_from_settings(settings)


# -- failures ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelFailure:
    """A failed model call, told from the user's side.

    Attributes:
        endpoint: The base URL the request went to.
        kind: What went wrong (:data:`ModelErrorKind`).
        detail: The evidence, short (``connection refused``, ``HTTP 429: …``).
        fix: What the user can do about it.
    """

    endpoint: str
    kind: ModelErrorKind
    detail: str
    fix: str

    def line(self) -> str:
        """One line: ``<endpoint> is unreachable (<detail>); <fix>``."""
        return f"{self.endpoint} {_PHRASES[self.kind]} ({self.detail}); {self.fix}"

    def to_dict(self) -> dict[str, str]:
        """JSON-ready fields (``endpoint``, ``kind``, ``detail``, ``fix``)."""
        return {"endpoint": self.endpoint, "kind": self.kind, "detail": self.detail,
                "fix": self.fix}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelFailure:
        """Rebuild from :meth:`to_dict` (an unknown kind becomes ``failed``)."""
        kind = data.get("kind")
        return cls(
            endpoint=str(data.get("endpoint", "")),
            kind=kind if kind in _PHRASES else "failed",  # type: ignore[arg-type]
            detail=str(data.get("detail", "")),
            fix=str(data.get("fix", "")),
        )


class ModelUnavailableError(PenchantError):
    """The configured model endpoint failed (unreachable, timeout, 429, 5xx, …).

    ``str(error)`` is one line: ``model unavailable: <endpoint> <what happened> (<detail>);
    <fix>``. The CLI prints it and exits 1.

    Attributes:
        failure: The :class:`ModelFailure`.
    """

    def __init__(self, failure: ModelFailure, note: str = "") -> None:
        self.failure = failure
        suffix = f" ({note})" if note else ""
        super().__init__(f"model unavailable: {failure.line()}{suffix}")


def kept_and_retried(changes: Mapping[str, Any] | None) -> str:
    """What a failed model call left behind, for its one-line report.

    The rule capture runs whatever the model does, so a turn (or a replay) that failed may
    still have stored preferences; a write that found Redis down is in the local spool and
    will be stored on reconnect; nothing else is retried (the model call is not).

    Args:
        changes: The turn's memory changes: a gate result's JSON form (``created``,
            ``merged``, ``superseded`` lists of preference dicts, ``deferred`` contents),
            or ``None``.

    Returns:
        e.g. ``kept: rule capture stored 'likes tea', 'no plastic'; retried: nothing``.
    """
    changes = changes or {}
    stored = [
        str(item.get("content", "")) if isinstance(item, Mapping) else str(item)
        for key in ("created", "merged", "superseded")
        for item in changes.get(key) or []
    ]
    deferred = list(changes.get("deferred") or [])
    kept = (
        "kept: rule capture stored " + ", ".join(repr(_short(c, 60)) for c in stored[:3])
        + (f" and {len(stored) - 3} more" if len(stored) > 3 else "")
        if stored else "kept: nothing was stored"
    )
    retried = (
        f"retried: {len(deferred)} write(s) in the local spool, stored when Redis is back"
        if deferred else "retried: nothing (send it again later)"
    )
    return f"{kept}; {retried}"


def endpoint_of(model: Any) -> str:
    """The base URL ``model`` sends requests to (``ChatOpenAI``'s ``openai_api_base``)."""
    base = getattr(model, "openai_api_base", None)
    if isinstance(base, str) and base:
        return base
    return OPENAI_BASE_URL if _is_openai_model(model) else f"the {type(model).__name__} model"


def _is_openai_model(model: Any) -> bool:
    return hasattr(model, "openai_api_base")


def _offline_hint(model: Any) -> str:
    """Which variables to unset to fall back to the offline model."""
    base = getattr(model, "openai_api_base", None)
    key = getattr(model, "openai_api_key", None)
    secret = key.get_secret_value() if isinstance(key, SecretStr) else key
    has_key = bool(secret) and secret != KEYLESS_API_KEY
    if base and base != OPENAI_BASE_URL:
        names = "OPENAI_BASE_URL and OPENAI_API_KEY" if has_key else "OPENAI_BASE_URL"
    else:
        names = "OPENAI_API_KEY"
    return f"unset {names} to use the offline model"


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and its causes, outermost first (cycles cut)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not s for s in seen) and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _short(text: object, limit: int = 160) -> str:
    one = " ".join(str(text).split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def _status_detail(exc: BaseException, status: int) -> str:
    """``HTTP 429: <the server's message>`` (the openai SDK's ``Error code: 429 - `` prefix
    and JSON wrapping removed)."""
    body = getattr(exc, "body", None)
    message: object = None
    if isinstance(body, dict):
        error = body.get("error")
        inner: dict[str, Any] = error if isinstance(error, dict) else body
        message = inner.get("message")
    if not message:
        message = getattr(exc, "message", None) or str(exc)
        prefix = f"Error code: {status} - "
        message = str(message).removeprefix(prefix)
    return _short(f"HTTP {status}: {message}")


def describe_model_error(exc: BaseException, model: Any = None) -> ModelFailure:
    """Name a model call's failure: endpoint, kind, detail and fix.

    Recognises the openai SDK's errors (which ``langchain-openai`` raises or subclasses) by
    type and HTTP status, and Python's own ``ConnectionError`` / ``TimeoutError``, anywhere
    in the chain of causes; anything else is ``failed`` with its type and message.

    Args:
        exc: What the model call raised.
        model: The chat model that was called (for its endpoint, name and key), if known.

    Returns:
        The :class:`ModelFailure`; :meth:`ModelFailure.line` is its one-line report.
    """
    for link in _chain(exc):
        if isinstance(link, ModelUnavailableError):
            return link.failure
    endpoint = endpoint_of(model)
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or "?"
    offline = _offline_hint(model)
    kind, detail = _classify(exc)
    read = getattr(getattr(model, "request_timeout", None), "read", None)
    if kind == "timeout" and isinstance(read, int | float):
        detail = f"no reply within {read:g} s"
    local = endpoint != OPENAI_BASE_URL
    reach = "start the server or check the URL" if local else "check the network connection"
    fixes: dict[str, str] = {
        "unreachable": f"{reach}, or {offline}",
        "timeout": f"check that the server is up and not overloaded, or {offline}",
        "rate_limited": "wait a little and try again, or raise the account's rate limit",
        "server_error": f"check the server's log and try again later, or {offline}",
        "auth": f"set a valid OPENAI_API_KEY for this endpoint, or {offline}",
        "not_found": f"set PENCHANT_MODEL to a model the server serves (now {name!r}) and "
        "check that OPENAI_BASE_URL ends in /v1",
        "rejected": "the model may not support tool calls or structured output; choose "
        "another with PENCHANT_MODEL",
        "failed": f"try again, or {offline}",
    }
    return ModelFailure(endpoint=endpoint, kind=kind, detail=detail, fix=fixes[kind])


def _classify(exc: BaseException) -> tuple[ModelErrorKind, str]:
    """The kind and detail of a failure, from the first link of its chain that says."""
    try:
        import openai
    except ImportError:  # pragma: no cover - langchain-openai (a dependency) brings openai
        openai = None  # type: ignore[assignment]
    chain = _chain(exc)
    last = chain[-1]
    root = (
        last.strerror.lower()
        if isinstance(last, OSError) and last.strerror
        else _short(last) or type(last).__name__
    )
    for link in chain:
        if openai is not None:
            if isinstance(link, openai.APITimeoutError):
                return "timeout", "timed out"
            if isinstance(link, openai.APIConnectionError):
                return "unreachable", root if link is not chain[-1] else "connection error"
            if isinstance(link, openai.APIStatusError):
                return _status_kind(link.status_code), _status_detail(link, link.status_code)
        if isinstance(link, TimeoutError):
            return "timeout", _short(link) or "timed out"
        if isinstance(link, ConnectionError):
            return "unreachable", _short(link) or type(link).__name__
    return "failed", _short(f"{type(exc).__name__}: {exc}")


def _status_kind(status: int) -> ModelErrorKind:
    if status == 429:
        return "rate_limited"
    if status in (401, 403):
        return "auth"
    if status == 404:
        return "not_found"
    if status == 408:
        return "timeout"
    if status >= 500:
        return "server_error"
    return "rejected"


__all__ = [
    "CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_TIMEOUT_SECONDS",
    "KEYLESS_API_KEY",
    "MAX_RETRIES",
    "OPENAI_BASE_URL",
    "READ_TIMEOUT_SECONDS",
    "ModelChoice",
    "ModelErrorKind",
    "ModelFailure",
    "ModelUnavailableError",
    "build_real_model",
    "chat_model_from_settings",
    "choose_model",
    "describe_model_error",
    "endpoint_of",
    "is_offline",
    "kept_and_retried",
    "real_model_from_settings",
    "summary_model_from_settings",
]
