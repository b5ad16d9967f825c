"""Structure connectors (``memory/core/capture/structures.py``): the parts of a sentence the
statement head reads as a slot or an exception, on phrasings beyond "my favourite S is V"
and beyond ``除了M…都…`` (issue 17, found on ``bench/data/statements_kinds_dev.jsonl``; the
sentences here are new instances, not rows of that file)."""

from __future__ import annotations

import pytest

from penchant.memory.core.capture.structures import read_structure


@pytest.mark.parametrize(("sentence", "value", "slot"), [
    ("my default running shoe is the Pegasus now", "Pegasus", "favorite running shoe"),
    ("current gym playlist: lo-fi beats", "lo-fi beats", "favorite gym playlist"),
    ("Favourite podcast at the moment is Radiolab", "Radiolab", "favorite podcast"),
    ("Obsidian is my notes app now", "Obsidian", "favorite notes app"),
    ("These days I'm using Kagi as my main search engine", "Kagi", "favorite search engine"),
    ("The only sunscreen I buy now is La Roche-Posay", "La Roche-Posay", "favorite sunscreen"),
    ("我现在的主力相机是富士XT5", "富士XT5", "最喜欢的相机"),
    ("最近通勤默认听播客", "播客", "最喜欢的通勤"),
])
def test_a_current_or_default_choice_is_a_slot(sentence: str, value: str, slot: str) -> None:
    (part,) = read_structure(sentence, "slot") or [None]
    assert part is not None and part.polarity == "like"
    assert part.obj == value and part.slot == slot


@pytest.mark.parametrize("sentence", [
    "my sister is a nurse now",
    "John is my cousin",
])
def test_a_person_or_a_role_is_no_slot(sentence: str) -> None:
    assert read_structure(sentence, "slot") is None


@pytest.mark.parametrize(("sentence", "whole", "member"), [
    ("海鲜我都爱，生蚝除外，太腥", "海鲜", "生蚝"),
    ("火锅底料我啥都吃，番茄锅真不行", "火锅底料", "番茄锅"),
    ("电影我基本都看，恐怖片看不下去", "电影", "恐怖片"),
])
def test_a_class_with_its_exception_marked_on_the_member(
    sentence: str, whole: str, member: str
) -> None:
    """``C我都V，M除外/不行``: the class is liked and the member disliked, never the class
    disliked (``蔬菜我啥都吃，唯独苦瓜下不去嘴`` stored ``不喜欢蔬菜``)."""
    parts = read_structure(sentence, "exception")
    assert parts is not None
    assert [(p.polarity, p.obj) for p in parts] == [("like", whole), ("dislike", member)]
