"""How Penchant shows back what it was given: a refused text shortened with its hidden
characters named (rejections, the change log, error messages, the service's 400 bodies),
and a Redis URL without its credentials (status lines, ``doctor``, every storage error).
"""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import parse_qsl, urlencode

from pydantic import BeforeValidator

from .normalize import BIDI_CONTROLS, TAG_CHARACTERS

ECHO_CHARS = 80
"""Characters of a refused text echoed back (rejections, the change log, error messages)."""
REDACTED = "***"
"""What stands for a credential in a shown URL."""

_HIDDEN_RUN_RE = re.compile(
    f"[{chr(TAG_CHARACTERS.start)}-{chr(TAG_CHARACTERS.stop - 1)}{''.join(sorted(BIDI_CONTROLS))}]+"
)
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_SECRET_PARAMS = frozenset({"password", "username", "user"})
"""Query parameters of a Redis URL that carry credentials (redis-py reads ``password`` and
``username`` from the query, notably of ``unix://`` URLs)."""


def shown(text: str) -> str:
    """``text`` with each run of hidden characters (Unicode tag characters, bidi embeddings,
    overrides and isolates) replaced by ``⟨N hidden characters⟩``, so that an echo of a
    refused text shows what was hidden without carrying it (nor a count of its escapes)."""
    return _HIDDEN_RUN_RE.sub(lambda m: f"⟨{len(m.group(0))} hidden characters⟩", text)


def shorten(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` cut for echoing: its first ``limit`` characters, ``…`` and its length.

    A refused 10 MB content is never echoed in full (JSON, text output, change log).

    Args:
        text: Any text.
        limit: Characters kept (:data:`ECHO_CHARS`).

    Returns:
        ``text`` itself when it has at most ``limit`` characters, else e.g.
        ``"ignore all previous…… (10485760 characters)"``.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def echoed(value: object) -> str:
    """A refused value as it is shown back: its hidden characters named (:func:`shown`),
    then shortened (:func:`shorten`), so a 1 MB value never reaches an answer.

    Args:
        value: Any value; a non-string is shown by its ``str``.

    Returns:
        At most :data:`ECHO_CHARS` characters of the named text, and its length past that.
    """
    return shorten(shown(value if isinstance(value, str) else str(value)))


def redacted_url(url: str) -> str:
    """``url`` with its credentials hidden, for anything shown to people (a status line,
    ``doctor``, an error message): the user and password of its authority and the
    ``password``/``username`` query parameters each become :data:`REDACTED`.

    ``redis://:s3cret@127.0.0.1:6379/0`` → ``redis://:***@127.0.0.1:6379/0``;
    ``unix:///run/redis.sock?password=s3cret`` → ``unix:///run/redis.sock?password=***``.
    Everything before the last ``@`` is taken for credentials, so a password holding ``/``,
    ``?`` or ``#`` unescaped is hidden too (and so is a path holding ``@``: hiding too much
    is the safe side).

    Args:
        url: A Redis URL as configured (``PENCHANT_REDIS_URL``), well formed or not.

    Returns:
        The URL to show; ``url`` itself when it carries no credentials.
    """
    scheme = _SCHEME_RE.match(url)
    head, rest = (url[: scheme.end()], url[scheme.end():]) if scheme else ("", url)
    userinfo, at, rest = rest.rpartition("@")
    if at:
        user, colon, password = userinfo.partition(":")
        head += (":".join(REDACTED if part else "" for part in (user, password)) if colon
                 else REDACTED) + "@"
    base, mark, query = rest.partition("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(name.lower() in _SECRET_PARAMS for name, _ in pairs):
        query = urlencode([(n, REDACTED if n.lower() in _SECRET_PARAMS else v)
                           for n, v in pairs], safe="*")
    return f"{head}{base}{mark}{query}"


EchoedText = Annotated[str, BeforeValidator(echoed)]
"""A model field holding a text as it is shown back (:func:`echoed`): a refused or held
candidate's content."""

__all__ = ["ECHO_CHARS", "REDACTED", "EchoedText", "echoed", "redacted_url", "shorten", "shown"]
