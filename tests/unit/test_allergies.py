"""The user's own allergies, stated and said to be over, in phrasings beyond "I'm allergic to
X" and "no longer allergic to X" (``memory/core/capture/allergies.py``, issue 17).
``对菠萝的过敏没了`` had stored the allergy itself, a hard constraint the user had just taken
back; "heads up I have a tree nut allergy, coconut is ok for me though" had stored nothing.
The sentences are new instances, not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.allergens import allergen_of
from penchant.memory.core.capture.allergies import read_retraction, states_no_symptom
from penchant.memory.core.capture.allergy_statements import read_allergy
from penchant.memory.core.capture.clauses import clauses
from penchant.memory.core.objects import only_retracts, retracted_objects
from penchant.memory.model.protection import is_retraction


@pytest.mark.parametrize(("sentence", "allergen", "content"), [
    ("Good news: my sesame allergy is officially gone", "sesame",
     "no longer allergic to sesame"),
    ("I grew out of my egg allergy years ago", "egg", "no longer allergic to egg"),
    ("Turns out I'm not actually allergic to penicillin", "penicillin",
     "no longer allergic to penicillin"),
    ("Peanut allergy: resolved!", "peanut", "no longer allergic to peanut"),
    ("我对榴莲的过敏没了", "榴莲", "对榴莲不再过敏了"),
    ("虾过敏转阴了", "虾", "对虾不再过敏了"),
    ("青霉素过敏其实是误会", "青霉素", "对青霉素不再过敏了"),
    ("小时候对牛奶过敏，长大就好了", "牛奶", "对牛奶不再过敏了"),
    ("Update: I'm not allergic to latex after all", "latex", "no longer allergic to latex"),
    ("the sesame allergy was a childhood thing", "sesame", "no longer allergic to sesame"),
    ("我一直以为自己对海鲜过敏，其实不是", "海鲜", "对海鲜不再过敏了"),
    ("姐妹们，我的桃子过敏好了", "桃子", "对桃子不再过敏了"),
])
def test_an_allergy_said_to_be_over_is_retracted_in_the_gates_phrasing(
    sentence: str, allergen: str, content: str
) -> None:
    (part,) = read_retraction(sentence) or [None]
    assert part is not None and part.polarity == "like"
    assert part.obj == allergen and part.content == content
    # the gate lifts the allergy it names, and stores no like of it (DESIGN.md §6.3)
    assert retracted_objects(part.content) and only_retracts(part.content)


@pytest.mark.parametrize("sentence", [
    "The pollen allergy season is over",  # a season, not the allergy
    "花生过敏的药没了",  # the allergy pills ran out
    "我对花生过敏，但是杏仁可以吃",  # fine near the allergy is not the allergy over
    "I'm allergic to peanuts, but I can eat almonds",
    "I hope my cat allergy will be gone soon",  # a hope
    "My son's egg allergy is gone",  # someone else's
    "我舅舅查出来对青霉素不过敏",
    "女儿的鸡蛋过敏好了",
    "my kiwi allergy came back, I thought it had gone",  # back again
    "花生过敏又复发了",
])
def test_no_retraction_is_read_where_none_is_said_of_the_users_allergy(sentence: str) -> None:
    assert read_retraction(sentence) is None


def test_capture_no_longer_stores_the_allergy_a_message_takes_back() -> None:
    reader = ClauseReader()
    found = extract_preferences("对芒果的过敏没了，现在随便吃", reader=reader)
    assert not any(c.protected for c in found)
    # read in other words than the gate's, it lifts nothing either (see structuring)
    assert not any(c.polarity == "like" and is_retraction(c.content) for c in found)
    # a real allergy in a message is still stored, protected
    kept = extract_preferences("我对芒果过敏，别给我推荐芒果味的东西", reader=reader)
    assert any(c.protected and "芒果" in c.keywords for c in kept)


@pytest.mark.parametrize(("sentence", "allergen", "content"), [
    ("quick heads up, I have a hazelnut allergy, almonds are fine though", "hazelnut",
     "allergic to hazelnut"),
    ("Even after years of treatment I'm still allergic to wasps", "wasps", "allergic to wasps"),
    ("ugh my shrimp allergy came back??", "shrimp", "allergic to shrimp"),
    ("我还是对芒果过敏", "芒果", "对芒果过敏"),
    ("虾过敏又复发了，难受", "虾", "对虾过敏"),
])
def test_an_allergy_stated_anywhere_in_a_sentence_is_read(
    sentence: str, allergen: str, content: str
) -> None:
    (part,) = read_allergy(sentence) or [None]
    assert part is not None and part.polarity == "dislike"
    assert part.obj == allergen and part.content == content


@pytest.mark.parametrize("sentence", [
    "Translate 'I'm allergic to peanuts' into Thai",  # quoted, not said
    "My daughter has a sesame allergy",  # someone else's
    "我弟对花生过敏",
    "I'm not allergic to cats",
    "芒果那个不算过敏哈",
])
def test_no_allergy_is_read_that_is_not_the_users_own(sentence: str) -> None:
    assert read_allergy(sentence) is None


@pytest.mark.parametrize(("text", "allergen"), [
    ("heads up I have a cashew allergy, pistachios are ok for me though", "cashew"),
    ("Even after three years of shots I'm still allergic to dogs, it's just milder now", "dogs"),
    ("my soy allergy came back??", "soy"),
])
def test_capture_stores_an_allergy_behind_a_preamble_or_in_a_question_as_protected(
    text: str, allergen: str
) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert any(c.protected and allergen in c.content for c in found)


@pytest.mark.parametrize("text", [
    "芒果那个不算过敏哈", "查了一下，我根本不过敏", "最近几次都没事，医生也说不是过敏",
    "以前吃完嘴巴肿，以为过敏，后来发现是底料的问题",
])
def test_a_negated_allergy_is_never_stored_as_one(text: str) -> None:
    assert not any(c.protected for c in extract_preferences(text, reader=ClauseReader()))


@pytest.mark.parametrize(("sentence", "allergen"), [
    ("the walnut intolerance cleared up after the course", "walnut"),
    ("I no longer react to wool, the dermatologist checked", "wool"),
    ("turns out I can drink oat milk again!", "oat milk"),
    ("芝麻过敏居然自己好了", "芝麻"),
    ("我对猫毛脱敏成功", "猫毛"),
    ("脱敏成功了，现在榛子随便吃", "榛子"),
    # a quoted allergy is the label taken back, not someone else's words
    ("my 'crab allergy' was food poisoning, tested negative", "crab"),
    ("My allergy to cats has cleared up for sure.", "cats"),
    ("The 'egg allergy' was a reaction to a dye, eggs are fine", "egg"),  # not its cause
    # what the user has back, not the tester or the treatment named first
    ("the allergist retested the alpha-gal thing and I can eat red meat again", "red meat"),
    ("医生说荨麻疹跟牛肉没关系，牛肉照吃", "牛肉"),
])
def test_the_allergen_of_a_sentence_about_an_allergy_being_over(
    sentence: str, allergen: str
) -> None:
    """By its allergy where the sentence names one, else the object of the first clause that
    names one other than the treatment (``脱敏成功了``)."""
    assert allergen_of(sentence, clauses(sentence)) == allergen


@pytest.mark.parametrize("sentence", [
    "the mouth itching went away after the immunotherapy", "医生说过敏好了",
])
def test_a_symptom_or_a_tester_is_never_the_allergen(sentence: str) -> None:
    assert allergen_of(sentence, clauses(sentence)) is None


@pytest.mark.parametrize("text", [
    "酒精过敏是真的，不是误会", "医生说乳糖不耐受是误会，但我还是不敢喝牛奶",
])
def test_an_allergy_said_to_be_real_or_still_feared_is_not_reported_over(text: str) -> None:
    """A breaker's look-alikes of ``酒精不耐受是个误会``: the first had been read as over."""
    found = extract_preferences(text, reader=ClauseReader())
    assert not any(c.polarity == "like" for c in found)


