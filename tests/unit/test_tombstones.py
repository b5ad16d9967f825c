"""The pure planner's tombstones: forgets and removed statements outlive older replays."""

from __future__ import annotations

from datetime import timedelta

from penchant.memory import PersistenceGate, PreferenceCandidate
from penchant.memory.ops import DeleteTombstone, PutTombstone, UserSnapshot, apply_ops
from penchant.memory.records import utcnow
from penchant.memory.tombstones import TOMBSTONES_MAX, Tombstone, Tombstones

GATE = PersistenceGate()


def _like(content: str, keyword: str, **extra: object) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=[keyword], **extra)


def _remember(snapshot: UserSnapshot, *candidates: PreferenceCandidate, op: str = "created"):
    prepared, rejections = GATE.prepare(list(candidates))
    return GATE.plan_remember(snapshot, prepared, rejections, utcnow(), created_op=op)


def _forgotten(text: str) -> UserSnapshot:
    snapshot = UserSnapshot(user_id="u")
    plan = GATE.plan_forget(snapshot, text, None, utcnow())
    return apply_ops(snapshot, plan.ops, "r1")


def test_a_forget_that_removes_nothing_still_leaves_a_tombstone() -> None:
    plan = GATE.plan_forget(UserSnapshot(user_id="u"), "coffee", None, utcnow())
    assert plan.result.removed == []
    assert [op.tombstone.text for op in plan.ops if isinstance(op, PutTombstone)] == ["coffee"]


def test_a_statement_older_than_a_matching_forget_is_rejected() -> None:
    snapshot = _forgotten("coffee")
    plan = _remember(snapshot, _like("I like coffee", "coffee", at=utcnow() - timedelta(hours=1)))
    assert plan.result.created == []
    assert "forgotten after it was said" in plan.result.rejected[0].reason


def test_an_older_statement_of_another_object_is_not_blocked() -> None:
    snapshot = _forgotten("coffee")
    plan = _remember(snapshot, _like("I like tea", "tea", at=utcnow() - timedelta(hours=1)))
    assert [p.content for p in plan.result.created] == ["I like tea"]


def test_an_import_after_a_forget_restores() -> None:
    snapshot = _forgotten("coffee")
    older = _like("I like coffee", "coffee", at=utcnow() - timedelta(hours=1))
    plan = _remember(snapshot, older, op="imported")
    assert [p.content for p in plan.result.created] == ["I like coffee"]


def test_a_superseded_statement_leaves_a_tombstone_of_itself() -> None:
    snapshot = UserSnapshot(user_id="u")
    snapshot = apply_ops(snapshot, _remember(snapshot, _like("I like rum", "rum")).ops, "r1")
    dislike = PreferenceCandidate(content="I dislike rum", polarity="dislike", keywords=["rum"])
    plan = _remember(snapshot, dislike)
    (tomb,) = [op.tombstone for op in plan.ops if isinstance(op, PutTombstone)]
    assert tomb.kind == "statement" and tomb.preference is not None
    assert tomb.preference.content == "I like rum" and tomb.preference.embedding is None


def test_the_oldest_tombstone_is_evicted_past_the_cap() -> None:
    now = utcnow()
    full = Tombstones({})
    for i in range(TOMBSTONES_MAX):
        tomb = Tombstone.of_forget(f"thing{i}", None, now + timedelta(seconds=i))
        full.by_key[tomb.key] = tomb
    oldest = Tombstone.of_forget("thing0", None, now).key
    plan = GATE.plan_forget(UserSnapshot(user_id="u", tombstones=full), "new", None,
                            now + timedelta(days=1))
    assert [op.key for op in plan.ops if isinstance(op, DeleteTombstone)] == [oldest]
