"""Every case of ``shared/cases/gate.jsonl``, ``gate-k2.jsonl`` and ``gate-k3.jsonl``, through
the library and through the CLI: the object kinds of issue 9 (keywords derived from content,
hyphen variants, protected allergies), the poison kinds of issue 11 (tag characters, look-alike
letters, traditional Chinese, directives, chat-template tokens, poisoned keywords), each of
which must be rejected with nothing stored, and the object kinds of issue 17 (flips without
keywords in natural phrasing, a head covering its modified forms, two modifiers of one head
kept apart, Chinese compounds kept whole, spelling and script variants merged, protected
allergies against a broader like, slots, forget at word boundaries, user ids that differ by a
diacritic)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from penchant.memory import Memory, PreferenceCandidate

from conftest import CliRunner, load_cases
from expectations import check_expectations

GATE_CASES = (
    load_cases("gate.jsonl")
    + load_cases("gate-k2.jsonl")
    + load_cases("gate-k3.jsonl")
    + load_cases("poison-k3.jsonl")
)
POISON_CASES = [case for case in GATE_CASES if case["id"].startswith("k2-poison")]


def _user(base: str, named: str | None) -> str:
    """The case's user, or one of its named users (``zoë`` and ``zoe`` are two)."""
    return f"{base}-{named}" if named else base


def _run_library(memory: Memory, user: str, steps: list[dict[str, Any]]) -> int:
    rejected = 0
    for step in steps:
        step_user = _user(user, step.get("user"))
        if step["op"] == "remember":
            candidate = PreferenceCandidate(
                content=step["content"],
                polarity=step["polarity"],
                keywords=step.get("keywords", []),
                category=step.get("category", "other"),
            )
            rejected += len(memory.remember(step_user, candidate).rejected)
        else:
            memory.forget(step_user, step["text"], step.get("polarity"))
    return rejected


@pytest.mark.parametrize("case", GATE_CASES, ids=[c["id"] for c in GATE_CASES])
def test_gate_case_library(memory: Memory, case: dict[str, Any]) -> None:
    user = f"case-{case['id']}"
    rejected = _run_library(memory, user, case["steps"])
    user = _user(user, case["expect"].get("user"))
    check_expectations(memory.preferences(user), case["expect"], rejected)


def _cli_step(step: dict[str, Any], user: str) -> list[str]:
    if step["op"] == "remember":
        args = ["remember", "--user", user, "--polarity", step["polarity"],
                "--content", step["content"], "--category", step.get("category", "other")]
        if step.get("keywords"):
            args += ["--keywords", ",".join(step["keywords"])]
        return [*args, "--json"]
    args = ["forget", "--user", user, step["text"], "--json"]
    return [*args, "--polarity", step["polarity"]] if step.get("polarity") else args


@pytest.mark.parametrize("case", GATE_CASES, ids=[c["id"] for c in GATE_CASES])
def test_gate_case_cli(
    cli: CliRunner, memory: Memory, cli_env: dict[str, str], case: dict[str, Any]
) -> None:
    user = f"cli-{case['id']}"
    rejected = 0
    for step in case["steps"]:
        proc = cli(_cli_step(step, _user(user, step.get("user"))), cli_env)
        document = json.loads(proc.stdout)
        refused = bool(document.get("rejected")) and not any(
            document.get(key) for key in ("created", "merged", "superseded"))
        assert proc.returncode == (2 if refused else 0), proc.stderr  # DESIGN.md §11
        rejected += len(document.get("rejected", []))
    user = _user(user, case["expect"].get("user"))
    proc = cli(["prefs", "--user", user, "--json"], cli_env)
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    check_expectations(memory.preferences(user), case["expect"], rejected)
    assert sorted(p["id"] for p in listed) == sorted(p.id for p in memory.preferences(user))


POISON_REASONS = {
    "k2-poison-tag-chars": "content hides text in invisible Unicode tag characters",
    "k2-poison-lookalike": "content tries to override the assistant's instructions",
    "k2-poison-trad-zh": "content tries to override the assistant's instructions",
    "k2-poison-directive": "content is a directive to the assistant",
    "k2-poison-chat-template": "content carries a chat-template token",
    "k2-poison-keywords": "keyword 'disregard the system",
}


@pytest.mark.parametrize("case", POISON_CASES, ids=[c["id"] for c in POISON_CASES])
def test_poison_case_is_rejected_with_the_reason_of_its_kind(
    memory: Memory, case: dict[str, Any]
) -> None:
    user = f"reason-{case['id']}"
    step = case["steps"][0]
    result = memory.remember(
        user,
        PreferenceCandidate(
            content=step["content"],
            polarity=step["polarity"],
            keywords=step.get("keywords", []),
            category=step.get("category", "other"),
        ),
    )
    assert len(result.rejected) == 1
    assert result.rejected[0].reason.startswith(POISON_REASONS[case["id"]])
    assert memory.preferences(user) == []
