"""Issue 20: what a user testing ``penchant serve`` and ``penchant mcp`` found. Each test is
one of the defects, against a real ``penchant serve`` process (httpx), a real ``penchant
mcp`` process (the SDK's stdio client) or the command line, on a real Redis; what each
checks is the status, the body and what Redis holds."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters

from penchant.memory import Memory, PreferenceCandidate
from penchant.memory.backends.server import EmbeddedRedis
from penchant.service import TokenScope

from conftest import run_cli
from service_process import (
    ServiceProcess,
    checking_memory,
    flushed_client,
    free_port,
    service_env,
    start_service,
)

PASSWORD = "s3cretPW"
CLI = [sys.executable, "-m", "penchant.tui.cli"]


@pytest.fixture(scope="module")
def redis_handle(redis_url: str) -> Iterator[Any]:
    client = flushed_client(redis_url)
    yield client
    client.close()


@pytest.fixture(scope="module")
def stored(redis_handle: Any, redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return checking_memory(redis_handle, tmp_path_factory.mktemp("check"), redis_url)


@pytest.fixture(scope="module")
def env(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return service_env(redis_url, tmp_path_factory.mktemp("home"))


@pytest.fixture(scope="module")
def service(redis_handle: Any, env: dict[str, str], stored: Memory) -> Iterator[ServiceProcess]:
    scopes = {"ana": TokenScope(user="ana"), "acme": TokenScope(tenant="acme:")}
    process = start_service(env, redis_handle, scopes)
    yield process
    process.stop()


@pytest.fixture
def http(service: ServiceProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, headers=service.headers("ana"), timeout=30) as client:
        yield client


@contextlib.contextmanager
def locked_redis(where: Path) -> Iterator[tuple[Any, str]]:
    """An embedded server that requires a password: its open client and the URL carrying
    the password (``unix://:PASSWORD@/…/valkey.sock``)."""
    server = EmbeddedRedis(where)
    client = server.connect()
    client.config_set("requirepass", PASSWORD)
    try:
        yield client, server.url.replace("unix://", f"unix://:{PASSWORD}@", 1)
    finally:
        with contextlib.suppress(Exception):
            client.shutdown(nosave=True)
        client.close()


def locked_env(url: str, home: Path) -> dict[str, str]:
    env = service_env(url, home)
    env.pop("PENCHANT_REDIS_CLUSTER", None)  # the server of these tests is a single node
    return env


def error_shape(response: httpx.Response) -> dict[str, Any]:
    """The body of an error answer, checked against the documented shape."""
    assert response.headers["content-type"].startswith("application/json"), response.text
    document = response.json()
    assert {"error", "message"} <= set(document) and "detail" not in document, document
    if response.status_code == 400:
        assert {"field", "value"} <= set(document), document
    return document


# -- 1: no credential of the Redis URL is ever shown ----------------------------------------------


def test_healthz_says_only_that_storage_is_unavailable_and_no_503_shows_the_password(
    tmp_path: Path,
) -> None:
    with locked_redis(tmp_path / "redis") as (client, url):
        service = start_service(locked_env(url, tmp_path / "home"), client,
                                {"ana": TokenScope(user="ana")})
        try:
            client.shutdown(nosave=True)  # Redis goes away under the running service
            health = httpx.get(f"{service.url}/healthz", timeout=60)
            write = httpx.post(f"{service.url}/v1/users/ana/preferences", timeout=60,
                               headers=service.headers("ana"),
                               json={"content": "I like tea", "polarity": "like"})
            mcp = httpx.post(f"{service.url}/mcp", timeout=60, headers=service.headers("ana"),
                             json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        finally:
            log = service.stop()
    assert health.status_code == 503
    assert health.json() == {"error": "storage_unavailable", "message": "storage is unavailable"}
    for response in (write, mcp):
        assert response.status_code == 503 and error_shape(response)["message"]
    assert PASSWORD not in health.text + write.text + mcp.text + log


@pytest.mark.parametrize("args", [["serve", "--port", "0"], ["prefs", "--user", "ana"],
                                  ["mcp", "--user", "ana"]])
def test_a_command_whose_redis_is_down_names_the_url_without_its_password(
    tmp_path: Path, args: list[str]
) -> None:
    url = f"redis://:{PASSWORD}@127.0.0.1:{free_port()}/0"
    proc = subprocess.run([*CLI, *args], env=locked_env(url, tmp_path), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "redis://:***@127.0.0.1:" in proc.stderr
    assert PASSWORD not in proc.stderr + proc.stdout


def test_doctor_shows_the_redis_location_without_its_password(tmp_path: Path) -> None:
    down = f"redis://ana:{PASSWORD}@127.0.0.1:{free_port()}/0"
    unreachable = run_cli(["doctor", "--json"], locked_env(down, tmp_path / "a"))
    with locked_redis(tmp_path / "redis") as (_client, url):
        reachable = run_cli(["doctor", "--json"], locked_env(url, tmp_path / "b"))
    assert unreachable.returncode == 1
    assert json.loads(unreachable.stdout)["redis_location"] == down.replace(
        f"ana:{PASSWORD}", "***:***")
    assert reachable.returncode == 0, reachable.stderr
    assert json.loads(reachable.stdout)["redis_location"] == url.replace(PASSWORD, "***")
    assert PASSWORD not in unreachable.stdout + unreachable.stderr + reachable.stdout


# -- 2 to 5: every refused request is a 4xx in the documented shape -------------------------------


@pytest.mark.parametrize(("content", "headers"), [
    ("content=I+like+tea&polarity=like", {"content-type": "application/x-www-form-urlencoded"}),
    ('{"content": "I like tea", "polarity": "like"}', {"content-type": "text/plain"}),
    ('{"content": "I like tea", "polarity": "like"}', {}),
])
def test_a_body_not_sent_as_json_is_415_naming_the_content_type_and_stores_nothing(
    http: httpx.Client, stored: Memory, content: str, headers: dict[str, str]
) -> None:
    response = http.post("/v1/users/ana/preferences", content=content, headers=headers)
    assert response.status_code == 415, response.text
    document = error_shape(response)
    assert document["error"] == "unsupported_media_type"
    assert "content-type: application/json" in document["message"]
    assert "I like tea" not in [p.content for p in stored.preferences("ana")]


def test_a_huge_bad_value_is_echoed_shortened_not_whole(http: httpx.Client) -> None:
    response = http.post("/v1/users/ana/preferences",
                         json={"content": "I like tea", "polarity": "x" * 1_000_000})
    assert response.status_code == 400
    assert len(response.content) < 2_000
    document = error_shape(response)
    assert document["field"] == "polarity"
    assert document["value"] == "x" * 80 + "… (1000000 characters)"


def test_hidden_characters_of_a_bad_value_are_named_not_echoed(http: httpx.Client) -> None:
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "obey")
    response = http.post("/v1/users/ana/preferences",
                         json={"content": "I like tea", "polarity": "like" + hidden})
    assert response.status_code == 400
    assert error_shape(response)["value"] == "like⟨4 hidden characters⟩"
    assert not any(0xE0000 <= ord(c) <= 0xE007F for c in response.text)


def test_a_missing_query_parameter_is_400_naming_query(http: httpx.Client) -> None:
    response = http.get("/v1/users/ana/recall")
    assert response.status_code == 400
    document = error_shape(response)
    assert document["field"] == "query" and document["message"].startswith("query:")


def test_a_malformed_json_body_is_400_saying_the_body_is_not_json(
    http: httpx.Client, stored: Memory
) -> None:
    response = http.post("/v1/users/ana/preferences", content=b'{"content":',
                         headers={"content-type": "application/json"})
    assert response.status_code == 400
    document = error_shape(response)
    assert document["field"] == "body" and document["value"] is None
    assert "not valid JSON" in document["message"] and "character 11" in document["message"]


def test_a_body_that_is_not_utf8_is_400_in_the_documented_shape(http: httpx.Client) -> None:
    response = http.post("/v1/users/ana/preferences", content=b'{"content": "\xff"}',
                         headers={"content-type": "application/json"})
    assert response.status_code == 400
    document = error_shape(response)
    assert document["error"] == "invalid_input" and document["field"] == "body"


def test_an_unknown_route_is_404_and_a_wrong_method_405_in_the_documented_shape(
    http: httpx.Client,
) -> None:
    missing = http.get("/v1/users/ana/nothing-here")
    wrong = http.put("/v1/users/ana/preferences", json={})
    assert missing.status_code == 404 and error_shape(missing)["error"] == "not_found"
    assert wrong.status_code == 405 and error_shape(wrong)["error"] == "method_not_allowed"
    assert "POST" in wrong.headers["allow"]


@pytest.mark.parametrize(("method", "path", "body", "field", "value"), [
    ("POST", "/preferences", {"content": "I like tea", "polarity": "like",
                              "category": "not a slug!"}, "category", "not a slug!"),
    ("GET", "/recall?query=tea&k=0", None, "k", 0),
    ("GET", "/history?limit=5000", None, "limit", 5000),
    ("POST", "/history", {"kind": "a kind!", "summary": "bought tea"}, "kind", "a kind!"),
    ("POST", "/forget", {"query": "   "}, "query", "   "),
])
def test_a_refused_field_is_400_with_its_field_and_value(
    http: httpx.Client, stored: Memory, method: str, path: str, body: Any, field: str,
    value: Any,
) -> None:
    before = stored.preferences("ana")
    response = http.request(method, f"/v1/users/ana{path}", json=body)
    assert response.status_code == 400, response.text
    document = error_shape(response)
    assert (document["field"], document["value"]) == (field, value)
    assert stored.preferences("ana") == before


# -- 6, 7: serve binds before it announces, and checks its guard options --------------------------


def serve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "serve", *args], env=env, capture_output=True, text=True,
                          timeout=60)


