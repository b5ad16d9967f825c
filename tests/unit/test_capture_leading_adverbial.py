"""A clause that opens with a time or cause before the user ("Since that trip I only drink
espresso", "After the move I…"): the words before "I" say when or why, not who
(``memory/core/capture/clauses.py``, issue 17). They had been read as another subject, and
the sentence stored nothing. The sentences are new instances, not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "polarity", "keyword"), [
    ("After the move I only shop at Aldi.", "like", "aldi"),
    ("Ever since college I only wear black.", "like", "black"),
    ("Since the accident I avoid motorways.", "dislike", "motorway"),
    ("Because of my job I hate Mondays.", "dislike", "monday"),
])
def test_a_time_or_cause_before_the_user_leaves_the_statement_the_users(
    text: str, polarity: str, keyword: str
) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [(polarity, [keyword])]


def test_another_subject_after_the_opening_is_still_someone_else() -> None:
    """Only the words before the user are read as the opening: "my wife likes jazz" is hers."""
    text = "Since my wife likes jazz I play it at home."
    found = extract_preferences(text, reader=ClauseReader())
    assert not any("jazz" in c.keywords for c in found)


@pytest.mark.parametrize(("text", "keyword"), [
    ("去年起只买鲁花了", "鲁花"),
    ("从去年开始我只喝美式", "美式"),
])
def test_a_chinese_start_that_lasts_to_now_is_no_subject(text: str, keyword: str) -> None:
    """``去年起`` / ``从去年开始``: since last year, so the stance holds now; the time word had
    been read as another subject, and nothing was stored."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [("like", [keyword])]
