"""Recall's cache follows a changing list: every recall after random adds, supersedes,
removes, re-embeddings and re-mentions equals a recall by a fresh :class:`Recaller` on the
same list, ties and order included (pure; hash embedders)."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from penchant.memory.core.active_set import ActiveSet
from penchant.memory.core.lexical import BM25Index
from penchant.memory.core.ops import DeletePreference, PutPreference, PutVector
from penchant.memory.core.snapshot import UserSnapshot, apply_ops, carry_order
from penchant.memory.embeddings import FusedEmbedder, HashEmbedder, embedding_text
from penchant.memory.model.records import Preference
from penchant.memory.recall import DEFAULT_FUSION, NO_VECTOR, Recaller, RecallResult
from penchant.memory.recall.list_data import ListData
from penchant.memory.recall.spaces import VectorSpace

T0 = datetime(2025, 1, 1, tzinfo=UTC)

WORDS = "wool cotton jazz opera tea coffee socks hats plastic spicy food 科幻 小说 茶 咖啡".split()
CATEGORIES = ["material", "music", "drink", "other"]
QUERIES = ["wool socks", "推荐几本科幻小说", "", "jazz and tea", "plastic food", "nothing here"]


class EnglishHash(HashEmbedder):
    """An English-only hash space with a generic-request correction (exercises both)."""

    multilingual = False
    generic_penalty = 0.5

    def __init__(self) -> None:
        super().__init__(16)
        self.name = "hash-en-16"


class OtherHash(HashEmbedder):
    """Another resolvable space, as a store made before the embedder changed."""

    generic_penalty = 0.3

    def __init__(self) -> None:
        super().__init__(24)
        self.name = "other-24"


def _embed(pref: Preference, embedder: Any) -> None:
    vector = embedder.embed([embedding_text(pref.content, pref.category)])[0]
    pref.embedding = np.asarray(vector, np.float32).tobytes()
    pref.embedding_model, pref.embedding_dim = embedder.name, embedder.dim


class World:
    """Random preferences, in every kind of vector state a store can hold."""

    def __init__(self, seed: int, spaces: list[Any]) -> None:
        self.rng = random.Random(seed)
        self.spaces = spaces
        self.made = 0

    def text(self) -> str:
        # few words and repeats: equal BM25 scores and equal vectors (ties) are common
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(1, 3)))

    def stamp(self) -> datetime:
        return T0 + timedelta(days=self.rng.randint(0, 5))  # equal recency is common

    def vector_state(self, pref: Preference) -> None:
        kind = self.rng.random()
        if kind < 0.70:
            _embed(pref, self.rng.choice(self.spaces))
        elif kind < 0.80:
            pass  # stored without a vector
        elif kind < 0.90:
            pref.embedding = np.ones(8, np.float32).tobytes()
            pref.embedding_model, pref.embedding_dim = "gone-model", 8
        else:  # the current model's name, the wrong width
            _embed(pref, self.spaces[0])
            pref.embedding = (pref.embedding or b"")[:-4]

    def pref(self) -> Preference:
        self.made += 1
        content = self.text()
        p = Preference(
            user_id="u1",
            content=content,
            polarity=self.rng.choice(["like", "dislike"]),
            keywords=self.rng.sample(WORDS, self.rng.randint(0, 2)),
            category=self.rng.choice(CATEGORIES),
            created_at=T0 + timedelta(seconds=self.made),
            last_seen_at=self.stamp(),
        )
        self.vector_state(p)
        return p

    def step(self, snapshot: UserSnapshot, revision: int, target: int) -> UserSnapshot:
        """One committed write: add, supersede, remove, re-embed or re-mention."""
        prefs = snapshot.ordered_preferences()
        roll = self.rng.random()
        grow = len(prefs) < target
        ops: list[Any] = []
        if not prefs or (grow and roll < 0.5):
            for _ in range(self.rng.randint(1, 4)):
                new = self.pref()
                ops += [PutPreference(new), PutVector(new.id, new.embedding or b"")]
        elif roll < 0.65 or not grow:
            for old in self.rng.sample(list(prefs), min(len(prefs), self.rng.randint(1, 5))):
                ops.append(DeletePreference(old.id))
            if grow or self.rng.random() < 0.3:
                new = self.pref()
                ops.append(PutPreference(new))
        elif roll < 0.85:  # the same id with another vector (reembed) or none
            old = self.rng.choice(prefs)
            copy = old.model_copy()
            self.vector_state(copy)
            ops.append(PutPreference(copy))
        else:  # mentioned again: newer last_seen_at, same object otherwise
            old = self.rng.choice(prefs)
            copy = old.model_copy(update={"last_seen_at": self.stamp()})
            copy.embedding = old.embedding
            ops.append(PutPreference(copy))
        return apply_ops(snapshot, ops, str(revision))


def _summary(result: RecallResult) -> list[Any]:
    items = [
        (it.preference.id, it.score, it.channels, it.similarity, it.relevant)
        for it in result.items
    ]
    return [items, result.tokens, sorted(result.stale.items())]


REQUESTS: list[dict[str, Any]] = [
    {},
    {"polarity": "dislike"},
    {"category": "music"},
    {"polarity": "like", "category": "drink"},
    {"token_budget": 9},
]


def _check_against_fresh(recaller: Recaller, prefs: Any, step: int) -> None:
    fresh = Recaller(recaller.embedder, recaller.fusion, resolver=recaller.resolver)
    for q, query in enumerate(QUERIES):
        request = REQUESTS[(step + q) % len(REQUESTS)]
        got = recaller.recall(prefs, query, k=40, cache_key="u1", **request)
        want = fresh.recall(prefs, query, k=40, **request)
        assert _summary(got) == _summary(want), (step, query, request)


def _resolver(name: str, dim: int) -> Any:
    return OtherHash() if (name, dim) == ("other-24", 24) else None


@pytest.mark.parametrize(
    ("seed", "make"),
    [
        (1, lambda: Recaller(EnglishHash(), resolver=_resolver)),
        (2, lambda: Recaller(EnglishHash(), replace(DEFAULT_FUSION, lexical_mode="always"),
                             resolver=_resolver)),  # fmt: skip
        (3, lambda: Recaller(None)),
        (4, lambda: Recaller(FusedEmbedder([HashEmbedder(8), HashEmbedder(12)]),
                             resolver=_resolver)),  # fmt: skip
    ],
)
def test_recall_after_each_write_equals_a_fresh_recaller(
    seed: int, make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(VectorSpace, "COMPACT_MIN", 4)  # compact at this small size too
    recaller = make()
    current = recaller.embedder or EnglishHash()
    world = World(seed, [current, OtherHash()])
    snapshot = UserSnapshot(user_id="u1", revision="1")
    for step in range(260):  # grows to ~180, shrinks to ~40 (rows freed, reused, compacted)
        target = 180 if step < 150 else 40
        snapshot = world.step(snapshot, step + 2, target)
        prefs = snapshot.ordered_preferences()
        assert list(prefs) == sorted(prefs, key=lambda p: (p.created_at, p.id))
        if step % 3 == 0 or step > 240:
            _check_against_fresh(recaller, prefs, step)
    assert recaller.cache_info()["lists"] == 1


def test_freed_rows_are_reused_and_compacted_without_changing_results() -> None:
    emb = OtherHash()
    world = World(9, [emb])
    recaller = Recaller(emb)
    prefs = [world.pref() for _ in range(400)]
    for p in prefs:
        _embed(p, emb)
    recaller.recall(prefs, "wool", cache_key="u1")
    space = recaller._cache["u1"].spaces[0]
    assert space.high == 400
    kept = prefs[::4]  # 300 rows freed: more than a quarter, so the next add compacts
    later = [*kept, world.pref()]
    _embed(later[-1], emb)
    _check_against_fresh(recaller, later, 0)
    assert space.high == len(later) and space.live == len(later)
    again = [*later[1:], world.pref()]  # one freed row, reused by the new preference
    _embed(again[-1], emb)
    _check_against_fresh(recaller, again, 1)
    assert space.high == len(later)
    _check_against_fresh(recaller, again[::-1], 2)  # every object moved
    _check_against_fresh(recaller, [*again[:5], again[0], *again[5:]], 3)  # one object twice
    _check_against_fresh(recaller, again, 4)


def test_unchanged_list_is_not_rebuilt() -> None:
    emb = EnglishHash()
    world = World(5, [emb])
    prefs = [world.pref() for _ in range(50)]
    recaller = Recaller(emb)
    recaller.recall(prefs, "wool", cache_key="u1")
    data = recaller._cache["u1"]
    chunks = list(data.spaces[0].chunks)
    recaller.recall(list(prefs), "tea", cache_key="u1")  # another list, the same objects
    assert recaller._cache["u1"] is data
    assert all(a is b for a, b in zip(data.spaces[0].chunks, chunks, strict=True))


def test_a_snapshot_sorts_once_and_a_write_moves_only_what_changed() -> None:
    world = World(6, [EnglishHash()])
    snapshot = UserSnapshot(user_id="u1", revision="1", active=ActiveSet.build(
        world.pref() for _ in range(30)
    ))  # fmt: skip
    first = snapshot.ordered_preferences()
    assert snapshot.ordered_preferences() is first
    assert snapshot.preferences() == list(first) and snapshot.preferences() is not first
    new = world.pref()
    after = apply_ops(snapshot, [DeletePreference(first[3].id), PutPreference(new)], "2")
    assert after._ordered is None and after._pending is not None  # carried, left pending
    later = apply_ops(after, [PutPreference(world.pref())], "3")
    assert later._pending is not None and later._pending[0] is snapshot  # still one root
    got = after.ordered_preferences()
    assert after._pending is None  # the move was done when the order was asked for
    assert got == tuple(sorted(after.active.prefs.values(), key=lambda p: (p.created_at, p.id)))
    assert new in got and first[3] not in got and got[3] is first[4]
    assert later.ordered_preferences() == tuple(
        sorted(later.active.prefs.values(), key=lambda p: (p.created_at, p.id))
    )


def test_stale_counts_follow_removals() -> None:
    emb = EnglishHash()
    world = World(7, [emb])
    bare = [world.pref() for _ in range(3)]
    for p in bare:
        p.embedding = p.embedding_model = p.embedding_dim = None
    recaller = Recaller(emb)
    assert recaller.recall(bare, "wool", cache_key="u1").stale == {NO_VECTOR: 3}
    assert recaller.recall(bare[1:], "wool", cache_key="u1").stale == {NO_VECTOR: 2}
    embedded = bare[1].model_copy()
    _embed(embedded, emb)
    assert recaller.recall([embedded], "wool", cache_key="u1").stale == {}


def test_bm25_after_adds_and_removes_scores_as_a_fresh_index() -> None:
    rng = random.Random(3)
    docs: dict[int, str] = {}
    index = BM25Index()
    next_id = 0
    for _ in range(300):
        if docs and rng.random() < 0.4:
            doc = rng.choice(sorted(docs))
            index.remove(doc)
            del docs[doc]
        else:
            docs[next_id] = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))
            index.add(next_id, docs[next_id])
            next_id += 1
        order = sorted(docs)
        fresh = BM25Index([docs[d] for d in order])
        for query in QUERIES:
            got = index.scores(query)
            assert got[order].tolist() == fresh.scores(query).tolist()
            assert not np.delete(got, order).any()  # removed ids score 0
    assert len(index) == len(docs)


def test_bm25_refuses_an_id_twice() -> None:
    index = BM25Index(["wool"])
    with pytest.raises(ValueError, match="already indexed"):
        index.add(0, "tea")


def test_threads_recalling_two_lists_of_one_user_each_get_their_own_ranking() -> None:
    emb = OtherHash()
    world = World(8, [emb])
    older = [world.pref() for _ in range(120)]
    newer = [*older[10:], *(world.pref() for _ in range(15))]
    want = {id(prefs): _summary(Recaller(emb).recall(prefs, "wool tea", k=30))
            for prefs in (older, newer)}  # fmt: skip
    recaller = Recaller(emb)
    failures: list[int] = []

    def work(prefs: list[Preference]) -> None:
        for _ in range(40):
            got = _summary(recaller.recall(prefs, "wool tea", k=30, cache_key="u1"))
            if got != want[id(prefs)]:
                failures.append(1)

    threads = [threading.Thread(target=work, args=(p,)) for p in (older, newer, older, newer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_an_unchanged_active_set_shares_the_sorted_tuple_across_revisions() -> None:
    world = World(10, [EnglishHash()])
    snapshot = UserSnapshot(user_id="u1", revision="1", active=ActiveSet.build(
        world.pref() for _ in range(10)
    ))  # fmt: skip
    first = snapshot.ordered_preferences()
    after = UserSnapshot(user_id="u1", revision="2", active=snapshot.active)
    carry_order(snapshot, after, set())
    assert after.ordered_preferences() is first


def test_snapshot_order_breaks_equal_creation_times_by_id() -> None:
    world = World(11, [EnglishHash()])
    prefs = [world.pref() for _ in range(40)]
    tied = [p.model_copy(update={"created_at": T0 + timedelta(seconds=i % 3)}) for i, p in
            enumerate(prefs)]  # fmt: skip
    snapshot = UserSnapshot(user_id="u1", revision="1", active=ActiveSet.build(tied))
    got = snapshot.ordered_preferences()
    assert list(got) == sorted(tied, key=lambda p: (p.created_at, p.id))
    assert [p.created_at for p in got] != [p.created_at for p in tied]  # it did reorder


@pytest.mark.parametrize("removed_at", [0, 17, 59])
def test_a_supersede_re_derives_only_the_arriving_preference(
    removed_at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_dict_matching(*_: Any) -> None:
        raise AssertionError("a supersede should be followed by the walk, not the dict")

    monkeypatch.setattr(ListData, "_matched", no_dict_matching)
    emb = OtherHash()
    world = World(12, [emb])
    before = [world.pref() for _ in range(60)]
    recaller = Recaller(emb)
    recaller.recall(before, "wool", cache_key="u1")
    data = recaller._cache["u1"]
    slots = {id(p): data._slot_of[id(p)] for p in before}
    after = [*before[:removed_at], *before[removed_at + 1 :], world.pref()]
    recaller.recall(after, "wool", cache_key="u1")
    assert all(data._slot_of[id(p)] == slots[id(p)] for p in after[:-1])  # kept, not re-made
    assert data._slot_of[id(after[-1])] not in {slots[id(p)] for p in after[:-1]}
    assert id(before[removed_at]) not in data._slot_of
