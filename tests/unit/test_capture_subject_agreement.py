"""A plural subject and the bare verb after it (issue 17).

"Open-plan offices drain the life out of me": the word after a plural noun that takes no
-s is the subject's verb by agreement, so the object ends before it (*open-plan offices
drain* was stored). A run that ends in a plural ("board games the most") keeps it. The
sentences are new, written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.core.capture.kinds import pull_object_en

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("Open-plan offices drain the life out of me.", {("dislike", "open-plan office")}),
    ("Crowded trains ruin the whole commute for me.", {("dislike", "crowded train")}),
    ("Haunted houses scare the living daylights out of me.", {("dislike", "haunted house")}),
    ("Sea shanties lift the mood every time.", {("like", "sea shanty")}),
])
def test_the_verb_after_a_plural_subject_is_no_object(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want


@pytest.mark.parametrize(("clause", "want"), [
    ("I love board games the most", "board games"),
    ("Jigsaw puzzles are the best", "Jigsaw puzzles"),
])
def test_a_run_that_ends_in_a_plural_keeps_it(clause: str, want: str) -> None:
    assert pull_object_en(clause) == want
