"""bench/scale.py's baseline: the raw transaction replays exactly what a gate commit wrote."""

from __future__ import annotations

import sys
from pathlib import Path

from penchant.memory import Memory
from penchant.memory.keys import UserKeys

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import scale  # noqa: E402


def test_raw_transaction_writes_what_the_gate_commit_wrote(memory: Memory) -> None:
    user = UserKeys.for_user("u")
    with scale.captured_commits(memory) as calls:
        memory.remember("u", [scale.candidate(1), scale.candidate(2, "dislike")])
    assert len(calls) == 1
    commands = scale.commit_commands(memory, calls[0])
    assert {c[0] for c in commands} >= {"HSET", "XADD"}
    scale.raw_transaction_ms(memory.client, user.tag, commands)
    raw = UserKeys.for_user("bench-raw")
    assert memory.client.hgetall(raw.prefs) == memory.client.hgetall(user.prefs)
    assert memory.client.hgetall(raw.vectors) == memory.client.hgetall(user.vectors)
    assert memory.client.xlen(raw.changes) == memory.client.xlen(user.changes)
    assert memory.client.get(raw.rev) is not None


def test_the_capture_leaves_the_backend_as_it_was(memory: Memory) -> None:
    with scale.captured_commits(memory):
        pass
    assert "commit" not in vars(memory.backend)  # the class's method again
    memory.remember("u", scale.candidate(3))
    assert [p.content for p in memory.preferences("u")] == ["likes product line 3 in canvas"]


def test_ratios_and_targets_name_each_missed_target() -> None:
    figures = {"gate_ms_p50_1k": 1.0, "gate_ms_p50_10k": 2.5, "raw_txn_ms_p50_10k": 1.0,
               "recall_warm_ms_p50_10k": 10.0, "recall_after_write_ms_p50_10k": 15.0,
               "recall_after_other_writer_ms_p50_10k": 40.0, "checkup_s_2k": 8.0}
    figures.update(scale.ratios(figures))
    rows = {name: share for name, _value, _target, share in scale.target_rows(figures)}
    assert rows["gate_10k_vs_1k"] == 1.25  # 2.5× against a target of 2×: missed
    assert rows["gate_10k_vs_raw"] < 1.0
    assert rows["recall_after_write_vs_warm_10k"] == 0.75
    assert rows["recall_after_other_vs_warm_10k"] > 1.0
    assert rows["checkup_s_2k"] == 0.8
    assert "cli_cold_s_10k_users" not in rows  # not measured: no row
