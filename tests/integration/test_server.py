"""The embedded server: persistence across restarts and kill -9, sharing between processes,
lingering after its last user and append-only persistence."""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.backends.server import EmbeddedRedis

from conftest import wait_until

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("PENCHANT_TEST_REDIS_URL")), reason="embedded-server tests"
)


def _processes_on(folder: Path) -> list[int]:
    """Pids of the processes whose command line names ``folder``: the servers, reapers and
    child processes a test started there."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            try:
                cmdline = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if os.fsencode(folder) in cmdline:
                found.append(int(proc.name))
    return found


@pytest.fixture(autouse=True)
def _stop_what_the_test_started(tmp_path: Path) -> Iterator[None]:
    """Whatever a test ends with (a failure too), no server, reaper or child it started on
    its temporary directory outlives it: SIGTERM, then SIGKILL after 5 s."""
    yield
    pids = _processes_on(tmp_path)
    for pid in pids:
        for sig in (signal.SIGCONT, signal.SIGTERM):  # SIGCONT: a test may have paused it
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
    deadline = time.monotonic() + 5.0
    while (left := _processes_on(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _delete_tree(path: Path) -> None:
    """Delete ``path`` as pytest's cleanup does, until it is gone: a server being ended
    (its watchdog acts within 0.5 s) may write its log again while the tree is deleted."""
    def gone() -> bool:
        shutil.rmtree(path, ignore_errors=True)
        return not path.exists()

    wait_until(gone, timeout=30.0, what=f"{path} deleted")


def _settings(home: Path, linger: float = 0.0) -> Settings:
    return Settings(home=home, redis_url=None, embeddings="hash", embedded_linger_seconds=linger)


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
linger = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
settings = Settings(home=Path(sys.argv[1]), redis_url=None, embedded_linger_seconds=linger)
memory = Memory.from_settings(settings, embedder=None)
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
            program = cmdline.split(b"\0", 1)[0]  # not a reaper's "--server-pid"
            is_server = program.endswith(b"-server") or b"-server " in program
            if is_server and str(data_dir).encode() in cmdline:
                count += 1
    return count


def test_a_paused_server_is_never_duplicated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from penchant.memory import StorageUnavailableError
    from penchant.memory.backends import server as server_module

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
    server = EmbeddedRedis(tmp_path / "redis")
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: server._probe()[0] == "down", what="server down")
    result = memory.remember("u", _like("likes jazz", "jazz"))
    assert [p.content for p in result.created] == ["likes jazz"]
    assert {p.content for p in memory.preferences("u")} == {"likes tea", "likes jazz"}
    memory.close()


_PTRACE_SEIZE, _PTRACE_INTERRUPT, _PTRACE_DETACH = 0x4206, 0x4207, 17
_WALL = 0x40000000  # waitpid's __WALL: a traced thread is not a child process


@contextlib.contextmanager
def _fsync_thread_held(server_pid: int) -> Iterator[None]:
    """Hold the server's ``bio_aof`` thread, which runs its background AOF fsyncs, as a busy
    disk does: stopped with ``ptrace`` (that thread only; the server keeps answering). A
    server killed meanwhile is reaped here; one still running gets its thread back."""
    threads = {(task / "comm").read_text().strip(): int(task.name)
               for task in Path(f"/proc/{server_pid}/task").iterdir()}  # fmt: skip
    assert "bio_aof" in threads, f"no bio_aof thread in valkey-server: {sorted(threads)}"
    tid = threads["bio_aof"]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    if libc.ptrace(_PTRACE_SEIZE, tid, None, None) != 0:
        pytest.skip(f"ptrace is not allowed here: {os.strerror(ctypes.get_errno())}")
    try:
        assert libc.ptrace(_PTRACE_INTERRUPT, tid, None, None) == 0
        os.waitpid(tid, _WALL)  # stopped
        yield
    finally:
        if libc.ptrace(_PTRACE_DETACH, tid, None, None) != 0:  # killed: reap its thread
            with contextlib.suppress(ChildProcessError):
                os.waitpid(tid, _WALL)


def test_an_acknowledged_write_survives_kill_9_while_the_disk_stalls_fsyncs(
    tmp_path: Path,
) -> None:
    """A CI flake of ``test_every_command_revives_a_killed_server`` made deterministic: with
    ``appendfsync everysec`` valkey does not write its AOF buffer while a background fsync
    is still running (for up to 2 s), yet answers the writes it holds, so a ``kill -9`` in
    that window lost a remember that had been acknowledged. A busy disk opened the window;
    here the fsync thread is held, which opens it every time."""
    memory = Memory.from_settings(_settings(tmp_path), embedder=None)
    try:
        memory.remember("kai", _like("I like plum wine", "plum wine"))
        server = EmbeddedRedis(tmp_path / "redis")
        pid = server.pid()
        assert pid is not None
        with _fsync_thread_held(pid):
            time.sleep(1.2)  # past valkey's one-second fsync period: the next fsync is due
            memory.remember("kai", _like("I like sake", "sake"))  # may start that fsync
            memory.remember("kai", _like("I like yuzu", "yuzu"))  # written while it runs
            memory.append_transcript("kai", "t1", "user", "yuzu sake tonight?")
            os.kill(pid, signal.SIGKILL)
        wait_until(lambda: server._probe()[0] == "down", timeout=10.0, what="killed")
        memory._snapshots.clear()
        assert {p.content for p in memory.preferences("kai")} == {
            "I like plum wine", "I like sake", "I like yuzu"}
        assert [m["text"] for m in memory.transcript("kai", "t1")] == ["yuzu sake tonight?"]
    finally:
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


# -- lingering after the last user (issue 12) ---------------------------------------------------


def _reaper_alive(server: EmbeddedRedis) -> bool:
    return server._reaper_pid() is not None


def test_last_user_leaving_keeps_the_server_up_for_the_linger_then_it_stops(
    tmp_path: Path,
) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    with Memory.from_settings(_settings(tmp_path, linger=2.0), embedder=None) as memory:
        memory.remember("u", _like("likes tea", "tea"))
    left = time.monotonic()
    assert server._probe()[0] == "up"
    assert _reaper_alive(server)
    wait_until(lambda: server._probe()[0] == "down", timeout=10.0, what="server stopped")
    assert time.monotonic() - left >= 2.0  # not before the linger ran out
    wait_until(lambda: not _reaper_alive(server), what="reaper gone")


def test_a_user_within_the_linger_reuses_the_running_server_without_reloading(
    tmp_path: Path,
) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    try:
        with Memory.from_settings(_settings(tmp_path, linger=60.0), embedder=None) as memory:
            memory.remember("u", _like("likes tea", "tea"))
            started = memory.client.info("server")["run_id"]
        pid = server.pid()
        with Memory.from_settings(_settings(tmp_path, linger=60.0), embedder=None) as memory:
            assert memory.client.info("server")["run_id"] == started  # same server, no load
            assert server.pid() == pid
            assert [p.content for p in memory.preferences("u")] == ["likes tea"]
    finally:
        assert server.stop()
    wait_until(lambda: not _reaper_alive(server), what="reaper gone after the stop")


def test_server_never_stops_while_another_process_uses_it(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path), "0.4"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "stored"
        Memory.from_settings(_settings(tmp_path, linger=0.4), embedder=None).close()
        time.sleep(1.5)  # well past the linger: the child still holds its connection
        assert server._probe()[0] == "up"
        assert not server.stop()  # an explicit stop refuses too
    finally:
        child.kill()
        child.wait()
    wait_until(lambda: server._probe()[0] == "down", timeout=10.0, what="stopped after kill")


def test_server_whose_last_user_was_killed_stops_after_the_linger(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path), "0.5"], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "stored"
    child.kill()  # it never releases the server
    child.wait()
    server = EmbeddedRedis(tmp_path / "redis")
    wait_until(lambda: server._probe()[0] == "down", timeout=10.0, what="reaped server")
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        assert [p.content for p in memory.preferences("u")] == ["likes tea"]


def test_a_stop_saves_no_rdb_and_the_aof_keeps_the_data(tmp_path: Path) -> None:
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        memory.remember("u", _like("likes tea", "tea"))
        assert memory.client.config_get("save")["save"] == ""  # no RDB save points
    redis_dir = tmp_path / "redis"
    assert not (redis_dir / "dump.rdb").exists()
    assert "DB saved on disk" not in (redis_dir / "valkey.log").read_text()
    assert any((redis_dir / "appendonlydir").glob("*.incr.aof"))
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        assert [p.content for p in memory.preferences("u")] == ["likes tea"]


def test_negative_linger_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="linger_seconds must be >= 0"):
        EmbeddedRedis(tmp_path / "redis", linger_seconds=-1)


def test_a_lingering_server_whose_data_directory_was_deleted_is_ended(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    Memory.from_settings(_settings(tmp_path, linger=30.0), embedder=None).close()
    pid = server.pid()
    assert pid is not None and server._probe()[0] == "up"
    _delete_tree(tmp_path / "redis")  # what pytest does to old temporary directories
    wait_until(lambda: not server._is_our_server(pid), timeout=15.0,
               what="server ended long before its 30 s linger")  # fmt: skip


def _watchdogs_on(folder: Path) -> list[int]:
    return [p for p in _processes_on(folder)
            if b"--watch" in Path(f"/proc/{p}/cmdline").read_bytes()]  # fmt: skip


@pytest.mark.parametrize("how", ["crashed", "kill -9"])
def test_a_server_whose_user_died_is_ended_once_its_directory_is_deleted(
    tmp_path: Path, how: str
) -> None:
    """Issue 19: a linger-0 server whose last user never released it (a crash, ``kill -9``)
    had no reaper; once its temporary directory was deleted it ran on, unreachable, for
    ever (a crashed bench left a 691 MB one). Its watchdog ends it."""
    data_dir = tmp_path / "redis"
    if how == "crashed":  # the user raised before release: nothing stops the server
        server = EmbeddedRedis(data_dir)
        server.connect().close()
    else:  # a process that attached and was killed
        child = subprocess.Popen([sys.executable, "-c", (
            "import sys, time\n"
            "from penchant.memory.backends.server import EmbeddedRedis\n"
            f"EmbeddedRedis({str(data_dir)!r}).connect()\n"
            "print('up', flush=True)\n"
            "time.sleep(600)\n")], stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert child.stdout is not None and child.stdout.readline() == "up\n"
        child.kill()
        child.wait(30)
        server = EmbeddedRedis(data_dir)
    pid = server.pid()
    assert pid is not None and server._probe()[0] == "up"
    assert len(_watchdogs_on(data_dir)) == 1 and _reapers_on(data_dir) == []  # linger 0
    _delete_tree(data_dir)  # what pytest and TemporaryDirectory do
    wait_until(lambda: not server._is_our_server(pid), timeout=30.0,
               what="the server of a deleted directory ended")  # fmt: skip
    wait_until(lambda: not _watchdogs_on(data_dir), timeout=30.0, what="its watchdog exited")


def test_a_watchdog_exits_with_its_server_and_a_new_server_gets_its_own(tmp_path: Path) -> None:
    data_dir = tmp_path / "redis"
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        memory.remember("u", _like("likes tea", "tea"))
        (first,) = _watchdogs_on(data_dir)
        server = EmbeddedRedis(data_dir)
        old = server.pid()
        assert old is not None
        os.kill(old, signal.SIGKILL)  # valkey.pid is left behind, naming the dead server
        wait_until(lambda: not server._is_our_server(old), what="killed")
        memory._snapshots.clear()
        assert [p.content for p in memory.preferences("u")] == ["likes tea"]  # revived
        wait_until(lambda: first not in _watchdogs_on(data_dir), timeout=30.0,
                   what="the killed server's watchdog exited")  # fmt: skip
        (second,) = _watchdogs_on(data_dir)
        assert second != first
        new = server.pid()
        assert new is not None and new != old
        assert f"--server-pid\0{new}".encode() in Path(f"/proc/{second}/cmdline").read_bytes()
    assert server._probe()[0] == "down"  # linger 0: stopped with its last user
    wait_until(lambda: not _watchdogs_on(data_dir), timeout=30.0, what="its watchdog exited")


# -- issue 12, the tester's findings ---------------------------------------------------------


def _exited(pid: int) -> bool:
    """Whether ``pid`` has exited (gone, or a zombie: its descriptors are closed)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def test_a_probe_of_the_socket_a_killed_server_left_fails_fast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = Memory.from_settings(_settings(tmp_path), embedder=None)
    server = EmbeddedRedis(tmp_path / "redis")
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: _exited(pid), what="server process exited")
    memory.client.close()
    assert server.socket_path.exists()  # kill -9 leaves the socket file behind
    events: list[str] = []  # each connection attempt on a unix socket, and each server start
    connect = redis.connection.UnixDomainSocketConnection._connect
    start = EmbeddedRedis._start

    def counted_connect(self: redis.connection.UnixDomainSocketConnection) -> object:
        try:
            sock = connect(self)
        except OSError:
            events.append("refused")
            raise
        events.append("connected")
        return sock

    def counted_start(self: EmbeddedRedis) -> None:
        events.append("start")
        start(self)

    monkeypatch.setattr(redis.connection.UnixDomainSocketConnection, "_connect", counted_connect)
    monkeypatch.setattr(EmbeddedRedis, "_start", counted_start)
    assert server._probe()[0] == "down"
    # One try, no retries (redis-py's default retries took 2.5-8 s). The try is mostly refused;
    # on a loaded machine it was accepted in about half the runs, after the process had exited
    # (why is not known), and the probe still said "down" at once.
    assert events in (["refused"], ["connected"])
    events.clear()
    with Memory.from_settings(_settings(tmp_path), embedder=None) as again:
        assert again.preferences("u") == []
    # a fresh start after one try of the dead socket
    assert events[0] in ("refused", "connected") and events[1] == "start"
    assert events.count("start") == 1


