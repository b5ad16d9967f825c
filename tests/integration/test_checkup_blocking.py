"""The check-up compares blocked candidates, not all pairs, and finds exactly the same flags;
its lease is renewed during a try, so a long check-up keeps the user (issue 12)."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import redis
import redis.asyncio as aioredis

from penchant.memory import AsyncMemory, Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import HashEmbedder
from penchant.memory.model.keys import UserKeys
from penchant.memory.model.records import Preference
from penchant.memory.services.checkup import (
    PairVerdict,
    acheckup_job,
    checkup_job,
    find_issues,
    lexicon_contradiction,
    preference_vectors,
    top_opposite_pairs,
)
from penchant.memory.services.checkup.detection import _note, similarity_floors

USER = "blocking-user"
LEATHER = PreferenceCandidate(content="likes leather jackets", polarity="like",
                              keywords=["leather jacket"], category="style")
VEGAN = PreferenceCandidate(content="avoids animal products", polarity="dislike",
                            keywords=["animal product"], category="other")


def all_pairs_issues(
    memory: Memory, prefs: Sequence[Preference], judge: Any = None, max_model_pairs: int = 30
) -> list[tuple[Any, ...]]:
    """The check-up as it was before blocking: every pair, one by one (the oracle)."""
    from penchant.memory.services.checkup.detection import _flag

    contradiction_floor, duplicate_floor = similarity_floors(memory)
    vectors = preference_vectors(memory, prefs)
    findings: dict[tuple[str, str], Any] = {}
    opposite = []
    for i, j in itertools.combinations(range(len(prefs)), 2):
        a, b = prefs[i], prefs[j]
        score = float(vectors[i] @ vectors[j]) if vectors is not None else 0.0
        key = (a.id, b.id)
        if a.polarity != b.polarity:
            opposite.append((score, a, b))
            if vectors is not None and score >= contradiction_floor:
                _note(findings, key, "contradiction", a, b, score, "embedding",
                      f"similar meaning (cosine {score:.2f}) but opposite polarity")
            concept = lexicon_contradiction(a, b)
            if concept:
                _note(findings, key, "contradiction", a, b, score, "lexicon",
                      f"one is about {concept}, the other about an instance of it")
        elif vectors is not None and score >= duplicate_floor:
            _note(findings, key, "duplicate", a, b, score, "embedding",
                  f"nearly the same meaning (cosine {score:.2f})")
    if judge is not None and opposite:
        opposite.sort(key=lambda t: -t[0])
        by_pair = {(a.id, b.id): (s, a, b) for s, a, b in opposite[:max_model_pairs]}
        for verdict in judge.judge([(a, b) for _s, a, b in by_pair.values()]):
            hit = by_pair.get((verdict.first, verdict.second)) or by_pair.get(
                (verdict.second, verdict.first)
            )
            if hit and verdict.contradiction:
                s, a, b = hit
                _note(findings, (a.id, b.id), "contradiction", a, b, s, "model", verdict.reason)
    return [_described(_flag(f)) for f in findings.values()]


def _described(flag: Any) -> tuple[Any, ...]:
    return (flag.id, flag.kind, flag.preference_ids, flag.score, flag.signals, flag.reason)


class EveryThirdJudge:
    """A fake model: records what it was asked and calls every third pair a contradiction."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
        self.asked = [(a.id, b.id) for a, b in pairs]
        return [PairVerdict(a.id, b.id, n % 3 == 0, f"pair {n}") for n, (a, b) in enumerate(pairs)]


WORDS = ("leather", "wool", "silk", "coffee", "espresso", "beer", "wine", "cheese", "milk",
         "jazz", "hiking", "tea", "cotton", "linen", "sushi", "animal products", "caffeine",
         "alcohol", "dairy", "meat", "synthetic fabrics")


