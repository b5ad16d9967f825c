"""The helpers' training messages hold no text of an evaluation set.

The statement head learns every message of ``bench/corpus/statements/blind/`` and
``bench/corpus/statements/polarity/`` in its written form and as chat types it (lower case, no
final punctuation), so a training message that differs from an evaluation message only in
case or punctuation would be learned too: what ``bench/capture_quality.py`` reports as never
seen would not be.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from penchant.memory.core.capture.kinds import POLAR_KINDS

REPO = Path(__file__).resolve().parents[2]
STATEMENTS = REPO / "bench" / "corpus" / "statements"
TRAINING = sorted((STATEMENTS / "blind").glob("*.jsonl")) + sorted(
    (STATEMENTS / "polarity").glob("*.jsonl")
)


def _plain(text: str) -> str:
    """The text without case, punctuation or spacing differences."""
    return re.sub(r"[\W_]+", " ", text.casefold()).strip()


def _texts(path: Path) -> list[str]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return [row["text"] for row in rows if isinstance(row, dict) and "text" in row]


@pytest.fixture(scope="module")
def evaluation() -> set[str]:
    files = sorted((REPO / "bench" / "data").glob("*.jsonl")) + [STATEMENTS / "test.jsonl"]
    return {_plain(text) for path in files for text in _texts(path)}


def test_the_training_folders_are_there() -> None:
    assert {path.parent.name for path in TRAINING} == {"blind", "polarity"}
    assert all(_texts(path) for path in TRAINING)


@pytest.mark.parametrize("path", TRAINING, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_no_training_message_is_an_evaluation_message(path: Path, evaluation: set[str]) -> None:
    shared = [text for text in _texts(path) if _plain(text) in evaluation]
    assert shared == [], f"{len(shared)} messages of {path.name} are in an evaluation set"


@pytest.mark.parametrize("path", TRAINING, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_training_message_has_its_kind(path: Path) -> None:
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        assert row["lang"] in {"en", "zh"}, row
        assert row["kind"] in {"preference", "none"}, row
        if row["kind"] == "preference":
            assert row["group"] in POLAR_KINDS, row  # learned as that kind


HALVED = [REPO / "bench" / "data" / f"statements_{name}_blind.jsonl"
          for name in ("habits", "evaluations", "absence", "orders")] + [
    REPO / "bench" / "data" / "statements_orders_blind2.jsonl",
    REPO / "bench" / "data" / "statements_changes_blind.jsonl"]
"""Sets whose half 0 the statement head learns (``bench/train_statements.py``) or the team may
read (orders, changes), and whose half 1 is held out: a text of theirs in another evaluation set
would be learned or read in its half 0."""


@pytest.mark.parametrize("path", HALVED, ids=lambda path: path.name)
def test_no_message_of_a_halved_set_is_in_another_evaluation_set(path: Path) -> None:
    others = sorted((REPO / "bench" / "data").glob("*.jsonl")) + [STATEMENTS / "test.jsonl"]
    elsewhere = {_plain(text) for other in others if other != path for text in _texts(other)}
    shared = [text for text in _texts(path) if _plain(text) in elsewhere]
    assert _texts(path) and shared == [], f"{len(shared)} messages of {path.name} are elsewhere"
