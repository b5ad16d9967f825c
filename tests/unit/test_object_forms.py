"""Issue 17's pure object logic: Chinese words from the segmenter, qualifiers, the object of
a bare label, dictionary glosses, and the cross-language verdict on given vectors."""

from __future__ import annotations

import numpy as np
import pytest

from penchant.memory.core.capture.keywords import object_keywords, object_qualifiers
from penchant.memory.core.capture.segment import noun_runs
from penchant.memory.core.identity import CrossLanguage, judge
from penchant.memory.core.matching import keyword_covers, same_object
from penchant.memory.core.objects import ObjectForm, derive_objects, object_forms
from penchant.memory.embeddings.glossary import glosses


@pytest.mark.parametrize("word", ["头戴式耳机", "羽绒服", "皮鞋", "帆布包", "高跟鞋", "螺蛳粉"])
def test_a_chinese_compound_is_one_keyword(word: str) -> None:
    assert object_keywords(word) == [word]


def test_a_material_word_boundary_still_splits_the_material_off() -> None:
    assert object_keywords("塑料盒子") == ["塑料", "盒子"]


def test_two_chinese_words_sharing_a_character_never_cover_each_other() -> None:
    assert not keyword_covers("酸奶", "酸菜") and not keyword_covers("酸菜", "酸奶")


def test_a_chinese_head_covers_its_compounds_but_not_the_reverse() -> None:
    assert keyword_covers("耳机", "头戴式耳机")
    assert not keyword_covers("头戴式耳机", "入耳式耳机")


def test_the_segmenter_finds_a_topic_fronted_object() -> None:
    assert noun_runs("螺蛳粉现在不吃了") == ["螺蛳粉"]


def test_a_relative_qualifier_is_kept_as_qualifier_words() -> None:
    assert object_qualifiers("restaurants that only take cash", ["restaurant"]) == {"take", "cash"}


def test_a_clause_after_the_object_is_no_qualifier() -> None:
    assert object_qualifiers("suede jackets are off the menu now", ["suede", "jacket"]) == set()


def test_a_reason_clause_leaves_the_object_unqualified() -> None:
    content = "dislikes coffee because it keeps me awake"
    assert object_forms(content, "dislike", ("coffee",)) == (ObjectForm(("coffee",)),)


def test_a_bare_label_names_the_object_after_any_stance_verb() -> None:
    assert derive_objects("has gone off suede jackets", "dislike").keywords == ["suede", "jacket"]


def test_a_long_sentence_no_rule_reads_gives_no_object() -> None:
    text = "Due to my severe allergies, I require a vehicle with an advanced air filtration system."
    assert derive_objects(text, "dislike").keywords == []


def test_hyphen_variants_cut_differently_are_one_object() -> None:
    assert same_object(["hand-made soap"], ["handmade", "soap"])


def test_a_gloss_keeps_the_object_sense_and_drops_usage_labels() -> None:
    assert glosses("绿茶") == ("green tea",)


def test_a_gloss_ending_in_a_class_noun_also_names_the_bare_food() -> None:
    assert glosses("榴莲")[:2] == ("durian fruit", "durian")
    assert "chicken" in glosses("鸡肉")
    assert glosses("水果") == ("fruit",)  # a one-word gloss is kept whole


def test_a_word_the_dictionary_lacks_has_no_gloss() -> None:
    assert glosses("螺蛳粉") == ()


def _cross(cosine: float, glossed: tuple[tuple[str, ...], ...]) -> CrossLanguage:
    a = np.array([1.0, 0.0], dtype=np.float32)
    b = np.array([cosine, np.sqrt(1 - cosine**2)], dtype=np.float32)
    return CrossLanguage(
        vectors={"green tea": a, "绿茶": b}, glosses={"绿茶": glossed},
        same_cosine=0.85, gloss_cosine=0.45, flag_cosine=0.70,
    )  # fmt: skip


EN, ZH = ObjectForm(("green tea",)), ObjectForm(("绿茶",))


def test_a_dictionary_match_confirmed_by_the_embedding_is_the_same_object() -> None:
    assert judge(ZH, EN, _cross(0.6, (("green tea",),)))[0] == "same"


def test_a_dictionary_match_the_embedding_contradicts_is_only_flagged() -> None:
    assert judge(ZH, EN, _cross(0.3, (("green tea",),)))[0] == "flag"


def test_without_a_gloss_a_close_embedding_alone_is_the_same_object() -> None:
    assert judge(EN, ZH, _cross(0.9, ()))[0] == "same"


def test_without_a_gloss_the_middle_band_is_flagged() -> None:
    assert judge(EN, ZH, _cross(0.75, ()))[0] == "flag"


def test_without_a_gloss_a_low_cosine_is_nothing() -> None:
    assert judge(EN, ZH, _cross(0.5, ()))[0] is None


def test_a_gloss_that_only_shares_the_head_is_no_dictionary_match() -> None:
    assert judge(EN, ZH, _cross(0.6, (("black tea",),)))[0] is None


@pytest.mark.parametrize(("phrase", "keyword"), [
    ("every kind of pasta", "pasta"),  # was "of pasta"
    ("each type of tea", "tea"),
    ("various sorts of jazz", "jazz"),
])
def test_a_class_frame_after_any_quantifier_is_no_keyword(phrase: str, keyword: str) -> None:
    assert object_keywords(phrase) == [keyword]
