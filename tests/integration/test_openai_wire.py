"""The real ``ChatOpenAI`` against a local OpenAI-compatible server: model selection,
streaming, tool calls, partial structured output, and every kind of endpoint failure.

The server (stdlib ``http.server`` on 127.0.0.1, in a thread) records every request body and
its headers and answers ``/v1/chat/completions`` from a scripted responder with server-sent
events, or with the HTTP status the responder returns. A closed port on 127.0.0.1 stands in
for a server that is not running.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from pydantic import SecretStr

from penchant.agent.graph import MODEL_UNAVAILABLE_PREFIX, build_chat_graph
from penchant.agent.models import (
    CONNECT_TIMEOUT_SECONDS,
    KEYLESS_API_KEY,
    MAX_RETRIES,
    OPENAI_BASE_URL,
    READ_TIMEOUT_SECONDS,
    ModelChoice,
    chat_model_from_settings,
    choose_model,
    describe_model_error,
    endpoint_of,
    is_offline,
    summary_model_from_settings,
)
from penchant.memory import InvalidInputError, Memory, PreferenceCandidate, Settings

from conftest import CliRunner

USER = "wire-user"
Responder = Callable[[dict[str, Any]], list[dict[str, Any]] | int]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "test-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def text_chunks(text: str) -> list[dict[str, Any]]:
    """A streamed assistant reply, word by word."""
    words = text.split(" ")
    chunks = [_chunk({"role": "assistant", "content": ""})]
    chunks += [
        _chunk({"content": w + (" " if i < len(words) - 1 else "")}) for i, w in enumerate(words)
    ]
    return [*chunks, _chunk({}, "stop")]


def tool_call_chunks(name: str, arguments: dict[str, Any], call_id: str) -> list[dict[str, Any]]:
    """A streamed tool call, its arguments split over two chunks."""
    raw = json.dumps(arguments)
    half = len(raw) // 2
    first = {
        "index": 0,
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": raw[:half]},
    }
    second = {"index": 0, "function": {"arguments": raw[half:]}}
    return [
        _chunk({"role": "assistant", "content": None, "tool_calls": [first]}),
        _chunk({"tool_calls": [second]}),
        _chunk({}, "tool_calls"),
    ]


class FakeOpenAI:
    """A tiny OpenAI-compatible server; ``responder(body)`` returns chunks or an HTTP status."""

    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                if self.path != "/v1/chat/completions":
                    self.send_error(404)
                    return
                answer = server.responder(body)
                if isinstance(answer, int):
                    self._json(
                        answer, {"error": {"message": "scripted failure", "type": "server_error"}}
                    )
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in answer:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

            def _json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def system_text(body: dict[str, Any]) -> str:
    return "\n".join(str(m["content"]) for m in body["messages"] if m["role"] == "system")


def shop_responder(body: dict[str, Any]) -> list[dict[str, Any]] | int:
    """Stores a dislike on the first turn, answers from the injected block on the second."""
    last = body["messages"][-1]
    if last["role"] == "tool":
        return text_chunks("Saved: no plastic for you.")
    if "plastic" in str(last["content"]) and "Remember" in str(last["content"]):
        return tool_call_chunks(
            "remember_preference",
            {
                "content": "I can't stand plastic",
                "polarity": "dislike",
                "keywords": ["plastic"],
                "category": "material",
            },
            "call_wire_1",
        )
    return text_chunks("Try a stainless steel bottle.")


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(shop_responder) as srv:
        yield srv


def wire_settings(server: FakeOpenAI) -> Settings:
    return Settings(
        openai_api_key=SecretStr("test"), openai_base_url=server.base_url, model="test-model"
    )


def turn(graph: Any, text: str) -> dict[str, Any]:
    config = {"configurable": {"user_id": USER, "thread_id": "wire"}}
    result: dict[str, Any] = graph.invoke({"messages": [HumanMessage(content=text)]}, config)
    return result


def test_streamed_tool_call_is_stored_and_injected_into_the_next_request(
    memory: Memory, server: FakeOpenAI
) -> None:
    graph = build_chat_graph(memory, chat_model_from_settings(wire_settings(server)))
    first = turn(graph, "Remember that I can't stand plastic.")

    [pref] = memory.preferences(USER)
    assert (pref.polarity, pref.keywords, pref.source) == ("dislike", ["plastic"], "tool")
    [tool_message] = [m for m in first["messages"] if isinstance(m, ToolMessage)]
    assert tool_message.tool_call_id == "call_wire_1"
    assert "stored new dislike" in str(tool_message.content)
    assert first["messages"][-1].content == "Saved: no plastic for you."
    assert all(body["stream"] is True for body in server.requests)
    tool_names = [t["function"]["name"] for t in server.requests[0]["tools"]]
    assert tool_names == ["remember_preference", "forget_preference", "recall_memory"]
    assert "user_id" not in json.dumps(server.requests[0]["tools"])

    second = turn(graph, "Which water bottle should I buy?")
    injected = system_text(server.requests[-1])
    assert "<user_preferences" in injected and "I can't stand plastic" in injected
    assert second["messages"][-1].content == "Try a stainless steel bottle."
    user_messages = [m for m in server.requests[-1]["messages"] if m["role"] == "user"]
    assert all("<user_preferences" not in str(m["content"]) for m in user_messages)


def test_reply_tokens_stream_out_of_the_graph(memory: Memory, server: FakeOpenAI) -> None:
    graph = build_chat_graph(memory, chat_model_from_settings(wire_settings(server)))
    config = {"configurable": {"user_id": USER, "thread_id": "stream"}}
    chunks = [
        str(chunk.content)
        for chunk, meta in graph.stream(
            {"messages": [HumanMessage(content="Which bottle?")]}, config, stream_mode="messages"
        )
        if meta["langgraph_node"] == "model"
    ]
    assert len(chunks) > 3
    assert "".join(chunks) == "Try a stainless steel bottle."


def test_provider_error_gives_a_clear_reply_and_rule_capture_still_happens(
    memory: Memory,
) -> None:
    with FakeOpenAI(lambda body: 500) as failing:
        graph = build_chat_graph(memory, chat_model_from_settings(wire_settings(failing)))
        state = turn(graph, "I really dislike plastic packaging.")
        assert len(failing.requests) == 2  # one retry, then give up
    assert str(state["messages"][-1].content).startswith(MODEL_UNAVAILABLE_PREFIX)
    assert [p.polarity for p in memory.preferences(USER)] == ["dislike"]


# -- which model settings select ------------------------------------------------------------------


def test_base_url_alone_selects_the_real_model_with_a_placeholder_key(
    memory: Memory, server: FakeOpenAI
) -> None:
    settings = Settings(openai_base_url=server.base_url, model="llama3.2")
    assert choose_model(settings) == ModelChoice(
        offline=False, model="llama3.2", base_url=server.base_url
    )
    model = chat_model_from_settings(settings)
    assert not is_offline(model)
    state = turn(build_chat_graph(memory, model), "Which bottle?")
    assert state["messages"][-1].content == "Try a stainless steel bottle."
    assert server.requests[0]["model"] == "llama3.2"
    assert server.headers[0]["authorization"] == f"Bearer {KEYLESS_API_KEY}"


def test_api_key_alone_selects_openai() -> None:
    choice = choose_model(Settings(openai_api_key=SecretStr("sk-test")))
    assert not choice.offline and choice.base_url is None
    assert choice.endpoint == OPENAI_BASE_URL
    model = chat_model_from_settings(Settings(openai_api_key=SecretStr("sk-test")))
    assert endpoint_of(model) == OPENAI_BASE_URL


@pytest.mark.parametrize(
    "settings",
    [
        Settings(openai_api_key=None, openai_base_url=None),
        Settings(openai_api_key=SecretStr(""), openai_base_url="  "),
    ],
    ids=["unset", "blank"],
)
def test_neither_variable_selects_the_offline_model(settings: Settings) -> None:
    assert choose_model(settings).offline
    assert is_offline(chat_model_from_settings(settings))
    assert summary_model_from_settings(settings) is None


def test_a_base_url_that_is_not_http_is_refused_with_the_fix() -> None:
    with pytest.raises(InvalidInputError, match=r"OPENAI_BASE_URL must be an http\(s\) URL"):
        choose_model(Settings(openai_base_url="localhost:11434"))


def test_the_real_model_has_short_explicit_limits() -> None:
    model = chat_model_from_settings(Settings(openai_base_url="http://127.0.0.1:9/v1"))
    assert model.max_retries == MAX_RETRIES == 1  # type: ignore[attr-defined]
    timeout = model.request_timeout  # type: ignore[attr-defined]
    assert (timeout.connect, timeout.read) == (CONNECT_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS)


# -- a failing endpoint ---------------------------------------------------------------------------


def closed_port_url() -> str:
    """The base URL of a port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def slow(seconds: float) -> Responder:
    def answer(body: dict[str, Any]) -> list[dict[str, Any]]:
        time.sleep(seconds)
        return text_chunks("too late")

    return answer


