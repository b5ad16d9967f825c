"""The local cluster launcher (``python -m penchant.memory.local_cluster``) on real
valkey-server processes: a start that fails leaves nothing running, and a stop is quick, stops
every node and promotes no replica on the way (issue 12)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from penchant.memory import StorageUnavailableError
from penchant.memory.local_cluster import Layout, LocalCluster

from conftest import free_cluster_base_port


def _nodes_running(cluster: LocalCluster) -> list[int]:
    """Pids of the valkey-servers of ``cluster``: working in its directory (a node chdirs to
    its folder), or titled with one of its ports (``valkey-server 127.0.0.1:<port>
    [cluster]``); zombies (exited, not yet reaped) are not counted."""
    wanted = {f"127.0.0.1:{port} ".encode() for port in cluster.layout.ports}
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue
        if b"-server" not in cmdline:
            continue
        if cwd.startswith(f"{cluster.directory}/") or any(w in cmdline for w in wanted):
            found.append(int(proc.name))
    return found


@pytest.fixture
def make_cluster(tmp_path: Path) -> Iterator[Any]:
    """Build local clusters under ``tmp_path``; every node of them is ended afterwards, the
    test failing or not (``stop``, then ``SIGKILL`` of whatever still listens)."""
    made: list[LocalCluster] = []

    def make(masters: int, replicas: int) -> LocalCluster:
        nodes = masters * (1 + replicas)
        cluster = LocalCluster(tmp_path / f"c{len(made)}",
                               Layout(port=free_cluster_base_port(nodes), masters=masters,
                                      replicas=replicas))  # fmt: skip
        made.append(cluster)
        return cluster

    yield make
    for cluster in made:
        with contextlib.suppress(Exception):
            cluster.stop()
        for pid in _nodes_running(cluster):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_start_that_fails_midway_stops_the_nodes_it_had_started(make_cluster: Any) -> None:
    cluster = make_cluster(masters=3, replicas=0)
    third = cluster.layout.port + 2
    cluster.directory.mkdir(parents=True)
    cluster.node_dir(third).write_text("a file where node 3's folder goes")  # its start fails
    with pytest.raises(StorageUnavailableError, match="stopped the 2 node"):
        cluster.start(timeout=30.0)
    assert _nodes_running(cluster) == []


def test_a_port_held_by_another_program_refuses_the_start_before_any_node_runs(
    make_cluster: Any,
) -> None:
    cluster = make_cluster(masters=3, replicas=0)
    held = cluster.layout.port + 2
    with socket.socket() as other:
        other.bind(("127.0.0.1", held))
        other.listen()
        result = subprocess.run(
            [sys.executable, "-m", "penchant.memory.local_cluster", "start",
             "--dir", str(cluster.directory), "--port", str(cluster.layout.port),
             "--masters", "3", "--replicas", "0"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert result.returncode == 1
    assert f"port {held}" in result.stderr and "in use" in result.stderr
    assert _nodes_running(cluster) == []


def _log_times(log: str, message: str) -> list[datetime]:
    """When each line of a valkey log that contains ``message`` was written (its
    ``<pid>:<role> 02 Dec 2026 00:24:38.123`` prefix; the signal handler's own lines carry
    whole seconds instead and are not for this)."""
    found = []
    for line in log.splitlines():
        if message in line:
            stamp = " ".join(line.split()[1:5])
            found.append(datetime.strptime(stamp, "%d %b %Y %H:%M:%S.%f"))
    return found


def test_stop_is_quick_leaves_no_node_and_promotes_no_replica(make_cluster: Any) -> None:
    """Quick by construction, not by a clock: every node gets ``SIGTERM`` (no one-by-one
    ``SHUTDOWN``, ~25 s), the replicas have exited before any primary is told to stop, so no
    primary waits for a replica to catch up (``shutdown-timeout``) and no replica is
    promoted; each node exits cleanly (no ``SIGKILL`` fallback)."""
    cluster = make_cluster(masters=3, replicas=1)
    cluster.start(timeout=60.0)
    assert len(_nodes_running(cluster)) == 6
    roles = cluster.roles()
    result = subprocess.run(
        [sys.executable, "-m", "penchant.memory.local_cluster", "stop",
         "--dir", str(cluster.directory)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert _nodes_running(cluster) == []
    logs = {p: (cluster.node_dir(p) / "valkey.log").read_text() for p in cluster.layout.ports}
    for port, log in logs.items():
        assert log.count("Received SIGTERM scheduling shutdown") == 1, port
        assert len(_log_times(log, "User requested shutdown")) == 1, port  # what SIGTERM logs
        assert len(_log_times(log, "is now ready to exit, bye bye")) == 1, port  # clean exit
        assert "Waiting for replicas before shutting down" not in log, port
    replicas = [p for p, role in roles.items() if role != "master"]
    primaries = [p for p, role in roles.items() if role == "master"]
    assert len(replicas) == len(primaries) == 3
    last_replica_exit = max(_log_times(logs[p], "bye bye")[0] for p in replicas)
    first_primary_told = min(_log_times(logs[p], "User requested shutdown")[0]
                             for p in primaries)  # fmt: skip
    assert last_replica_exit <= first_primary_told
    everything = "".join(logs.values())
    assert "failover election" not in everything.lower()  # no replica tried to take over
    assert "Failover auth granted" not in everything
