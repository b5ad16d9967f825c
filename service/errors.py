"""The REST face's error bodies: every error, whoever raises it (a route, FastAPI's request
validation, Starlette's routing, the storage), answers ``{"error": code, "message": …}``,
and a 400 adds ``field`` and ``value`` (the value as echoed: hidden characters named,
shortened; ``null`` when the field is an object or unknown).

======  ==========================  ===================================================
status  ``error``                   when
======  ==========================  ===================================================
400     ``invalid_input``           a bad field, a body that is not valid JSON
404     ``not_found``               no such route
405     ``method_not_allowed``      a route that does not take the method (``Allow``)
415     ``unsupported_media_type``  a body sent as anything but ``application/json``
503     ``storage_unavailable``     Redis unreachable (the reason, no credentials)
500     ``internal_error``          a bug; the traceback stays in the server's log
======  ==========================  ===================================================
"""

from __future__ import annotations

import logging
from email.message import Message
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from penchant.memory import (
    InvalidInputError,
    PenchantError,
    StorageUnavailableError,
    echoed,
    shorten,
)

from .auth import CHALLENGE, FORBIDDEN, UNAUTHORIZED, Forbidden, Unauthorized
from .inputs import shown_value

logger = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 400
"""Longest ``message`` of an error body (a longer one, an echoed value, is shortened)."""


def error(status: int, code: str, message: str, *, headers: dict[str, str] | None = None,
          **more: Any) -> JSONResponse:
    """An error answer: ``{"error": code, "message": message, **more}``."""
    return JSONResponse({"error": code, "message": message, **more}, status_code=status,
                        headers=headers)


def invalid_input(message: str, field: str | None, value: Any = None) -> JSONResponse:
    """A 400 ``invalid_input`` naming the field and the value (as echoed)."""
    return error(400, "invalid_input", line(message), field=field, value=shown_value(value))


def line(exc: BaseException | str) -> str:
    """An error message on one line, at most :data:`MAX_MESSAGE_CHARS` characters."""
    return shorten(" ".join(str(exc).split()), MAX_MESSAGE_CHARS)


def is_json(content_type: str) -> bool:
    """Whether a ``Content-Type`` is JSON (``application/json``, ``…+json``): the bodies
    FastAPI reads as JSON (strictly: a body without one is not)."""
    message = Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json"))


def request_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """The answer to a request FastAPI could not validate: 415 for a body that is not sent as
    JSON, else 400 naming the field (``query``, ``k``, ``polarity``, ``body``)."""
    first = exc.errors()[0] if exc.errors() else {}
    source, *path = [str(p) for p in first.get("loc", ())] or ["body"]
    content_type = request.headers.get("content-type", "")
    if source == "body" and not is_json(content_type):
        got = repr(echoed(content_type)) if content_type else "none"
        return error(415, "unsupported_media_type", "the body must be JSON, sent with "
                     f"'content-type: application/json' (got {got})")
    if first.get("type") == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "malformed")
        where = f" at character {path[0]}" if path else ""
        return invalid_input(f"body is not valid JSON ({reason}{where})", "body")
    field = ".".join(path) or source
    value = first.get("input") if first.get("type") != "missing" else None
    shown = shown_value(value)
    given = f" = {shown!r}" if shown is not None else ""
    return invalid_input(f"{field}{given}: {first.get('msg', 'invalid')}", field, value)


def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Starlette's and FastAPI's own refusals (no route, a method not allowed, a body that
    is not UTF-8 JSON) in the documented shape."""
    where = f"{request.method} {echoed(request.url.path)}"
    headers = dict(exc.headers or {})
    if exc.status_code == 404:
        return error(404, "not_found", f"no route {where}; the API is under "
                     "/v1/users/{user_id}/… (see /openapi.json)", headers=headers)
    if exc.status_code == 405:
        allowed = headers.get("Allow") or headers.get("allow") or "another method"
        return error(405, "method_not_allowed", f"{where} is not allowed; use {allowed}",
                     headers=headers)
    if exc.status_code == 400:  # FastAPI could not parse the body (not UTF-8 JSON)
        return invalid_input(f"body could not be read as JSON ({exc.detail}); send UTF-8 "
                             "JSON text", "body")
    code = HTTPStatus(exc.status_code).phrase.lower().replace(" ", "_").replace("-", "_")
    return error(exc.status_code, code, line(str(exc.detail)), headers=headers)


def install(app: FastAPI) -> None:
    """Answer every error of ``app`` in the documented shape."""

    @app.exception_handler(Unauthorized)
    async def unauthorized(_r: Request, _e: Exception) -> JSONResponse:
        return JSONResponse(UNAUTHORIZED, status_code=401,
                            headers={k.decode(): v.decode() for k, v in CHALLENGE})

    @app.exception_handler(Forbidden)
    async def forbidden(_r: Request, _e: Exception) -> JSONResponse:
        return JSONResponse(FORBIDDEN, status_code=403)

    @app.exception_handler(InvalidInputError)
    async def invalid(_r: Request, exc: Exception) -> JSONResponse:
        return invalid_input(str(exc), getattr(exc, "field", None), getattr(exc, "value", None))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return request_error(request, exc)

    @app.exception_handler(HTTPException)
    async def refused(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        return http_error(request, exc)

    @app.exception_handler(StorageUnavailableError)
    async def unavailable(_r: Request, exc: Exception) -> JSONResponse:
        return error(503, "storage_unavailable", line(exc))

    @app.exception_handler(PenchantError)
    async def failed(_r: Request, exc: Exception) -> JSONResponse:
        logger.warning("request failed: %s", exc)
        return error(503, "unavailable", line(exc) + "; nothing was changed, try again")

    @app.exception_handler(Exception)
    async def crashed(_r: Request, _e: Exception) -> JSONResponse:  # logged by Starlette
        return error(500, "internal_error", "the server failed on this request (a bug; its "
                     "log has the details)")
