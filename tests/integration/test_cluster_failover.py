"""Failover of a real Redis Cluster under writers (issue 12).

The module starts its own 3-master, 3-replica valkey cluster on loopback with
:mod:`penchant.memory.local_cluster` (whatever ``PENCHANT_TEST_REDIS_URL`` says), writes
through :class:`Memory` from several threads while a primary is failed over — gracefully
(``CLUSTER FAILOVER`` on its replica: the writers get ``MOVED``) or by ``kill -9`` — and then
checks by content, in Redis, that every write reported committed is stored and no write
reported failed is.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot

from penchant.memory import Memory, PenchantError, PreferenceCandidate, Settings
from penchant.memory.client import coordination
from penchant.memory.local_cluster import Layout, LocalCluster
from penchant.memory.model.keys import UserKeys

from conftest import free_cluster_base_port

logger = logging.getLogger(__name__)

WRITERS_PER_SHARD = 2
"""Writer threads on the shard that fails over, and on another shard (each its own user)."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A fresh 3-master, 3-replica cluster for this module, stopped afterwards."""
    local = LocalCluster(tmp_path_factory.mktemp("cluster"), Layout(port=free_cluster_base_port(6)))
    try:
        local.start()
        yield local
    finally:
        local.stop()


def _settings(cluster: LocalCluster, home: Path) -> Settings:
    """Cluster-mode settings on a live node (after the kill test, the URL's may be dead)."""
    live = next(p for p in cluster.layout.ports if cluster.pid(p) is not None)
    return Settings(home=home, redis_url=f"redis://127.0.0.1:{live}", redis_cluster=True,
                    embeddings="hash")  # fmt: skip


def _users_on(cluster: LocalCluster, port: int, count: int, prefix: str) -> list[str]:
    """``count`` user ids whose slot the primary on ``port`` serves."""
    with redis.Redis(host="127.0.0.1", port=port) as node:
        ranges = [(a, b) for a, b, primary, *_ in node.execute_command("CLUSTER", "SLOTS")
                  if int(primary[1]) == port]  # fmt: skip
    found = []
    for i in range(10_000):
        user = f"{prefix}-{i}"
        slot = key_slot(UserKeys.for_user(user).rev.encode())
        if any(a <= slot <= b for a, b in ranges):
            found.append(user)
            if len(found) == count:
                return found
    raise AssertionError(f"no users found on the primary {port}")


