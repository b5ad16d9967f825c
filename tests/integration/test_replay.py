"""``penchant replay``: a scripted conversation through the agent graph, on real Redis.

The English + Chinese conversation in ``examples/conversation_en_zh.json`` states
preferences, flips one in each language and then asks for recommendations; the
offline model answers from the injected memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis

from penchant.agent.replay import GATE_KEYS, parse_turns, replay_file
from penchant.memory import InvalidInputError, Memory, Settings
from penchant.memory.model.keys import UserKeys

from conftest import REPO, CliRunner

CONVERSATION = REPO / "examples" / "conversation_en_zh.json"
USER = "replayer"


def stored(memory: Memory, user: str = USER) -> set[tuple[str, str]]:
    """``(polarity, keyword)`` for every keyword of every active preference."""
    return {(p.polarity, k) for p in memory.preferences(user) for k in p.keywords}


def reply_to(document: dict[str, Any], prefix: str) -> str:
    return next(t["assistant"] for t in document["turns"] if t["user"].startswith(prefix))


@pytest.fixture
def replayed(memory: Memory) -> dict[str, Any]:
    return replay_file(memory, CONVERSATION, USER)


def test_english_flip_replaces_the_like_with_the_dislike(
    memory: Memory, replayed: dict[str, Any]
) -> None:
    prefs = stored(memory)
    assert ("dislike", "plastic") in prefs
    assert not any(polarity == "like" and "plastic" in k for polarity, k in prefs)


def test_chinese_flip_replaces_the_like_with_the_dislike(
    memory: Memory, replayed: dict[str, Any]
) -> None:
    prefs = stored(memory)
    assert ("dislike", "辣") in prefs
    assert ("like", "辣") not in prefs


def test_unrelated_preferences_survive_the_flips(memory: Memory, replayed: dict[str, Any]) -> None:
    prefs = stored(memory)
    assert {("like", "wool"), ("dislike", "cilantro"), ("like", "绿茶")} <= prefs


def test_the_flip_turns_report_what_they_superseded(replayed: dict[str, Any]) -> None:
    flips = [t for t in replayed["turns"] if t["memory"]["superseded"]]
    assert len(flips) == 2
    assert flips[0]["user"].startswith("Actually") and flips[1]["user"].startswith("其实")
    assert flips[0]["memory"]["superseded"][0]["polarity"] == "like"
    assert flips[0]["memory"]["created"][0]["keywords"] == ["plastic"]
    assert flips[1]["memory"]["superseded"][0]["keywords"] == ["辣"]


def test_english_recommendation_avoids_the_new_dislike(replayed: dict[str, Any]) -> None:
    reply = reply_to(replayed, "Can you recommend a water bottle")
    assert "avoid plastic" in reply
    assert "lean toward plastic" not in reply


def test_chinese_recommendation_avoids_the_new_dislike(replayed: dict[str, Any]) -> None:
    reply = reply_to(replayed, "推荐")
    assert "避开辣" in reply
    assert "优先考虑辣" not in reply


def test_every_turn_has_the_user_text_a_reply_and_the_gate_result(
    replayed: dict[str, Any],
) -> None:
    turns = json.loads(CONVERSATION.read_text(encoding="utf-8"))["turns"]
    assert [t["user"] for t in replayed["turns"]] == turns
    for turn in replayed["turns"]:
        assert turn["assistant"].startswith("[")  # the offline model labels itself
        assert set(GATE_KEYS) <= set(turn["memory"])
        assert "errors" not in turn["memory"]  # only present when something failed


def test_the_turns_share_one_thread(memory: Memory, replayed: dict[str, Any]) -> None:
    pattern = f"{UserKeys.for_user(USER).tag}:thread:*"
    threads = list(memory.client.scan_iter(match=pattern))
    assert len(threads) == 1
    assert memory.client.llen(threads[0]) == 2 * len(replayed["turns"])


def test_cli_replay_prints_the_turns_as_json(
    cli: CliRunner, memory: Memory, cli_env: dict[str, str]
) -> None:
    done = cli(["replay", str(CONVERSATION), "--user", USER, "--json"], cli_env)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert len(document["turns"]) == 11
    assert all(set(t) == {"user", "assistant", "memory"} for t in document["turns"])
    assert ("dislike", "plastic") in stored(memory) and ("like", "辣") not in stored(memory)


BAD_FILES = {
    "not_json": ("{turns: nope", "is not JSON"),
    "no_turns": ('{"messages": ["hi"]}', 'no "turns"'),
    "turns_not_a_list": ('{"turns": "I like tea"}', "must be a list"),
    "empty_turns": ('{"turns": []}', "is empty"),
    "non_string_turn": ('{"turns": ["I like tea", 42]}', "turn 2 is int"),
    "blank_turn": ('{"turns": ["I like tea", "  "]}', "turn 2 is blank"),
    "top_level_list": ('["I like tea"]', 'no "turns"'),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_is_rejected_before_any_turn_runs(
    case: str, memory: Memory, tmp_path: Path
) -> None:
    text, message = BAD_FILES[case]
    path = tmp_path / "conversation.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=message):
        replay_file(memory, path, USER)
    assert memory.preferences(USER) == []


def test_a_missing_file_is_invalid_input(memory: Memory, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="cannot read"):
        replay_file(memory, tmp_path / "absent.json", USER)


def test_parse_turns_accepts_unicode_and_keeps_order() -> None:
    assert parse_turns('{"turns": ["我不喜欢塑料", "hi"]}') == ["我不喜欢塑料", "hi"]


@pytest.mark.parametrize("case", ["not_json", "empty_turns", "non_string_turn"])
def test_cli_bad_file_exits_2_with_one_line_and_stores_nothing(
    cli: CliRunner, case: str, memory: Memory, cli_env: dict[str, str], tmp_path: Path
) -> None:
    text, message = BAD_FILES[case]
    path = tmp_path / "conversation.json"
    path.write_text(text, encoding="utf-8")
    done = cli(["replay", str(path), "--user", USER, "--json"], cli_env)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert memory.preferences(USER) == []
    assert memory.history(USER) == []


@pytest.mark.model
@pytest.mark.parametrize("model", ["use", pytest.param("minilm", marks=pytest.mark.minilm)])
def test_recommendations_avoid_the_new_dislikes_with_the_real_embedder(
    redis_client: redis.Redis, settings: Settings, request: pytest.FixtureRequest, model: str
) -> None:
    from penchant.memory.embeddings import LocalEmbedder

    embedder = request.getfixturevalue("use_embedder") if model == "use" else LocalEmbedder()
    real = Memory(redis_client, settings=settings, embedder=embedder)
    real.backend.ensure_schema()
    document = replay_file(real, CONVERSATION, USER)
    assert "avoid plastic" in reply_to(document, "Can you recommend a water bottle")
    assert "避开辣" in reply_to(document, "推荐")