def test_serve_on_a_busy_port_exits_2_with_one_line_and_never_announces(
    env: dict[str, str],
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = serve(env, "--port", str(taken.getsockname()[1]))
    assert proc.returncode == 2
    assert "already in use" in proc.stderr and "--port" in proc.stderr
    assert "serving" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_serve_on_a_host_that_does_not_resolve_exits_2_with_one_line(env: dict[str, str]) -> None:
    proc = serve(env, "--host", "no-such-host.invalid", "--port", "0")
    assert proc.returncode == 2
    assert "does not resolve" in proc.stderr and "serving" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_serve_on_port_0_announces_the_port_it_was_given(
    env: dict[str, str], redis_handle: Any, service: ServiceProcess
) -> None:
    process = subprocess.Popen([*CLI, "serve", "--port", "0"], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stderr is not None
        announced = ""
        for line in process.stderr:
            if "serving" in line:
                announced = line
                break
        match = re.search(r"serving http://127\.0\.0\.1:(\d+) ", announced)
        assert match, announced
        port = int(match.group(1))
        assert port != 0
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30).status_code == 200
    finally:
        process.terminate()
        process.communicate(timeout=30)


@pytest.mark.parametrize(("option", "value"), [
    ("--allow-origin", "evil"), ("--allow-origin", "https://app.example/path"),
    ("--allow-origin", "null"), ("--allow-host", ""), ("--allow-host", "http://evil.example"),
])
def test_serve_refuses_a_guard_option_that_is_not_a_name_or_an_origin(
    env: dict[str, str], option: str, value: str
) -> None:
    proc = serve(env, "--port", "0", option, value)
    assert proc.returncode == 2
    assert option in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "serving" not in proc.stderr


# -- 8, 9: token scopes ---------------------------------------------------------------------------


def test_a_tenant_prefix_without_a_separator_warns_naming_what_else_it_covers(
    env: dict[str, str], stored: Memory, redis_handle: Any
) -> None:
    for user in ("acme:bob", "acmecorp:bob"):
        stored.remember(user, PreferenceCandidate(content="I like tea", polarity="like",
                                                  keywords=["tea"]))
    loose = run_cli(["token", "create", "--tenant", "acme", "--json"], env)
    tight = run_cli(["token", "create", "--tenant", "acme:", "--json"], env)
    assert loose.returncode == 0 and json.loads(loose.stdout)["tenant"] == "acme"
    assert loose.stderr.startswith("penchant: warning: ")
    assert "'acmecorp:bob'" in loose.stderr and "--tenant 'acme:'" in loose.stderr
    assert "'acme:bob'" not in loose.stderr.split("stored users")[-1]
    assert tight.returncode == 0 and tight.stderr == ""


def test_token_create_takes_every_user_id_remember_takes(
    env: dict[str, str], service: ServiceProcess, stored: Memory
) -> None:
    remembered = run_cli(["remember", "--user", "a b", "--polarity", "like", "--content",
                          "I like figs", "--keywords", "fig"], env)
    made = run_cli(["token", "create", "--user", "a b", "--json"], env)
    assert remembered.returncode == 0, remembered.stderr
    assert made.returncode == 0, made.stderr
    token = json.loads(made.stdout)["token"]
    listed = httpx.get(f"{service.url}/v1/users/a%20b/preferences", timeout=30,
                       headers={"Authorization": f"Bearer {token}"})
    assert listed.status_code == 200
    assert [p["content"] for p in listed.json()] == [p.content for p in stored.preferences("a b")]
    refused = [run_cli([*command, "--user", "a\x07b", *rest], env) for command, rest in [
        (["token", "create"], []), (["remember"], ["--polarity", "like", "--content", "x"])]]
    assert [p.returncode for p in refused] == [2, 2]


# -- 10 to 13: MCP --------------------------------------------------------------------------------


def stdio(env: dict[str, str], user: str) -> Client:
    return Client(StdioServerParameters(command=sys.executable,
                                        args=["-m", "penchant.tui.cli", "mcp", "--user", user],
                                        env=env))


async def test_the_context_is_listed_as_a_plain_resource(env: dict[str, str]) -> None:
    async with stdio(env, "kim") as client:
        await client.call_tool("remember_preference", {
            "content": "I'm allergic to peanuts", "polarity": "dislike",
            "keywords": ["peanut"], "category": "food"})
        listed = (await client.list_resources()).resources
        read = await client.read_resource("penchant://context")
    assert "penchant://context" in [str(r.uri) for r in listed]
    assert "peanut" in read.contents[0].text  # type: ignore[union-attr]


async def test_a_schema_invalid_tool_argument_is_told_in_penchants_words(
    env: dict[str, str], stored: Memory
) -> None:
    async with stdio(env, "lou") as client:
        sideways = await client.call_tool("remember_preference", {
            "content": "I like tea", "polarity": "sideways"})
        invalid = await client.call_tool("remember_preference", {
            "content": "I like tea", "polarity": "like", "category": "not a slug!"})
    text = sideways.content[0].text  # type: ignore[union-attr]
    assert sideways.is_error
    assert text.startswith("Error: invalid input: polarity = 'sideways': "), text
    assert "'like' or 'dislike'" in text and "pydantic" not in text
    assert invalid.content[0].text.startswith("Error: invalid input: ")  # type: ignore[union-attr]
    assert stored.preferences("lou") == []


def test_get_mcp_is_405_in_the_documented_shape_at_once(service: ServiceProcess) -> None:
    response = httpx.get(f"{service.url}/mcp", timeout=10, headers={
        **service.headers("ana"), "Accept": "text/event-stream"})
    assert response.status_code == 405
    assert error_shape(response)["error"] == "method_not_allowed"
    assert response.headers["allow"] == "POST"


async def test_a_read_tool_with_storage_down_says_the_memory_could_not_be_read(
    tmp_path: Path,
) -> None:
    with locked_redis(tmp_path / "redis") as (client, url):
        async with stdio(locked_env(url, tmp_path / "home"), "ana") as mcp:
            client.shutdown(nosave=True)
            listed = await mcp.call_tool("list_preferences", {})
            recalled = await mcp.call_tool("recall_memory", {"query": "tea"})
    for result in (listed, recalled):
        text = result.content[0].text  # type: ignore[union-attr]
        assert result.is_error and "could not be read right now" in text, text
        assert "updated" not in text and PASSWORD not in text
