"""A Chinese topic ``X的Y`` stays whole when ``Y`` names a thing (issue 17,
``memory/core/capture/kinds._leading_topic_zh``).

Before, the topic was cut at ``的``: ``苹果的耳机戴着耳朵疼`` stored a dislike of 苹果 (Apple,
not its earphones), ``健身房的音乐吵得我头疼`` a dislike of the gym. ``X的Y`` where ``Y`` is an
aspect of ``X`` (a sense, the user's bearing towards it, a time, "things") still names ``X``
(``lexicons.ZH_ASPECT_HEAD_RE``). The sentences are new instances, not rows of the bench sets.
"""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "polarity", "keywords"), [
    ("苹果的耳机戴着耳朵疼", "dislike", ["苹果", "耳机"]),
    ("健身房的音乐吵得我头疼", "dislike", ["健身房", "音乐"]),
    ("王家卫的电影看几遍都不腻", "like", ["王家卫", "电影"]),
    # an aspect of a thing names the thing
    ("芒果的味道我受不了", "dislike", ["芒果"]),
    ("我对登山的热情没了", "dislike", ["登山"]),
    ("抹茶味的东西我都爱", "like", ["抹茶味"]),
])
def test_whose_thing_is_the_object_and_an_aspect_names_the_thing(
    text: str, polarity: str, keywords: list[str], reader: ClauseReader
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, c.keywords) for c in found] == [(polarity, keywords)]
