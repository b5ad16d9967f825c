"""``penchant serve``: the REST API under ``/v1/users/{user_id}/…`` and the MCP tools over
streamable HTTP at ``/mcp``, on FastAPI.

FastAPI because the routes' bodies are pydantic models (the library's records already are),
so ``/openapi.json`` and the 4xx body of a bad field come from the same declarations; it
runs on Starlette, the framework the MCP SDK's streamable HTTP app is written in, so both
faces share one server, one event loop and one :class:`AsyncMemory`.

Statuses: 200 (201 for a recorded history snapshot); 400 bad input (``field``, ``value``
and the rule, the CLI's messages; nothing stored changes); 401 no valid token; 403 a token
for another user; 404 no such route; 405 a method a route does not take (``GET /mcp``
included: the MCP endpoint is stateless and takes POSTs only); 413 body over the bound; 415
a body not sent as JSON; 421 a Host not served (DNS rebinding guard); 422 a write whose every
candidate the gate screened out (each rejection and its reason); 503 storage down (the
reason). Every error body is ``{"error": code, "message": …}`` (:mod:`.errors`).
"""

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel, Field
from starlette.routing import Route

from penchant.memory import AsyncMemory, GateResult, aexport_user, aimport_document, parse_document

from .auth import USER_SCOPE_KEY, McpAuth, authorize
from .errors import error, install
from .guard import DEFAULT_MAX_BODY_BYTES, Guard, host_name
from .inputs import (
    MAX_LIMIT,
    MAX_RECALL_K,
    about,
    checked_user_id,
    history_snapshot,
    preference_candidate,
    whole,
)
from .mcp_server import build_mcp
from .start_context import start_context
from .tokens import DEFAULT_TOKEN_CACHE_SECONDS, AsyncTokenStore

logger = logging.getLogger(__name__)

API_PREFIX = "/v1/users/{user_id}"
MAX_BUDGET = 1_000_000
"""Largest recall token budget."""


class RememberBody(BaseModel):
    """``POST /v1/users/{user_id}/preferences``."""

    content: str = Field(description="The preference in one short sentence, the user's words.")
    polarity: Literal["like", "dislike"]
    keywords: list[str] | None = Field(default=None, description="Objects it is about.")
    category: str | None = Field(default=None, description="material, food, brand, … other.")


class CaptureBody(BaseModel):
    """``POST /v1/users/{user_id}/capture``: one user message for the rule capture."""

    text: str


class ForgetBody(BaseModel):
    """``POST /v1/users/{user_id}/forget``."""

    query: str = Field(description="Words naming the preferences to remove.")
    polarity: Literal["like", "dislike"] | None = None


class HistoryBody(BaseModel):
    """``POST /v1/users/{user_id}/history``."""

    kind: str = Field(description="search, view, choice, purchase, …")
    summary: str
    payload: dict[str, Any] | None = None


def _gate(result: GateResult) -> JSONResponse:
    """A write's answer: 200 with the gate result, or 422 when every candidate was refused."""
    document = result.public_dict()
    if result.all_rejected:
        return error(422, "rejected", result.rejection_line(), **document)
    return JSONResponse(document)


def allowed_hosts_for(host: str, extra: list[str]) -> list[str]:
    """Host names a server bound to ``host`` answers to: loopback names for a loopback or
    wildcard bind, the bound address itself, and ``--allow-host`` names."""
    names = [host_name(host), *(host_name(h) for h in extra)]
    if host in ("0.0.0.0", "::", "") or host_name(host) in ("127.0.0.1", "localhost", "::1"):
        names += ["127.0.0.1", "localhost", "::1"]
    return sorted(set(names))


