"""A switch, comparison or exception no connector cuts is read for its sides by the object
tagger (issue 17, ``memory/core/capture/tagged_sides.structure_sides`` and
``exception_sides``).

Before, "I've gone over to Linux Mint permanently, Windows and me are done" stored nothing:
no connector ("from … to", "swapped … for") cuts it, and the statement head reads one
polarity for the sentence as a whole. The structure head reads a switch, and the tagger
marks the object now liked and the one left; likewise the preferred and the lesser side of a
comparison, and the class and the member of an exception. The sentences are new instances,
written for this test, of the kinds of ``bench/data/statements_kinds_blind4.jsonl``."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from retrained import RETRAINED

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("I've gone over to Linux Mint permanently, Windows and me are done",
     {("like", "linux mint")}),
    ("I shop at Aldi exclusively now, Tesco lost me with those prices", {("like", "aldi")}),
    ("I use DuckDuckGo exclusively now, Google kept tracking everything",
     {("like", "duckduckgo"), ("dislike", "google")}),
    ("I've moved to Proton Mail for good, Gmail and me are finished", {("like", "proton mail")}),
    # the rules read both sides now: "KLM exclusively", and "Ryanair lost me" (LET_DOWN)
    ("I fly KLM exclusively now, Ryanair lost me after the last delay",
     {("like", "klm"), ("dislike", "ryanair")}),
    # a comparison: the side preferred, and the other where it is disliked
    pytest.param("牙刷还是电动的好用，手动的刷不干净", {("like", "电动"), ("dislike", "手动")},
                 marks=pytest.mark.xfail(strict=True, reason=RETRAINED.format(
            "the sentence otherwise, and the other side's dislike is lost"))),
])
def test_a_switch_or_comparison_no_connector_cuts_stores_the_side_turned_to_or_preferred(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    found = stored(text)
    assert want <= found
    assert not {("dislike", k) for p, k in want if p == "like"} & found


@pytest.mark.parametrize("text", [
    "I took the bus instead of the tram today because of the strike",
    "My brother went over to Linux Mint permanently, Windows and him are done",
    "thinking about moving from Lloyds to Monzo, any thoughts?",
    "We replaced the carpet in the hallway with tiles last week",
])
def test_a_switch_for_one_occasion_or_someone_else_stores_nothing(
    text: str, stored: Stored
) -> None:
    assert stored(text) == set()


@pytest.mark.parametrize(("text", "want"), [
    ("my commute is a Brompton now instead of the Tube", ("like", "brompton")),
    ("My note taking is all Notion now, paper planners never stuck", ("like", "notion")),
    ("现在下班都约同事打台球，不刷剧了", ("like", "台球")),
    ("it's bouldering with friends every Saturday now, the gym bored me", ("like", "bouldering")),
])
def test_the_users_own_thing_or_company_is_no_one_elses_switch(
    text: str, want: tuple[str, str], stored: Stored
) -> None:
    """"my ride to work…" is the user's (the speaker reader takes any "my …" for someone
    else, as in "my wife cooks"), and friends the user does a thing with hold no taste:
    these had stored no like of what the user turned to."""
    assert want in stored(text)


@pytest.mark.parametrize("text", [
    "my sister rides an e-bike now instead of the train",
    "My dog only eats salmon kibble now, chicken upsets his stomach",
    "My in-laws switched to oat milk, dairy doesn't agree with them",
])
def test_a_switch_of_someone_the_user_names_with_my_stays_theirs(
    text: str, stored: Stored
) -> None:
    assert not {p for p, _ in stored(text)} & {"like"}


def test_the_side_told_as_the_past_is_not_liked_now(stored: Stored) -> None:
    found = stored("I used to be a Canon guy, but I shoot only Sony now.")
    assert ("like", "canon") not in found


@pytest.mark.parametrize(("text", "want"), [
    ("Cheese of any kind is great, feta is my one exception",
     {("like", "cheese"), ("dislike", "feta")}),
    ("运动我基本都讨厌，除了游泳", {("dislike", "运动"), ("like", "游泳")}),
    ("水果我都爱吃，除了榴莲", {("like", "水果"), ("dislike", "榴莲")}),
])
def test_an_exception_stores_both_sides(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    found = stored(text)
    assert want <= found
    assert not {("like" if p == "dislike" else "dislike", k) for p, k in want} & found


@pytest.mark.parametrize(("text", "liked"), [
    ("Football is fine but I love basketball.", "basketball"),
    ("Cycling is okay, but I really love rowing", "rowing"),
    ("Audiobooks are alright but honestly I adore vinyl.", "vinyl"),
])
def test_a_but_before_the_users_own_like_is_no_exception(
    text: str, liked: str, stored: Stored
) -> None:
    """Before, "Tea is okay but I love coffee" stored "dislikes coffee (the exception to
    Tea)": the exception's loose connector ``but`` took the user's own clause for a member."""
    found = stored(text)
    assert ("like", liked) in found
    assert ("dislike", liked) not in found


