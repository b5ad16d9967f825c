"""A current choice said as the user's routine now ("I just watch YouTube now", "we holiday
in Crete these days"; ``memory/core/capture/rules_en_current.py``, issue 17).

The statement head read such clauses as a change away ("no longer likes YouTube") or as
nothing. How much, how often or where is no object chosen. The sentences are new instances of
the kind, not rows of the bench files.
"""

from __future__ import annotations

import pytest

from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "keyword"), [
    ("We got rid of the TV, and I just watch Twitch now.", "twitch"),
    ("we mostly holiday in Crete these days", "crete"),
    ("I keep my notes in Obsidian now, Evernote got slow", "obsidian"),
    ("I drive a hybrid nowadays", "hybrid"),
    ("I use Vim for everything now", "vim"),
])
def test_a_routine_now_is_a_like_of_what_it_names(text: str, keyword: str) -> None:
    found = extract_preferences(text)
    likes = [c for c in found if c.polarity == "like"]
    assert likes and any(keyword in k.lower() for k in likes[0].keywords), found
    assert not any(keyword in k.lower() for c in found if c.polarity == "dislike"
                   for k in c.keywords), found


@pytest.mark.parametrize("text", [
    "I eat twice a day now",
    "I read more now",
    "I use both right now.",
    "I eat at home now",
    "I run outdoors these days",
    "I read an article about sharks these days",
    "My sister drinks oat milk now",
])
def test_how_much_how_often_where_or_someone_else_is_no_choice(text: str) -> None:
    assert extract_preferences(text) == []


def test_exclusivity_keeps_its_own_reading() -> None:
    """"exclusively" and "only" are read by the rules of exclusivity, as before."""
    found = extract_preferences("I drink oolong exclusively now")
    assert [(c.polarity, c.content) for c in found] == [("like", "only drink oolong")]


@pytest.mark.parametrize("text", [
    "it's John now who does the cooking",  # a person who does it, no choice
    "I use my left hand now since I broke my right wrist",  # the user's situation
])
def test_a_person_or_the_users_own_situation_is_no_routine_choice(text: str) -> None:
    """A breaker helper's findings."""
    assert extract_preferences(text) == []


@pytest.mark.parametrize(("text", "keyword"), [
    ("Mostly drinking soy milk these days", "soy milk"),
    ("These days I mostly listen to audiobooks on the train", "audiobook"),
    ("Nowadays we mostly stream on Mubi", "mubi"),
    ("Currently using Todoist for my chores", "todoist"),
    ("I read on my Kobo these days", "kobo"),
])
def test_a_routine_now_said_with_its_time_first_or_without_its_subject(
    text: str, keyword: str
) -> None:
    found = extract_preferences(text)
    assert any(c.polarity == "like" and any(keyword in k.lower() for k in c.keywords)
               for c in found), found


@pytest.mark.parametrize("text", [
    "These days I read more",
    "These days I eat at home",
    "Mostly eating at home these days",
    "Currently reading a book about sharks",
    "Currently drinking too much coffee",
    "I read on my phone these days",  # no named device
    "These days my brother listens to jazz",
])
def test_the_time_first_routines_name_no_choice_in_look_alikes(text: str) -> None:
    assert not any(c.polarity == "like" for c in extract_preferences(text))
