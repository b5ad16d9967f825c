"""Regression tests for every kind of lost or misreported write that issue 10's hunt found.

Each kind is tested with the instance the hunt reported and with another instance of it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
import redis
from langchain_core.messages import AIMessage, HumanMessage

from penchant.agent.hooks import MemoryHooks
from penchant.memory import (
    Memory,
    PreferenceCandidate,
    Settings,
    StorageFullError,
)
from penchant.memory.core.observations import ObservationCandidate
from penchant.memory.embeddings import HashEmbedder
from penchant.memory.model.records import utcnow
from penchant.memory.services.reembed import reembed
from penchant.memory.services.transfer import export_user, import_document, parse_document

from conftest import sync_client

USER = "u"


def like(content: str, *keywords: str, **extra: Any) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=list(keywords), **extra)


def dislike(content: str, *keywords: str, **extra: Any) -> PreferenceCandidate:
    return PreferenceCandidate(
        content=content, polarity="dislike", keywords=list(keywords), **extra
    )


def contents(memory: Memory, user: str = USER) -> list[str]:
    return sorted(p.content for p in memory.preferences(user))


# -- an idempotency key guards the write, not the key ---------------------------------------------


def test_reused_tool_call_id_with_another_preference_stores_it(memory: Memory) -> None:
    memory.remember(USER, like("I like tea", "tea"), idempotency_key="call_1")
    result = memory.remember(USER, like("I like hiking", "hiking"), idempotency_key="call_1")
    assert [p.content for p in result.created] == ["I like hiking"]
    assert contents(memory) == ["I like hiking", "I like tea"]


def test_reused_key_with_the_opposite_polarity_supersedes(memory: Memory) -> None:
    memory.remember(USER, like("I like coffee", "coffee"), idempotency_key="k")
    result = memory.remember(USER, dislike("I dislike coffee", "coffee"), idempotency_key="k")
    assert result.superseded and [p.polarity for p in memory.preferences(USER)] == ["dislike"]


def test_keys_sharing_a_200_character_prefix_do_not_collide(memory: Memory) -> None:
    prefix = "turn-" + "x" * 250
    memory.remember(USER, like("I like tea", "tea"), idempotency_key=prefix + "a")
    memory.remember(USER, like("I like tea", "tea"), idempotency_key=prefix + "b")
    (pref,) = memory.preferences(USER)
    assert pref.mention_count == 2  # two turns, two mentions


def test_thread_ids_sharing_a_long_prefix_keep_separate_transcripts(memory: Memory) -> None:
    prefix = "thread-" + "y" * 250
    memory.append_transcript(USER, prefix + "1", "user", "first")
    memory.append_transcript(USER, prefix + "2", "user", "second")
    assert [e["text"] for e in memory.transcript(USER, prefix + "1")] == ["first"]
    assert [e["text"] for e in memory.transcript(USER, prefix + "2")] == ["second"]


def test_stored_idempotency_keys_are_whole_digests(
    memory: Memory, redis_client: redis.Redis
) -> None:
    memory.remember(USER, like("I like tea", "tea"), idempotency_key="z" * 500)
    (key,) = redis_client.scan_iter(match="penchant:{u}:idem:*")
    assert len(key.split(b":idem:")[1]) == 129  # sha256(key):sha256(payload), untruncated


# -- end-of-turn capture has a (thread, turn) key --------------------------------------------------


def _turn(text: str, message_id: str) -> dict[str, Any]:
    return {"messages": [HumanMessage(text, id=message_id), AIMessage("noted")]}


def _config(thread: str) -> Any:
    return {"configurable": {"user_id": USER, "thread_id": thread}}


def test_retried_end_of_turn_node_counts_a_mention_once(memory: Memory) -> None:
    hooks = MemoryHooks(memory)
    state = _turn("I love green tea", "m1")
    hooks.end_of_turn(state, _config("t"))
    hooks.end_of_turn(state, _config("t"))  # the node is retried
    (pref,) = memory.preferences(USER)
    assert pref.mention_count == 1


def test_the_same_words_in_a_new_turn_count_again(memory: Memory) -> None:
    hooks = MemoryHooks(memory)
    hooks.end_of_turn(_turn("I love green tea", "m1"), _config("t"))
    hooks.end_of_turn(_turn("I love green tea", "m2"), _config("t"))
    (pref,) = memory.preferences(USER)
    assert pref.mention_count == 2


# -- a newer statement wins (a spooled one too: tests/unit/test_inprocess_backend.py) ------------


def test_a_statement_with_an_older_time_still_wins_over_an_even_older_one(
    memory: Memory,
) -> None:
    memory.remember(USER, like("I like coffee", "coffee", at=utcnow() - timedelta(days=2)))
    memory.remember(USER, dislike("I dislike coffee", "coffee", at=utcnow() - timedelta(days=1)))
    assert [p.polarity for p in memory.preferences(USER)] == ["dislike"]


# -- import is idempotent by content; export/import round-trips counts and times ------------------


def _backup(memory: Memory, user: str = USER) -> str:
    return json.dumps(export_user(memory, user))


def test_reimport_after_forget_restores(memory: Memory) -> None:
    memory.remember(USER, like("I like tea", "tea"))
    backup = _backup(memory)
    memory.forget(USER, "tea")
    result = import_document(memory, parse_document(backup))
    assert [p.content for p in result.created] == ["I like tea"]
    assert contents(memory) == ["I like tea"]


def test_reimport_after_forgetting_one_of_two_restores_only_that_one(memory: Memory) -> None:
    memory.remember(USER, [like("I like tea", "tea"), like("I like rum", "rum")])
    backup = _backup(memory)
    memory.forget(USER, "rum")
    result = import_document(memory, parse_document(backup))
    assert [p.content for p in result.created] == ["I like rum"] and result.merged == []


def test_reimport_of_an_unchanged_backup_changes_nothing(memory: Memory) -> None:
    memory.remember(USER, like("I like tea", "tea"))
    backup = _backup(memory)
    before = memory.preferences(USER)
    result = import_document(memory, parse_document(backup))
    assert result.unchanged and result.created == []
    assert memory.preferences(USER) == before


def test_export_import_round_trips_counts_and_times(memory: Memory) -> None:
    for _ in range(3):
        memory.remember(USER, like("I like tea", "tea"))
    (original,) = memory.preferences(USER)
    import_document(memory, parse_document(_backup(memory), user_override="copy"))
    (copy,) = memory.preferences("copy")
    fields = ("mention_count", "created_at", "updated_at", "last_seen_at", "confidence")
    assert [getattr(copy, f) for f in fields] == [getattr(original, f) for f in fields]
    assert copy.mention_count == 3


def test_export_import_round_trips_a_chinese_preference(memory: Memory) -> None:
    memory.remember(USER, dislike("我讨厌塑料", "塑料"))
    memory.remember(USER, dislike("我真的讨厌塑料", "塑料"))
    (original,) = memory.preferences(USER)
    import_document(memory, parse_document(_backup(memory), user_override="copy"))
    (copy,) = memory.preferences("copy")
    assert (copy.mention_count, copy.created_at) == (2, original.created_at)


# -- a forgotten source never survives in a derived observation -----------------------------------


def _observe(memory: Memory, text: str, *candidates: PreferenceCandidate) -> None:
    ids = [p.id for p in memory.remember(USER, list(candidates)).created]
    memory.write_observations(USER, [ObservationCandidate(content=text, confidence=0.6,
                                                          sources=ids)])


def test_forgetting_a_named_source_retires_the_observation(memory: Memory) -> None:
    _observe(memory, "dislikes several materials: plastic, polyester",
             dislike("I hate plastic", "plastic"), dislike("no polyester", "polyester"))
    memory.forget(USER, "plastic")
    assert memory.observations(USER) == []
    context = MemoryHooks(memory).memory_context(USER, "what materials should I avoid?")
    assert "plastic" not in context


def test_forgetting_a_named_chinese_source_retires_the_observation(memory: Memory) -> None:
    _observe(memory, "不喜欢塑料和尼龙", dislike("我讨厌塑料", "塑料"), dislike("不要尼龙", "尼龙"))
    memory.forget(USER, "塑料")
    assert all("塑料" not in o.content for o in memory.observations(USER))
    assert memory.observations(USER) == []


# -- writes that used to bypass the gate ----------------------------------------------------------


def test_reembed_logs_a_change_event_per_vector(
    redis_client: redis.Redis, settings: Settings
) -> None:
    old = Memory(redis_client, settings=settings, embedder=HashEmbedder(64))
    old.remember(USER, [like("I like tea", "tea"), like("I like rum", "rum")])
    new = Memory(redis_client, settings=settings, embedder=HashEmbedder(32))
    assert reembed(new, [USER])["reembedded"] == 2
    assert [e.op for e in new.changes(USER, 2)] == ["reembedded", "reembedded"]


def test_transcripts_are_screened_of_control_characters(memory: Memory) -> None:
    memory.append_transcript(USER, "t", "user", "hello\x00\x07 world")
    (entry,) = memory.transcript(USER, "t")
    assert "\x00" not in entry["text"] and "\x07" not in entry["text"]


# -- contention: writers never give up ------------------------------------------------------------

_WRITER = """
import sys
from penchant.memory import Memory, PreferenceCandidate, Settings
memory = Memory.from_settings(Settings(redis_url=sys.argv[1]), embedder=None)
tag = sys.argv[2]
for i in range(int(sys.argv[3])):
    memory.remember("shared", PreferenceCandidate(
        content=f"likes item {tag} {i}", polarity="like", keywords=[f"item {tag} {i}"]))
    memory.remember("shared", PreferenceCandidate(
        content=f"likes common {i}", polarity="like", keywords=[f"common {i}"]))
