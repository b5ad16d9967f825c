"""The ASGI guard in front of every HTTP route (REST and ``/mcp``): the Host and Origin
checks against DNS rebinding, and the request body bound.

* ``Host`` must name one of the allowed host names (any port): a page on ``evil.example``
  that rebinds its name to 127.0.0.1 sends ``Host: evil.example`` and gets 421, the status
  the MCP SDK's own check uses (CVE-2025-66416 was this check being off).
* ``Origin``, when a browser sends one, must be an allowed origin or name an allowed host;
  else 403.
* A body over the bound gets 413 before the app runs: by ``Content-Length``, or, for a
  chunked body, as soon as the bytes read pass it (the body is read, up to the bound, before
  the app is called; uvicorn itself never delivers more than a declared length).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from penchant.memory import InvalidInputError, echoed

logger = logging.getLogger(__name__)

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body, in bytes (4 MiB, the MCP SDK's default bound too)."""
DEFAULT_HOST = "127.0.0.1"
"""``penchant serve`` binds loopback unless told otherwise."""
DEFAULT_PORT = 8765

_DNS_NAME_RE = re.compile(
    r"^(?=.{1,253}\.?$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}"
    r"[a-z0-9_])?)*\.?$")
"""A host name: dot-separated labels of letters, digits, ``-`` and ``_`` (RFC 1123, with the
underscore some internal names carry)."""


def host_name(header: str) -> str:
    """The host name of a ``Host`` header or URL authority, lowercased, without the port
    (``[::1]:8765`` → ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    if header.count(":") > 1:  # a bare IPv6 address
        return header
    return header.split(":", 1)[0]


def check_host_name(name: str) -> str:
    """An ``--allow-host`` name: a host name or an IP address (an IPv6 one bare or in
    brackets), lowercased; no scheme, port, path or wildcard.

    Raises:
        InvalidInputError: Anything else, an empty name included (it would let a request
            with no ``Host`` header through).
    """
    bare = name.strip().lower()
    bare = bare[1:-1] if bare.startswith("[") and bare.endswith("]") else bare
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if not _DNS_NAME_RE.match(bare):
        raise InvalidInputError(
            f"--allow-host {echoed(name)!r} is not a host name; give a bare name such as "
            "memory.example.com or an address such as 10.0.0.5 (no scheme, port or path)")
    return bare


def check_origin(origin: str) -> str:
    """An ``--allow-origin``: ``scheme://host[:port]`` with scheme ``http`` or ``https``, as a
    browser sends it in ``Origin``, lowercased and without a trailing ``/``.

    Raises:
        InvalidInputError: Anything else (a bare name, a path, a query, ``null``, ``*``).
    """
    fix = ("; give an origin as a browser sends it, scheme://host[:port], e.g. "
           "https://app.example or http://localhost:3000")
    clean = origin.strip().rstrip("/").lower()
    try:
        parts = urlsplit(clean)
        port = parts.port
    except ValueError as exc:
        raise InvalidInputError(f"--allow-origin {echoed(origin)!r} is not an origin ({exc})"
                                f"{fix}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or \
            parts.query or parts.fragment or "@" in parts.netloc:
        raise InvalidInputError(f"--allow-origin {echoed(origin)!r} is not an origin{fix}")
    host = check_host_name(parts.hostname)
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}" + (f":{port}" if port is not None else "")


async def send_json(send: Any, status: int, document: dict[str, Any],
                    headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answer with one JSON document."""
    body = json.dumps(document, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        *headers]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: Host/Origin checks and the body bound.

    Args:
        app: The ASGI app behind the guard.
        allowed_hosts: Host names a request's ``Host`` may name (without ports).
        allowed_origins: Whole origins (``https://app.example``) a browser may send, besides
            those naming an allowed host.
        max_body_bytes: The body bound.
    """

    def __init__(self, app: Any, allowed_hosts: Iterable[str],
                 allowed_origins: Iterable[str] = (),
                 max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self.app = app
        self.allowed_hosts = {host_name(h) for h in allowed_hosts} - {""}  # never "no Host"
        self.allowed_origins = {o.rstrip("/").lower() for o in allowed_origins}
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(headers)
        if refusal is not None:
            status, document = refusal
            logger.warning("refused %s %s: %s", scope.get("method"), scope.get("path"),
                           document["message"])
            await send_json(send, status, document)
            return
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body_bytes:
            await send_json(send, 413, self._too_large())
            return
        await self._bounded(scope, receive, send)

    def _refusal(self, headers: dict[str, str]) -> tuple[int, dict[str, Any]] | None:
        host = headers.get("host", "")
        if host_name(host) not in self.allowed_hosts:
            return 421, {"error": "host_not_allowed", "message":
                         f"Host {host[:100]!r} is not a name this server answers to (a guard "
                         "against DNS rebinding); start it with --allow-host NAME to add one"}
        origin = headers.get("origin")
        if origin and origin.lower() != "null":
            clean = origin.rstrip("/").lower()
            if clean not in self.allowed_origins and \
                    host_name(urlsplit(clean).netloc) not in self.allowed_hosts:
                return 403, {"error": "origin_not_allowed", "message":
                             f"Origin {origin[:100]!r} may not call this server; start it with "
                             "--allow-origin ORIGIN to allow one"}
        elif origin:  # "null": a sandboxed page or a file; never one of ours
            return 403, {"error": "origin_not_allowed",
                         "message": "Origin 'null' may not call this server"}
        return None

    def _too_large(self) -> dict[str, Any]:
        return {"error": "body_too_large", "message":
                f"the request body is over {self.max_body_bytes} bytes (--max-body-bytes)"}

    async def _bounded(self, scope: Any, receive: Any, send: Any) -> None:
        """Read a body without ``Content-Length`` (chunked) up to the bound first, so that
        one over it is a 413 before the app sees a byte; then replay it."""
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            parts.append(message.get("body", b""))
            seen += len(parts[-1])
            if seen > self.max_body_bytes:
                await send_json(send, 413, self._too_large())
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(parts), "more_body": False}

        await self.app(scope, replay, send)
