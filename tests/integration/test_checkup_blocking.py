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

from conftest import wait_until

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


class PastTheFirstLease:
    """A fake model that answers only once the check-up's lease has outlived a whole TTL:
    it reads the lease's deadline when called, waits until Redis's clock has passed it with
    the lease renewed beyond it, then runs ``meanwhile`` (a condition, not a fixed sleep)."""

    def __init__(self, client: Any, key: str, meanwhile: Any) -> None:
        self.client, self.key, self.meanwhile = client, key, meanwhile
        self.seen: Any = None

    def _now_ms(self) -> int:
        seconds, micros = self.client.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
        first = int(self.client.pexpiretime(self.key))
        assert first > 0, "the check-up holds no lease with a deadline"
        wait_until(lambda: self._now_ms() > first and self.client.pexpiretime(self.key) > first,
                   timeout=60.0, what="the lease outlived its first TTL")  # fmt: skip
        self.seen = self.meanwhile()
        return []


def test_second_worker_cannot_take_the_user_while_a_long_checkup_runs(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    key = UserKeys.for_user(USER).checkup_lease

    def second_worker() -> tuple[str, Any]:
        return checkup_job(memory, USER, worker_id="w2").status, memory.backend.lease_holder(key)

    judge = PastTheFirstLease(memory.client, key, second_worker)
    outcome = checkup_job(memory, USER, judge=judge, worker_id="w1", lease_ms=1500)
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
    judge = PastTheFirstLease(redis_client, key, lambda: (
        checkup_job(other, USER, worker_id="w2").status, other.backend.lease_holder(key)))
    try:
        outcome = await acheckup_job(memory, USER, judge=judge, worker_id="w1", lease_ms=1500)
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

    class WaitsForTicks:
        """Answers once the loop has ticked 10 times while the model call runs: a blocked
        loop never gets there (the call would fail after 60 s)."""

        def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
            began = ticks
            wait_until(lambda: ticks >= began + 10, timeout=60.0, what="10 loop ticks")
            return []

    task = asyncio.create_task(ticker())
    try:
        outcome = await acheckup_job(memory, USER, judge=WaitsForTicks(), lease_ms=150)
    finally:
        task.cancel()
        await client.aclose()
    assert outcome.status == "done" and ticks >= 10  # the lease task and others kept running


class StuckJudge:
    """A fake model whose call never returns until the test lets it (a hung HTTP call)."""

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()
        self.calls = 0
        self.returned = 0

    def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
        self.calls += 1
        self.release.wait(60)
        self.returned += 1
        return []


async def test_a_stuck_async_checkup_gives_the_user_back_after_its_time_limit(
    redis_url: str, redis_client: redis.Redis, settings: Settings
) -> None:
    """Issue 19: a check-up whose try never ended kept its lease renewed for ever (27k
    renewals) and the worker never gave the user back."""
    limited = settings.model_copy(update={"checkup_try_seconds": 1.0})
    client = aioredis.Redis.from_url(redis_url)
    memory = AsyncMemory(client, settings=limited, embedder=HashEmbedder())
    judge = StuckJudge()
    key = UserKeys.for_user(USER).checkup_lease
    try:
        await memory.remember(USER, [LEATHER, VEGAN])
        outcome = await acheckup_job(memory, USER, judge=judge, worker_id="w1", lease_ms=300)
        assert outcome.status == "failed" and "checkup_try_seconds (1 s)" in outcome.error
        assert judge.calls == 1 and judge.returned == 0  # given back while the call still hung
        assert Memory(redis_client, settings=settings).backend.lease_holder(key) is None
    finally:
        judge.release.set()
        await client.aclose()


def test_a_stuck_sync_checkup_stops_renewing_so_another_worker_takes_the_user(
    memory: Memory,
) -> None:
    """The sync twin: past its time limit the try's lease is not renewed any more; it runs
    out, a second worker checks the user, and the stuck try writes nothing when it ends."""
    import threading

    limited = Memory(memory.client, settings=memory.settings.model_copy(
        update={"checkup_try_seconds": 0.5}), embedder=HashEmbedder())  # fmt: skip
    memory.remember(USER, [LEATHER, VEGAN])
    judge = StuckJudge()
    outcomes: list[Any] = []
    stuck = threading.Thread(target=lambda: outcomes.append(
        checkup_job(limited, USER, judge=judge, worker_id="w1", lease_ms=300)))
    stuck.start()
    try:
        wait_until(lambda: judge.calls == 1, 10, "the stuck try began")
        key = UserKeys.for_user(USER).checkup_lease
        wait_until(lambda: memory.backend.lease_holder(key) is None, 10, "the lease ran out")
        assert checkup_job(memory, USER, worker_id="w2").status == "done"
    finally:
        judge.release.set()
        stuck.join(30)
    assert outcomes[0].status == "busy" and "nothing was written" in outcomes[0].error


async def test_an_async_keeper_stops_when_its_cancel_is_swallowed_inside_a_renewal() -> None:
    """Issue 19, the hang: the keeper was stopped by cancelling its task only. A cancel that
    lands inside a renewal can come out of the Redis client as a Redis error (caught as a
    hiccup), so the keeper renewed for ever and the check-up's ``async with`` never ended
    (the async lease test above hung this way, its lease renewed 27k times)."""
    from penchant.memory.services.checkup.jobs import AsyncLeaseKeeper

    in_renewal = asyncio.Event()
    calls = 0

    async def renew_that_swallows_cancel() -> bool:
        nonlocal calls
        calls += 1
        in_renewal.set()
        try:
            await asyncio.sleep(3600)  # a reply that is slow to come
        except asyncio.CancelledError:
            raise redis.ConnectionError("connection closed by a cancelled read") from None
        return True

    keeper = AsyncLeaseKeeper(renew_that_swallows_cancel, every_seconds=0.01)
    await keeper.__aenter__()
    await in_renewal.wait()
    await asyncio.wait_for(keeper.__aexit__(None, None, None), timeout=60)  # hung before
    assert keeper._task is not None and keeper._task.done()
    assert calls == 1  # no renewal after the stop
