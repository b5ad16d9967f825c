"""The embedded server's watchdog: ends a valkey-server whose socket (with its data
directory) was deleted, whatever its linger (issue 19: a crashed ``bench/run.py --quick`` left
a 691 MB server running on a deleted temporary directory).

:meth:`EmbeddedRedis._start <.server.EmbeddedRedis._start>` starts one watchdog per server it
starts, detached, as ``python -I -S <this file> --watch SOCKET --server-pid PID``. The reaper
(:mod:`.reaper`) only runs for a server that lingers, and a linger-0 server whose last user
dies without ``release`` (a crash, ``kill -9``, a test run stopped midway) had nothing
watching it: once its directory is gone nobody can reach it, so it would run for ever.

This file uses the standard library only and is run by path with ``-I -S``, so it starts in
about 20 ms instead of the ~1.8 s CPU an import of the package costs on the 2-core dev
machine (measured with ``/usr/bin/time``): every embedded server start pays for one.

It polls every :data:`POLL_SECONDS`: it exits as soon as the server it watches (by pid) is
gone, and when the server's socket no longer exists (deleted, most often with the whole
data directory) it sends ``SIGTERM`` (valkey's ``SHUTDOWN``; the append-only file is flushed
as it exits), then ``SIGKILL`` if the server is still there :data:`KILL_AFTER_SECONDS` later.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

POLL_SECONDS = 0.5
"""Pause between two looks (a ``stat`` and a ``/proc`` read: negligible CPU)."""
KILL_AFTER_SECONDS = 10.0
"""How long a server gets to exit after ``SIGTERM`` before it is sent ``SIGKILL``."""
WATCH_FLAG = "--watch"
"""The watchdog's flag (its command line names the data directory after it)."""


def is_server(pid: int) -> bool:
    """Whether ``pid`` is a running valkey/redis server (not a zombie, not a reused pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    program = cmdline.split(b"\0", 1)[0].split(b" ", 1)[0]  # valkey retitles itself
    return program.endswith(b"-server") and state != "Z"


def end(pid: int) -> None:
    """``SIGTERM`` the server, then ``SIGKILL`` it if it is still up after
    :data:`KILL_AFTER_SECONDS`."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + KILL_AFTER_SECONDS
    while is_server(pid):
        if time.monotonic() > deadline:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            return
        time.sleep(0.05)


def watch(socket_path: Path, server_pid: int, poll_seconds: float = POLL_SECONDS) -> bool:
    """Watch the server ``server_pid`` listening on ``socket_path`` until it exits.

    Returns:
        True when this watchdog ended the server (its socket was gone), False when the
        server exited on its own.
    """
    while is_server(server_pid):
        if not os.path.exists(socket_path):
            print(f"watchdog: valkey-server {server_pid} ended: its socket {socket_path} "
                  "is gone (its data directory was deleted?)", file=sys.stderr, flush=True)
            end(server_pid)
            return True
        time.sleep(poll_seconds)
    return False


def start_watchdog(socket_path: Path, server_pid: int, log_path: Path) -> int:
    """Start the detached watchdog of the server ``server_pid`` on ``socket_path``.

    Args:
        socket_path: The server's unix socket (under its data directory).
        server_pid: The server's process id.
        log_path: File its stderr is appended to (what it ended, and why).

    Returns:
        The watchdog's pid.

    Raises:
        OSError: The process could not be started or the log not opened.
    """
    import subprocess

    command = [sys.executable, "-I", "-S", os.path.abspath(__file__),
               WATCH_FLAG, str(socket_path), "--server-pid", str(server_pid)]
    with open(log_path, "ab") as log:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=log, start_new_session=True, close_fds=True)
    return child.pid


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -I -S watchdog.py --watch SOCKET --server-pid PID``."""
    parser = argparse.ArgumentParser(description="End an embedded valkey-server whose "
                                                 "socket (data directory) was deleted.")
    parser.add_argument(WATCH_FLAG, type=Path, required=True, dest="socket",
                        help="the server's unix socket, under its data directory")
    parser.add_argument("--server-pid", type=int, required=True, help="the server's pid")
    args = parser.parse_args(argv)
    watch(args.socket, args.server_pid)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
