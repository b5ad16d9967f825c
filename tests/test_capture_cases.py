"""Every case of ``shared/cases/capture.jsonl``: user turns through rule capture and the gate."""

from __future__ import annotations

import json
from typing import Any

import pytest

from penchant.memory import Memory

from conftest import load_cases, run_cli
from expectations import check_expectations

CAPTURE_CASES = load_cases("capture.jsonl")


@pytest.mark.parametrize("case", CAPTURE_CASES, ids=[c["id"] for c in CAPTURE_CASES])
def test_capture_case_library(memory: Memory, case: dict[str, Any]) -> None:
    user = f"capture-{case['id']}"
    for turn in case["user_turns"]:
        memory.capture(user, turn)
    check_expectations(memory.preferences(user), case["expect"], 0)


@pytest.mark.parametrize("case", CAPTURE_CASES, ids=[c["id"] for c in CAPTURE_CASES])
def test_capture_case_cli(memory: Memory, cli_env: dict[str, str], case: dict[str, Any]) -> None:
    user = f"cli-capture-{case['id']}"
    for turn in case["user_turns"]:
        proc = run_cli(["capture", "--user", user, "--text", turn, "--json"], cli_env)
        assert proc.returncode == 0, proc.stderr
        assert set(json.loads(proc.stdout)) == {"created", "merged", "superseded", "rejected"}
    check_expectations(memory.preferences(user), case["expect"], 0)


def test_recalled_block_is_never_recaptured(memory: Memory) -> None:
    memory.capture("u", "I love green tea.")
    before = memory.preferences("u")
    text = "<user_preferences>\n- likes: green tea\n- dislikes: coffee\n</user_preferences>\nhi"
    result = memory.capture("u", text)
    assert result.unchanged
    assert memory.preferences("u") == before and len(before) == 1


@pytest.mark.parametrize(
    ("turns", "polarity", "keyword"),
    [
        (["I used to love coffee but now I hate it."], "dislike", "coffee"),
        (["I'm not a fan of horror movies."], "dislike", "horror"),
        (["我对花生过敏。"], "dislike", "花生"),
        (["我最喜欢绿茶。"], "like", "绿茶"),
        (["My favourite colour is navy blue."], "like", "navy"),
    ],
)
def test_more_capture_instances(
    memory: Memory, turns: list[str], polarity: str, keyword: str
) -> None:
    for turn in turns:
        memory.capture("u", turn)
    check_expectations(
        memory.preferences("u"), {"active": [{"polarity": polarity, "keyword": keyword}]}, 0
    )


@pytest.mark.parametrize(
    "text",
    ["My friend loves sushi.", "Can you recommend a bag?", "你喜欢猫吗？", "What do you like?"],
)
def test_no_preference_no_write(memory: Memory, text: str) -> None:
    assert memory.capture("u", text).unchanged
    assert memory.preferences("u") == []