FAILURES = [
    pytest.param(lambda body: 429, "is rate limiting requests", 2, id="429"),
    pytest.param(lambda body: 500, "returned a server error", 2, id="500"),
    pytest.param(lambda body: 503, "returned a server error", 2, id="503"),
    pytest.param(lambda body: 401, "refused the API key", 1, id="401"),
    pytest.param(lambda body: 404, "does not serve the model", 1, id="404"),
    pytest.param(slow(2.0), "did not answer in time", 2, id="timeout"),
]


@pytest.mark.parametrize(("responder", "phrase", "requests"), FAILURES)
def test_a_failing_endpoint_gives_one_clear_reply_and_the_rule_capture_still_stores(
    memory: Memory, responder: Responder, phrase: str, requests: int
) -> None:
    with FakeOpenAI(responder) as failing:
        model = chat_model_from_settings(Settings(openai_base_url=failing.base_url), timeout=0.5)
        graph = build_chat_graph(memory, model, summary_model=model)
        state = turn(graph, "I really dislike plastic packaging.")
        sent = len(failing.requests)
    reply = state["messages"][-1]
    text = str(reply.content)
    assert text.startswith(f"{MODEL_UNAVAILABLE_PREFIX}: {failing.base_url} {phrase}")
    assert "\n" not in text and "Traceback" not in text
    assert reply.response_metadata["penchant_error"] == "model_unavailable"
    assert sent == requests  # one retry where one helps; no summary call after the failure
    [pref] = memory.preferences(USER)
    assert (pref.polarity, pref.source) == ("dislike", "rule")
    assert state["memory_changes"]["errors"] == []


