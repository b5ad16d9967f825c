"""The embedded server: persistence across restarts and kill -9, sharing between processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.server import EmbeddedRedis

from conftest import wait_until

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("PENCHANT_TEST_REDIS_URL")), reason="embedded-server tests"
)


def _settings(home: Path) -> Settings:
    return Settings(home=home, redis_url=None, embeddings="hash")


def _like(content: str, keyword: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=[keyword])


def test_data_survives_a_clean_stop_and_start(tmp_path: Path) -> None:
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        memory.remember("u", _like("likes tea", "tea"))
    server = EmbeddedRedis(tmp_path / "redis")
    assert not server._alive()
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        assert [p.content for p in memory.preferences("u")] == ["likes tea"]


def test_data_survives_kill_9_of_the_server(tmp_path: Path) -> None:
    memory = Memory.from_settings(_settings(tmp_path), embedder=None)
    memory.remember("u", _like("likes tea", "tea"))
    assert memory.client.execute_command("WAITAOF", 1, 0, 5000)[0] == 1  # fsynced locally
    server = EmbeddedRedis(tmp_path / "redis")
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not server._alive(), what="server down")
    memory.client.close()
    with Memory.from_settings(_settings(tmp_path), embedder=None) as again:
        assert [p.content for p in again.preferences("u")] == ["likes tea"]


_CHILD = """
import sys
from penchant.memory import Memory, PreferenceCandidate, Settings
from pathlib import Path
memory = Memory.from_settings(Settings(home=Path(sys.argv[1]), redis_url=None), embedder=None)
memory.remember("u", PreferenceCandidate(content="likes tea", polarity="like", keywords=["tea"]))
print("stored", flush=True)
import time; time.sleep(60)
"""


def test_data_survives_kill_9_of_the_process_that_started_the_server(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "stored"
    child.kill()
    child.wait()
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        assert [p.content for p in memory.preferences("u")] == ["likes tea"]


def test_two_processes_share_one_server(tmp_path: Path) -> None:
    first = Memory.from_settings(_settings(tmp_path), embedder=None)
    second = Memory.from_settings(_settings(tmp_path), embedder=None)
    server = EmbeddedRedis(tmp_path / "redis")
    pid = server.pid()
    first.remember("u", _like("likes tea", "tea"))
    assert [p.content for p in second.preferences("u")] == ["likes tea"]
    assert server.pid() == pid
    first.close()
    second.close()
    assert not server._alive()


def test_server_stays_up_while_another_process_uses_it(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "stored"
        memory = Memory.from_settings(_settings(tmp_path), embedder=None)
        memory.close()  # the child still holds a connection: the server must stay
        assert EmbeddedRedis(tmp_path / "redis")._alive()
    finally:
        child.kill()
        child.wait()
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        assert len(memory.preferences("u")) == 1


def _servers_on(data_dir: Path) -> int:
    count = 0
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if b"-server" in cmdline and str(data_dir).encode() in cmdline:
                count += 1
    return count


def test_a_paused_server_is_never_duplicated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from penchant.memory import StorageUnavailableError
    from penchant.memory import server as server_module

    monkeypatch.setattr(server_module, "START_TIMEOUT_SECONDS", 1.0)
    memory = Memory.from_settings(_settings(tmp_path), embedder=None)
    pid = EmbeddedRedis(tmp_path / "redis").pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        with pytest.raises(StorageUnavailableError, match="not"):
            Memory.from_settings(_settings(tmp_path), embedder=None)
        assert _servers_on(tmp_path / "redis") == 1
    finally:
        os.kill(pid, signal.SIGCONT)
    memory.close()


def test_server_restarted_under_a_live_process_is_kept_for_it(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "stored"
        server = EmbeddedRedis(tmp_path / "redis")
        pid = server.pid()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: server._probe()[0] == "down", what="server down")
        with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
            assert len(memory.preferences("u")) == 1  # restarted, data from the AOF
        assert server._probe()[0] == "up"  # the child still uses it
    finally:
        child.kill()
        child.wait()
    with Memory.from_settings(_settings(tmp_path), embedder=None):
        pass
    assert server._probe()[0] == "down"


def test_long_lived_memory_revives_a_killed_server(tmp_path: Path) -> None:
    memory = Memory.from_settings(_settings(tmp_path), embedder=None)
    memory.remember("u", _like("likes tea", "tea"))
    assert memory.client.execute_command("WAITAOF", 1, 0, 5000)[0] == 1  # fsynced locally
    server = EmbeddedRedis(tmp_path / "redis")
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: server._probe()[0] == "down", what="server down")
    result = memory.remember("u", _like("likes jazz", "jazz"))
    assert [p.content for p in result.created] == ["likes jazz"]
    assert {p.content for p in memory.preferences("u")} == {"likes tea", "likes jazz"}
    memory.close()


def test_too_long_home_is_a_clear_error(tmp_path: Path) -> None:
    from penchant.memory import StorageUnavailableError

    with pytest.raises(StorageUnavailableError, match="too long"):
        Memory.from_settings(_settings(tmp_path / ("x" * 120)), embedder=None)


def test_unwritable_home_is_a_clear_error(tmp_path: Path) -> None:
    from penchant.memory import StorageUnavailableError

    home = tmp_path / "file"
    home.write_text("not a directory")
    with pytest.raises(StorageUnavailableError, match="PENCHANT_HOME"):
        Memory.from_settings(_settings(home), embedder=None)