def random_store(memory: Memory, n: int, seed: int) -> list[Preference]:
    """Preferences in clusters of near-identical vectors (so both floors are crossed), with
    lexicon words, both polarities and some exact ties."""
    rng = random.Random(seed)
    gen = np.random.default_rng(seed)
    dim = memory.embedder.dim  # type: ignore[union-attr]
    centres = gen.standard_normal((max(2, n // 6), dim)).astype(np.float32)
    prefs = []
    for i in range(n):
        centre = centres[rng.randrange(len(centres))]
        spread = rng.choice([0.0, 0.3, 0.6, 1.5])  # 0.0: exact ties with the cluster's others
        vector = (centre + spread * gen.standard_normal(dim)).astype(np.float32)
        words = rng.sample(WORDS, 2)
        pref = Preference(
            user_id=USER, content=f"{rng.choice(['likes', 'avoids'])} {' '.join(words)} {i}",
            polarity=rng.choice(["like", "dislike"]), keywords=words,
            embedding_model=memory.embedder.name, embedding_dim=dim,  # type: ignore[union-attr]
        )
        pref.embedding = vector.tobytes()
        prefs.append(pref)
    return prefs


@pytest.fixture
def memory(redis_client: redis.Redis, settings: Settings) -> Memory:
    tuned = settings.model_copy(update={"contradiction_cosine": 0.6, "duplicate_cosine": 0.75})
    return Memory(redis_client, settings=tuned, embedder=HashEmbedder())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_blocked_checkup_finds_exactly_what_all_pairs_find(memory: Memory, seed: int) -> None:
    prefs = random_store(memory, 240, seed)
    blocked, ideal = EveryThirdJudge(), EveryThirdJudge()
    found, pairs = find_issues(memory, prefs, judge=blocked)
    expected = all_pairs_issues(memory, prefs, judge=ideal)
    assert {f[1] for f in expected} == {"contradiction", "duplicate"}  # the set exercises both
    assert any("lexicon" in f[4] for f in expected) and any("model" in f[4] for f in expected)
    assert [_described(f) for f in found] == expected  # same flags, same order, same scores
    assert blocked.asked == ideal.asked  # the same pairs, most similar first, put to the model
    assert pairs == 240 * 239 // 2


def test_blocked_checkup_without_vectors_matches_all_pairs(
    redis_client: redis.Redis, settings: Settings
) -> None:
    plain = Memory(redis_client, settings=settings)  # no embedder: lexicon and model only
    prefs = [p.model_copy(update={"embedding_model": None}) for p in random_store(
        Memory(redis_client, settings=settings, embedder=HashEmbedder()), 120, 7)]
    blocked, ideal = EveryThirdJudge(), EveryThirdJudge()
    found, _pairs = find_issues(plain, prefs, judge=blocked)
    assert [_described(f) for f in found] == all_pairs_issues(plain, prefs, judge=ideal)
    assert blocked.asked == ideal.asked and len(ideal.asked) == 30


def test_blocked_checkup_matches_all_pairs_on_the_stored_cases(memory: Memory) -> None:
    memory.remember(USER, [
        LEATHER, VEGAN,
        PreferenceCandidate(content="loves cotton t-shirts", polarity="like",
                            keywords=["cotton t-shirt"], category="style"),
        PreferenceCandidate(content="loves cotton shirts", polarity="like",
                            keywords=["cotton shirt"], category="style"),
        PreferenceCandidate(content="hates cotton shirts", polarity="dislike",
                            keywords=["cotton shirts", "shirt"], category="other"),
        PreferenceCandidate(content="loves road trips", polarity="like", keywords=["road trip"]),
        PreferenceCandidate(content="hates long drives", polarity="dislike",
                            keywords=["long drive"]),
    ])
    prefs = memory.preferences(USER)
    found, _pairs = find_issues(memory, prefs, judge=EveryThirdJudge())
    expected = all_pairs_issues(memory, prefs, judge=EveryThirdJudge())
    assert expected and [_described(f) for f in found] == expected


def test_top_opposite_pairs_break_ties_in_index_order() -> None:
    vectors = np.ones((5, 4), dtype=np.float32) / 2.0  # every cosine is exactly 1
    like = np.array([True, False, True, False, True])
    assert top_opposite_pairs(vectors, like, 4) == [(0, 1), (0, 3), (1, 2), (1, 4)]


# -- the lease during a long try -----------------------------------------------------------------


class SlowJudge:
    """A fake model that takes ``seconds`` to answer and runs ``meanwhile`` after half of it."""

    def __init__(self, seconds: float, meanwhile: Any = None) -> None:
        self.seconds, self.meanwhile = seconds, meanwhile
        self.seen: Any = None

    def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
        time.sleep(self.seconds / 2)
        if self.meanwhile is not None:
            self.seen = self.meanwhile()
        time.sleep(self.seconds / 2)
        return []


def test_second_worker_cannot_take_the_user_while_a_long_checkup_runs(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    key = UserKeys.for_user(USER).checkup_lease

    def second_worker() -> tuple[str, Any]:
        return checkup_job(memory, USER, worker_id="w2").status, memory.backend.lease_holder(key)

    judge = SlowJudge(1.2, second_worker)  # the try lasts 8 leases of 150 ms
    outcome = checkup_job(memory, USER, judge=judge, worker_id="w1", lease_ms=150)
    assert judge.seen == ("busy", "w1")  # mid-run, after the first lease TTL ran out
    assert outcome.status == "done" and len(memory.flags(USER)) == 1
    assert memory.backend.lease_holder(key) is None  # given back at the end


def test_checkup_that_loses_its_lease_mid_try_writes_nothing(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    key = UserKeys.for_user(USER).checkup_lease

    def steal() -> None:
        memory.client.set(key, "thief")  # another worker took the user

    outcome = checkup_job(memory, USER, judge=SlowJudge(0.6, steal), worker_id="w1",
                          lease_ms=150)
    assert outcome.status == "busy" and outcome.attempts == 1
    assert "during the check-up" in outcome.error
    assert memory.flags(USER) == []  # the lexicon flag it found was not written
    assert memory.backend.lease_holder(key) == "thief"


async def test_async_second_worker_cannot_take_the_user_while_a_long_checkup_runs(
    redis_url: str, redis_client: redis.Redis, settings: Settings
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    memory = AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    other = Memory(redis_client, settings=settings, embedder=HashEmbedder())
    await memory.remember(USER, [LEATHER, VEGAN])
    key = UserKeys.for_user(USER).checkup_lease
    judge = SlowJudge(1.2, lambda: (checkup_job(other, USER, worker_id="w2").status,
                                    other.backend.lease_holder(key)))
    try:
        outcome = await acheckup_job(memory, USER, judge=judge, worker_id="w1", lease_ms=150)
        assert judge.seen == ("busy", "w1")
        assert outcome.status == "done" and len(await memory.flags(USER)) == 1
        assert other.backend.lease_holder(key) is None
    finally:
        await client.aclose()


async def test_event_loop_stays_free_during_a_long_async_checkup(
    redis_url: str, settings: Settings
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    memory = AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    await memory.remember(USER, [LEATHER, VEGAN])
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.02)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        outcome = await acheckup_job(memory, USER, judge=SlowJudge(0.4), lease_ms=150)
    finally:
        task.cancel()
        await client.aclose()
    assert outcome.status == "done" and ticks >= 10  # the lease task and others kept running