def test_the_last_commands_linger_governs_not_the_first_starters(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    Memory.from_settings(_settings(tmp_path, linger=600.0), embedder=None).close()
    Memory.from_settings(_settings(tmp_path, linger=1.0), embedder=None).close()
    left = time.monotonic()
    assert server._probe()[0] == "up"
    wait_until(lambda: server._probe()[0] == "down", timeout=10.0,
               what="server stopped after the last command's 1 s linger, not 600 s")  # fmt: skip
    assert time.monotonic() - left >= 1.0
    wait_until(lambda: not _reaper_alive(server), what="reaper gone")


def test_a_new_server_gets_its_own_reaper_and_the_old_one_exits(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    Memory.from_settings(_settings(tmp_path, linger=30.0), embedder=None).close()
    first = server._reaper()
    assert first is not None and first[1] == server.pid()
    Memory.from_settings(_settings(tmp_path), embedder=None).close()  # linger 0: stops it now
    assert server._probe()[0] == "down"
    Memory.from_settings(_settings(tmp_path, linger=1.0), embedder=None).close()
    second = server._reaper()
    assert second is not None and second[0] != first[0] and second[1] == server.pid()
    wait_until(lambda: not Path(f"/proc/{first[0]}").exists()
               or b"--reap" not in Path(f"/proc/{first[0]}/cmdline").read_bytes(),
               timeout=10.0, what="the first server's reaper exited")  # fmt: skip
    wait_until(lambda: server._probe()[0] == "down", timeout=10.0,
               what="the new server stopped after its own 1 s linger, not 30 s")  # fmt: skip
    assert _servers_on(tmp_path / "redis") == 0


def test_one_reaper_per_server_however_many_commands_linger(tmp_path: Path) -> None:
    for _ in range(3):
        Memory.from_settings(_settings(tmp_path, linger=30.0), embedder=None).close()
    reapers = [p for p in _processes_on(tmp_path / "redis")
               if b"--reap" in Path(f"/proc/{p}/cmdline").read_bytes()]  # fmt: skip
    assert len(reapers) == 1
    assert EmbeddedRedis(tmp_path / "redis").stop()


@pytest.mark.parametrize("linger", [float("inf"), 1e9, float("nan")])
def test_a_linger_beyond_a_day_is_refused(tmp_path: Path, linger: float) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValueError, match="linger_seconds must be >= 0 and <= 86400"):
        EmbeddedRedis(tmp_path / "redis", linger_seconds=linger)
    if linger == linger:  # NaN: pydantic's own message differs
        with pytest.raises(ValidationError, match="less than or equal to 86400"):
            _settings(tmp_path, linger=linger)


@pytest.mark.parametrize("command", ["forget", "delete_user", "recall", "context", "history",
                                     "changes", "transcript", "users", "preferences"])
def test_every_command_revives_a_killed_server(tmp_path: Path, command: str) -> None:
    """Issue 19: only remember and capture restarted a killed embedded server; forget,
    delete-user, recall, context, history and transcripts failed and left it down."""
    memory = Memory.from_settings(_settings(tmp_path), embedder=None)
    try:
        memory.remember("kai", _like("I like plum wine", "plum wine"))
        memory.append_transcript("kai", "t1", "user", "plum wine tonight?")
        server = EmbeddedRedis(tmp_path / "redis")
        pid = server.pid()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: server._probe()[0] == "down", timeout=10.0, what="killed")
        memory._snapshots.clear()  # each command must reach the server
        calls = {
            "forget": lambda: [p.content for p in memory.forget("kai", "plum wine").removed],
            "delete_user": lambda: memory.delete_user("kai").preferences_removed,
            "recall": lambda: [i.preference.content for i in memory.recall("kai", "wine").items],
            "context": lambda: [p.content for p in memory.context("kai", "wine").preferences],
            "history": lambda: memory.history("kai"),
            "changes": lambda: len(memory.changes("kai")) > 0,
            "transcript": lambda: [m["text"] for m in memory.transcript("kai", "t1")],
            "users": lambda: memory.users(),
            "preferences": lambda: [p.content for p in memory.preferences("kai")],
        }
        expected = {"forget": ["I like plum wine"], "delete_user": 1,
                    "recall": ["I like plum wine"], "context": ["I like plum wine"],
                    "history": [], "changes": True, "transcript": ["plum wine tonight?"],
                    "users": ["kai"], "preferences": ["I like plum wine"]}  # fmt: skip
        assert calls[command]() == expected[command]
        assert server._probe()[0] == "up" and server.pid() != pid
    finally:
        memory.close()


