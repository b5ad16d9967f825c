"""The real ``ChatOpenAI`` against a local OpenAI-compatible server: streaming, tool calls, errors.

The server (stdlib ``http.server`` on 127.0.0.1, in a thread) records every request body and
answers ``/v1/chat/completions`` from a scripted responder with server-sent events.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from pydantic import SecretStr

from penchant.agent.graph import MODEL_UNAVAILABLE_PREFIX, build_chat_graph
from penchant.agent.models import chat_model_from_settings
from penchant.memory import Memory, Settings

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
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
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
