"""The side left or excepted, put first; where a dislike stops; a want of the moment (issue 17).

Before, "Instead of Netflix I mostly watch YouTube now" stored a *dislike* of YouTube (the
object tagger's one side, on the wrong polarity), "Rather than hotels I now book Airbnbs" and
"Apart from blue cheese, I love all cheeses" stored nothing of the side put first, "I don't eat
pork anymore, but bacon is fine" lost the bacon, "Anything but country music" was a *like* of
country music, "I no longer mind crowded beaches" a dislike, and "I'd love a coffee right now"
a lasting like. The connectors read the side put first ("instead of", "rather than", "apart
from", "except for"… opening the sentence), a class of everything ("anything but"), and a thing
said to be all right after the user's own dislike; the sentences here are new instances of those
kinds, written for this test.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("Instead of Spotify I mostly listen on Tidal now",
     {("like", "tidal"), ("dislike", "spotify")}),
    ("Rather than the bus, I take the tram these days", {("like", "tram"), ("dislike", "bus")}),
    ("Instead of butter I cook with olive oil now", {("like", "olive oil"), ("dislike", "butter")}),
    ("I now get my groceries at Lidl rather than Sainsbury's",
     {("like", "lidl"), ("dislike", "sainsbury")}),
])
def test_a_switch_with_the_side_left_put_first_or_after_rather_than(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    found = stored(text)
    assert want <= found
    assert not {("dislike", k) for p, k in want if p == "like"} & found


@pytest.mark.parametrize(("text", "member", "kind"), [
    ("Apart from liquorice, I love all sweets", "liquorice", "sweet"),
    ("Except for musicals, I enjoy most kinds of theatre", "musical", "theatre"),
    ("Other than tripe, I'll eat any kind of meat", "tripe", "meat"),
])
def test_an_exception_put_before_its_class_is_the_one_disliked(
    text: str, member: str, kind: str, stored: Stored
) -> None:
    found = stored(text)
    assert ("dislike", member) in found
    assert ("like", member) not in found
    assert ("dislike", kind) not in found


@pytest.mark.parametrize(("text", "pair"), [
    ("Anything but heavy metal", ("dislike", "heavy metal")),
    ("I'll watch everything except reality shows", ("dislike", "reality show")),
    ("I drink nothing but green tea", ("like", "green tea")),
])
def test_an_exception_to_everything_is_the_one_disliked_or_with_nothing_the_one_liked(
    text: str, pair: tuple[str, str], stored: Stored
) -> None:
    found = stored(text)
    assert pair in found
    assert ({"like", "dislike"} - {pair[0]}).pop() not in {p for p, k in found if k == pair[1]}


@pytest.mark.parametrize(("text", "disliked", "allowed"), [
    ("I've given up red meat, but chicken is fine", "red meat", "chicken"),
    ("I don't drink spirits anymore, though cider is okay", "spirit", "cider"),
    ("牛奶我不喝了，不过酸奶还行", "牛奶", "酸奶"),
    ("甜的我不吃，但黑巧可以", "甜", "黑巧"),
])
def test_a_thing_said_to_be_all_right_after_a_dislike_is_its_exception(
    text: str, disliked: str, allowed: str, stored: Stored
) -> None:
    found = stored(text)
    assert ("like", allowed) in found
    assert ("dislike", allowed) not in found
    assert any(p == "dislike" and disliked in k for p, k in found)


def test_a_particular_thing_said_to_be_fine_is_no_exception(stored: Stored) -> None:
    found = stored("I hate mornings, but the weather is fine")
    assert ("dislike", "morning") in found
    assert not any(k == "weather" for _, k in found)


def test_no_longer_minding_a_thing_is_a_like_of_it(stored: Stored) -> None:
    assert ("like", "loud restaurant") in stored("I no longer mind loud restaurants")
    assert ("dislike", "loud restaurant") not in stored("I no longer mind loud restaurants")


@pytest.mark.parametrize("text", [
    "I'd love a hot bath tonight",  # a want of the moment
    "I could really go for some dumplings right now",
    "Instead of the train I took a taxi today",  # one occasion
    "Apart from my sister, everyone in my family loves dogs",  # other people's
    "My dad no longer minds the neighbours' dog",  # another person
    # a breaker's: one past act or a plan set against another, a class of other people
    "Instead of sugar, I used honey in this recipe",
    "Rather than wine, I'll bring beer to the party",
    "I ended up paying by card rather than cash",
    "Rather than buying a new phone, I fixed my old one",
    "Except for my cousin, my whole family loves karaoke",
])
def test_look_alikes_store_nothing(text: str, stored: Stored) -> None:
    assert stored(text) == set()


@pytest.mark.parametrize(("text", "kept"), [
    ("Besides tea, I love coffee", ("like", "coffee")),  # "besides" adds
    ("Aside from the price, I love living in Lisbon", ("like", "living")),
    ("I'm in the mood for tacos tonight, I love tacos", ("like", "taco")),
    ("Instead of Netflix, I watch YouTube with my kids", ("like", "youtube")),
])
def test_a_breakers_look_alikes_keep_what_is_said_and_add_no_other_side(
    text: str, kept: tuple[str, str], stored: Stored
) -> None:
    found = stored(text)
    assert kept in found
    assert not {("dislike", "tea"), ("dislike", "price"), ("like", "kid")} & found


@pytest.mark.parametrize("text", [
    "I don't like queues, but my gym is fine",
    "我不喜欢开会，不过今天的会还行",
    "我不爱吃辣，不过这家店可以",
])
def test_a_particular_thing_all_right_after_a_dislike_is_no_like(
    text: str, stored: Stored
) -> None:
    assert not any(p == "like" for p, _ in stored(text))