memory.close()
"""


def test_eight_writer_processes_on_one_user_lose_nothing(
    memory: Memory, settings: Settings
) -> None:
    writers, each = 8, 15
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(settings.redis_url), str(w),
                          str(each)], stderr=subprocess.PIPE)
        for w in range(writers)
    ]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * writers, errors
    prefs = memory.preferences("shared")
    assert len(prefs) == writers * each + each
    assert all(p.mention_count == writers for p in prefs if p.content.startswith("likes common"))


def test_eight_writer_threads_on_one_user_lose_nothing(
    redis_url: str, settings: Settings, memory: Memory
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def write(w: int) -> None:
        own = Memory(sync_client(redis_url), settings=settings)
        for i in range(10):
            own.remember("shared", like(f"likes common {i}", f"common {i}"))

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(write, range(8)))
    prefs = memory.preferences("shared")
    assert len(prefs) == 10 and {p.mention_count for p in prefs} == {8}


# -- a full disk / no memory: a clear error, and the write is stored or reported not stored -------


@pytest.mark.standalone_only(reason="sets maxmemory on the one server (a cluster has several)")
def test_out_of_memory_is_a_clear_error_and_nothing_is_stored(
    memory: Memory, redis_client: redis.Redis
) -> None:
    old = redis_client.config_get("maxmemory")["maxmemory"]
    redis_client.config_set("maxmemory", 1)
    try:
        with pytest.raises(StorageFullError, match="maxmemory"):
            memory.remember(USER, like("I like tea", "tea"))
    finally:
        redis_client.config_set("maxmemory", old)
    assert memory.preferences(USER) == [] and memory.changes(USER) == []


def test_misconf_is_translated_with_the_data_directory_fix() -> None:
    from penchant.memory.backends.errors import translate

    error = translate(redis.ResponseError("MISCONF Errors writing to the AOF file: No space "
                                          "left on device"), "write memory")
    assert isinstance(error, StorageFullError)
    assert "Nothing was stored" in str(error) and "PENCHANT_HOME" in str(error)
