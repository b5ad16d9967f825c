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


@pytest.mark.parametrize(("sentence", "whole", "member"), [
    ("I can't stand horror films, except for the old Hitchcock ones", "horror films",
     "old Hitchcock ones"),
    ("I rarely drink wine apart from Rioja", "wine", "Rioja"),
    ("奶酪我一般不吃，马苏里拉是例外", "奶酪", "马苏里拉"),
    ("甜点我很少碰，提拉米苏算个例外", "甜点", "提拉米苏"),
    ("家务我都懒得做，除了做饭", "家务", "做饭"),  # an aversion (懒得, 嫌) turns away too
    ("爬山我都嫌累，除了徒步", "爬山", "徒步"),
])
def test_the_exception_to_a_disliked_class_is_liked(sentence: str, whole: str, member: str) -> None:
    """A class the user turns away from ("never", "rarely", ``不``, ``很少``) is disliked and its
    exception liked; the kind once stored the class as liked and the exception as disliked,
    the opposite of what was said ("I never wear jewellery apart from my wedding ring")."""
    parts = read_structure(sentence, "exception", strict=True)
    assert parts is not None
    assert [(p.polarity, p.obj) for p in parts] == [("dislike", whole), ("like", member)]


@pytest.mark.parametrize("sentence", [
    "I'm not fussy, any curry works except korma",
    "Honestly I don't mind any kind of pasta, except for gnocchi",
])
def test_not_being_picky_is_no_turning_away(sentence: str) -> None:
    parts = read_structure(sentence, "exception", strict=True)
    assert parts is not None and parts[0].polarity == "like" and parts[-1].polarity == "dislike"


@pytest.mark.parametrize(("sentence", "loose"), [
    ("the gig was loud but fun", True),
    ("my sister loves jazz but not the free kind", True),
    ("it rained all week, not ideal", False),  # a cut at "not" with no class before it
])
def test_strict_exception_connectors_name_an_exception_alone(sentence: str, loose: bool) -> None:
    """"but" and "not" join any two clauses; only a sentence the head reads as an exception
    is cut at them, and only where a class comes before the cut."""
    assert (read_structure(sentence, "exception") is not None) is loose
    assert read_structure(sentence, "exception", strict=True) is None


@pytest.mark.parametrize(("sentence", "new"), [
    ("I've switched to decaf for good", "decaf"),
    ("牙膏换成含氟的了，以后就它了", "含氟"),
    ("换了降噪耳机之后地铁上清静多了", "降噪耳机"),
])
def test_a_switch_that_names_only_the_new_side_likes_it(sentence: str, new: str) -> None:
    parts = read_structure(sentence, "switch", strict=True)
    assert parts is not None and [(p.polarity, p.obj) for p in parts] == [("like", new)]


def test_from_now_on_is_a_time_not_the_side_switched_from() -> None:
    assert read_structure("From now on it's Aldi for groceries", "switch") is None


def test_a_value_before_its_slot_is_read_from_its_own_clause() -> None:
    (part,) = read_structure("Safari's gone, Arc is my browser now", "slot") or [None]
    assert part is not None and part.obj == "Arc"


@pytest.mark.parametrize(("sentence", "liked", "less"), [
    ("I'd much rather take the ferry than fly", "ferry", "fly"),
    ("Vinyl over streaming, every time", "Vinyl", "streaming"),
    ("lowkey prefer paperbacks to hardbacks", "paperbacks", "hardbacks"),
    ("比起外卖我更习惯自己做饭", "自己做饭", "外卖"),
    ("小米吊打华为，没得比", "小米", "华为"),
])
def test_a_comparison_named_alone_is_read_strictly(sentence: str, liked: str, less: str) -> None:
    parts = read_structure(sentence, "comparative", strict=True)
    assert parts is not None
    assert [(p.polarity, p.obj) for p in parts] == [("like", liked), ("dislike", less)]


@pytest.mark.parametrize(("sentence", "liked", "less"), [
    ("Given the choice I'll take a bike over a car", "bike", "car"),
    ("Given the option, I'll pick a pub quiz over a nightclub", "pub quiz", "nightclub"),
    ("given a choice, oat milk over dairy every time", "oat milk", "dairy"),
    ("Given the chance I'd pick trains over planes", "trains", "planes"),
])
def test_a_choice_framing_a_comparison_is_part_of_no_side(
    sentence: str, liked: str, less: str
) -> None:
    """"Given the choice" opens the sentence, as "Just so you know" does: it was the liked side
    (*prefers choice*, "less keen on car than choice")."""
    parts = read_structure(sentence, "comparative")
    assert parts is not None
    assert [(p.polarity, p.obj) for p in parts] == [("like", liked), ("dislike", less)]


@pytest.mark.parametrize("sentence", [
    "I have a strong aversion to pickled onions",
    "Spent the weekend over at my sister's place",
    "The meeting ran over time again",
    "I strongly dislike films that are over three hours long",  # a clause, not a noun phrase
    "I walked more than ten miles yesterday",
])
def test_over_to_and_than_inside_a_clause_name_no_comparison_strictly(sentence: str) -> None:
    assert read_structure(sentence, "comparative", strict=True) is None


@pytest.mark.parametrize(("sentence", "kind"), [
    ("I watch everything from anime to westerns", "switch"),  # a range
    ("I hate it when cafes serve oat milk instead of cow's milk", "switch"),
    ("The office switched from Zoom to Meet and it's awful", "switch"),  # an organisation
    ("My number one fear these days is wasps", "slot"),
    ("猫比狗麻烦多了", "comparative"),
    ("Gin over ice is my summer drink", "comparative"),  # a drink, not a comparison
])
def test_strict_connectors_read_no_range_grievance_organisation_or_fear(
    sentence: str, kind: str
) -> None:
    """Found by a second breaker pass: these were stored as the user's switch, favourite or
    comparison ("I hate it when restaurants serve margarine instead of butter" liked
    margarine)."""
    assert read_structure(sentence, kind, strict=True) is None


@pytest.mark.parametrize(("sentence", "liked", "less"), [
    ("I'd rather take the ferry than the plane", "ferry", "plane"),
    ("I would rather get the slow train than a cheap flight", "slow train", "cheap flight"),
    ("Paperbacks > hardbacks, not even close", "Paperbacks", "hardbacks"),
    ("I rate the Giro above the Tour", "Giro", "Tour"),
])
def test_a_comparison_the_head_reads_tries_the_strict_connectors_first(
    sentence: str, liked: str, less: str
) -> None:
    """Read loosely (the head reads a comparison), "I'd rather take the stairs than the lift"
    was cut by the generic "A than B" connector, so the liked side was ``take``; "A > B" and
    "rate A above B" were strict connectors only, so "Summer Olympics > Winter Olympics, not
    even close" stored ``dislikes Summer Olympics Winter Olympics``."""
    parts = read_structure(sentence, "comparative") or []
    assert [(p.polarity, p.obj) for p in parts] == [("like", liked), ("dislike", less)]
