"""A statement the user makes for themself and others together (issue 17): the user's share
of it is the user's own (``memory/core/capture/joint.py``).

Before, "My partner and I are both allergic to kiwi", ``我和同事都对花生过敏`` and "My colleague
is allergic to shellfish and so am I" stored nothing: the subject names someone else, and
every reader took the sentence for that person's. The sentences here are new instances of
the kinds of ``bench/data/statements_holders_blind.jsonl`` (written for this test)."""

from __future__ import annotations

import pytest

from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.joint import user_share, user_shares


def stored(text: str) -> set[tuple[str, str, bool]]:
    return {(c.polarity, k, c.protected) for c in extract_preferences(text) for k in c.keywords}


@pytest.mark.parametrize(("text", "want"), [
    ("My partner and I are both allergic to kiwi.", ("dislike", "kiwi", True)),
    ("Me and my sister can't stand licorice", ("dislike", "licorice", False)),
    ("We're both crazy about bouldering", ("like", "bouldering", False)),
    ("Both of us are allergic to latex, so no latex gloves please", ("dislike", "latex", True)),
    ("Tom and I both adore sourdough", ("like", "sourdough", False)),
    ("我和室友都对猫毛过敏", ("dislike", "猫毛", True)),
    ("我们俩都不吃羊肉", ("dislike", "羊肉", False)),
    ("其实我老公和我都爱喝乌龙茶", ("like", "乌龙茶", False)),
])
def test_a_shared_subject_holds_the_users_own_preference(
    text: str, want: tuple[str, str, bool]
) -> None:
    assert want in stored(text)


@pytest.mark.parametrize(("text", "want"), [
    ("My colleague is allergic to walnuts and so am I.", ("dislike", "walnut", True)),
    ("My brother hates anchovies, me too", ("dislike", "anchovy", False)),
    ("My uncle doesn't drink whisky and neither do I", ("dislike", "whisky", False)),
    ("My aunt's allergic to bee stings and so am I, any tips for hikes?",
     ("dislike", "bee sting", True)),
    ("我表哥对青霉素过敏，我也是", ("dislike", "青霉素", True)),
    ("我爸不吃香菜，这点我跟他一样", ("dislike", "香菜", False)),
])
def test_a_reply_that_shares_anothers_statement_is_the_users(
    text: str, want: tuple[str, str, bool]
) -> None:
    assert want in stored(text)


def test_a_reply_in_the_next_sentence_takes_the_sentence_before() -> None:
    assert ("dislike", "sesame", True) in stored("Priya is allergic to sesame. So am I!")
    assert ("dislike", "芒果", True) in stored("我同学对芒果过敏。我也一样。")
    assert user_shares(["I love tea.", "Me too."]) == ["I love tea.", "Me too."]


@pytest.mark.parametrize(("text", "want"), [
    ("I told my dentist I'm allergic to latex", ("dislike", "latex", True)),
    ("Just mentioned to my coach that I really enjoy rowing.", ("like", "rowing", False)),
    ("At dinner I told him I can't stand truffle oil", ("dislike", "truffle oil", False)),
    ("i told the nurse im allergic to iodine", ("dislike", "iodine", True)),
    ("我跟医生说了我对碘过敏", ("dislike", "碘", True)),
    ("吃饭的时候我告诉同事我最爱吃烤鸭", ("like", "烤鸭", False)),
])
def test_what_the_user_says_they_told_someone_is_their_own_word(
    text: str, want: tuple[str, str, bool]
) -> None:
    assert want in stored(text)


@pytest.mark.parametrize("text", [
    "My husband and his brother both love golf",
    "My kids are both allergic to eggs",
    "My sister is allergic to cats, luckily I'm not",
    "My coworker told me she hates jazz",
    "My mom told her friend I love tulips",
    "我老公和他同事都爱喝酒",
    "我妈跟我说她不爱吃辣",
    "我同事什么奶酪都爱，唯独受不了菲达",
    "我跟老板说了好多次他都不喜欢加班",
])
def test_someone_elses_preference_is_not_the_users(text: str) -> None:
    assert not {k for k in stored(text) if k[1] in ("golf", "egg", "cat", "jazz", "tulip",
                                                    "酒", "辣", "菲达", "加班")}


def test_plain_we_is_not_rewritten_and_the_rewrite_keeps_the_verb_agreeing() -> None:
    assert user_share("We love hiking.") == "We love hiking."
    assert user_share("My wife and I are both allergic to peanuts.") == (
        "I am allergic to peanuts.")
    assert user_share("My dad doesn't eat pork, and neither do I.") == "I don't eat pork."
    assert user_share("This is fun and so am I.") == "This is fun and so am I."
    assert user_share("Mushrooms and I don't get along") == "Mushrooms and I don't get along"
    assert user_share("他说我跟同事说我不吃辣") == "他说我跟同事说我不吃辣"


@pytest.mark.parametrize("text", [
    "My uncle is allergic to bee stings and so am I... not.",
    "My aunt loves opera. Me too. Just kidding.",
    "My boss hates karaoke, me too? no way",
    "My husband and I are both allergic to kiwi, or so he claims.",
    "We both love skiing, my brother and my dad.",
    "我们全家都爱吃香菜，除了我。",
    "如果我姐喜欢滑雪，我也是。",
    "我和老公都爱爵士乐，好吧，其实只有他爱。",
    "Both of us used to love karaoke.",
])
def test_a_share_taken_back_reported_asked_or_leaving_the_user_out_is_not_stored(
    text: str,
) -> None:
    """A breaker's pass: a rewrite that ignored what followed the reply ("…not", "just
    kidding", "? no way"), whose word it was, who "we" were, or 除了我, stored the user's
    share of a statement the user did not make."""
    assert stored(text) == set(), text


def test_what_the_user_left_behind_or_a_negated_aversion_is_never_stored_as_now() -> None:
    """The statement head read "I used to like jazz" as coming round to jazz (0.67) and "I
    don't mind cilantro" as a dislike (0.96); ``我没有过敏`` stored an allergy to ``没有``."""
    from penchant.memory.client.reading import ClauseReader

    reader = ClauseReader()

    def read(text: str) -> set[tuple[str, str]]:
        return {(c.polarity, k) for c in extract_preferences(text, reader=reader)
                for k in c.keywords}  # fmt: skip

    assert ("like", "jazz") not in read("I used to like jazz.")
    assert ("like", "gin") not in read("I once loved gin.")
    assert ("like", "香菜") not in read("我以前很喜欢香菜")
    assert ("dislike", "cilantro") not in read("I don't mind cilantro.")
    assert ("dislike", "香菜") not in read("我不讨厌香菜")
    assert read("我没有过敏。") == set()
    assert ("like", "olive") in read("I used to hate olives, but now I love them.")
    assert ("like", "tofu") in read("Tofu used to be my enemy, now I'm a convert")
