"""Allergies through capture and the persistence gate, on a real Redis (issue 17).

A breaker pass found that a sentence near a retraction lifted a real allergy ("My peanut
allergy has gone from mild to severe", "Yeah right, I'm no longer allergic to peanuts, lol",
``别以为我对花生不过敏``), and that a structure dropped the allergy read beside it. The
sentences here are new instances of those kinds. Each test looks at what is active in
Redis after the message, not at what capture returned."""

from __future__ import annotations

import pytest

from penchant.memory import Memory, PreferenceCandidate

CASHEW = "I'm allergic to cashews"


def allergies(memory: Memory, user: str = "u") -> list[str]:
    return sorted(p.content for p in memory.preferences(user) if p.protected)


def allergens(memory: Memory, user: str = "u") -> set[str]:
    return {k for p in memory.preferences(user) if p.protected for k in p.keywords}


@pytest.mark.parametrize(("allergy", "message"), [
    ("I'm allergic to cashews", "My cashew allergy has gone from bad to worse"),
    ("I'm allergic to cashews", "I doubt my cashew allergy is gone"),
    ("I'm allergic to cashews", "Yeah right, I'm no longer allergic to cashews, lol"),
    ("I'm allergic to cashews", "Sam is no longer allergic to cashews"),
    ("I'm allergic to cashews", "My toddler's cashew allergy has cleared up"),
    ("I'm allergic to cashews", "I'm not allergic to cashews any more than you are to water"),
    ("我对芒果过敏", "我芒果过敏好多了，但还是不能吃"),
    ("我对芒果过敏", "别以为我对芒果不过敏"),
    ("我对芒果过敏", "我对芒果不是不过敏"),
    ("我对芒果过敏", "老公对芒果不过敏了"),
    # later breaker passes: a joke or correction in the next sentence, a qualified
    # "not allergic", a reaction report, a relative clause
    ("I'm allergic to cashews", "My cashew allergy is gone. Just kidding!"),
    (CASHEW, "My notes say I'm no longer allergic to cashews. That's incorrect."),
    (CASHEW, "I'm not allergic to cashews in tiny amounts, but a handful is bad"),
    (CASHEW, "Technically I'm not allergic to cashews, I have a tree nut allergy"),
    ("我对芒果过敏", "我对芒果不过敏了，骗你的"),
    ("我对芒果过敏", "真羡慕对芒果不过敏的人"),
    ("我对芒果过敏", "检查说我对芒果不过敏了，可昨天吃了还是起疹子"),
    (CASHEW, "My cashew allergy is gone now, as long as I take my antihistamine"),
    (CASHEW, "A herbalist told me my cashew allergy is cured. I'm not buying it."),
    ("我对芒果过敏", "狗狗的芒果过敏好了"),
])
def test_a_look_alike_of_a_retraction_leaves_the_allergy_active(
    memory: Memory, allergy: str, message: str
) -> None:
    memory.capture("u", allergy)
    before = allergens(memory)
    assert before, "the allergy itself was not stored"
    memory.capture("u", message)
    assert allergens(memory) >= before


@pytest.mark.parametrize("message", [
    "I've outgrown my allergy to shrimp",
    "good news, the shrimp allergy is officially gone",
    "对菠萝的过敏没有了",
    "菠萝过敏查出来是误诊",
    "菠萝过敏治好了",
    "我已经对菠萝脱敏了",
])
def test_a_retraction_in_other_words_is_stored_as_reported_and_lifts_nothing(
    memory: Memory, message: str
) -> None:
    """``对菠萝的过敏没了`` stored the allergy itself. Read in other words than the gate's
    ("no longer allergic to X"), a retraction stores neither the allergy it takes back nor a
    retraction that would lift one: three breaker passes made such readings lift real
    allergies on 40-70 % of their look-alikes. It stores the news as reported, a like that
    says it is unconfirmed, and an allergy stored before stays protected beside it."""
    memory.capture("u", message)
    assert allergies(memory) == []
    reported = [p for p in memory.preferences("u") if p.polarity == "like"]
    assert [p.content for p in reported] in (
        ["says shrimp is fine for them again, not yet confirmed"], ["说菠萝现在没问题但尚未确认"],
    )
    memory.capture("u", "I'm allergic to shrimp" if "shrimp" in message else "我对菠萝过敏")
    before = allergens(memory)
    memory.capture("u", message)
    assert before and allergens(memory) == before
    again = [p.content for p in memory.preferences("u") if p.polarity == "like"]
    assert again == [reported[0].content]  # the allergy had superseded the first report
    # the pair is a check-up flag for the user to confirm, in Redis
    [flag] = memory.flags("u")
    assert flag.contents[1] == reported[0].content and "allerg" in flag.reason
    assert flag.preference_ids[0] in {p.id for p in memory.preferences("u") if p.protected}


