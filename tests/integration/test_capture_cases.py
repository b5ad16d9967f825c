"""Every case of ``shared/cases/capture.jsonl``, ``capture-k2.jsonl`` and ``capture-k3.jsonl``:
user turns through capture (rules and the statement head) and the gate, in the library and
through the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest

from penchant.memory import Memory, Settings

from conftest import CliRunner, load_cases
from expectations import check_expectations

CAPTURE_CASES = (
    load_cases("capture.jsonl") + load_cases("capture-k2.jsonl") + load_cases("capture-k3.jsonl")
)
CROSS_LANGUAGE = {case["id"] for case in CAPTURE_CASES if case["id"].startswith("k3-xlang")}
"""Cases whose flip is stated in the other language: they need an embedder that places both
languages in one space (the default, USE multilingual); the hash fake has none, so these
run on the real one."""


@pytest.mark.parametrize("case", CAPTURE_CASES, ids=[c["id"] for c in CAPTURE_CASES])
def test_capture_case_library(
    memory: Memory, redis_client: Any, settings: Settings, request: pytest.FixtureRequest,
    case: dict[str, Any],
) -> None:
    user = f"capture-{case['id']}"
    if case["id"] in CROSS_LANGUAGE:
        memory = Memory(redis_client, settings=settings, embedder=request.getfixturevalue(
            "use_embedder"))
    for turn in case["user_turns"]:
        memory.capture(user, turn)
    check_expectations(memory.preferences(user), case["expect"], 0)


@pytest.mark.parametrize("case", CAPTURE_CASES, ids=[c["id"] for c in CAPTURE_CASES])
def test_capture_case_cli(
    cli: CliRunner, memory: Memory, cli_env: dict[str, str], case: dict[str, Any]
) -> None:
    user = f"cli-capture-{case['id']}"
    if case["id"] in CROSS_LANGUAGE:
        cli_env = {**cli_env, "PENCHANT_EMBEDDINGS": "use-multilingual"}
    for turn in case["user_turns"]:
        proc = cli(["capture", "--user", user, "--text", turn, "--json"], cli_env)
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


# --------------------------------------------------------------------------------------------
# Issue 9 kinds through the gate: what is active in Redis after each turn
# --------------------------------------------------------------------------------------------


def _state(memory: Memory, user: str) -> list[tuple[str, str]]:
    return sorted((p.polarity, " ".join(p.keywords)) for p in memory.preferences(user))


def test_newer_favourite_supersedes_the_older_in_its_slot_in_chinese(memory: Memory) -> None:
    memory.capture("u", "我最喜欢的作家是鲁迅。")
    result = memory.capture("u", "我现在最喜欢的作家是莫言。")
    assert [s.preference.keywords for s in result.superseded] == [["鲁迅"]]
    assert [(p.keywords, p.slot) for p in memory.preferences("u")] == [(["莫言"], "最喜欢的作家")]


def test_favourites_in_different_slots_are_kept(memory: Memory) -> None:
    memory.capture("u", "My favourite author is Ted Chiang.")
    memory.capture("u", "My favourite band is Wilco.")
    assert {p.slot for p in memory.preferences("u")} == {"favorite author", "favorite band"}


def test_switch_supersedes_the_like_of_what_was_left(memory: Memory) -> None:
    memory.capture("u", "我喜欢喝咖啡。")
    memory.capture("u", "我从咖啡换成茶了。")
    assert _state(memory, "u") == [("dislike", "咖啡"), ("like", "茶")]


def test_a_choice_with_the_other_side_judged_supersedes_the_like_of_it(memory: Memory) -> None:
    """"…, LastPass got breached way too many times" beside the choice of Bitwarden: the
    older like of LastPass is superseded, and the change log says so (issue 17: it had stayed
    active, the verdict stored nothing)."""
    memory.capture("u", "I love LastPass.")
    result = memory.capture("u", "I use Bitwarden now, LastPass got breached way too many times")
    assert [s.preference.keywords for s in result.superseded] == [["lastpass"]]
    assert _state(memory, "u") == [("dislike", "lastpass"), ("like", "bitwarden")]
    assert any("lastpass" in str(event) for event in memory.changes("u"))


def test_comparison_does_not_leave_the_other_object_liked(memory: Memory) -> None:
    memory.capture("u", "I love coffee.")
    memory.capture("u", "I prefer tea over coffee.")
    assert _state(memory, "u") == [("dislike", "coffee"), ("like", "tea")]


def test_exception_supersedes_a_like_of_the_exception(memory: Memory) -> None:
    memory.capture("u", "I love eggplant.")
    memory.capture("u", "I like all vegetables except eggplant.")
    assert _state(memory, "u") == [("dislike", "eggplant"), ("like", "vegetable")]


def test_quitting_supersedes_the_like(memory: Memory) -> None:
    memory.capture("u", "I love smoking cigars.")
    memory.capture("u", "I quit smoking cigars.")
    assert _state(memory, "u") == [("dislike", "cigar")]


def test_allergy_is_stored_protected(memory: Memory) -> None:
    memory.capture("u", "I'm allergic to peanuts.")
    assert [(p.polarity, p.protected) for p in memory.preferences("u")] == [("dislike", True)]


def test_broader_like_never_supersedes_a_protected_allergy(memory: Memory) -> None:
    memory.capture("u", "I'm allergic to tree nuts.")
    result = memory.capture("u", "I love nuts.")
    assert result.superseded == []
    assert _state(memory, "u") == [("dislike", "tree nut"), ("like", "nut")]


@pytest.mark.parametrize(
    ("allergy", "retraction"),
    [
        ("I'm allergic to peanuts.", "I'm no longer allergic to peanuts."),
        ("我对花生过敏。", "我对花生不再过敏了。"),
        # issue 17: a clause after the retraction (a new subject) is no part of its object
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, the clinic retested me."),
        ("I'm allergic to walnuts.", "I'm no longer allergic to walnuts, my GP checked us both."),
    ],
)
def test_explicit_retraction_supersedes_the_allergy(
    memory: Memory, allergy: str, retraction: str
) -> None:
    memory.capture("u", allergy)
    result = memory.capture("u", retraction)
    assert len(result.superseded) == 1 and result.superseded[0].preference.protected
    # issue 17: taking an allergy back is no like of the object; nothing else is stored
    assert memory.preferences("u") == [] and result.created == []


@pytest.mark.parametrize(
    "turns",
    [
        ["I love jazz.", "Great, I love that suggestion!"],
        ["I love jazz.", "Suppose I hated jazz, what then?"],
        ["我喜欢爵士乐。", "好主意，这个建议不错。"],
    ],
)
def test_reaction_or_hypothetical_leaves_the_store_unchanged(
    memory: Memory, turns: list[str]
) -> None:
    memory.capture("u", turns[0])
    before = memory.preferences("u")
    assert memory.capture("u", turns[1]).unchanged
    assert memory.preferences("u") == before


@pytest.mark.parametrize(
    ("before", "after", "keyword"),
    [
        ("I don't like plastic.", "Actually I've changed my mind, plastic is fine now", "plastic"),
        ("I hate olives.", "Olives have really grown on me.", "olive"),
        ("我不吃香菜。", "我已经不讨厌香菜了。", "香菜"),
    ],
)
def test_mild_acceptance_flips_the_older_dislike(
    memory: Memory, before: str, after: str, keyword: str
) -> None:
    memory.capture("mild", before)
    memory.capture("mild", after)
    prefs = memory.preferences("mild")
    assert [p.polarity for p in prefs if any(keyword in k for k in p.keywords)] == ["like"]


def test_mild_acceptance_never_lifts_an_allergy(memory: Memory) -> None:
    memory.capture("mild", "I'm allergic to peanuts.")
    memory.capture("mild", "Peanuts are fine now.")
    assert any(p.protected and p.polarity == "dislike" for p in memory.preferences("mild"))