def create_app(
    memory: AsyncMemory,
    *,
    allowed_hosts: list[str],
    allowed_origins: list[str] | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    token_cache_seconds: float = DEFAULT_TOKEN_CACHE_SECONDS,
) -> Guard:
    """The ASGI app of ``penchant serve``.

    Args:
        memory: The memory every route reads and writes (borrowed, opened by the caller).
        allowed_hosts: Host names requests may name (:func:`allowed_hosts_for`).
        allowed_origins: Browser origins allowed besides those of the allowed hosts.
        max_body_bytes: The request body bound.
        token_cache_seconds: How long a verified token is trusted without asking Redis
            again (:class:`~.tokens.AsyncTokenStore`); the most a revocation waits.

    Returns:
        The FastAPI app behind the Host/Origin/body :class:`~.guard.Guard`.
    """
    store = AsyncTokenStore(memory.client, cache_seconds=token_cache_seconds)

    def user_of(ctx: Context) -> str:
        request = ctx.request_context.request
        user = getattr(request, "scope", {}).get(USER_SCOPE_KEY)
        if not isinstance(user, str):  # McpAuth always sets it; refuse rather than guess
            raise PermissionError("no authenticated user on this MCP request")
        return user

    mcp = build_mcp(lambda: memory, user_of)
    origins = [*(allowed_origins or [])]
    mcp.streamable_http_app(
        streamable_http_path="/mcp", json_response=True, stateless_http=True,
        max_request_body_size=max_body_bytes,
        transport_security=TransportSecuritySettings(
            allowed_hosts=[p for h in allowed_hosts for p in _host_patterns(h)],
            allowed_origins=[*origins, *(o for h in allowed_hosts for o in _origin_patterns(h))],
        ),
    )  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            yield

    app = FastAPI(title="Penchant", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, description=__doc__)
    install(app)
    # POST only: stateless, with JSON answers, the endpoint has no stream for a GET to open
    # (the SDK would hold it open forever) and no session for a DELETE to end; both get 405.
    app.router.routes.append(Route("/mcp", McpAuth(StreamableHTTPASGIApp(mcp.session_manager),
                                                   store), methods=["POST"]))

    bearer = HTTPBearer(auto_error=False, description="a token from 'penchant token create'")

    async def authorized(
        user_id: Annotated[str, Path()],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
    ) -> str:
        token = f"Bearer {credentials.credentials}" if credentials is not None else None
        await authorize(store, token, user_id)
        return checked_user_id(user_id)

    User = Annotated[str, Depends(authorized)]

    @app.get("/healthz", tags=["service"])
    async def healthz() -> JSONResponse:
        """Whether Redis answers (no token needed; reveals nothing else, not even where the
        storage is)."""
        if await memory.ping():
            return JSONResponse({"status": "ok"})
        return error(503, "storage_unavailable", "storage is unavailable")

    @app.post(API_PREFIX + "/preferences", tags=["preferences"])
    async def remember(user_id: User, body: RememberBody) -> JSONResponse:
        """Store a preference through the persistence gate; the gate result."""
        candidate = preference_candidate(body.content, body.polarity, body.keywords,
                                         body.category)
        return _gate(await memory.remember(user_id, candidate))

    @app.get(API_PREFIX + "/preferences", tags=["preferences"])
    async def preferences(user_id: User) -> Response:
        """The active preferences (as ``penchant prefs --json``): a list of preference
        objects."""
        prefs = await memory.preferences(user_id)  # each serialised by pydantic-core at once
        body = "[" + ",".join(p.to_json() for p in prefs) + "]"
        return Response(body, media_type="application/json")

    @app.post(API_PREFIX + "/capture", tags=["preferences"])
    async def capture(user_id: User, body: CaptureBody) -> JSONResponse:
        """Rule-capture the preferences of one user message, through the gate."""
        return _gate(await memory.capture(user_id, body.text))

    @app.post(API_PREFIX + "/forget", tags=["preferences"])
    async def forget(user_id: User, body: ForgetBody) -> dict[str, Any]:
        """Remove the preferences the query names: ``{"removed": […]}`` (maybe empty)."""
        with about("query", body.query):
            return (await memory.forget(user_id, body.query, body.polarity)).public_dict()

    @app.get(API_PREFIX + "/held", tags=["preferences"])
    async def held(user_id: User) -> list[dict[str, Any]]:
        """What the gate held for the user's confirmation (possible instructions to the
        assistant), oldest first: flag objects of ``kind`` ``held``. For the user's own
        interface: the MCP tools (the model's) cannot confirm."""
        return [f.public_dict() for f in await memory.held(user_id)]

    @app.post(API_PREFIX + "/held/{held_id}/confirm", tags=["preferences"])
    async def confirm(user_id: User, held_id: str) -> JSONResponse:
        """Store a held item as written, through the gate; the gate result (422 when it
        refuses it; 400 naming ``held_id`` when there is no such item)."""
        with about("held_id", held_id):
            return _gate(await memory.confirm(user_id, held_id))

    @app.delete(API_PREFIX + "/held/{held_id}", tags=["preferences"])
    async def dismiss(user_id: User, held_id: str) -> dict[str, Any]:
        """Drop a held item and erase its text: ``{"dismissed": flag}`` (400 naming
        ``held_id`` when there is no such item)."""
        with about("held_id", held_id):
            return (await memory.dismiss(user_id, held_id)).public_dict()

    @app.get(API_PREFIX + "/recall", tags=["recall"])
    async def recall(
        user_id: User, query: str, k: Annotated[int, Query()] = 5,
        budget: Annotated[int | None, Query()] = None,
    ) -> dict[str, Any]:
        """The preferences relevant to ``query``, ranked (as ``penchant recall --json``)."""
        whole("k", k, 1, MAX_RECALL_K)
        if budget is not None:
            whole("budget", budget, 1, MAX_BUDGET)
        result = await memory.recall(user_id, query, k=k, token_budget=budget)
        return result.public_dict()

    @app.get(API_PREFIX + "/context", tags=["recall"])
    async def context(user_id: User, query: str = "") -> dict[str, Any]:
        """The prompt blocks for a chat (hard constraints first), as text and as lists."""
        return await start_context(memory, user_id, query)

    @app.get(API_PREFIX + "/history", tags=["history"])
    async def history(user_id: User, limit: int = 20) -> list[dict[str, Any]]:
        """Recent history snapshots, newest first."""
        whole("limit", limit, 1, MAX_LIMIT)
        return [h.model_dump(mode="json") for h in await memory.history(user_id, limit)]

    @app.post(API_PREFIX + "/history", tags=["history"], status_code=201)
    async def record_history(user_id: User, body: HistoryBody) -> dict[str, Any]:
        """Record what the user did (not a preference): the snapshot as stored
        (``unverified`` set when it is kept but never injected into a prompt)."""
        snapshot = history_snapshot(body.kind, body.summary, body.payload)
        return (await memory.record_history(user_id, snapshot)).model_dump(mode="json")

    @app.get(API_PREFIX + "/changes", tags=["history"])
    async def changes(user_id: User, limit: int = 50) -> list[dict[str, Any]]:
        """Recent memory changes (the change log), newest first."""
        whole("limit", limit, 1, MAX_LIMIT)
        return [e.model_dump(mode="json") for e in await memory.changes(user_id, limit)]

    @app.get(API_PREFIX + "/export", tags=["transfer"])
    async def export(user_id: User) -> dict[str, Any]:
        """The user's memory as the document ``penchant export`` prints."""
        return await aexport_user(memory, user_id)

    @app.post(API_PREFIX + "/import", tags=["transfer"])
    async def import_(user_id: User, request: Request) -> JSONResponse:
        """Import an export document into this user (its own ``user_id`` is ignored),
        validated whole before anything is written, through the gate."""
        text = (await request.body()).decode("utf-8", "replace")
        with about("body"):
            document = parse_document(text, user_override=user_id, settings=memory.settings)
            result = await aimport_document(memory, document)  # history screened first
        if document.history and result.all_rejected:
            return JSONResponse(result.public_dict())
        return _gate(result)

    @app.delete(API_PREFIX, tags=["users"])
    async def delete_user(user_id: User) -> dict[str, Any]:
        """Delete every key of the user; a second call removes nothing and says so."""
        return (await memory.delete_user(user_id)).public_dict()

    return Guard(app, allowed_hosts, origins, max_body_bytes)


def _host_patterns(name: str) -> list[str]:
    shown = f"[{name}]" if ":" in name else name
    return [shown, f"{shown}:*"]


def _origin_patterns(name: str) -> list[str]:
    shown = f"[{name}]" if ":" in name else name
    return [f"{scheme}://{shown}{port}" for scheme in ("http", "https") for port in ("", ":*")]
