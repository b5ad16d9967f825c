"""The memory check-up: flags (never deletions), leases, retries, the schedule, the CLI."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
import redis

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import LocalEmbedder
from penchant.memory.model.errors import StorageUnavailableError
from penchant.memory.model.keys import UserKeys
from penchant.memory.model.records import Preference
from penchant.memory.services.checkup import (
    PairVerdict,
    checkup_job,
    concepts_instanced,
    concepts_named,
    lexicon_contradiction,
    run_checkup,
    run_due_checkups,
    schedule_checkup,
)

from conftest import CliRunner, wait_until

USER = "checkup-user"
LEATHER = PreferenceCandidate(content="likes leather jackets", polarity="like",
                              keywords=["leather jacket"], category="style")
VEGAN = PreferenceCandidate(content="avoids animal products", polarity="dislike",
                            keywords=["animal product"], category="other")
JAZZ = PreferenceCandidate(content="loves jazz records", polarity="like", keywords=["jazz"],
                           category="other")


def pref(content: str, polarity: Any, keywords: list[str]) -> Preference:
    return Preference(user_id=USER, content=content, polarity=polarity, keywords=keywords)


# -- signals -------------------------------------------------------------------------------------


def test_lexicon_links_an_instance_to_the_concept_it_belongs_to() -> None:
    leather = pref("likes leather jackets", "like", ["leather jacket"])
    vegan = pref("avoids animal products", "dislike", ["animal product"])
    assert "animal products" in concepts_instanced(leather)
    assert concepts_named(vegan) == {"animal products"}
    assert lexicon_contradiction(leather, vegan) == "animal products"
    assert lexicon_contradiction(vegan, leather) == "animal products"


def test_lexicon_needs_opposite_polarities() -> None:
    leather = pref("dislikes leather jackets", "dislike", ["leather jacket"])
    vegan = pref("avoids animal products", "dislike", ["animal product"])
    assert lexicon_contradiction(leather, vegan) is None


def test_lexicon_ignores_unrelated_pairs() -> None:
    jazz = pref("loves jazz records", "like", ["jazz"])
    vegan = pref("avoids animal products", "dislike", ["animal product"])
    assert lexicon_contradiction(jazz, vegan) is None


# -- the check -----------------------------------------------------------------------------------


def test_checkup_flags_a_contradiction_without_deleting_anything(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN, JAZZ])
    before = memory.preferences(USER)
    report = run_checkup(memory, USER)
    (flag,) = report.flags
    assert flag.kind == "contradiction" and "lexicon" in flag.signals
    assert set(flag.contents) == {"likes leather jackets", "avoids animal products"}
    assert [f.id for f in report.new] == [flag.id]
    assert memory.preferences(USER) == before
    assert memory.changes(USER, 1)[0].op == "flagged"


def test_checkup_again_does_not_duplicate_flags(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    first = run_checkup(memory, USER)
    again = run_checkup(memory, USER)
    assert [f.id for f in again.flags] == [f.id for f in first.flags] and again.new == []
    assert [e.op for e in memory.changes(USER, 50)].count("flagged") == 1


def test_flag_goes_away_when_a_preference_is_forgotten(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    run_checkup(memory, USER)
    memory.forget(USER, "leather jacket")
    assert memory.flags(USER) == []
    assert run_checkup(memory, USER).flags == []
    assert memory.flags(USER) == []


def test_model_judge_adds_its_verdicts(memory: Memory) -> None:
    memory.remember(USER, [
        PreferenceCandidate(content="loves road trips", polarity="like", keywords=["road trip"]),
        PreferenceCandidate(content="hates long drives", polarity="dislike",
                            keywords=["long drive"]),
    ])

    class Judge:
        def __init__(self) -> None:
            self.seen: list[tuple[str, str]] = []

        def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
            self.seen = [(a.content, b.content) for a, b in pairs]
            return [PairVerdict(a.id, b.id, True, "road trips are long drives") for a, b in pairs]

    judge = Judge()
    (flag,) = run_checkup(memory, USER, judge=judge).flags
    assert len(judge.seen) == 1 and flag.signals == ["model"]
    assert flag.reason == "road trips are long drives"


@pytest.mark.model
@pytest.mark.parametrize(
    "model", ["use", "default", pytest.param("minilm", marks=pytest.mark.minilm)]
)
def test_real_model_checkup_flags_the_planted_semantic_contradiction(
    redis_client: redis.Redis, settings: Settings, request: pytest.FixtureRequest, model: str
) -> None:
    # the default space (USE + MiniLM) is checked by its USE block and USE's floors
    embedder = (
        request.getfixturevalue(f"{model}_embedder") if model != "minilm" else LocalEmbedder()
    )
    real = Memory(redis_client, settings=settings, embedder=embedder)
    real.remember(USER, [
        LEATHER, VEGAN, JAZZ,
        PreferenceCandidate(content="likes cotton t-shirts", polarity="like",
                            keywords=["cotton t-shirt"], category="material"),
        PreferenceCandidate(content="loves cotton shirts", polarity="like",
                            keywords=["cotton shirt"], category="material"),
        PreferenceCandidate(content="dislikes spicy food", polarity="dislike",
                            keywords=["spicy food"], category="food"),
    ])
    before = real.preferences(USER)
    report = run_checkup(real, USER)
    kinds = {(f.kind, frozenset(f.contents)) for f in report.flags}
    assert ("contradiction",
            frozenset({"likes leather jackets", "avoids animal products"})) in kinds
    assert ("duplicate", frozenset({"likes cotton t-shirts", "loves cotton shirts"})) in kinds
    assert len(report.flags) == 2  # nothing else flagged among the 15 pairs
    assert real.preferences(USER) == before


class _Unrunnable:
    """An English-only part that must not be run (the check-up reads the primary only)."""

    name, dim, multilingual = "unrunnable-part", 8, False

    def embed(self, texts: list[str]) -> Any:
        raise AssertionError(f"the check-up ran a non-primary part on {texts!r}")


@pytest.mark.model
def test_a_store_not_yet_moved_to_a_fused_space_is_checked_by_its_stored_primary_vectors(
    redis_client: redis.Redis, settings: Settings, use_embedder: Any
) -> None:
    """USE vectors written before the default space: the fused space's check-up reads them
    as its primary block, runs no other part, and flags what USE alone flags."""
    from penchant.memory.embeddings import FusedEmbedder

    before = Memory(redis_client, settings=settings, embedder=use_embedder)
    before.remember(USER, [LEATHER, VEGAN, JAZZ])
    expected = {(f.kind, frozenset(f.contents)) for f in run_checkup(before, USER).flags}
    fused = FusedEmbedder([use_embedder, _Unrunnable()])
    after = Memory(redis_client, settings=settings, embedder=fused)
    stored = after.preferences(USER)
    assert {p.embedding_model for p in stored} == {use_embedder.name}
    report = run_checkup(after, USER)
    assert {(f.kind, frozenset(f.contents)) for f in report.flags} == expected
    assert ("contradiction",
            frozenset({"likes leather jackets", "avoids animal products"})) in expected


# -- jobs ----------------------------------------------------------------------------------------


def test_job_takes_and_returns_the_lease(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    outcome = checkup_job(memory, USER, worker_id="w1")
    assert outcome.status == "done" and outcome.attempts == 1 and outcome.report is not None
    assert memory.backend.lease_holder(UserKeys.for_user(USER).checkup_lease) is None


def test_job_is_busy_while_another_worker_holds_the_lease(memory: Memory) -> None:
    key = UserKeys.for_user(USER).checkup_lease
    assert memory.backend.acquire_lease(key, "other", 10_000)
    assert checkup_job(memory, USER, worker_id="w1").status == "busy"
    assert memory.backend.lease_holder(key) == "other"


def test_crashed_workers_lease_expires_and_another_worker_takes_over(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    due = schedule_checkup(memory, USER)
    key = UserKeys.for_user(USER).checkup_lease
    assert memory.backend.acquire_lease(key, "crashed-worker", 200)  # then it dies
    (busy,) = run_due_checkups(memory, worker_id="w2", now_ms=due)
    assert busy.status == "busy"
    assert memory.backend.due_checkups(due) == [(USER, due)]  # not stranded
    wait_until(lambda: memory.backend.lease_holder(key) is None, what="lease expired")
    (done,) = run_due_checkups(memory, worker_id="w2", now_ms=due)
    assert done.status == "done" and len(memory.flags(USER)) == 1
    assert memory.backend.due_checkups(due) == []


def test_failing_check_is_retried_with_backoff(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    calls: list[int] = []

    class FlakyJudge:
        def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
            calls.append(1)
            if len(calls) < 3:
                raise StorageUnavailableError("model endpoint timed out")
            return []

    waits: list[float] = []
    outcome = checkup_job(memory, USER, judge=FlakyJudge(), attempts=3, backoff_seconds=0.5,
                          sleep=waits.append)
    assert outcome.status == "done" and outcome.attempts == 3
    assert waits == [0.5, 1.0]


def test_job_that_keeps_failing_reports_and_stays_scheduled(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])

    class BrokenJudge:
        def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
            raise RuntimeError("boom")

    due = schedule_checkup(memory, USER)
    (outcome,) = run_due_checkups(memory, judge=BrokenJudge(), now_ms=due, sleep=lambda s: None)
    assert outcome.status == "failed" and "boom" in outcome.error and outcome.attempts == 3
    assert memory.backend.due_checkups(due) == [(USER, due)]
    assert memory.backend.lease_holder(UserKeys.for_user(USER).checkup_lease) is None


def test_job_that_lost_its_lease_stops(memory: Memory) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    key = UserKeys.for_user(USER).checkup_lease

    class Thief:
        def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
            memory.client.set(key, "thief")  # our lease expired and another worker took it
            raise RuntimeError("slow model")

    outcome = checkup_job(memory, USER, judge=Thief(), worker_id="w1", sleep=lambda s: None)
    assert outcome.status == "busy" and outcome.attempts == 1
    assert memory.backend.lease_holder(key) == "thief"  # never released someone else's lease


def test_rescheduled_user_stays_due_after_an_older_run(memory: Memory) -> None:
    due = schedule_checkup(memory, USER)
    assert not memory.backend.complete_checkup(USER, due - 1)
    assert memory.backend.due_checkups(due) == [(USER, due)]


# -- CLI -----------------------------------------------------------------------------------------


def test_cli_checkup_json_lists_flags(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    proc = cli(["checkup", "--user", USER, "--json"], cli_env)
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    (flag,) = document["flags"]
    assert flag["kind"] == "contradiction" and len(flag["preference_ids"]) == 2
    assert document["new"] == [flag["id"]] and len(memory.preferences(USER)) == 2


def test_cli_prefs_shows_flags_and_its_json_stays_a_list(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    memory.remember(USER, [LEATHER, VEGAN])
    run_checkup(memory, USER)
    human = cli(["prefs", "--user", USER], cli_env)
    assert "flags (to confirm" in human.stdout and "contradiction?" in human.stdout
    document = json.loads(cli(["prefs", "--user", USER, "--json"], cli_env).stdout)
    assert isinstance(document, list) and {d["content"] for d in document} == {
        "likes leather jackets", "avoids animal products"}


def test_cli_checkup_refuses_a_bad_user(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    proc = cli(["checkup", "--user", "", "--json"], cli_env)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_model_judge_over_the_wire_flags_what_the_model_says(memory: Memory) -> None:
    from pydantic import SecretStr

    from penchant.agent.reflect_model import checkup_judge_from_settings

    from test_openai_wire import FakeOpenAI, text_chunks

    memory.remember(USER, [
        PreferenceCandidate(content="loves road trips", polarity="like", keywords=["road trip"]),
        PreferenceCandidate(content="hates long drives", polarity="dislike",
                            keywords=["long drive"]),
    ])
    reply = {"verdicts": [{"pair": 1, "contradiction": True, "reason": "same activity"}]}
    with FakeOpenAI(lambda body: text_chunks(json.dumps(reply))) as server:
        judge = checkup_judge_from_settings(Settings(
            openai_api_key=SecretStr("t"), openai_base_url=server.base_url, model="m"))
        (flag,) = run_checkup(memory, USER, judge=judge).flags
        (body,) = server.requests
    assert "loves road trips" in json.dumps(body) and "hates long drives" in json.dumps(body)
    assert flag.signals == ["model"] and flag.reason == "same activity"
