"""Bearer tokens of the service: minted once, stored hashed in Redis, bound to a user or a
tenant (a prefix of user ids), revocable.

A token reads ``pen_<id>_<secret>``: ``id`` (16 hex digits) names it in ``penchant token
list`` and ``revoke``; ``secret`` is 32 random bytes (``secrets.token_urlsafe``). Redis keeps
only the SHA-256 digest of the whole token, in one hash, :data:`TOKENS_KEY`, field ``id``,
value a small JSON record; a global key, outside every user's hash tag, so no user's
``delete-user`` touches it. A plain digest suffices (no salt, no slow hash): the secret is
256 random bits, not a password, so no dictionary exists to try against a leaked digest.

Verification is one ``HGET``; the server keeps a token it verified for
:data:`DEFAULT_TOKEN_CACHE_SECONDS` (``penchant serve --token-cache-ms``), so a burst of calls
costs one ``HGET`` rather than one each. An entry's life runs from the moment its ``HGET`` was
sent and is never extended by a hit, so a revoked token is refused at most that long after
``penchant token revoke`` returns (``--token-cache-ms 0``: from the next request). Only valid
tokens are kept, by digest; an unknown or malformed token asks Redis every time, so a token
created a moment ago works at once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from penchant.memory import InvalidInputError, StorageUnavailableError, validate_user_id

TOKENS_KEY = "penchant:service:tokens"
"""Redis hash of every token: field = token id, value = JSON record (digest, scope, time)."""
TOKEN_PREFIX = "pen_"
DEFAULT_TOKEN_CACHE_SECONDS = 1.0
"""How long the server trusts a token it verified before asking Redis again, in seconds: the
longest a revoked token keeps working after ``penchant token revoke`` returns."""
MAX_CACHED_TOKENS = 4_096
"""Verified tokens kept at once (the oldest entry goes first)."""
TENANT_SEPARATORS = ":/-_.@|#"
"""Characters that end a tenant prefix safely: ``acme:`` covers ``acme:bob`` and not
``acmecorp:bob``; ``acme`` covers both (:func:`tenant_overreach` warns)."""

_TOKEN_RE = re.compile(r"^pen_(?P<id>[0-9a-f]{16})_(?P<secret>[A-Za-z0-9_-]{43})$")
_ID_RE = re.compile(r"^[0-9a-f]{16}$")


@dataclass(frozen=True)
class TokenScope:
    """Whom a token may reach: exactly one user, or every user whose id starts with a tenant
    prefix.

    Attributes:
        user: The one user id, or ``None`` for a tenant token.
        tenant: The user-id prefix of a tenant token, or ``None``.
    """

    user: str | None = None
    tenant: str | None = None

    def covers(self, user_id: str) -> bool:
        """Whether a request for ``user_id`` is allowed."""
        if self.user is not None:
            return hmac.compare_digest(self.user.encode(), user_id.encode())
        return self.tenant is not None and user_id.startswith(self.tenant)

    def describe(self) -> str:
        """``user 'ana'`` or ``tenant 'acme:'`` (for people)."""
        return f"user {self.user!r}" if self.user is not None else f"tenant {self.tenant!r}"


@dataclass(frozen=True)
class TokenInfo:
    """A stored token, without its secret.

    Attributes:
        id: The 16-hex-digit token id.
        scope: Whom it may reach.
        created_at: When it was minted (UTC).
        label: An optional note given at creation.
    """

    id: str
    scope: TokenScope
    created_at: datetime
    label: str = ""

    def public_dict(self) -> dict[str, Any]:
        """JSON form for ``penchant token list --json`` (never the secret or its digest)."""
        return {
            "id": self.id, "user": self.scope.user, "tenant": self.scope.tenant,
            "created_at": self.created_at.isoformat(), "label": self.label,
        }  # fmt: skip


def check_scope(user: str | None, tenant: str | None) -> TokenScope:
    """The scope of a new token, validated by the library's own rule for a user id
    (:func:`~penchant.memory.validate_user_id`; a tenant prefix is a prefix of one), so a
    token can be made for exactly the users ``remember --user`` and the REST routes take.

    Raises:
        InvalidInputError: Neither or both of ``user`` and ``tenant``, or one that is not a
            user id (empty, too long, a control or invisible character).
    """
    if (user is None) == (tenant is None):
        raise InvalidInputError("a token is bound to exactly one of --user ID or --tenant PREFIX")
    field, value = ("--user", user) if user is not None else ("--tenant", tenant)
    assert value is not None
    try:
        validate_user_id(value)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{field}: {exc}") from exc
    return TokenScope(user=user, tenant=tenant)


def tenant_overreach(tenant: str, users: list[str]) -> str | None:
    """A warning for a tenant prefix that does not end in one of :data:`TENANT_SEPARATORS`:
    ``acme`` covers ``acmecorp:bob`` as well as ``acme:bob``. ``None`` when it does.

    Args:
        tenant: The prefix.
        users: Stored user ids (the ones it covers beyond ``tenant`` + a separator are named).

    Returns:
        One line naming what else the prefix covers and the fix, or ``None``.
    """
    if not tenant or tenant[-1] in TENANT_SEPARATORS:
        return None
    beyond = sorted(u for u in users if u.startswith(tenant) and u != tenant
                    and u[len(tenant)] not in TENANT_SEPARATORS)
    named = ", ".join(repr(u) for u in beyond[:5]) + (f" and {len(beyond) - 5} more"
                                                        if len(beyond) > 5 else "")
    stored = f"; stored users it covers so: {named}" if beyond else ""
    return (f"tenant prefix {tenant!r} does not end in a separator ({' '.join(TENANT_SEPARATORS)})"
            f", so the token covers every user id that starts with it, such as "
            f"{tenant + 'corp:bob'!r} as well as {tenant + ':bob'!r}{stored}; for one tenant, "
            f"end the prefix in a separator, e.g. --tenant {tenant + ':'!r}")


def mint(scope: TokenScope, label: str = "") -> tuple[str, str, str]:
    """A new token: ``(token, id, stored record JSON)``; the token is shown once, never stored."""
    token_id = secrets.token_hex(8)
    token = f"{TOKEN_PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
    record = {
        "digest": _digest(token), "user": scope.user, "tenant": scope.tenant,
        "created_at": datetime.now(UTC).isoformat(), "label": label,
    }  # fmt: skip
    return token, token_id, json.dumps(record)


def token_id_of(token: str) -> str | None:
    """The id inside a well-formed token, else ``None`` (the caller answers 401)."""
    match = _TOKEN_RE.match(token)
    return match.group("id") if match else None


def check_token_id(text: str) -> str:
    """A token id given to ``revoke``: the id itself, or a whole token (its id is taken).

    Raises:
        InvalidInputError: Neither a token id nor a token.
    """
    text = text.strip()
    if _ID_RE.match(text):
        return text
    token_id = token_id_of(text)
    if token_id is None:
        raise InvalidInputError(
            f"{text[:20]!r} is not a token id (16 hex digits, as 'penchant token list' shows) "
            "nor a token"
        )
    return token_id


def verified(token: str, raw: bytes | str | None) -> TokenScope | None:
    """The scope of ``token`` if ``raw`` (its stored record) matches its digest, else ``None``."""
    if raw is None:
        return None
    record = json.loads(raw)
    if not hmac.compare_digest(record["digest"], _digest(token)):
        return None
    return TokenScope(user=record.get("user"), tenant=record.get("tenant"))


def info_of(token_id: bytes | str, raw: bytes | str) -> TokenInfo:
    """A stored record as :class:`TokenInfo`."""
    record = json.loads(raw)
    ident = token_id.decode() if isinstance(token_id, bytes) else token_id
    scope = TokenScope(user=record.get("user"), tenant=record.get("tenant"))
    return TokenInfo(ident, scope, datetime.fromisoformat(record["created_at"]),
                     record.get("label", ""))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _unavailable(exc: Exception) -> StorageUnavailableError:
    return StorageUnavailableError(f"the token store in Redis cannot be reached: {exc}")


class TokenStore:
    """The tokens in Redis, over a sync redis-py client (the CLI's).

    Args:
        client: A redis-py client (borrowed, never closed), e.g. ``Memory.client``.
    """

    def __init__(self, client: Any) -> None:
        self.client = client

    def create(self, scope: TokenScope, label: str = "") -> tuple[str, TokenInfo]:
        """Mint and store a token; returns ``(token, info)``; the token is not kept.

        Raises:
            StorageUnavailableError: Redis did not take the write (nothing was minted).
        """
        token, token_id, record = mint(scope, label)
        try:
            self.client.hset(TOKENS_KEY, token_id, record)
        except Exception as exc:
            raise _unavailable(exc) from exc
        return token, info_of(token_id, record)

    def revoke(self, token_id: str) -> bool:
        """Delete a token by id; ``False`` when there was none of that id."""
        try:
            return bool(self.client.hdel(TOKENS_KEY, check_token_id(token_id)))
        except InvalidInputError:
            raise
        except Exception as exc:
            raise _unavailable(exc) from exc

    def list(self) -> list[TokenInfo]:
        """Every stored token (without secrets), oldest first."""
        try:
            raw = self.client.hgetall(TOKENS_KEY)
        except Exception as exc:
            raise _unavailable(exc) from exc
        return sorted((info_of(k, v) for k, v in raw.items()), key=lambda i: i.created_at)

    def count(self) -> int:
        """How many tokens exist."""
        try:
            return int(self.client.hlen(TOKENS_KEY))
        except Exception as exc:
            raise _unavailable(exc) from exc


class AsyncTokenStore:
    """The server's view of the tokens, over a ``redis.asyncio`` client, with the short cache
    of verified tokens the module docstring describes.

    Args:
        client: A ``redis.asyncio`` client (borrowed), e.g. ``AsyncMemory.client``.
        cache_seconds: How long a verified token is trusted without asking Redis again
            (:data:`DEFAULT_TOKEN_CACHE_SECONDS`); ``0`` asks on every request.
        clock: Monotonic seconds (tests pass a fake one).

    Raises:
        InvalidInputError: ``cache_seconds`` is negative or not finite.
    """

    def __init__(self, client: Any, *, cache_seconds: float = DEFAULT_TOKEN_CACHE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not 0 <= cache_seconds < float("inf"):
            raise InvalidInputError(
                f"token cache = {cache_seconds} s is out of range; use 0 (no cache) or more")
        self.client, self.cache_seconds, self._clock = client, cache_seconds, clock
        self._verified: OrderedDict[str, tuple[TokenScope, float]] = OrderedDict()

    async def scope_of(self, token: str) -> TokenScope | None:
        """The scope of a presented token, or ``None`` if it is malformed, unknown or revoked
        (revoked at most :attr:`cache_seconds` ago: a cached verification still stands).

        Raises:
            StorageUnavailableError: Redis did not answer (the request gets 503, not 401).
        """
        token_id = token_id_of(token)
        if token_id is None:
            return None
        digest = _digest(token)
        asked = self._clock()
        cached = self._verified.get(digest)
        if cached is not None:
            if asked < cached[1]:
                return cached[0]
            del self._verified[digest]
        try:
            raw = await self.client.hget(TOKENS_KEY, token_id)
        except Exception as exc:
            raise _unavailable(exc) from exc
        scope = verified(token, raw)
        if scope is not None and self.cache_seconds > 0:
            self._verified[digest] = (scope, asked + self.cache_seconds)
            if len(self._verified) > MAX_CACHED_TOKENS:
                self._verified.popitem(last=False)
        return scope

    async def count(self) -> int:
        """How many tokens exist."""
        try:
            return int(await self.client.hlen(TOKENS_KEY))
        except Exception as exc:
            raise _unavailable(exc) from exc


__all__ = [
    "DEFAULT_TOKEN_CACHE_SECONDS",
    "TENANT_SEPARATORS",
    "TOKENS_KEY",
    "AsyncTokenStore",
    "TokenInfo",
    "TokenScope",
    "TokenStore",
    "check_scope",
    "tenant_overreach",
]