@pytest.mark.parametrize(("text", "allergen"), [
    ("酒精不耐受是个误会，医生查了说我解酒酶正常", "酒精"),
    ("之前说的鱼过敏你帮我删了吧，医生说是误诊", "鱼"),
])
def test_an_allergy_said_to_be_a_mistake_is_reported_over_not_stored(
    text: str, allergen: str
) -> None:
    """The rules had stored ``对酒精不耐受`` and ``对之前说的鱼过敏``."""
    found = extract_preferences(text, reader=ClauseReader())
    assert not any(c.protected for c in found)
    assert [c.polarity for c in found] == ["like"] and allergen in found[0].content


def test_a_report_of_an_allergy_over_is_a_like_that_retracts_nothing() -> None:
    reader = ClauseReader()
    found = extract_preferences("对芝麻的过敏没了", reader=reader)
    assert [(c.polarity, c.keywords, c.protected) for c in found] == [("like", ["芝麻"], False)]
    assert not is_retraction(found[0].content) and "尚未确认" in found[0].content
    # an allergy the rules read in the sentence outweighs the head's reading of it
    kept = extract_preferences(
        "heads up, I've got a walnut allergy, but pecans are fine", reader=reader
    )
    assert any(c.protected and c.keywords == ["walnut"] for c in kept)