def _reapers_on(folder: Path) -> list[int]:
    return [p for p in _processes_on(folder)
            if b"--reap" in Path(f"/proc/{p}/cmdline").read_bytes()]  # fmt: skip


def test_a_reaper_started_before_the_pid_file_exists_is_still_the_only_one(
    tmp_path: Path,
) -> None:
    """Issue 19 (a flake of the one-reaper test made deterministic): a daemonized valkey
    answers on its socket before it writes ``valkey.pid``; a command attaching in that window
    started a reaper that watched "pid 0", and the next command started a second one."""
    server = EmbeddedRedis(tmp_path / "redis", linger_seconds=30.0)
    server.release(server.connect())
    for reaper in _reapers_on(tmp_path / "redis"):  # back to a server with no reaper
        os.kill(reaper, signal.SIGKILL)
    wait_until(lambda: not _reapers_on(tmp_path / "redis"), timeout=10.0, what="no reaper")
    pid_file = tmp_path / "redis" / "valkey.pid"
    written = pid_file.read_text()
    pid_file.unlink()  # the window: the server answers, its pid file is not there yet
    server.release(server.connect())
    pid_file.write_text(written)
    for _ in range(2):
        server.release(server.connect())
    assert len(_reapers_on(tmp_path / "redis")) == 1
    assert server.stop()


