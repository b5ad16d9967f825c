"""The pure parts of Redis Cluster support: shape, acknowledgement target, which errors a
failover causes, the failover backoff, and the launcher's layout checks."""

from __future__ import annotations

import itertools

import pytest
import redis

from penchant.memory.backends.cluster import ack_target, is_transient, shape
from penchant.memory.backends.errors import translate
from penchant.memory.client.retry import failover_delays, internal_idempotency_ttl
from penchant.memory.local_cluster import InvalidClusterLayout, Layout, LocalCluster

from conftest import FakeClock

NODES = """\
a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460
a2 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10921
a3 127.0.0.1:7002@17002 master,fail - 0 0 3 connected
a4 127.0.0.1:7003@17003 slave a1 0 0 1 connected
a5 127.0.0.1:7004@17004 master - 0 0 4 connected 10922-16383 [16000->-a2]
"""


def test_shape_counts_serving_masters_replicas_slots_and_failed_nodes() -> None:
    found = shape(NODES, "cluster_state:ok\r\ncluster_size:3\r\n")
    assert found == {"cluster_state": "ok", "masters": 3, "replicas": 1,
                     "slots_covered": 16384, "failed_nodes": 1}  # fmt: skip


def test_shape_reads_redis_py_parsed_replies_too() -> None:
    parsed = {
        "127.0.0.1:7000": {"flags": "myself,master", "slots": [["0", "16383"]]},
        "127.0.0.1:7001": {"flags": "slave", "slots": []},
    }
    found = shape(parsed, {"cluster_state": "fail"})
    assert (found["masters"], found["replicas"], found["slots_covered"]) == (1, 1, 16384)
    assert found["cluster_state"] == "fail"


def test_replica_acks_default_to_one_only_on_a_cluster_shard_with_a_replica() -> None:
    assert ack_target(None, cluster=True, replicas=1) == 1
    assert ack_target(None, cluster=True, replicas=0) == 0
    assert ack_target(None, cluster=False, replicas=None) == 0
    assert ack_target(2, cluster=True, replicas=1) == 1  # never wait for replicas not there
    assert ack_target(1, cluster=False, replicas=None) == 1  # a standalone primary, by choice


def test_redirections_and_dead_nodes_are_transient_but_a_full_server_is_not() -> None:
    moved = translate(redis.exceptions.MovedError("3999 127.0.0.1:7001"), "write memory")
    moved.__cause__ = redis.exceptions.MovedError("3999 127.0.0.1:7001")
    refused = translate(redis.ConnectionError("refused"), "write memory")
    refused.__cause__ = redis.ConnectionError("refused")
    oom = redis.exceptions.OutOfMemoryError("OOM command not allowed")
    full = translate(oom, "write memory")
    full.__cause__ = oom
    assert is_transient(moved) and is_transient(refused)
    assert not is_transient(full)
    assert not is_transient(redis.ResponseError("WRONGTYPE Operation against a key"))


def test_failover_backoff_grows_to_half_a_second_and_stops_at_the_budget(
    retry_clock: FakeClock,
) -> None:
    delays = []
    for delay in itertools.islice(failover_delays(1.6), 1000):
        delays.append(delay)
        retry_clock.sleep(delay)
    assert delays == [0.05, 0.1, 0.2, 0.4, 0.5]  # 1.25 s slept; a further 0.5 s would pass 1.6
    assert retry_clock.now <= 1.6


def test_failover_backoff_counts_the_failing_tries_against_the_budget(
    retry_clock: FakeClock,
) -> None:
    delays = []
    for delay in itertools.islice(failover_delays(1.6), 1000):
        delays.append(delay)
        retry_clock.sleep(0.3 + delay)  # each failing try takes 0.3 s
    assert delays == [0.05, 0.1, 0.2]  # at 1.25 s, a further 0.4 s would pass 1.6


def test_internal_idempotency_records_outlive_every_retry_of_their_write() -> None:
    assert internal_idempotency_ttl(10.0) == 60
    assert internal_idempotency_ttl(45.0) == 135


def test_a_cluster_without_masters_or_beyond_the_port_range_is_refused(tmp_path: object) -> None:
    with pytest.raises(InvalidClusterLayout, match="at least 1 master"):
        LocalCluster(str(tmp_path), Layout(masters=0))
    with pytest.raises(InvalidClusterLayout, match="lower --port"):
        LocalCluster(str(tmp_path), Layout(port=65530))