@dataclass
class Tally:
    """What the writers were told."""

    committed: dict[str, list[str]] = field(default_factory=dict)
    failed: dict[str, list[str]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reads: int = 0
    read_errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _writer(settings: Settings, user: str, stop: threading.Event, tally: Tally) -> None:
    memory = Memory.from_settings(settings, embedder=None)
    try:
        i = 0
        while not stop.is_set():
            word = f"{user.replace('-', '')}x{i}"
            content = f"I like {word}"
            started = time.monotonic()
            try:
                result = memory.remember(user, PreferenceCandidate(
                    content=content, polarity="like", keywords=[word], category="other"))
                outcome = "committed" if result.created else "failed"
            except PenchantError as exc:
                outcome = "failed"
                with tally.lock:
                    tally.errors.append(f"{type(exc).__name__}: {exc}")
            with tally.lock:
                tally.latencies.append(time.monotonic() - started)
                getattr(tally, outcome).setdefault(user, []).append(content)
            i += 1
    finally:
        memory.close()


@dataclass
class Rides:
    """The back-off of the writers' and readers' requests that failed over
    (:func:`failover_delays`, whose body runs from a request's first retry on)."""

    delays: list[list[float]] = field(default_factory=list)
    """Per request that was retried, the back-off delays it slept, in seconds."""
    spent: list[float] = field(default_factory=list)
    """The budget of each request that ran out of back-off: it retried for its whole
    write budget and then failed."""


def _record_rides(monkeypatch: pytest.MonkeyPatch) -> Rides:
    """Record the back-off the sync client's request loop takes (``_ride``)."""
    rides, real = Rides(), coordination.failover_delays

    def recorded(budget_seconds: float) -> Iterator[float]:
        taken: list[float] = []
        rides.delays.append(taken)  # list.append is atomic: the threads share ``rides``
        for delay in real(budget_seconds):
            taken.append(delay)
            yield delay
        rides.spent.append(budget_seconds)

    monkeypatch.setattr(coordination, "failover_delays", recorded)
    return rides


def _reader(settings: Settings, user: str, stop: threading.Event, tally: Tally) -> None:
    """Recalls the user's preferences in a loop (reads ride out a failover too)."""
    memory = Memory.from_settings(settings, embedder=None)
    try:
        while not stop.is_set():
            try:
                memory.recall(user, "I like", k=3)
            except PenchantError as exc:
                with tally.lock:
                    tally.read_errors.append(f"{type(exc).__name__}: {exc}")
            with tally.lock:
                tally.reads += 1
            time.sleep(0.01)
    finally:
        memory.close()


def _stored(cluster: LocalCluster, users: list[str]) -> dict[str, set[str]]:
    import json

    live = next(p for p in cluster.layout.ports if cluster.pid(p) is not None)
    client = redis.RedisCluster(host="127.0.0.1", port=live)  # the URL's node may be dead
    try:
        out = {}
        for user in users:
            prefs = client.hgetall(UserKeys.for_user(user).prefs)
            out[user] = {json.loads(raw)["content"] for raw in prefs.values()}
        return out
    finally:
        client.close()


def _write_through(
    cluster: LocalCluster, home: Path, users: list[str], during: object
) -> tuple[Tally, dict[str, set[str]], float]:
    """Run one writer and one reader (recall) per user, call ``during()`` after 1 s, keep
    writing 2 s after it returns; returns the tally, what Redis holds, and the seconds
    ``during`` took."""
    settings = _settings(cluster, home)
    tally, stop = Tally(), threading.Event()
    threads = [threading.Thread(target=role, args=(settings, u, stop, tally), daemon=True)
               for u in users for role in (_writer, _reader)]  # fmt: skip
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    started = time.monotonic()
    during()  # type: ignore[operator]
    took = time.monotonic() - started
    time.sleep(2.0)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return tally, _stored(cluster, users), took


def _check(tally: Tally, stored: dict[str, set[str]], what: str) -> dict[str, float]:
    committed = sum(len(v) for v in tally.committed.values())
    failed = sum(len(v) for v in tally.failed.values())
    lost = [c for u, cs in tally.committed.items() for c in cs if c not in stored[u]]
    false_failures = [c for u, cs in tally.failed.items() for c in cs if c in stored[u]]
    figures = {
        "writes": committed + failed, "acknowledged": committed, "failed": failed,
        "lost": len(lost), "false_failures": len(false_failures),
        "stall_s": round(max(tally.latencies), 2), "reads": tally.reads,
        "failed_reads": len(tally.read_errors),
    }  # fmt: skip
    print(f"\n{what}: {figures}; errors: {tally.errors[:3]}")
    assert committed > 0, f"{what}: nothing was written"
    assert not lost, f"{what}: acknowledged writes lost: {lost[:5]}"
    assert not false_failures, f"{what}: writes reported failed but stored: {false_failures[:5]}"
    assert tally.reads > 0, f"{what}: nothing was read"
    assert not tally.read_errors, f"{what}: recalls failed: {tally.read_errors[:3]}"
    return figures


def test_graceful_failover_follows_moved_with_no_failed_write(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    victim = cluster.layout.primary_ports[1]
    (replica,) = cluster.replicas_of(victim)
    users = (_users_on(cluster, victim, WRITERS_PER_SHARD, "grace")
             + _users_on(cluster, cluster.layout.primary_ports[0], 1, "other"))  # fmt: skip

    def failover() -> None:
        with redis.Redis(host="127.0.0.1", port=replica) as node:
            node.execute_command("CLUSTER", "FAILOVER")
        cluster.wait_until(lambda: cluster.roles().get(replica) == "master", 15,
                           f"replica {replica} promoted")  # fmt: skip

    tally, stored, _took = _write_through(cluster, tmp_path, users, failover)
    figures = _check(tally, stored, "graceful failover")
    assert figures["failed"] == 0, tally.errors[:3]
    cluster.wait_ok(30)


def test_a_slot_migration_under_writers_follows_ask_and_moved_with_no_failed_write(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    masters = [p for p, role in sorted(cluster.roles().items()) if role == "master"]
    source, target = masters[0], masters[1]
    users = _users_on(cluster, source, 1, "moving")
    slot = key_slot(UserKeys.for_user(users[0]).rev.encode())

    def migrate() -> None:
        moved = cluster.migrate_slot(slot, target, pause_seconds=0.5)
        assert moved > 0

    tally, stored, _took = _write_through(cluster, tmp_path, users, migrate)
    figures = _check(tally, stored, f"migration of slot {slot} from {source} to {target}")
    assert figures["failed"] == 0, tally.errors[:3]
    assert cluster.primary_of_slot(slot) == target


def test_kill_of_a_primary_loses_no_acknowledged_write_and_fails_none_that_was_stored(
    cluster: LocalCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    victim = next(p for p in cluster.layout.ports
                  if cluster.roles().get(p) == "master" and cluster.replicas_of(p))
    users = (_users_on(cluster, victim, WRITERS_PER_SHARD, "kill")
             + _users_on(cluster, next(p for p in cluster.layout.ports if p != victim
                                       and cluster.roles().get(p) == "master"), 1, "other"))
    probe_key = UserKeys.for_user(users[0]).rev

    def kill() -> None:
        cluster.kill(victim)
        cluster.wait_until(lambda: cluster.primary_of(probe_key) != victim, 30,
                           "a replica took over the killed primary's slots")  # fmt: skip

    rides = _record_rides(monkeypatch)
    caplog.set_level(logging.INFO, logger=coordination.__name__)
    tally, stored, took = _write_through(cluster, tmp_path, users, kill)
    _check(tally, stored, f"kill -9 of primary {victim} (failover {took:.1f} s)")
    retried = [r.getMessage() for r in caplog.records if r.name == coordination.__name__]
    print(f"retried: {len(rides.delays)} requests, at most "
          f"{max(map(len, rides.delays), default=0)} times; {retried[:3]}")
    assert rides.delays, "no request rode out the failover: the kill was not exercised"
    assert not rides.spent, "a request retried for its whole write budget"
    waited = [m for m in retried if "timeout" in m.lower() or "timed out" in m]
    assert not waited, f"a try waited out a socket timeout on the dead node: {waited[:3]}"


def test_a_commit_whose_reply_was_lost_is_reported_committed_and_applied_once(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    memory = Memory.from_settings(_settings(cluster, tmp_path), embedder=None)
    memory.remember("lossy", PreferenceCandidate(content="I like tea", polarity="like",
                                                 keywords=["tea"]))  # fmt: skip
    real = memory.backend._send_commit
    replies: list[object] = []

    def reply_lost_once(*args: object) -> object:
        reply = real(*args)  # type: ignore[arg-type]
        replies.append(reply)
        if len(replies) == 1:
            raise redis.ConnectionError("connection closed by the server after the commit")
        return reply

    memory.backend._send_commit = reply_lost_once  # type: ignore[method-assign]
    try:
        result = memory.remember("lossy", PreferenceCandidate(
            content="I like tea", polarity="like", keywords=["tea"]))
    finally:
        memory.close()
    assert [r[0] for r in replies] == [b"committed", b"replayed"]  # type: ignore[index]
    assert [m.mention_count for m in result.merged] == [2]
    with Memory.from_settings(_settings(cluster, tmp_path), embedder=None) as fresh:
        (stored,) = fresh.preferences("lossy")
    assert stored.mention_count == 2  # applied once, not twice


def test_a_failed_registry_update_leaves_the_write_committed_and_logs_it(
    cluster: LocalCluster, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    live = next(p for p in cluster.layout.ports if cluster.roles().get(p) == "master")
    raw = redis.RedisCluster(host="127.0.0.1", port=live)
    raw.set("penchant:users", "not a set")  # SADD now fails with WRONGTYPE on its node
    try:
        with Memory.from_settings(_settings(cluster, tmp_path), embedder=None) as memory:
            result = memory.remember("unlisted", PreferenceCandidate(
                content="I like jazz", polarity="like", keywords=["jazz"]))
            assert [p.content for p in result.created] == ["I like jazz"]
            assert [p.content for p in memory.preferences("unlisted")] == ["I like jazz"]
        assert "write committed, but the user registry was not updated" in caplog.text
    finally:
        raw.delete("penchant:users")
        raw.close()


def test_doctor_reports_the_cluster_after_the_kill_and_counts_users_without_listing_them(
    cluster: LocalCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report after one node was killed: the kill test's primary (its replica took
    over) or, when this test runs without it (``-k``, another order), a replica killed here;
    either way 3 masters, 2 replicas and 1 failed node once every live node flags it."""
    from penchant.memory.services import doctor

    dead = [p for p in cluster.layout.ports if cluster.pid(p) is None]
    if not dead:  # not after the kill test: kill a replica (no failover, slots stay served)
        spared = cluster.replicas_of(cluster.layout.primary_ports[2])  # the NOSCRIPT test's
        victim = next(p for p, role in sorted(cluster.roles().items())
                      if role == "slave" and p not in spared)  # fmt: skip
        cluster.kill(victim)
        dead = [victim]
    live = [p for p in cluster.layout.ports if p not in dead]

    def flagged_everywhere() -> bool:
        for port in live:
            with redis.Redis(host="127.0.0.1", port=port) as node:
                text = node.execute_command("CLUSTER", "NODES")
                text = text.decode() if isinstance(text, bytes) else str(text)
            failed = {int(f[1].split("@")[0].rsplit(":", 1)[1])
                      for f in (line.split() for line in text.splitlines())
                      if len(f) > 2 and "fail" in f[2].split(",")}  # fmt: skip
            if failed != set(dead):
                return False
        return True

    cluster.wait_until(flagged_everywhere, 30, f"every live node flags {dead} as failed")
    cluster.wait_ok(30)
    monkeypatch.setattr(doctor, "VECTOR_SAMPLE_USERS", 2)
    with Memory.from_settings(_settings(cluster, tmp_path), embedder=None) as memory:
        for user in ("doc-a", "doc-b", "doc-c"):  # users in several slots
            memory.remember(user, PreferenceCandidate(content="I like tea", polarity="like",
                                                      keywords=["tea"]))  # fmt: skip
        listed = len(memory.users())
        report = doctor.diagnose(memory)
    assert report["redis"] == "ok" and report["users"] == listed > 2
    assert report["cluster"] == {"cluster_state": "ok", "masters": 3, "replicas": 2,
                                 "slots_covered": 16384, "failed_nodes": 1}  # fmt: skip
    assert report["vectors_sampled_users"] == 2



def _script_cached(port: int, text: str) -> bool:
    import hashlib

    sha = hashlib.sha1(text.encode()).hexdigest()
    with redis.Redis(host="127.0.0.1", port=port) as node:
        return bool(node.script_exists(sha)[0])


def _stale_view(client: object, user: str, old: int, new: int) -> None:
    """Put a cluster client in the state a failover race leaves it in: the user's slot is
    served by the promoted node, but the node types are those of a topology read from a node
    that had not learned the failover yet (the old primary still a primary, the promoted one
    a replica), so a ``SCRIPT LOAD`` sent to the primaries misses the node that answers.
    The promoted node's script cache is emptied (it is what a replica that never saw the
    scripts has)."""
    from redis.cluster import PRIMARY, REPLICA

    manager = client.nodes_manager  # type: ignore[attr-defined]
    by_port = {node.port: node for node in manager.nodes_cache.values()}
    promoted, demoted = by_port[new], by_port[old]
    manager.slots_cache[key_slot(UserKeys.for_user(user).rev.encode())] = [promoted, demoted]
    promoted.server_type, demoted.server_type = REPLICA, PRIMARY
    with redis.Redis(host="127.0.0.1", port=new) as node:
        node.script_flush()


async def test_a_promoted_replica_that_never_saw_the_scripts_serves_reads_and_writes(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    """Issue 19: after a graceful failover the new primary has an empty script cache, and a
    client whose node list is stale reloads the script on the wrong nodes. Every script call
    (the read and the commit, sync and async) answers NOSCRIPT by sending the script's text;
    nothing is reported failed, nothing lost."""
    from penchant.memory import AsyncMemory
    from penchant.memory.backends import wire

    victim = cluster.layout.primary_ports[2]
    (replica,) = cluster.replicas_of(victim)
    user, auser = _users_on(cluster, victim, 2, "noscript")
    settings = _settings(cluster, tmp_path)
    memory = Memory.from_settings(settings, embedder=None)
    opener = AsyncMemory.from_settings(settings, embedder=None)
    amemory = await opener.__aenter__()
    tea = PreferenceCandidate(content="I like oolong tea", polarity="like", keywords=["oolong"])
    jam = PreferenceCandidate(content="I like fig jam", polarity="like", keywords=["fig jam"])
    try:
        memory.remember(user, tea)
        await amemory.remember(auser, tea)
        assert _script_cached(victim, wire.COMMIT_SCRIPT)
        assert not _script_cached(replica, wire.COMMIT_SCRIPT)  # never saw the scripts
        assert not _script_cached(replica, wire.READ_SCRIPT)
        with redis.Redis(host="127.0.0.1", port=replica) as node:
            node.execute_command("CLUSTER", "FAILOVER")
        cluster.wait_until(lambda: cluster.roles().get(replica) == "master", 15,
                           f"replica {replica} promoted")  # fmt: skip
        memory.preferences(user)  # both clients learn of the promoted node (MOVED)
        await amemory.preferences(auser)
        for mem, who in ((memory, user), (amemory, auser)):
            mem._snapshots.clear()  # the read runs the read script on the new primary
            _stale_view(mem.backend.client, who, victim, replica)
        assert [i.preference.content for i in memory.recall(user, "tea").items] == [
            "I like oolong tea"]
        got = await amemory.recall(auser, "tea")
        assert [i.preference.content for i in got.items] == ["I like oolong tea"]
        for mem, who in ((memory, user), (amemory, auser)):
            _stale_view(mem.backend.client, who, victim, replica)
        assert memory.remember(user, jam).created
        assert (await amemory.remember(auser, jam)).created
    finally:
        memory.close()
        await opener.__aexit__(None, None, None)
    assert _script_cached(replica, wire.COMMIT_SCRIPT)
    stored = _stored(cluster, [user, auser])
    assert stored == {u: {"I like oolong tea", "I like fig jam"} for u in (user, auser)}
    cluster.wait_ok(30)
