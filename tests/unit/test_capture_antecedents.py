"""A pronoun goes back to the nearest thing a clause says a person did something with
(``antecedents.py``; issue 17). It had skipped that thing for an older antecedent and stored
a flip of a preference the message never spoke of again ("I love tea. My sister gave me a
scarf and I hate it" stored a dislike of tea), or found none and stored nothing ("We use
Jira at work and I really like it"). The sentences are new instances, not rows of the bench
files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.antecedents import done_with


@pytest.fixture(scope="module")
def reader() -> ClauseReader:
    return ClauseReader()


@pytest.mark.parametrize(("text", "kept", "meant", "polarity"), [
    ("Green tea is lovely. My roommate bought a lava lamp and I can't stand it.",
     "green tea", "lava lamp", "dislike"),
    ("I adore jazz. My dad installed Linux on my laptop and I hate it.", "jazz", "linux",
     "dislike"),
    ("Pizza is my favourite. Our office switched to Slack and I really dislike it.",
     "pizza", "slack", "dislike"),
    # in Chinese, another person's clause
    ("我爱喝奶茶。我表哥送了我一个保温杯，我很讨厌它。", "奶茶", "保温杯", "dislike"),
    ("我讨厌下雪。我舅舅给我寄了一箱橙子，我超爱吃。", "下雪", "橙子", "like"),
    # a verdict told in the past (rules_en_past.py); in Chinese, the user's one-off event
    ("I love fantasy novels. Read The Name of the Wind last month and didn't enjoy it though.",
     "fantasy novel", "name", "dislike"),
    ("Board games are my favourite. We went to that new cafe, Dice Den, and I hated it.",
     "board game", "dice den", "dislike"),
    ("我很喜欢吃辣。上周去了那家新开的日料店，不喜欢", "辣", "日料店", "dislike"),
    ("我不爱吃甜的，但是上次在杭州吃了定胜糕，居然挺喜欢的", "甜", "定胜糕", "like"),
])
def test_a_pronoun_after_a_new_thing_leaves_the_older_preference_alone(
    reader: ClauseReader, text: str, kept: str, meant: str, polarity: str
) -> None:
    found = extract_preferences(text, reader=reader)
    older = [c for c in found if any(kept in k.lower() for k in c.keywords)]
    assert older and all(c.polarity != polarity for c in older), found
    newer = [c for c in found if any(meant in k.lower() for k in c.keywords)]
    assert newer and all(c.polarity == polarity for c in newer), found


@pytest.mark.parametrize(("text", "meant"), [
    ("My partner got us a Nespresso machine and I absolutely love it", "nespresso"),
    ("We use Notion at the office and I really like it", "notion"),
    ("At the office we're on Linear and honestly I like it", "linear"),
])
def test_a_pronoun_finds_the_thing_another_person_brought(
    reader: ClauseReader, text: str, meant: str
) -> None:
    found = extract_preferences(text, reader=reader)
    likes = [c for c in found if c.polarity == "like"]
    assert any(meant in k.lower() for c in likes for k in c.keywords), found


def test_what_bores_the_user_after_trying_it_is_a_dislike(reader: ClauseReader) -> None:
    """``I tried natto, it bores me``: *it* is natto (this was a row of
    ``test_situation_or_someone_elses_taste_is_no_preference``, where the pronoun had found
    nothing; ``I tried yoga and it bores me to tears`` already stored a dislike)."""
    for found in (extract_preferences("I tried natto, it bores me."),
                  extract_preferences("I tried natto, it bores me.", reader=reader)):
        assert [(c.polarity, c.keywords) for c in found] == [("dislike", ["natto"])], found


@pytest.mark.parametrize(("text", "kept"), [
    ("I love cocoa. We moved to Denver and I hate it when the wind picks up.", "cocoa"),
    ("I adore hiking. My coworker pinged me at 11pm and I hate it.", "hiking"),
    ("Sushi is the best. My nephew keeps texting me and I can't stand it.", "sushi"),
])
def test_no_clean_thing_or_a_forward_it_names_nothing(
    reader: ClauseReader, text: str, kept: str
) -> None:
    """A time, a person or an ``it`` that points to a ``when`` clause after it: the older
    preference keeps its polarity, and no junk object is stored."""
    found = extract_preferences(text, reader=reader)
    assert [c.polarity for c in found] == ["like"], found
    assert any(kept in k.lower() for k in found[0].keywords)


@pytest.mark.parametrize(("text", "kept", "not_meant"), [
    # the user's own clause in Chinese carries the older object across
    ("我以前不喜欢游泳，后来报了一个培训班，现在爱上它了。", "游泳", "培训班"),
    # a negated event hands over nothing
    ("我很喜欢看电影。我老公没买投影仪，我很喜欢它。", "电影", "投影仪"),
    # a stance said again of the older thing, now more
    ("I adore my garden. My neighbour gave me a birdbath and I love it even more now.",
     "garden", "birdbath"),
])
def test_the_older_thing_is_kept_where_the_pronoun_goes_back_to_it(
    reader: ClauseReader, text: str, kept: str, not_meant: str
) -> None:
    found = extract_preferences(text, reader=reader)
    assert any(kept in k.lower() for c in found for k in c.keywords), found
    assert not any(not_meant in k.lower() for c in found for k in c.keywords), found


@pytest.mark.parametrize(("clause", "expected"), [
    ("My brother brought home a kayak", (True, "kayak")),
    ("we watched Dune at the cinema", (True, "Dune")),
    ("My older cousin lent me a tent", (True, "tent")),
    ("I woke up at 6am", (True, None)),
    ("My aunt phoned me", (True, None)),
    ("I cook it every day", (False, None)),
    ("we're still on Discord", (True, "Discord")),
    ("I'm on my laptop", (True, None)),
    ("I think that it works", (False, None)),
    ("My sister is a nurse", (False, None)),
    ("I want a new phone", (False, None)),
    ("我姐送了我一条围巾", (True, "围巾")),
    ("我同事请了三天假", (False, None)),
    ("我后来报了一个培训班", (False, None)),
])
def test_what_a_clause_offers_a_pronoun(
    clause: str, expected: tuple[bool, str | None]
) -> None:
    said, thing = done_with(clause)
    assert (said, thing.display if thing else None) == expected