def test_a_command_waits_while_the_server_loads_a_large_data_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: at 10k users × 20 the embedded server took 11 s or more to load its AOF; a
    cold command waited 10 s, then failed with "Valkey is loading the dataset in memory".
    Here loading is slowed (valkey's ``key-load-delay``) to last past that 10 s."""
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        memory.remember("lena", _like("I like sour cherries", "sour cherry"))
        raw = memory.client
        with raw.pipeline(transaction=False) as pipe:
            for i in range(2_400):
                pipe.set(f"filler:{i}", "x")
            pipe.execute()
        raw.bgrewriteaof()  # the AOF's base becomes an RDB, loaded key by key
        wait_until(lambda: not int(raw.info("persistence")["aof_rewrite_in_progress"]),
                   timeout=30.0, what="AOF rewritten")  # fmt: skip
    real = EmbeddedRedis._write_config

    def slow_loading(self: EmbeddedRedis) -> Path:
        conf = real(self)
        conf.write_text(conf.read_text() + "key-load-delay 5000\n"  # µs per key: ~12 s
                        "loading-process-events-interval-bytes 1024\n")  # answers LOADING
        return conf

    monkeypatch.setattr(EmbeddedRedis, "_write_config", slow_loading)
    started = time.monotonic()
    with Memory.from_settings(_settings(tmp_path), embedder=None) as memory:
        assert [p.content for p in memory.preferences("lena")] == ["I like sour cherries"]
    assert time.monotonic() - started > 10.0  # it did wait past the old 10 s limit
