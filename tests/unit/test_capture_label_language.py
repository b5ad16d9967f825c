"""A preference's content is in the language of the words it was read in, not of its object
(issue 17).

A user writing English names a dish in Chinese ("I used to hate 臭豆腐 but now I love it"),
one writing Chinese names a product in English (``以前觉得Vim难用，现在离不开了``). The
label of a change of mind followed the object's script, so the first was stored as
``现在喜欢臭豆腐`` beside English content for everything else the user said. The sentences
are new, written for this test."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.kinds import EN_LABELS, ZH_LABELS, labels_for


@pytest.mark.parametrize(("text", "obj", "labels"), [
    ("I used to hate 臭豆腐 but now I love it", "臭豆腐", EN_LABELS),
    ("but now I love it", "臭豆腐", EN_LABELS),
    ("以前觉得Vim难用，现在离不开了", "Vim", ZH_LABELS),
    ("我以前讨厌榴莲", "榴莲", ZH_LABELS),
    ("I used to hate durian", "durian", EN_LABELS),
    ("臭豆腐!", "臭豆腐", ZH_LABELS),  # only the object: its own language
    ("Vim?", "Vim", EN_LABELS),
    ("臭豆腐yyds", "臭豆腐", ZH_LABELS),  # chat slang, no English words
    ("臭豆腐 is the best", "臭豆腐", EN_LABELS),
])
def test_the_labels_follow_the_words_around_the_object(
    text: str, obj: str, labels: dict[str, str]
) -> None:
    assert labels_for(text, obj) is labels


@pytest.mark.parametrize(("text", "content"), [
    ("I used to hate 臭豆腐 but now I love it", "now likes 臭豆腐"),
    ("I was never into 螺蛳粉, but now I'm hooked on it", "now likes 螺蛳粉"),
    ("以前觉得Vim难用，现在离不开了", "现在喜欢Vim"),
])
def test_a_change_of_mind_is_stored_in_the_language_it_was_said_in(
    text: str, content: str, reader: ClauseReader
) -> None:
    stored = [(c.polarity, c.content) for c in extract_preferences(text, reader=reader)]
    assert stored == [("like", content)]
