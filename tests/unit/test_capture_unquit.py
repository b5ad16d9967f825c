"""A quit that does not happen ("still can't quit my Switch", "I'm not giving up cheese"): the
user keeps what they name, a like (``memory/core/capture/rules_en.py``, ``EN_UNQUIT``; issue
17). The rules had read the quitting words alone, and the statement head read them as a change
away: "has given up Nintendo Switch", "dislikes cheese". The sentences are new instances, not
rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "keyword"), [
    ("Honestly I still can't quit my Game Boy", "game boy"),
    ("I'll never give up dark chocolate", "dark chocolate"),
    ("I'm not giving up my vinyl collection, whatever anyone says", "vinyl"),
    ("I could never quit sourdough", "sourdough"),
])
def test_a_quit_that_does_not_happen_is_a_like(text: str, keyword: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert [c.polarity for c in found] == ["like"], found
    assert any(keyword in k.lower() for k in found[0].keywords)


@pytest.mark.parametrize("text", [
    "I can't quit vaping, any tips?",
    "I can't quit my job yet",
    "My brother can't give up energy drinks",
])
def test_an_addiction_a_job_or_someone_else_is_no_like(text: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert not [c for c in found if c.polarity == "like"], found


def test_a_quit_that_happens_stays_a_dislike() -> None:
    found = extract_preferences("I gave up soda last spring", reader=ClauseReader())
    assert [c.polarity for c in found] == ["dislike"]