@pytest.mark.parametrize(("text", "other"), [
    ("Trains are alright but I'd much rather fly.", "fly"),  # the breaker's, fails before
    ("Buses are alright but I'd much rather walk.", "walk"),
])
def test_a_but_before_a_clause_the_head_reads_no_dislike_in_excepts_nothing(
    text: str, other: str, stored: Stored
) -> None:
    """"Trains are alright but I'd much rather fly" stored "dislikes fly (the exception to
    Trains)" (a breaker's finding): the user's own clause the head does not read as a
    dislike is no excepted member."""
    assert not {(p, k) for p, k in stored(text) if p == "dislike" and other in k}


@pytest.mark.parametrize("text", [
    "今晚甜品随便，榴莲千层除外",
    "my son likes every kind of bread except rye",
    "周末我都有空，除了周日下午",
])
def test_an_exception_for_one_occasion_someone_else_or_a_schedule_stores_nothing(
    text: str, stored: Stored
) -> None:
    assert stored(text) == set()


def test_the_broader_side_of_an_exception_is_written_first(reader: ClauseReader) -> None:
    """The gate lets a broader statement supersede a narrower one of the other polarity, so
    the class goes first and the member, written second, stands beside it."""
    found = extract_preferences("I love all kinds of cheese except blue cheese", reader=reader)
    order = [(c.polarity, c.keywords) for c in found]
    assert order.index(("like", ["cheese"])) < order.index(("dislike", ["blue cheese"]))


@pytest.mark.parametrize(("marked", "want"), [
    ([("like", "tea"), ("dislike", "oolong tea")], [("like", "tea"), ("dislike", "oolong tea")]),
    ([("like", "oolong tea"), ("dislike", "tea")], [("dislike", "tea"), ("like", "oolong tea")]),
    ([("like", "cheese"), ("dislike", "feta")], [("dislike", "feta"), ("like", "cheese")]),
])
def test_exception_sides_write_the_broader_side_first(
    monkeypatch: pytest.MonkeyPatch, marked: list[tuple[str, str]],
    want: list[tuple[str, str]],
) -> None:
    """Whichever polarity the class has; sides that do not name each other in the order the
    sentence has them. The tagger is a stand-in here: the test is of the order alone."""
    from types import SimpleNamespace

    from penchant.memory.core.capture import extract, tagged_sides
    from penchant.memory.core.capture.object_tagger import TaggedObject
    from penchant.memory.core.capture.statements import KINDS, Kind

    objects = [TaggedObject(p, text, 0.95) for p, text in marked]  # type: ignore[arg-type]
    monkeypatch.setattr(tagged_sides, "default_tagger",
                        lambda: SimpleNamespace(read=lambda s: SimpleNamespace(objects=objects)))
    probs = tuple(0.9 if k == "exception" else 0.1 / (len(KINDS) - 1) for k in KINDS)
    kind = Kind("exception", 0.9, probs, structure=probs)
    sentence = "Well, except for feta, I like every tea and cheese, oolong tea aside"
    made = tagged_sides.exception_sides(sentence, kind, [], extract.candidates)
    assert made is not None
    assert [(c.polarity, c.keywords[0]) for c in made] == want


def test_a_modifier_marked_on_the_other_side_leaves_the_rules_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An object the rules read counts as marked on the other side only where the tagger's
    words hold it whole. A retrained tagger marked *animated* (0.76) as liked in "I prefer to
    avoid animated movies and TV shows", read as a comparison, and the rules' dislike of
    animated movies became a like of *animated*."""
    from types import SimpleNamespace

    from penchant.memory.core.capture import extract, tagged_sides
    from penchant.memory.core.capture.object_tagger import TaggedObject
    from penchant.memory.core.capture.statements import KINDS, Kind

    text = "I prefer to avoid horror films and slasher series"
    found = extract_preferences(text)  # the rules alone
    assert {c.polarity for c in found} == {"dislike"}
    reading = SimpleNamespace(objects=[TaggedObject("like", "horror", 0.76)],
                              outside=lambda keywords: 0.1, mean=lambda keywords, label: 0.0)
    monkeypatch.setattr(tagged_sides, "default_tagger",
                        lambda: SimpleNamespace(read=lambda sentence: reading))
    probs = tuple(0.9 if k == "comparative" else 0.1 / (len(KINDS) - 1) for k in KINDS)
    kind = Kind("comparative", 0.9, probs, structure=probs)
    assert tagged_sides.structure_sides(text, kind, found, extract.candidates) is None


@pytest.mark.parametrize(("text", "cls"), [
    ("韩剧都挺爱看，就是宫廷剧看不下去", "韩剧"),
    ("水果我基本都爱，除了山竹，那个涩味是真顶不住", "水果"),
    ("Except for walnuts, I like every nut", "nut"),  # "nut" is no word of "walnuts"
])
def test_an_exception_the_tagger_marks_one_side_of_stores_the_class_first(
    reader: ClauseReader, text: str, cls: str
) -> None:
    """The tagger marks the class (0.8 or more) and not the member, which the rules read:
    only the member was stored, and the class was lost. New instances of the kind, written
    for this test."""
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, c.keywords[0]) for c in found][0] == ("like", cls)
    assert [c.polarity for c in found[1:]] == ["dislike"]
