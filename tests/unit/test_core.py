"""The pure core, without Redis: planning returns operations and results, and a snapshot
follows committed operations in place."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from penchant.memory import ConcurrencyError, PersistenceGate, PreferenceCandidate, Settings
from penchant.memory.backends import wire
from penchant.memory.client.retry import RetryPolicy
from penchant.memory.core.ops import (
    AppendEvent,
    AppendTranscript,
    DeletePreference,
    PutPreference,
    PutVector,
    idempotency_key,
    payload_digest,
    touches_snapshot,
)
from penchant.memory.core.snapshot import UserSnapshot, apply_ops
from penchant.memory.model.keys import UserKeys
from penchant.memory.model.records import utcnow

from conftest import FakeClock

GATE = PersistenceGate(Settings())


def plan(snapshot: UserSnapshot, *candidates: PreferenceCandidate, op: str = "created"):  # type: ignore[no-untyped-def]
    prepared, rejections = GATE.prepare(list(candidates))
    return GATE.plan_remember(snapshot, prepared, rejections, utcnow(), created_op=op)


def like(content: str, keyword: str, **extra: object) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=[keyword], **extra)  # type: ignore[arg-type]


def dislike(content: str, keyword: str, **extra: object) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="dislike", keywords=[keyword], **extra)  # type: ignore[arg-type]


def committed(snapshot: UserSnapshot, *candidates: PreferenceCandidate) -> UserSnapshot:
    return apply_ops(snapshot, plan(snapshot, *candidates).ops, "r")


def test_remember_plans_a_put_and_a_created_event() -> None:
    planned = plan(UserSnapshot("u"), like("I like tea", "tea"))
    kinds = [type(op) for op in planned.ops]
    assert kinds == [PutPreference, AppendEvent] and planned.result.created
    assert touches_snapshot(planned.ops)


def test_planning_leaves_the_snapshot_untouched() -> None:
    snapshot = UserSnapshot("u")
    plan(snapshot, like("I like tea", "tea"))
    assert snapshot.preferences() == []


def test_newer_dislike_plans_a_delete_of_the_like() -> None:
    snapshot = committed(UserSnapshot("u"), like("I like coffee", "coffee"))
    (old,) = snapshot.preferences()
    planned = plan(snapshot, dislike("I dislike coffee", "coffee"))
    assert DeletePreference(old.id) in planned.ops


def test_apply_ops_updates_the_snapshot_in_place_of_a_reload() -> None:
    snapshot = committed(UserSnapshot("u"), like("I like tea", "tea"))
    assert [p.content for p in snapshot.preferences()] == ["I like tea"]
    assert snapshot.revision == "r"


def test_an_older_statement_loses_to_a_newer_stored_one() -> None:
    snapshot = committed(UserSnapshot("u"), dislike("I dislike coffee", "coffee"))
    planned = plan(snapshot, like("I like coffee", "coffee", at=utcnow() - timedelta(hours=1)))
    assert not any(isinstance(op, (PutPreference, DeletePreference)) for op in planned.ops)
    assert "older than" in planned.result.rejected[0].reason


def test_import_of_an_active_record_plans_nothing() -> None:
    snapshot = committed(UserSnapshot("u"), like("I like tea", "tea"))
    (pref,) = snapshot.preferences()
    backup = like("I like tea", "tea", at=pref.updated_at, mention_count=1,
                  created_at=pref.created_at, last_seen_at=pref.last_seen_at, source="import")
    assert plan(snapshot, backup, op="imported").ops == []


def test_import_keeps_the_backups_count_and_times() -> None:
    at = utcnow() - timedelta(days=3)
    backup = like("I like tea", "tea", at=at, mention_count=4, created_at=at - timedelta(days=9),
                  last_seen_at=at, source="import")
    (pref,) = plan(UserSnapshot("u"), backup, op="imported").result.created
    assert (pref.mention_count, pref.created_at, pref.updated_at) == (4, at - timedelta(days=9), at)


def test_idempotency_key_is_bound_to_the_payload_and_never_truncated() -> None:
    long_key = "k" * 1000
    a = idempotency_key(long_key, payload_digest("tea"))
    b = idempotency_key(long_key, payload_digest("rum"))
    assert a != b and len(a) == 129
    assert idempotency_key(long_key + "x", payload_digest("tea")) != a


def test_transcript_plan_strips_injected_blocks_and_is_unguarded() -> None:
    planned = GATE.plan_transcript("t", "user", "hi <recalled_memories>x</recalled_memories>",
                                   utcnow())
    (op,) = planned.ops
    assert isinstance(op, AppendTranscript) and "x" not in op.entry["text"]
    assert not planned.guarded and not touches_snapshot(planned.ops)


def test_commit_touches_only_the_users_hash_tag() -> None:
    snapshot = UserSnapshot("alice")
    planned = plan(snapshot, like("I like tea", "tea"))
    keys, _args = wire.encode_commit(
        UserKeys.for_user("alice"), planned.ops, expected_revision="", new_revision="n",
        idempotency=None, settings=Settings(),
    )
    assert all(k.startswith("penchant:{alice}:") for k in keys)


def test_vectors_are_replaced_only_for_unchanged_content() -> None:
    snapshot = committed(UserSnapshot("u"), like("I like tea", "tea"))
    (pref,) = snapshot.preferences()
    same = pref.model_copy(update={"embedding_model": "m", "embedding_dim": 1})
    same.embedding = b"\x00" * 4
    changed = same.model_copy(update={"content": "I like rum"})
    changed.embedding = b"\x00" * 4
    assert GATE.plan_vectors(snapshot, {pref.id: same}, utcnow()).result == 1
    planned = GATE.plan_vectors(snapshot, {pref.id: changed}, utcnow())
    assert planned.result == 0 and not any(isinstance(op, PutVector) for op in planned.ops)


def test_retry_policy_backs_off_with_jitter_within_the_ceiling() -> None:
    delays = RetryPolicy(budget_seconds=5, base_seconds=0.01, cap_seconds=0.04).delays("w")
    taken = [next(delays) for _ in range(6)]
    ceilings = [0.01, 0.02, 0.04, 0.04, 0.04, 0.04]
    assert all(0 <= d <= c for d, c in zip(taken, ceilings, strict=True))


def test_retry_policy_gives_up_after_its_time_budget(retry_clock: FakeClock) -> None:
    delays = RetryPolicy(budget_seconds=0.05, base_seconds=0.05, cap_seconds=0.05).delays("w")
    with pytest.raises(ConcurrencyError, match="nothing was stored"):
        for delay in itertools.islice(delays, 1000):
            retry_clock.sleep(delay)
    assert retry_clock.now <= 0.05  # no back-off past the budget


def test_retry_policy_counts_the_time_of_the_tries_against_its_budget(
    retry_clock: FakeClock,
) -> None:
    delays = RetryPolicy(budget_seconds=1.0, base_seconds=0.002, cap_seconds=0.002).delays("w")
    taken = []
    with pytest.raises(ConcurrencyError, match="nothing was stored"):
        for delay in itertools.islice(delays, 1000):
            taken.append(delay)
            retry_clock.sleep(0.3 + delay)  # each try takes 0.3 s
    assert len(taken) == 4  # by 1.2 s the budget was spent: 4 back-offs, not 1 s of them


def _gloss(word: str) -> tuple[str, ...]:
    return {"南瓜": ("pumpkin",), "蜡烛": ("candle",), "佳能": ("Canon",)}.get(word, ())


def test_a_chinese_object_the_lexicons_lack_takes_its_glosses_category() -> None:
    gate = PersistenceGate(Settings(), glosses=_gloss)
    prepared, _ = gate.prepare([PreferenceCandidate(content="不喜欢南瓜", polarity="dislike")])
    assert prepared[0].candidate.category == "food"


def test_a_given_category_and_an_unglossed_object_keep_their_category() -> None:
    gate = PersistenceGate(Settings(), glosses=_gloss)
    given = PreferenceCandidate(content="不喜欢南瓜", polarity="dislike", category="garden")
    unknown = PreferenceCandidate(content="不喜欢螺蛳粉", polarity="dislike")
    prepared, _ = gate.prepare([given, unknown])
    assert [p.candidate.category for p in prepared] == ["garden", "other"]


def test_without_a_dictionary_the_gate_reads_lexicons_only() -> None:
    prepared, _ = GATE.prepare([PreferenceCandidate(content="不喜欢南瓜", polarity="dislike")])
    assert prepared[0].candidate.category == "other"
