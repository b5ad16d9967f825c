"""Chinese allergy statements without 对: the allergen is what the speaker names, not the
words before the speaker nor an adverb (issue 17's breaker: ``希望我的花生过敏能好`` stored
``对希望我的花生过敏``, protected, beside the real one)."""

from __future__ import annotations

import pytest

from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "content"), [
    ("希望我的花生过敏能好", "对花生过敏"),
    ("我其实有点芒果过敏", "对芒果过敏"),
    ("我们全家都海鲜过敏", "对海鲜过敏"),
    ("医生说我是尘螨过敏", "对尘螨过敏"),
    ("希望我的乳糖不耐受能好", "对乳糖不耐受"),
    ("芒果我过敏，碰都不能碰", "对芒果过敏"),
    ("海鲜我一吃就过敏", "对海鲜过敏"),
    ("我花生过敏", "对花生过敏"),
])
def test_the_allergen_is_what_the_speaker_names(text: str, content: str) -> None:
    found = extract_preferences(text)
    assert [(c.polarity, c.content) for c in found] == [("dislike", content)]
    assert found[0].protected is not False


@pytest.mark.parametrize("text", ["我妈花生过敏", "我爸的海鲜过敏好了", "我儿子乳糖不耐受"])
def test_the_allergy_of_someone_close_to_the_speaker_is_not_the_user_s(text: str) -> None:
    """``我妈花生过敏`` had stored ``对妈花生过敏``, a protected allergy of the user."""
    assert extract_preferences(text) == []


@pytest.mark.parametrize("text", [
    "我表姐花生过敏",  # a kin noun the allergy rules' own lead did not list
    "说真的我婆婆海鲜过敏",
    "我的表哥乳糖不耐受",
    "我同事花生过敏",  # had stored 对事花生过敏
    "我闺蜜对海鲜过敏",
    "我邻居猫毛过敏",  # 邻居 is tagged a verb
    "我对象芒果过敏",  # had stored 对象芒果过敏
    "我大学室友花生过敏",  # one modifier before the person
    "我高中同学芒果过敏",
])
def test_no_allergy_of_a_person_close_to_the_speaker_is_stored_as_the_user_s(text: str) -> None:
    """Issue 17: the allergy rules match the speaker in their own lead, so a person after
    我 was read as part of the allergen (``对表姐花生过敏``, protected, the user's)."""
    assert extract_preferences(text) == []


@pytest.mark.parametrize(("text", "content"), [
    ("我花生过敏，我表姐也是", "对花生过敏"),
    ("我觉得我对花生过敏", "对花生过敏"),
])
def test_the_user_s_own_allergy_beside_a_person_or_a_modifier_is_kept(
    text: str, content: str
) -> None:
    assert [(c.polarity, c.content) for c in extract_preferences(text)] == [("dislike", content)]
