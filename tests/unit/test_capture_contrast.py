"""A negated object after the user's like or want is a dislike of that object."""

from __future__ import annotations

import pytest

from penchant.memory.core.capture import extract_preferences


def _found(text: str) -> list[tuple[str, str, list[str]]]:
    return [(c.polarity, c.content, list(c.keywords)) for c in extract_preferences(text)]


@pytest.mark.parametrize(
    "text",
    [
        "I like oolong but no paper straws",
        "I like oolong, but no paper straws",
        "I like oolong but not paper straws",
        "I like oolong and no paper straws",
    ],
)
def test_negated_object_after_like_is_stored_as_dislike(text: str) -> None:
    found = _found(text)
    assert ("like", "likes oolong", ["oolong"]) in found
    dislikes = [f for f in found if f[0] == "dislike"]
    assert dislikes == [("dislike", "doesn't want paper straws", ["paper", "straw"])]


def test_negated_object_keywords_match_the_standalone_no_rule() -> None:
    coordinated = [c for c in extract_preferences("I love rice but no paper straws")]
    standalone = extract_preferences("no paper straws please")
    assert coordinated[-1].keywords == standalone[0].keywords
    assert coordinated[-1].content == standalone[0].content


def test_coordinated_no_object_is_never_stored_as_like() -> None:
    found = _found("I enjoy espresso and no milk")
    assert all(not (p == "like" and "no" in c.split()) for p, c, _ in found)
    assert ("dislike", "doesn't want milk", ["milk"]) in found


def test_negated_object_after_a_request_is_a_dislike() -> None:
    assert _found("I want coffee but no cream") == [("dislike", "doesn't want cream", ["cream"])]
    assert _found("I'll have coffee but without cream") == [
        ("dislike", "doesn't want cream", ["cream"])
    ]


def test_never_object_after_like_is_a_dislike() -> None:
    assert ("dislike", "doesn't want plastic", ["plastic"]) in _found(
        "I like juice but never plastic"
    )


@pytest.mark.parametrize(
    "text",
    [
        "I like tea, no doubt",
        "No, I like tea",
        "I like tea but no problem",
        "I like tea but not really",
        "I like tea but not at all",
        "I like tea but no idea why",
        "I like tea but no thanks",
        "I like tea but not sure",
        "I like tea but not when it's cold",
        "I like reading but not lately",
        "I like tea but not everyone does",
        "I'm happy and not worried",
        "Do you like tea but no sugar?",
        "If I like tea but no sugar, fine.",
        "My wife likes tea but no sugar",
        "I have a dog but no cat",
        "I get paid weekly but not monthly bonuses",
        "I like pizza but not every day",
        "I love hiking but not alone",
        "I like music but not loud",
        "I like my coffee but never late",
    ],
)
def test_idioms_questions_and_others_store_no_dislike(text: str) -> None:
    assert [f for f in _found(text) if f[0] == "dislike"] == []


def test_negation_after_a_dislike_is_not_a_dislike() -> None:
    assert _found("I hate coffee but not tea") == [("dislike", "dislikes coffee", ["coffee"])]


def test_chinese_negated_object_after_like_is_a_dislike() -> None:
    found = _found("我喜欢乌龙茶但不要纸吸管")
    assert ("like", "喜欢乌龙茶", ["乌龙茶"]) in found
    assert any(p == "dislike" and "纸吸管" in c for p, c, _ in found)