def test_an_allergy_over_in_words_no_pattern_has_is_read_by_the_structure_head() -> None:
    """No allergy word and no retraction pattern: the structure head reads the sentence as an
    allergy retracted, and the allergen is the object of its clause (README's example)."""
    found = extract_preferences(
        "I can have kiwi again, the allergist did a supervised feed", reader=ClauseReader()
    )
    assert [(c.polarity, c.keywords, c.protected) for c in found] == [("like", ["kiwi"], False)]
    assert not is_retraction(found[0].content)


@pytest.mark.parametrize(("text", "allergen"), [
    ("Passed the cashew challenge at the hospital, so cashews are okay for me now", "cashew"),
    pytest.param(
        "Turns out I'm fine with mangoes, the rash was from the sunscreen", "mango",
        marks=pytest.mark.xfail(strict=True, reason=(
            "the structure head retrained with the kept and current-choice corpus reads this "
            "allergy over at 0.79, under SURE_P (0.82 before); held-out retractions did not "
            "fall (bench/capture_quality.py)")),
    ),
    ("FYI I'm not allergic to pollen anymore, the shots worked", "pollen"),
])
def test_an_allergy_the_head_is_sure_is_over_is_reported_whatever_word_surrounds_it(
    text: str, allergen: str
) -> None:
    """A clinic, a rash, a doctor or a seasonal allergen is said in true retractions as often
    as in look-alikes; where the structure head is sure, they no longer veto the report (which
    lifts nothing)."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.protected) for c in found] == [("like", False)]
    assert allergen in found[0].keywords and not is_retraction(found[0].content)


@pytest.mark.parametrize("text", [
    "my brother can eat shrimp again, the allergist cleared him",
    "Maybe I'm not allergic to soy anymore? I'll ask the doctor first",
    "my sesame allergy is gone as long as I take my antihistamines",
    "我女儿对牛奶不过敏了，医生说的",
    "my GP cleared me for ibuprofen, the hives were from the detergent",
])
def test_a_hedge_or_someone_elses_body_still_vetoes_a_sure_reading(text: str) -> None:
    """Nothing is reported: a hope, a condition, a question, someone else's allergy, or no
    allergen the allergy or the object tagger names (not the first noun, *GP*)."""
    found = extract_preferences(text, reader=ClauseReader())
    assert not [c for c in found if c.polarity == "like"]


@pytest.mark.parametrize(("sentence", "allergen"), [
    ("I had a CT with iodine dye and no reaction, so the old allergy label was wrong",
     "iodine"),
    ("Oh, the nurse says I'm not allergic to plasters any more.", "plasters"),
    ("我现在能吃菠萝了！医生说过敏好了", "菠萝"),  # not 医生说, the words before 过敏
])
def test_a_loose_reading_of_the_allergen_gives_way_to_the_object_tagger(
    sentence: str, allergen: str
) -> None:
    """"allergic to X" is read before the words in front of "allergic", and the words before
    "allergy" ("old", ``医生说``) only where the tagger reads them in an object."""
    got = allergen_of(sentence, clauses(sentence))
    assert got is not None and allergen in got


@pytest.mark.parametrize(("text", "allergen"), [
    ("Update: my walnut allergy is gone! ate a handful yesterday, zero hives", "walnut"),
    ("my kiwi allergy is gone, I ate two kiwis yesterday and not a single hive", "kiwi"),
    ("my sesame allergy is over, had tahini twice this week and not one rash", "sesame"),
    ("my pecan allergy is gone, tried pecans again and didn't get any hives", "pecan"),
    ("我芒果过敏好了，昨天吃了两个都没起疹子", "芒果"),
    ("其实我不是对榴莲过敏，是那次吃多了", "榴莲"),
    ("对杏仁过敏那事儿已经过去了", "杏仁"),
])
def test_an_allergy_over_is_reported_where_a_symptom_is_absent_or_the_allergy_denied(
    text: str, allergen: str
) -> None:
    """A symptom said to be absent ("zero hives", ``都没起疹子``) is evidence the allergy is
    over, not a veto; ``不是对X过敏`` denies the allergy the rules had stored; "my walnut
    allergy" is the user's (``Update`` before it had been read as someone else); and where
    the structure head is sure, it outweighs the rules' ``对X过敏`` of the same allergen."""
    found = extract_preferences(text, reader=ClauseReader())
    assert not any(c.protected for c in found)
    assert [(c.polarity, c.keywords) for c in found] == [("like", [allergen])]
    assert not is_retraction(found[0].content)