RETRY_LOG = re.compile(r"Retrying request in ([0-9.]+) seconds")
"""The openai SDK's log line for each back-off it sleeps before a retry."""


def test_a_closed_port_is_reported_unreachable_within_seconds(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    url = closed_port_url()
    graph = build_chat_graph(memory, chat_model_from_settings(Settings(openai_base_url=url)))
    caplog.set_level(logging.DEBUG, logger="openai")
    state = turn(graph, "I really dislike plastic packaging.")
    text = str(state["messages"][-1].content)
    assert text.startswith(f"{MODEL_UNAVAILABLE_PREFIX}: {url} is unreachable (connection refused)")
    assert "start the server" in text and "unset OPENAI_BASE_URL" in text
    sdk = [r.getMessage() for r in caplog.records if r.name.startswith("openai")]
    sent = [m for m in sdk if m.startswith("Sending HTTP Request")]
    backoffs = [float(m[1]) for m in map(RETRY_LOG.match, sdk) if m]
    assert len(sent) == 1 + MAX_RETRIES  # one quick retry, no further tries and no summary call
    assert len(backoffs) == MAX_RETRIES and all(0 < s <= 0.5 for s in backoffs)  # no minutes
    assert [p.polarity for p in memory.preferences(USER)] == ["dislike"]


@pytest.mark.parametrize(
    ("status", "kind", "fix"),
    [
        (429, "rate_limited", "try again"),
        (500, "server_error", "check the server's log"),
        (401, "auth", "OPENAI_API_KEY"),
        (404, "not_found", "PENCHANT_MODEL"),
        (400, "rejected", "structured output"),
    ],
)
def test_each_http_failure_names_its_kind_and_fix(status: int, kind: str, fix: str) -> None:
    with FakeOpenAI(lambda body: status) as failing:
        model = chat_model_from_settings(
            Settings(openai_base_url=failing.base_url), max_retries=0
        )
        with pytest.raises(Exception) as caught:
            model.invoke("hi")
    failure = describe_model_error(caught.value, model)
    assert (failure.endpoint, failure.kind) == (failing.base_url, kind)
    assert f"HTTP {status}" in failure.detail and fix in failure.fix


# -- summary capture: partial output --------------------------------------------------------------


def summary_responder(summary: Any) -> Responder:
    """Chat requests get a plain answer; summary requests (``response_format``) ``summary``."""

    def answer(body: dict[str, Any]) -> list[dict[str, Any]] | int:
        if "response_format" not in body:
            return text_chunks("Noted.")
        assert body["response_format"]["json_schema"]["name"] == "PreferenceSummary"
        return text_chunks(summary if isinstance(summary, str) else json.dumps(summary))

    return answer


def test_summary_keeps_the_valid_preferences_and_notes_the_malformed_one(
    memory: Memory,
) -> None:
    summary = {
        "preferences": [
            {"content": "Cotton feels nicest on my skin", "polarity": "like",
             "keywords": ["cotton"], "category": "material"},
            {"content": "Wool is fine I guess", "polarity": "neutral", "keywords": ["wool"]},
            {"polarity": "dislike", "keywords": ["linen"]},
        ]
    }
    with FakeOpenAI(summary_responder(summary)) as srv:
        model = chat_model_from_settings(Settings(openai_base_url=srv.base_url))
        state = turn(build_chat_graph(memory, model, summary_model=model),
                     "Cotton feels nicest on my skin.")
    [pref] = memory.preferences(USER)
    assert (pref.keywords, pref.source) == (["cotton"], "summary")
    dropped = state["memory_changes"]["dropped"]
    assert [(d["kind"], d["index"], d["content"]) for d in dropped] == [
        ("preference", 1, "Wool is fine I guess"),
        ("preference", 2, '{"polarity": "dislike", "keywords": ["linen"]}'),
    ]
    assert dropped[0]["reason"].startswith("polarity:")
    assert dropped[1]["reason"] == "content: Field required"
    assert state["memory_changes"]["errors"] == []


def test_summary_reply_that_is_not_json_is_one_error_and_the_rule_capture_stays(
    memory: Memory,
) -> None:
    with FakeOpenAI(summary_responder("sure! you like cotton")) as srv:
        model = chat_model_from_settings(Settings(openai_base_url=srv.base_url))
        state = turn(build_chat_graph(memory, model, summary_model=model),
                     "I really dislike plastic packaging.")
    [error] = state["memory_changes"]["errors"]
    assert error.startswith("summary capture failed: the model's reply is not JSON")
    assert [(p.polarity, p.source) for p in memory.preferences(USER)] == [("dislike", "rule")]


def test_summary_endpoint_failure_after_a_good_reply_is_one_error_line(memory: Memory) -> None:
    def answer(body: dict[str, Any]) -> list[dict[str, Any]] | int:
        return 500 if "response_format" in body else text_chunks("Noted.")

    with FakeOpenAI(answer) as srv:
        model = chat_model_from_settings(Settings(openai_base_url=srv.base_url))
        state = turn(build_chat_graph(memory, model, summary_model=model),
                     "I really dislike plastic packaging.")
    assert state["messages"][-1].content == "Noted."
    [error] = state["memory_changes"]["errors"]
    assert error.startswith(f"summary capture failed: model unavailable: {srv.base_url} "
                            "returned a server error (HTTP 500")
    assert [p.polarity for p in memory.preferences(USER)] == ["dislike"]


# -- the CLI --------------------------------------------------------------------------------------


def test_cli_reflect_against_a_dead_endpoint_exits_1_with_one_line(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    url = closed_port_url()
    memory.remember("ana", PreferenceCandidate(content="I hate plastic", polarity="dislike",
                                               keywords=["plastic"], category="material"))
    proc = cli(["reflect", "--user", "ana", "what bottle?", "--json"],
                   {**cli_env, "OPENAI_BASE_URL": url})
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"penchant: error: model unavailable: {url} is unreachable")
    assert "start the server" in line and "unset OPENAI_BASE_URL" in line
    assert memory.observations("ana") == []


@pytest.mark.parametrize(("status", "said"), [(503, "returned a server error (HTTP 503"),
                                            (429, "is rate limiting requests (HTTP 429")])
def test_cli_replay_stops_at_a_failing_endpoint_and_exits_1(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory, tmp_path: Any, status: int,
    said: str,
) -> None:
    conversation = tmp_path / "talk.json"
    conversation.write_text(json.dumps({"turns": ["I really dislike plastic packaging.",
                                                  "Which bottle should I buy?"]}))
    with FakeOpenAI(lambda body: status) as failing:
        proc = cli(["replay", str(conversation), "--user", "ana", "--json"],
                       {**cli_env, "OPENAI_BASE_URL": failing.base_url})
        sent = len(failing.requests)
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"penchant: error: model unavailable: {failing.base_url} {said}")
    assert "replay stopped at turn 1 of 2" in line and "Traceback" not in proc.stderr
    (stored,) = memory.preferences("ana")
    assert f"turn 1: kept: rule capture stored {stored.content!r}; retried: nothing" in line
    assert sent == 2  # turn 1 and its retry; turn 2 was never sent
    assert stored.polarity == "dislike"


def test_cli_replay_with_a_keyless_local_server_answers(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory, tmp_path: Any, server: FakeOpenAI
) -> None:
    conversation = tmp_path / "talk.json"
    conversation.write_text(json.dumps({"turns": ["Which bottle should I buy?"]}))
    proc = cli(["replay", str(conversation), "--user", "ana", "--json"],
                   {**cli_env, "OPENAI_BASE_URL": server.base_url})
    assert proc.returncode == 0, proc.stderr
    [only] = json.loads(proc.stdout)["turns"]
    assert only["assistant"] == "Try a stainless steel bottle."


def test_cli_checkup_against_a_dead_endpoint_exits_1_with_one_line(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    url = closed_port_url()
    memory.remember("ana", [
        PreferenceCandidate(content="loves road trips", polarity="like", keywords=["road trip"]),
        PreferenceCandidate(content="hates long drives", polarity="dislike",
                            keywords=["long drive"]),
    ])
    proc = cli(["checkup", "--user", "ana", "--json"], {**cli_env, "OPENAI_BASE_URL": url})
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()
    assert f"model unavailable: {url} is unreachable (connection refused)" in line
    assert "unset OPENAI_BASE_URL" in line
