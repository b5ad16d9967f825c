"""Every case of ``shared/cases/capture.jsonl`` and ``capture-k2.jsonl``: user turns through
rule capture and the gate, in the library and through the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest

from penchant.memory import Memory

from conftest import load_cases, run_cli
from expectations import check_expectations

CAPTURE_CASES = load_cases("capture.jsonl") + load_cases("capture-k2.jsonl")


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


def _active(memory: Memory, user: str) -> list[tuple[str, list[str], str]]:
    return [(p.polarity, list(p.keywords), p.category) for p in memory.preferences(user)]


def test_apple_brand_does_not_supersede_apple_fruit(memory: Memory) -> None:
    memory.capture("u", "I love apples")
    memory.capture("u", "I hate Apple products")
    assert sorted(p.polarity for p in memory.preferences("u")) == ["dislike", "like"]
    assert {p.category for p in memory.preferences("u")} == {"food", "brand"}


def test_apple_brand_contradiction_still_resolves(memory: Memory) -> None:
    memory.capture("u", "I love Apple products")
    memory.capture("u", "I hate Apple products")
    assert [(p.polarity, p.category) for p in memory.preferences("u")] == [("dislike", "brand")]


@pytest.mark.parametrize(
    ("first", "second", "polarity"),
    [
        ("我喜欢塑料盒子", "我不要塑料的东西。", "dislike"),
        ("我不喜欢塑料盒子", "我喜欢塑料", "like"),
        ("I like plastic boxes", "I don't want plastic.", "dislike"),
        ("我喜歡塑膠盒子", "我不要塑料的东西。", "dislike"),
        ("我喜欢咖啡", "我不再喜欢咖啡了", "dislike"),
    ],
)
def test_chinese_modifier_and_no_longer_flip_through_the_gate(
    memory: Memory, first: str, second: str, polarity: str
) -> None:
    memory.capture("u", first)
    memory.capture("u", second)
    prefs = memory.preferences("u")
    assert [p.polarity for p in prefs] == [polarity], prefs


def test_unrelated_chinese_object_is_untouched(memory: Memory) -> None:
    memory.capture("u", "我喜欢塑料盒子")
    memory.capture("u", "我不喝饮料")
    assert sorted(p.polarity for p in memory.preferences("u")) == ["dislike", "like"]


def test_narrower_chinese_statement_leaves_the_broader_one(memory: Memory) -> None:
    memory.capture("u", "我喜欢塑料")
    memory.capture("u", "我不要塑料盒子")
    assert sorted(p.polarity for p in memory.preferences("u")) == ["dislike", "like"]


def test_elliptic_allergy_through_the_gate(memory: Memory) -> None:
    memory.capture("u", "I love nuts")
    memory.capture("u", "Please don't recommend anything with nuts, I'm allergic.")
    prefs = memory.preferences("u")
    assert [(p.polarity, list(p.keywords)) for p in prefs] == [("dislike", ["nut"])]


def test_two_allergies_are_two_dislikes(memory: Memory) -> None:
    memory.capture("u", "I'm allergic to nuts and shellfish")
    prefs = memory.preferences("u")
    assert sorted(k for p in prefs for k in p.keywords) == ["nut", "shellfish"]
    assert {p.polarity for p in prefs} == {"dislike"}
