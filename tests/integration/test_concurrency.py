"""Two OS processes writing one user at once: nothing lost, nothing duplicated."""

from __future__ import annotations

import subprocess
import sys

from penchant.memory import Memory, Settings

_WRITER = """
import sys
from penchant.memory import Memory, PreferenceCandidate, Settings
settings = Settings(redis_url=sys.argv[1])
memory = Memory.from_settings(settings, embedder=None)
tag = sys.argv[2]
for i in range(60):
    memory.remember("shared", PreferenceCandidate(
        content=f"likes item {tag}{i}", polarity="like", keywords=[f"item {tag}{i}"]))
    memory.remember("shared", PreferenceCandidate(
        content=f"likes common {i}", polarity="like", keywords=[f"common {i}"]))
memory.close()
"""


def test_two_processes_writing_one_user_lose_nothing(memory: Memory, settings: Settings) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(settings.redis_url), tag])
        for tag in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    prefs = memory.preferences("shared")
    contents = sorted(p.content for p in prefs)
    expected_distinct = {f"likes item {t}{i}" for t in "ab" for i in range(60)}
    expected_common = {f"likes common {i}" for i in range(60)}
    assert set(contents) == expected_distinct | expected_common
    assert len(contents) == len(set(contents))  # identical ones merged, stored once
    common = [p for p in prefs if p.content.startswith("likes common")]
    assert all(p.mention_count == 2 for p in common)