def test_a_like_of_an_allergen_is_flagged_beside_the_allergy(memory: Memory) -> None:
    memory.capture("u", "I'm allergic to shrimp")
    memory.remember("u", PreferenceCandidate(content="loves shrimp tempura", polarity="like"))
    assert allergies(memory) == ["allergic to shrimp"]
    [flag] = memory.flags("u")
    assert flag.contents == ["allergic to shrimp", "loves shrimp tempura"]
    memory.forget("u", "shrimp tempura")
    assert memory.flags("u") == []  # a flag does not outlive the like it names


@pytest.mark.parametrize(("allergy", "message"), [
    ("I'm allergic to shrimp", "I'm no longer allergic to shrimp"),
    ("我对菠萝过敏", "我对菠萝不再过敏了"),
])
def test_the_explicit_retraction_still_lifts_the_allergy(
    memory: Memory, allergy: str, message: str
) -> None:
    memory.capture("u", allergy)
    assert allergies(memory)
    memory.capture("u", message)
    assert allergies(memory) == []


@pytest.mark.parametrize(("message", "allergen"), [
    ("Allergic to shellfish, so I ditched sushi and picked up ramen", "shellfish"),
    ("heads up, I've got a sesame allergy, but poppy seeds are fine", "sesame"),
    ("I'm allergic to all nuts except almonds", "nuts"),
])
def test_an_allergy_beside_a_structure_or_behind_a_preamble_is_stored(
    memory: Memory, message: str, allergen: str
) -> None:
    memory.capture("u", message)
    assert any(allergen in content for content in allergies(memory))
    assert not any(
        p.polarity == "like" and allergen in p.content for p in memory.preferences("u")
    )


@pytest.mark.parametrize(("first", "then"), [
    ("I love shrimp tempura", "I'm allergic to shrimp"),  # the like first
    ("我对虾过敏", "我超爱吃虾饺"),  # a Chinese dish of the allergen
    ("我爱吃虾饺", "我对虾过敏"),
])
def test_a_like_and_an_allergy_of_its_object_are_flagged_whichever_came_first(
    memory: Memory, first: str, then: str
) -> None:
    memory.capture("u", first)
    memory.capture("u", then)
    assert len(allergies(memory)) == 1
    [flag] = memory.flags("u")
    assert flag.preference_ids[0] in {p.id for p in memory.preferences("u") if p.protected}


@pytest.mark.parametrize("message", [
    "我对虾过敏，但是我很喜欢吃虾。",
    "I'm allergic to shrimp, but I really love shrimp.",
])
def test_a_like_beside_an_allergy_in_one_message_keeps_the_allergy(
    memory: Memory, message: str
) -> None:
    """The last stance on an object had won within a message, and the like dropped the
    allergy (a breaker pass)."""
    memory.capture("u", message)
    assert len(allergies(memory)) == 1
    assert [p for p in memory.preferences("u") if p.polarity == "like"]
    assert len(memory.flags("u")) == 1


@pytest.mark.parametrize(("allergy", "then"), [
    ("I'm allergic to kiwi", "I don't like kiwi"),
    ("I'm allergic to kiwi", "No kiwi please."),
    ("我对菠萝过敏", "我讨厌菠萝"),
])
def test_a_plain_dislike_of_an_allergen_keeps_the_allergys_words(
    memory: Memory, allergy: str, then: str
) -> None:
    """A merge took the newer content, and "allergic to kiwi" became "dislikes kiwi"."""
    memory.capture("u", allergy)
    before = allergies(memory)
    memory.capture("u", then)
    assert allergies(memory) == before


