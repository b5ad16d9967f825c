"""Writes made while Redis is unreachable are spooled locally and replayed, never lost."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from penchant.memory import Memory, PreferenceCandidate, Settings, StorageUnavailableError
from penchant.memory.client.spool import WriteSpool


def _dead_client(tmp_path: Path) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(tmp_path / "nothing.sock"), socket_timeout=0.5)


def _like(content: str, keyword: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=[keyword])


def test_write_while_redis_is_down_is_deferred_not_reported_stored(
    tmp_path: Path, settings: Settings
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    down = Memory(_dead_client(tmp_path), settings=settings, spool=spool)
    result = down.remember("u", _like("likes tea", "tea"))
    assert result.created == [] and result.deferred == ["likes tea"]
    assert "NOT stored yet" in result.describe()
    assert spool.pending() == 1


def test_spooled_writes_replay_in_order_through_the_gate(
    tmp_path: Path, settings: Settings, redis_client: redis.Redis
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    down = Memory(_dead_client(tmp_path), settings=settings, spool=spool)
    down.remember("u", _like("likes plastic", "plastic"))
    down.remember("u", PreferenceCandidate(content="no plastic", polarity="dislike",
                                           keywords=["plastic"]))
    down.capture("u", "I love green tea.")
    up = Memory(redis_client, settings=settings, spool=spool)
    assert up.replay_spool() == 3
    prefs = up.preferences("u")
    assert [p.content for p in prefs if p.polarity == "dislike"] == ["no plastic"]
    assert [p.keywords for p in prefs if p.polarity == "like"] == [["green tea"]]
    assert spool.pending() == 0 and up.replay_spool() == 0


def test_replay_is_idempotent_if_interrupted(
    tmp_path: Path, settings: Settings, redis_client: redis.Redis
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    Memory(_dead_client(tmp_path), settings=settings, spool=spool).remember(
        "u", _like("likes jazz", "jazz"))
    saved = spool.path.read_text()
    up = Memory(redis_client, settings=settings, spool=spool)
    up.replay_spool()
    spool.path.write_text(saved)  # as if the process died before the spool was rewritten
    up.replay_spool()
    (pref,) = up.preferences("u")
    assert pref.mention_count == 1


def test_without_a_spool_the_error_is_raised(tmp_path: Path, settings: Settings) -> None:
    down = Memory(_dead_client(tmp_path), settings=settings)
    with pytest.raises(StorageUnavailableError):
        down.remember("u", _like("likes tea", "tea"))


def test_unreadable_spool_line_is_set_aside(
    tmp_path: Path, settings: Settings, redis_client: redis.Redis
) -> None:
    spool = WriteSpool(tmp_path / "spool.jsonl")
    Memory(_dead_client(tmp_path), settings=settings, spool=spool).remember(
        "u", _like("likes jazz", "jazz"))
    with open(spool.path, "a") as handle:
        handle.write('{"op": "remember", "user_id": "u", trunc\n')
    assert Memory(redis_client, settings=settings, spool=spool).replay_spool() == 2
    assert spool.path.with_suffix(".unreadable").exists()
