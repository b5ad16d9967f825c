"""bench/scale.py: the raw baseline replays exactly what the gate wrote, and the gate's write
mix does what it says (new preferences create, repeats merge, flips supersede, keywordless
candidates get derived objects, typos merge into the stored head)."""

from __future__ import annotations

import sys
from pathlib import Path

from penchant.memory import Memory
from penchant.memory.core.matching import is_transposition_typo
from penchant.memory.model.keys import UserKeys

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


def _replay_all(memory: Memory, user: str, calls: list) -> None:
    tag = UserKeys.for_user(user).tag
    for call in calls:
        scale.raw_transaction_ms(memory.client, tag, scale.commit_commands(memory, call))


def test_raw_replay_of_the_fill_and_the_mix_writes_what_the_gate_stored(memory: Memory) -> None:
    workload = scale.Workload()
    with scale.captured_commits(memory) as calls:
        workload.fill(memory, "u", 40)
        for _ in range(2 * len(scale.MIX_KINDS)):
            memory.remember("u", workload.next_write().candidate)
    assert len(calls) == 1 + 2 * len(scale.MIX_KINDS)  # one fill batch, one commit a write
    _replay_all(memory, "u", calls)
    user, raw = UserKeys.for_user("u"), UserKeys.for_user("bench-raw")
    assert memory.client.hgetall(raw.prefs) == memory.client.hgetall(user.prefs)
    assert memory.client.hgetall(raw.vectors) == memory.client.hgetall(user.vectors)
    assert memory.client.hgetall(raw.tombstones) == memory.client.hgetall(user.tombstones)
    assert memory.client.xlen(raw.changes) == memory.client.xlen(user.changes)


def test_each_kind_of_the_mix_does_what_it_is_named_for(memory: Memory) -> None:
    workload = scale.Workload()
    workload.fill(memory, "u", 60)
    seen = []
    for _ in range(2 * len(scale.MIX_KINDS)):  # keywordless: a new entry, then a restatement
        before = {p.id: p for p in memory.preferences("u")}
        stored_keywords = {p.keywords[0] for p in before.values()}
        write = workload.next_write()
        result = memory.remember("u", write.candidate)
        after = {p.id: p for p in memory.preferences("u")}
        assert not result.rejected, (write.kind, result.rejected)
        expected = scale.keyword(write.entry)
        if write.kind in ("new", "keywordless") and expected not in stored_keywords:
            (created,) = result.created  # a keywordless one gets the entry's keyword derived
            assert created.keywords == [expected] and not result.merged
            assert len(after) == len(before) + 1
            seen.append(write.kind + (" (derived)" if not write.candidate.keywords else ""))
        elif write.kind == "flip":
            (gone,) = result.superseded
            (created,) = result.created
            old = before[gone.preference.id]
            assert old.keywords[0] == expected and created.keywords == [expected]
            assert old.polarity != created.polarity == write.candidate.polarity
            assert gone.preference.id not in after and len(after) == len(before)
            seen.append("flip")
        else:  # repeat, keywordless restatement, typo: one merge into the stored preference
            assert not result.created and not result.superseded and len(after) == len(before)
            (merged,) = result.merged
            stored = before[merged.id]
            assert stored.keywords[0] == expected
            assert merged.mention_count == stored.mention_count + 1
            if write.kind == "typo":
                stored_head = expected.rsplit(" ", 1)[1]
                typo_head = write.candidate.keywords[0].rsplit(" ", 1)[1]
                assert typo_head != stored_head and is_transposition_typo(typo_head, stored_head)
            seen.append(write.kind)
    assert set(seen) == {"new", "repeat", "flip", "keywordless (derived)", "keywordless", "typo"}


def test_the_mix_cycles_through_every_kind_and_flips_against_the_stored_polarity() -> None:
    workload = scale.Workload()
    workload.stored, workload.polarity = [0, 1, 3], {0: "like", 1: "like", 3: "like"}
    workload.next_index = 10
    writes = []
    for _ in range(6 * len(scale.MIX_KINDS)):
        polarity_before = dict(workload.polarity)
        write = workload.next_write()
        writes.append(write)
        if write.kind == "flip":
            assert write.candidate.polarity != polarity_before[write.entry]
        if write.kind in ("repeat", "typo"):
            assert write.candidate.polarity == polarity_before[write.entry]
    assert [w.kind for w in writes[: len(scale.MIX_KINDS)]] == list(scale.MIX_KINDS)
    new = [w.entry for w in writes if w.kind == "new"]
    assert len(set(new)) == len(new) == 6 and min(new) >= 10
    assert all(w.candidate.keywords == [] for w in writes if w.kind == "keywordless")


def test_vocabulary_has_distinct_english_heads_and_chinese_entries() -> None:
    entries = [scale.keyword(i) for i in range(50_000)]
    english = [k for i, k in enumerate(entries) if not scale.is_chinese(i)]
    heads = {k.rsplit(" ", 1)[1] for k in english}
    assert len(set(entries)) == 50_000
    assert len(heads) == len(english) == 45_000
    assert all(h.isalpha() and h.isascii() for h in heads)
    assert sum(len(h) >= 7 for h in heads) > 0.7 * len(heads)  # most are under the typo rule
    assert all(scale.content(i, "dislike").startswith("不喜欢") for i in range(9, 200, 10))
