"""The pure planner's tombstones: forgets and removed statements outlive older replays."""

from __future__ import annotations

from datetime import timedelta

from penchant.memory import PersistenceGate, PreferenceCandidate
from penchant.memory.core.matching import forget_matches
from penchant.memory.core.ops import DeleteTombstone, PutTombstone
from penchant.memory.core.resolution import newer_conflict
from penchant.memory.core.snapshot import UserSnapshot, apply_ops
from penchant.memory.core.tombstones import TOMBSTONES_MAX, Tombstone, Tombstones
from penchant.memory.model.records import utcnow

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
    assert plan.result[0].removed == []
    (tomb,) = [op.tombstone for op in plan.ops if isinstance(op, PutTombstone)]
    assert tomb.kind == "forget" and "coffee" not in tomb.to_json()


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
    assert tomb.kind == "statement" and tomb.pref_id == snapshot.preferences()[0].id
    assert "rum" not in tomb.to_json()


def test_the_oldest_tombstone_is_evicted_past_the_cap() -> None:
    now = utcnow()
    full = Tombstones({})
    for i in range(TOMBSTONES_MAX):
        tomb = Tombstone.of_forget(f"thing{i}", None, now + timedelta(seconds=i), "u")
        full.by_key[tomb.key] = tomb
    oldest = Tombstone.of_forget("thing0", None, now, "u").key
    plan = GATE.plan_forget(UserSnapshot(user_id="u", tombstones=full), "new", None,
                            now + timedelta(days=1))
    assert [op.key for op in plan.ops if isinstance(op, DeleteTombstone)] == [oldest]


# -- the replay rule on digests agrees with the live rules -----------------------------------------

FORGETS = ["coffee", "dark chocolate", "ice cream", "colour", "抹茶", "奶茶", "milk tea",
           "forget that I like green tea and jazz"]
STATEMENTS = [
    ("I like coffee", ["coffee"]), ("I like dark chocolate", ["dark chocolate"]),
    ("I like chocolate", ["chocolate"]), ("I like ice-cream", ["ice-cream"]),
    ("I like the color red", ["color"]), ("我喜欢抹茶拿铁", ["抹茶拿铁"]),
    ("我喜欢奶茶", ["奶茶"]), ("I like milk", ["milk"]), ("I like tea", ["tea"]),
    ("I like jazz", ["jazz"]), ("I like steak", ["steak"]),
]  # fmt: skip


def test_a_forget_tombstone_matches_what_the_forget_itself_would_remove() -> None:
    now = utcnow()
    for text in FORGETS:
        tomb = Tombstone.of_forget(text, None, now, "u")
        for content, keywords in STATEMENTS:
            live = forget_matches(text, keywords, content)
            assert tomb.forgets(keywords, content, "like", "u") == live, (text, content)


def test_a_forget_tombstone_holds_no_word_of_the_request() -> None:
    tomb = Tombstone.of_forget("forget that I like green tea and jazz", None, utcnow(), "u")
    stored = tomb.to_json()
    assert not any(w in stored for w in ("green", "tea", "jazz"))


def test_digests_are_salted_per_user() -> None:
    now = utcnow()
    tomb = Tombstone.of_forget("coffee", None, now, "alice")
    assert tomb.forgets(["coffee"], "I like coffee", "like", "alice")
    assert not tomb.forgets(["coffee"], "I like coffee", "like", "bob")


PAIRS = [
    (PreferenceCandidate(content="I dislike chocolate", polarity="dislike",
                         keywords=["chocolate"]), "I like dark chocolate", ["dark chocolate"]),
    (PreferenceCandidate(content="I dislike milk", polarity="dislike", keywords=["milk"]),
     "I like milk chocolate", ["milk chocolate"]),
    (PreferenceCandidate(content="I dislike cheese", polarity="dislike", keywords=["cheese"]),
     "I like vegan cheese", ["vegan", "cheese"]),
    (PreferenceCandidate(content="I hate the colour grey", polarity="dislike",
                         keywords=["grey"]), "I like gray", ["gray"]),
    (PreferenceCandidate(content="我不喜欢茶", polarity="dislike", keywords=["茶"]),
     "我喜欢绿茶", ["绿茶"]),
    (PreferenceCandidate(content="I dislike pizza", polarity="dislike", keywords=["pizza"]),
     "I like pizza with pineapple", ["pizza with pineapple"]),
]  # fmt: skip


def test_a_statement_tombstone_decides_contradictions_like_the_stored_record() -> None:
    now = utcnow()
    for older_cand, newer_content, newer_keywords in PAIRS:
        newer = PreferenceCandidate(content=newer_content, polarity="like",
                                    keywords=newer_keywords)
        snapshot = UserSnapshot(user_id="u")
        snapshot = apply_ops(snapshot, _remember(snapshot, newer).ops, "r1")
        (stored,) = snapshot.preferences()
        spooled = older_cand.model_copy(update={"at": now - timedelta(hours=1)})
        (prepared,), _ = GATE.prepare([spooled])
        live = newer_conflict([stored], prepared) is not None
        tomb = Tombstone.of_removed(stored, now, "u")
        assert tomb.contradicted_by(prepared, "u") == live, (older_cand.content, newer_content)
        assert newer_content not in tomb.to_json()


def test_a_plaintext_tombstone_of_issue_10_is_read_as_digests_and_rewritten() -> None:
    import json

    now = utcnow()
    legacy = json.dumps({"kind": "forget", "at": now.isoformat(), "removed_at": now.isoformat(),
                         "text": "coffee", "polarity": None, "preference": None})
    tombs = Tombstones.from_records({"forget:old": legacy}, salt="u")
    assert tombs.legacy == {"forget:old"}
    assert tombs.forgotten_after(now - timedelta(hours=1), ["coffee"], "I like coffee", "like")
    plan = GATE.plan_forget(UserSnapshot(user_id="u", tombstones=tombs), "tea", None, now)
    deleted = [op.key for op in plan.ops if isinstance(op, DeleteTombstone)]
    written = [op.tombstone.to_json() for op in plan.ops if isinstance(op, PutTombstone)]
    assert "forget:old" in deleted and not any("coffee" in w for w in written)
