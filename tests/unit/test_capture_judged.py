"""What the user chose against and judged badly, with no verb of disliking, is a dislike of it
(``alternatives.py``, the verdict head of ``verdicts.py``; issue 17). "I use Bitwarden now,
LastPass got breached way too many times" had stored the like of Bitwarden alone, so a like
of LastPass stayed active. A complaint beside a like with no choice in it, someone else's
verdict and a plain fact about the other thing store no dislike. The sentences are new
instances, not rows of the bench files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from retrained import RETRAINED

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture.statements import KINDS
from penchant.memory.core.capture.verdicts import (
    VERDICT_HEAD_PATH,
    VERDICTS,
    VerdictHead,
    default_verdict_head,
)
from penchant.memory.model import ModelIntegrityError

Captured = Callable[[str], list[tuple[str, list[str]]]]


@pytest.mark.parametrize(("text", "chosen", "judged"), [
    ("I only shop at Aldi these days, Safeway is a total rip-off", "aldi", "safeway"),
    ("Switched to Bitwarden, LastPass got breached way too many times", "bitwarden", "lastpass"),
    ("Pour-over only for me now, the Keurig coffee tasted like wet cardboard", "pour-over",
     "keurig coffee"),
    ("现在打车只用高德，滴滴的加价太离谱了", "高德", "滴滴"),
    ("键盘换成静电容了，青轴吵得要死", "静电容", "青轴"),
    pytest.param("现在只喝美式，星巴克的拿铁甜得发腻", "美式", "星巴克", marks=pytest.mark.xfail(
        strict=True, reason=RETRAINED.format(
            "the sentence otherwise, and the judged side's dislike is lost"))),
])
def test_the_other_side_of_a_choice_judged_badly_is_a_dislike(
    captured: Captured, text: str, chosen: str, judged: str
) -> None:
    """The like of what was chosen stays; the thing judged is disliked, by its own name
    (not "LastPass got", not ``星巴克的拿铁甜``)."""
    found = captured(text)
    assert ("like", [chosen]) in found
    assert ("dislike", [judged]) in found
    assert not any(p == "like" and judged in k for p, k in found)


@pytest.mark.parametrize("text", [
    "I love hiking, the trail near me gets way too crowded",  # no choice in it
    "I only shop at Aldi these days, my sister says Safeway is overpriced",  # another's
    "Switched to Bitwarden, LastPass is owned by GoTo now",  # a fact
    "现在只用高德，滴滴今天在打折",  # a fact of today
    "I've moved to Linear, had to ask my boss for the license",  # no thing opens the piece
])
def test_no_dislike_without_a_choice_and_a_verdict_of_the_users_own(
    captured: Captured, text: str
) -> None:
    """Nothing is disliked: the rules' reading alone."""
    assert not any(p == "dislike" for p, _ in captured(text))


def test_the_verdict_head_reads_three_verdicts_of_each_clause() -> None:
    """Rows of probabilities over favourable, unfavourable and neutral, summing to 1."""
    head = default_verdict_head()
    texts = ["this blender is a lifesaver", "the blender leaks every time", "the blender is blue"]
    vectors = np.random.default_rng(0).normal(size=(3, head.dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    probs = head.probabilities(vectors, texts=texts)
    assert probs.shape == (3, len(VERDICTS))
    assert np.allclose(probs.sum(axis=1), 1.0)


def test_the_clause_reader_judges_on_demand(reader: ClauseReader) -> None:
    """The reader's :meth:`judge` gives the verdict head's reading; a complaint reads
    unfavourable above a plain fact."""
    complaint, fact = reader.judge(["the Keurig coffee tastes like wet cardboard",
                                    "the Keurig is in the kitchen"])
    bad = VERDICTS.index("unfavourable")
    assert len(complaint) == len(VERDICTS) and complaint[bad] > fact[bad]


def test_a_verdict_file_that_differs_from_its_digest_is_refused(tmp_path: Path) -> None:
    """A changed weight file is not read (the digest is pinned)."""
    changed = tmp_path / "verdicts.npz"
    changed.write_bytes(VERDICT_HEAD_PATH.read_bytes() + b"\0")
    with pytest.raises(ModelIntegrityError, match="verdict head"):
        VerdictHead.load(changed, "0" * 64, "verdict head")


def test_a_head_with_other_outputs_is_refused() -> None:
    """A statement head's weights (twelve kinds) do not load as the verdict head."""
    k = len(KINDS)
    with pytest.raises(ModelIntegrityError, match="kinds"):
        VerdictHead(np.zeros((512, k), np.float32), np.zeros(k, np.float32), KINDS)
