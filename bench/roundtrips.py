"""Round trips to Redis per injected turn and per ``remember``, counted on the wire.

Counts ``send_packed_command`` calls of redis-py's connections (one per request sent: a
pipeline or a script is one, each command of an immediate-mode WATCH block is one), against
a fresh embedded server under a temporary ``PENCHANT_HOME``.

    python bench/roundtrips.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import redis.connection

from penchant.agent.hooks import MemoryHooks
from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import HashEmbedder

COUNT = {"n": 0}
_send = redis.connection.AbstractConnection.send_packed_command


def _counting(self: object, command: object, check_health: bool = True) -> None:
    COUNT["n"] += 1
    _send(self, command, check_health)  # type: ignore[arg-type]


def measure(label: str, call: object) -> int:
    COUNT["n"] = 0
    call()  # type: ignore[operator]
    print(f"{label:<44} {COUNT['n']:>3} round trips")
    return COUNT["n"]


def main() -> None:
    redis.connection.AbstractConnection.send_packed_command = _counting  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), embeddings="hash")
        memory = Memory.from_settings(settings, embedder=HashEmbedder())
        other = Memory.from_settings(settings, embedder=HashEmbedder())
        try:
            for i in range(20):
                memory.remember("u", PreferenceCandidate(
                    content=f"likes thing {i}", polarity="like", keywords=[f"thing {i}"]))
            hooks = MemoryHooks(memory)
            hooks.memory_context("u", "warm up")
            measure("injected turn, nothing written since", lambda: hooks.memory_context(
                "u", "what things do I like?"))
            other.remember("u", PreferenceCandidate(content="likes tea", polarity="like",
                                                    keywords=["tea"]))
            measure("injected turn after another process wrote", lambda: hooks.memory_context(
                "u", "what things do I like?"))
            measure("remember (new preference, warm)", lambda: memory.remember(
                "u", PreferenceCandidate(content="likes rum", polarity="like",
                                         keywords=["rum"])))
            measure("remember (merge, warm)", lambda: memory.remember(
                "u", PreferenceCandidate(content="likes rum a lot", polarity="like",
                                         keywords=["rum"])))
        finally:
            other.close()
            memory.close()


if __name__ == "__main__":
    main()
