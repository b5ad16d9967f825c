"""Writes made while Redis is unreachable are spooled locally and replayed, never lost."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import redis

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.backends.connect import client_retry
from penchant.memory.client.spool import WriteSpool
from penchant.memory.model import UserKeys, utcnow


def _dead_client(tmp_path: Path) -> redis.Redis:
    # retried as Penchant's own connections are; redis-py's default spends ~3.5 s a command
    return redis.Redis(unix_socket_path=str(tmp_path / "nothing.sock"), socket_timeout=0.5,
                       retry=client_retry())


def _like(content: str, keyword: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=[keyword])


def test_a_spooled_write_never_comes_back_after_delete_user(
    tmp_path: Path, redis_client: redis.Redis, settings: Settings
) -> None:
    """Issue 19: a write spooled while Redis was down was replayed after ``delete-user`` by
    the next write of any user in that process; the deleted preference came back."""
    spool = WriteSpool(settings.home / "spool" / "writes.jsonl")
    down = Memory(_dead_client(tmp_path), settings=settings, spool=spool)
    assert down.remember("rosa", _like("I like quince paste", "quince paste")).deferred
    cli = Memory(redis_client, settings=settings)  # the CLI: no spool of its own, same home
    deleted = cli.delete_user("rosa")
    assert deleted.spooled_writes_dropped == 1 and spool.pending() == 0
    agent = Memory(redis_client, settings=settings, spool=spool)
    agent.remember("someone-else", _like("I like chess", "chess"))
    assert agent.preferences("rosa") == []
    assert redis_client.keys(f"{UserKeys.for_user('rosa').tag}*") == []


def test_a_forget_made_while_redis_is_down_is_spooled_in_order(
    tmp_path: Path, redis_client: redis.Redis, settings: Settings
) -> None:
    """Issue 19: a forget made while Redis was down was not spooled, so the like spooled
    before it was stored on reconnect."""
    spool = WriteSpool(tmp_path / "spool.jsonl")
    down = Memory(_dead_client(tmp_path), settings=settings, spool=spool)
    down.remember("ines", _like("I like licorice tea", "licorice tea"))
    forgot = down.forget("ines", "licorice")
    assert forgot.deferred and forgot.removed == [] and spool.pending() == 2
    down.remember("ines", _like("I like mint tea", "mint tea"))  # after the forget: kept
    up = Memory(redis_client, settings=settings, spool=spool)
    result = up.remember("ines", _like("I like oat biscuits", "oat biscuit"))
    assert [p.content for p in up.preferences("ines")] == [
        "I like mint tea", "I like oat biscuits"]
    replayed = [(r.op, r.gate or r.forgot) for r in result.replayed]
    assert [op for op, _ in replayed] == ["remember", "forget", "remember"]
    assert [p.content for p in replayed[1][1].removed] == ["I like licorice tea"]
    assert not any("licorice" in str(e.model_dump()) for e in up.changes("ines", 100))


def test_a_write_refused_at_replay_is_reported_to_the_next_call(
    tmp_path: Path, redis_client: redis.Redis, settings: Settings
) -> None:
    """Issue 19: a spooled write refused at replay was reported only in the change log; the
    caller had been told "deferred" and heard nothing more."""
    spool = WriteSpool(tmp_path / "spool.jsonl")
    Memory(redis_client, settings=settings).remember("tomas", PreferenceCandidate(
        content="I dislike anchovies", polarity="dislike", keywords=["anchovy"]))
    said_earlier = PreferenceCandidate(content="I like anchovies", polarity="like",
                                       keywords=["anchovy"], at=utcnow() - timedelta(hours=1))
    spool.append("remember", "tomas", {"candidates": [said_earlier.model_dump(mode="json")]})
    up = Memory(redis_client, settings=settings, spool=spool)
    later = up.remember("tomas", _like("I like capers", "caper"))
    (replayed,) = later.replayed
    assert replayed.gate is not None and replayed.gate.created == []
    assert [r.content for r in replayed.gate.rejected] == ["I like anchovies"]
    assert "replayed" in later.describe() and "I like anchovies" in later.describe()
    assert later.public_dict()["replayed"][0]["result"]["rejected"]
    assert [p.content for p in up.preferences("tomas")] == [
        "I dislike anchovies", "I like capers"]
    assert up.remember("tomas", _like("I like olives", "olive")).replayed == []  # told once


def test_a_torn_spool_line_keeps_no_plaintext_or_goes_with_its_user(
    tmp_path: Path, redis_client: redis.Redis, settings: Settings
) -> None:
    """Issue 19: a torn spool line moved to ``writes.unreadable`` was never erased."""
    spool = WriteSpool(tmp_path / "spool.jsonl")
    with open(spool.path, "a") as handle:
        handle.write('{"op": "remember", "user_id": "noor", "key": "k1", "payload": '
                     '{"candidates": [{"content": "I like pomelo sorbet\n')
        handle.write('{"op": "remember", "us\n')  # torn before the user: keeps no text
        handle.write('"content": "I like yuzu curd"}\n')
    up = Memory(redis_client, settings=settings, spool=spool)
    up.replay_spool()
    aside = spool.path.with_suffix(".unreadable").read_text()
    assert "yuzu" not in aside and "pomelo sorbet" in aside
    up.forget("noor", "pomelo")
    assert "pomelo" not in spool.path.with_suffix(".unreadable").read_text()