@pytest.mark.parametrize("message", [
    "My peanut allergy is gone now, as long as I take my Xolair.",
    "Peanut allergy gone!! (jk)",
    "我不确定我对花生不再过敏了。",
])
def test_a_conditional_or_unsure_report_stores_no_reported_like(
    memory: Memory, message: str
) -> None:
    memory.capture("u", "I'm allergic to peanuts" if "eanut" in message else "我对花生过敏")
    memory.capture("u", message)
    assert len(allergies(memory)) == 1
    assert not [p for p in memory.preferences("u") if p.polarity == "like"]


@pytest.mark.parametrize("message", ["我表姐花生过敏", "我大学室友对花生过敏", "我同事花生过敏"])
def test_the_allergy_of_someone_close_is_not_stored_and_the_users_own_stays(
    memory: Memory, message: str
) -> None:
    """``我表姐花生过敏`` had stored ``对表姐花生过敏``, a protected allergy of the user's."""
    memory.capture("u", "我对芒果过敏")
    before = allergies(memory)
    memory.capture("u", message)
    assert allergies(memory) == before == ["对芒果过敏"]
    assert len(memory.preferences("u")) == 1
    memory.capture("u", "我花生过敏，我表姐也是")
    assert allergens(memory) >= {"花生", "芒果"}


@pytest.mark.parametrize(("message", "allergen"), [
    ("When I had dinner with my colleague I found out I'm allergic to mango", "mango"),
    ("Went out with my boss and realised I'm allergic to sesame", "sesame"),
    ("My husband is allergic to shellfish and I'm allergic to peanuts", "peanut"),
    ("我跟同事吃饭时发现我对芒果过敏", "芒果"),
    ("同事请吃芒果我才想起来我对芒果过敏", "芒果"),
    ("我老公对海鲜过敏，我对花生过敏", "花生"),
])
def test_the_users_allergy_is_stored_whoever_else_the_sentence_speaks_of(
    memory: Memory, message: str, allergen: str
) -> None:
    """A sentence that named anyone else stored none of the user's own allergy in it: a
    missed allergy is the worst mistake capture can make."""
    memory.capture("u", message)
    assert allergens(memory) == {allergen}
    assert len(memory.preferences("u")) == 1


@pytest.mark.parametrize("message", [
    "My son is allergic to eggs",
    "My son's egg allergy came back",
    "我儿子对鸡蛋过敏",
    "我妈以为我对芒果过敏",
    "我妈一直说我对鸭蛋过敏，昨天去医院查了，根本不过敏",
])
def test_someone_elses_allergy_or_word_the_user_disputes_stores_no_allergy(
    memory: Memory, message: str
) -> None:
    memory.capture("u", message)
    assert allergies(memory) == []


def test_an_allergy_the_user_shares_with_others_is_stored_and_theirs_alone_is_not(
    memory: Memory,
) -> None:
    """Issue 17: a shared subject ("…and so am I", ``我和室友都…``) lost the user's allergy."""
    memory.capture("u", "My colleague is allergic to walnuts and so am I.")
    memory.capture("u", "我和室友都对猫毛过敏")
    memory.capture("u", "Priya is allergic to sesame. So am I!")
    memory.capture("u", "My kids are both allergic to eggs")
    memory.capture("u", "我妈对花粉过敏，我倒还好")
    assert allergens(memory) == {"walnut", "猫毛", "sesame"}


@pytest.mark.parametrize(("allergy", "message", "allergen"), [
    ("I'm allergic to kiwi", "After the desensitisation course I eat kiwi again", "kiwi"),
    ("I'm allergic to walnuts",
     "Following the oral challenge at the clinic, walnuts are back on my menu", "walnut"),
])
def test_a_report_names_the_allergen_not_the_treatment(
    memory: Memory, allergy: str, message: str, allergen: str
) -> None:
    """The allergen of an allergy said over in other words was the first noun run of the
    sentence: "says desensitisation course is fine for them again", a like of the treatment
    that no check-up could pair with the allergy. It is now the object the object tagger
    marks as liked, and the check-up pairs the report with the allergy it is about."""
    memory.capture("u", allergy)
    memory.capture("u", message)
    assert allergen in allergens(memory)  # the report lifts nothing
    [reported] = [p for p in memory.preferences("u") if p.polarity == "like"]
    assert allergen in reported.content and allergen in " ".join(reported.keywords)
    [flag] = memory.flags("u")
    assert reported.id in flag.preference_ids and "allerg" in flag.reason