@pytest.mark.parametrize(("text", "allergen"), [
    ("小时候医生说我牛奶过敏长大肯定能好，现在我还在喝豆奶", "牛奶"),
    ("我芒果过敏没好，吃了还是起疹子", "芒果"),
    ("我对花生过敏，不是对花生油过敏", "花生"),
])
def test_a_sure_reading_never_turns_an_allergy_into_news_of_another_object(
    text: str, allergen: str
) -> None:
    """The allergy stays, and nothing is reported of what else the sentence names."""
    found = extract_preferences(text, reader=ClauseReader())
    assert any(c.protected and c.keywords == [allergen] for c in found)
    assert not any(c.polarity == "like" and allergen in c.keywords for c in found)


def test_a_speaker_is_no_allergen() -> None:
    """``医生说过敏好了`` names no allergen: not the doctor who said so."""
    assert extract_preferences("医生说过敏好了", reader=ClauseReader()) == []
    sentence = "医生说小时候的蛋白过敏已经消失了"
    assert allergen_of(sentence, clauses(sentence)) == "蛋白"


def test_a_stated_allergy_the_head_misreads_as_over_stays() -> None:
    """The structure head read "I've got a sesame allergy" as an allergy over (0.85): an
    allergy the rules read as a statement is never outweighed in English, nor in Chinese
    where the clause ends at the allergy."""
    reader = ClauseReader()
    found = extract_preferences(
        "heads up, I've got a sesame allergy, but poppy seeds are fine", reader=reader
    )
    assert any(c.protected and c.keywords == ["sesame"] for c in found)
    assert not any(c.polarity == "like" and "sesame" in c.keywords for c in found)


def test_a_stated_allergy_is_not_added_back_beside_its_report_of_being_over() -> None:
    """``我对杏仁过敏那事儿已经过去了``: the report of the allergy over stood, and the stated
    allergies of the message (``我对杏仁过敏``) added the allergy back beside it (the chat
    check of 2026-12-05 stored ``对杏仁过敏``)."""
    found = extract_preferences("我对杏仁过敏那事儿已经过去了", reader=ClauseReader())
    assert not any(c.protected for c in found)
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["杏仁"])]


