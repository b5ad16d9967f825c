"""The service's pure parts: token scopes, minting and verification, the Host parsing of the
DNS-rebinding guard, and which hosts a bind answers to (no Redis, no server)."""

from __future__ import annotations

import json

import pytest

from penchant.memory import InvalidInputError, validate_user_id
from penchant.service import TokenScope, check_scope
from penchant.service.guard import Guard, check_host_name, check_origin, host_name
from penchant.service.http_app import allowed_hosts_for
from penchant.service.runner import is_loopback
from penchant.service.tokens import (
    check_token_id,
    mint,
    tenant_overreach,
    token_id_of,
    verified,
)


def test_a_user_token_covers_exactly_its_user() -> None:
    scope = TokenScope(user="ana")
    assert scope.covers("ana")
    assert not scope.covers("ana2") and not scope.covers("an") and not scope.covers("bob")


def test_a_tenant_token_covers_its_prefix_only() -> None:
    scope = TokenScope(tenant="acme:")
    assert scope.covers("acme:ana") and scope.covers("acme:")
    assert not scope.covers("acme") and not scope.covers("other:acme:ana")


@pytest.mark.parametrize(("user", "tenant"), [(None, None), ("a", "b"), ("", None),
                                              (None, ""), ("x" * 129, None), ("a\x07b", None),
                                              (None, "acme\n")])
def test_a_bad_scope_is_refused_with_its_reason(user: str | None, tenant: str | None) -> None:
    with pytest.raises(InvalidInputError, match="--user|--tenant|exactly one"):
        check_scope(user, tenant)


@pytest.mark.parametrize("user", ["a b", "张三", "acme:bob", "x" * 128, "ana@example.com"])
def test_a_token_may_be_bound_to_every_user_id_the_library_takes(user: str) -> None:
    assert validate_user_id(user) == user
    assert check_scope(user, None) == TokenScope(user=user)
    assert check_scope(None, user) == TokenScope(tenant=user)


def test_only_a_tenant_prefix_without_a_separator_at_its_end_is_warned_about() -> None:
    users = ["acme:bob", "acmecorp:bob", "acme", "other"]
    warning = tenant_overreach("acme", users)
    assert warning is not None
    assert "'acmecorp:bob'" in warning.split("stored users")[1]
    assert "'acme:bob'" not in warning.split("stored users")[1]
    assert "--tenant 'acme:'" in warning
    assert all(tenant_overreach(f"acme{end}", users) is None for end in ":/-_.")


def test_a_minted_token_verifies_and_its_record_holds_only_a_digest() -> None:
    token, token_id, record = mint(TokenScope(user="ana"), "laptop")
    assert token_id_of(token) == token_id
    secret = token.split(f"{token_id}_", 1)[1]  # may itself hold "_" (URL-safe base64)
    assert token not in record and secret not in record
    assert json.loads(record)["label"] == "laptop"
    assert verified(token, record) == TokenScope(user="ana")


def test_another_token_of_the_same_id_does_not_verify() -> None:
    token, token_id, record = mint(TokenScope(user="ana"))
    forged = f"pen_{token_id}_{'A' * 43}"
    assert token_id_of(forged) == token_id
    assert verified(forged, record) is None
    assert verified(token, None) is None


@pytest.mark.parametrize("text", ["", "pen_", "Bearer x", "pen_0123_abc", "pen_" + "g" * 16 + "_"
                                  + "A" * 43, "pen_0123456789abcdef_" + "A" * 42])
def test_a_malformed_token_has_no_id(text: str) -> None:
    assert token_id_of(text) is None


def test_revoke_takes_an_id_or_a_whole_token() -> None:
    token, token_id, _ = mint(TokenScope(user="ana"))
    assert check_token_id(token_id) == token_id == check_token_id(f"  {token} ")
    with pytest.raises(InvalidInputError, match="16 hex digits"):
        check_token_id("not-an-id")


@pytest.mark.parametrize(("header", "name"), [
    ("127.0.0.1:8765", "127.0.0.1"), ("LOCALHOST", "localhost"), ("[::1]:8765", "::1"),
    ("::1", "::1"), ("evil.example:80", "evil.example"), ("", ""),
])
def test_host_names_are_read_without_their_port(header: str, name: str) -> None:
    assert host_name(header) == name


def test_a_loopback_bind_answers_to_loopback_names_only() -> None:
    assert allowed_hosts_for("127.0.0.1", []) == ["127.0.0.1", "::1", "localhost"]
    assert "evil.example" not in allowed_hosts_for("0.0.0.0", [])
    assert allowed_hosts_for("10.0.0.5", ["memory.example.com"]) == [
        "10.0.0.5", "memory.example.com"]


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("::1", True),
                                                ("localhost", True), ("127.0.0.2", True),
                                                ("0.0.0.0", False), ("::", False),
                                                ("10.0.0.5", False), ("example.com", False)])
def test_what_counts_as_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(("given", "kept"), [
    ("memory.example.com", "memory.example.com"), ("Memory.Example.COM", "memory.example.com"),
    ("10.0.0.5", "10.0.0.5"), ("[::1]", "::1"), ("internal_host", "internal_host"),
])
def test_an_allowed_host_is_a_bare_name_or_address(given: str, kept: str) -> None:
    assert check_host_name(given) == kept


@pytest.mark.parametrize("given", ["", "  ", "*", "evil.example:80", "http://evil.example",
                                   "evil.example/path", "a b", "-bad.example"])
def test_anything_else_is_refused_as_an_allowed_host(given: str) -> None:
    with pytest.raises(InvalidInputError, match="--allow-host"):
        check_host_name(given)


@pytest.mark.parametrize(("given", "kept"), [
    ("https://app.example", "https://app.example"), ("http://localhost:3000/", "http://localhost:3000"),
    ("HTTPS://App.Example", "https://app.example"), ("https://[::1]:8080", "https://[::1]:8080"),
])
def test_an_allowed_origin_is_scheme_host_and_port(given: str, kept: str) -> None:
    assert check_origin(given) == kept


@pytest.mark.parametrize("given", ["evil", "app.example", "null", "*", "ftp://app.example",
                                   "https://app.example/path", "https://app.example?x=1",
                                   "https://user@app.example", "https://app.example:99999"])
def test_anything_else_is_refused_as_an_allowed_origin(given: str) -> None:
    with pytest.raises(InvalidInputError, match="--allow-origin"):
        check_origin(given)


def test_an_empty_allowed_host_never_lets_a_request_without_host_through() -> None:
    guard = Guard(app=None, allowed_hosts=["", "localhost"])
    refusal = guard._refusal({})
    assert refusal is not None and refusal[0] == 421
    assert guard._refusal({"host": "localhost:8765"}) is None