@pytest.mark.parametrize(("text", "allergen"), [
    ("the ibuprofen thing was a mix-up, I'm not allergic", "ibuprofen"),
    ("ok update on the latex thing: not allergic. never was.", "latex"),
    ("你帮我更新一下：不对头孢过敏，以前登记错了", "头孢"),
])
def test_an_allergy_over_read_only_in_the_whole_sentence_is_reported(
    text: str, allergen: str
) -> None:
    """The structure head reads these sentences whole as an allergy over (0.9 and more) and
    none of their clauses alone ("the ibuprofen thing was a mix-up", "I'm not allergic"): they
    stored nothing. Reported, never lifted: the content is no retraction the gate obeys."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [("like", [allergen])]
    assert not is_retraction(found[0].content)


@pytest.mark.parametrize("text", [
    "I passed the egg challenge last year but started reacting again so I'm back to avoiding "
    "eggs",
    "just got diagnosed with a peanut allergy at 40, never had a problem before",
    "my GP said the penicillin allergy is 'probably not real' but I'm not touching it without "
    "a test",
])
def test_a_whole_sentence_read_less_surely_reports_nothing(text: str) -> None:
    """Read whole at 0.5–0.8 (an allergy back, new or doubted): the whole sentence counts
    only where the head is sure (``SURE_P``)."""
    found = extract_preferences(text, reader=ClauseReader())
    assert not any(c.polarity == "like" for c in found)


def test_a_conjunction_before_what_is_eaten_again_is_no_part_of_the_allergen() -> None:
    sentence = "医生说我的湿疹跟吃虾没关系，是换季，所以虾照吃"
    assert allergen_of(sentence, clauses(sentence)) == "虾"


@pytest.mark.parametrize(("text", "allergen"), [
    ("我能吃虾了！医生说过敏好了", "虾"),
    ("I can eat shrimp again. The allergist says it's gone.", "shrimp"),
])
def test_what_the_user_has_back_in_the_sentence_before_names_the_allergen(
    text: str, allergen: str
) -> None:
    """The sentence the structure head reads as an allergy over names no allergen; the one
    before names what the user has back. They had stored nothing."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [("like", [allergen])]
    assert not is_retraction(found[0].content)


@pytest.mark.parametrize("text", [
    "Had sushi last night. My allergy is gone.",
    "My son can eat eggs again. The allergist says the allergy is gone.",
    "我儿子能吃虾了！医生说过敏好了",
])
def test_a_thing_merely_mentioned_or_anothers_back_before_is_no_allergen(text: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert not any(c.polarity == "like" for c in found)


@pytest.mark.parametrize(("text", "allergen"), [
    ("脱敏治疗效果很好，医生说我对尘螨已经耐受了，停药也没症状", "尘螨"),
    ("能喝牛奶了，之前喝一口就起疹子，最近几次都没事，医生也说不是过敏", "牛奶"),
])
def test_a_sentence_read_whole_as_surely_over_outweighs_a_word_veto(
    text: str, allergen: str
) -> None:
    """Read whole at 0.95 or more, as a clause at ``SURE_P``: a word of the vetoes (``停药``,
    ``起疹子``) kept the news out, and the first stored a quit of 尘螨."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [c.content for c in found if allergen in c.keywords] == [
        f"说{allergen}现在没问题但尚未确认"]


@pytest.mark.parametrize(("text", "absent"), [
    ("didn't get any hives", True), ("never had a rash", True), ("not a single sneeze", True),
    ("吃了两次都没起疹子", True), ("I got hives again", False), ("起了一身疹子", False),
])
def test_a_symptom_said_to_be_absent_is_found(text: str, absent: bool) -> None:
    assert states_no_symptom(text) is absent


def test_an_absent_symptom_is_no_dislike() -> None:
    """The statement head read "…and didn't get any hives" as a dislike of the hives."""
    found = extract_preferences("Had walnuts again and didn't get any hives. I love walnuts now.",
                                reader=ClauseReader())
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["walnut"])]
