"""Adversarial regressions for issue 9: derived objects, slots, protection and rule capture.

Each test is one kind of input that broke the gate's first rule (better to miss a
contradiction than to delete an unrelated preference), capture's rule (say nothing
rather than something wrong), or the hot path's time budget.
"""

from __future__ import annotations

import time

import pytest

from penchant.memory import Memory, PreferenceCandidate
from penchant.memory.core.blocks import strip_injected_blocks
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.clauses import sentences

PATHOLOGICAL_SECONDS = 1.0
"""Generous bound for one call on a pathological input; the quadratic cases took 1–8 s,
the linear ones take a few milliseconds."""


def like(content: str, *keywords: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=list(keywords))


def dislike(content: str, *keywords: str) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="dislike", keywords=list(keywords))


def active(memory: Memory, user: str = "u") -> list[tuple[str, str]]:
    return sorted((p.polarity, p.content) for p in memory.preferences(user))


def elapsed(call: object, *args: object) -> float:
    start = time.perf_counter()
    call(*args)  # type: ignore[operator]
    return time.perf_counter() - start


# -- robustness ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I like" + " " * 20_000 + "jazz",
        "I like" + "\n \t" * 6_000 + "jazz",
        "I like " + "\"'" * 10_000 + "jazz",
        "I like " + "(" * 5_000 + "jazz" + ")" * 5_000,
    ],
    ids=["spaces", "mixed-whitespace", "quotes", "parentheses"],
)
def test_capture_is_linear_on_long_runs_of_blanks_and_symbols(text: str) -> None:
    assert elapsed(extract_preferences, text) < PATHOLOGICAL_SECONDS


def test_a_message_padded_with_blanks_is_still_read() -> None:
    (found,) = extract_preferences("I like" + " " * 5_000 + "jazz")
    assert (found.polarity, found.keywords) == ("like", ["jazz"])


def test_stripping_injected_blocks_is_linear_on_a_long_run_of_spaces() -> None:
    assert elapsed(strip_injected_blocks, "a" + " " * 50_000 + "b") < PATHOLOGICAL_SECONDS


# -- protected preferences ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("allergy", "bypass"),
    [
        ("allergic to tree nuts", like("I love tree nuts, I'm not allergic to cats", "tree nut")),
        ("allergic to tree nuts", like("not allergic to cats; tree nuts are great", "tree nut")),
        ("对花生过敏", like("不再对猫过敏了，爱吃花生", "花生")),
    ],
    ids=["en-comma", "en-semicolon", "zh"],
)
def test_retracting_another_allergy_never_lifts_a_protected_one(
    memory: Memory, allergy: str, bypass: PreferenceCandidate
) -> None:
    memory.remember("u", dislike(allergy))
    result = memory.remember("u", bypass)
    assert result.superseded == []
    assert ("dislike", allergy) in active(memory)


def test_retracting_one_of_two_allergies_keeps_the_record_of_both(memory: Memory) -> None:
    memory.remember("u", dislike("allergic to peanuts and tree nuts", "peanut", "tree nut"))
    memory.remember("u", like("no longer allergic to tree nuts"))
    assert ("dislike", "allergic to peanuts and tree nuts") in active(memory)


def test_a_retraction_of_the_same_allergy_still_lifts_it(memory: Memory) -> None:
    memory.remember("u", dislike("allergic to tree nuts"))
    memory.remember("u", like("I love cashews again: I'm no longer allergic to tree nuts"))
    assert [p for p in active(memory) if p[0] == "dislike"] == []


# -- derived objects ----------------------------------------------------------------------------


def test_a_like_of_everything_but_x_is_not_merged_with_a_like_of_x(memory: Memory) -> None:
    memory.remember("u", like("likes pizza"))
    memory.remember("u", like("likes everything except pizza"))
    assert ("like", "likes pizza") in active(memory)


def test_the_object_compared_against_is_not_part_of_a_like(memory: Memory) -> None:
    memory.remember("u", like("prefers tea over coffee"))
    memory.remember("u", dislike("dislikes coffee"))
    assert active(memory) == [("dislike", "dislikes coffee"), ("like", "prefers tea over coffee")]


def test_the_object_switched_from_is_not_part_of_a_like(memory: Memory) -> None:
    memory.remember("u", like("switched from coffee to tea"))
    (pref,) = memory.preferences("u")
    assert pref.keywords == ["tea"]


@pytest.mark.parametrize(
    ("several", "one", "kept"),
    [
        ("likes coffee and tea", "dislikes tea", "coffee"),
        ("likes coffee, tea and juice", "dislikes juice", "coffee"),
        ("喜欢咖啡和茶", "不喝茶", "咖啡"),
    ],
)
def test_a_dislike_of_one_object_leaves_a_like_of_several_alone(
    memory: Memory, several: str, one: str, kept: str
) -> None:
    memory.remember("u", like(several))
    memory.remember("u", dislike(one))
    assert ("like", several) in active(memory)
    assert [p.content for p in memory.forget("u", kept).removed] == [several]


def test_a_dislike_of_several_objects_supersedes_a_like_of_one_of_them(memory: Memory) -> None:
    memory.remember("u", like("likes tea"))
    memory.remember("u", dislike("hates coffee and tea"))
    assert active(memory) == [("dislike", "hates coffee and tea")]


def test_one_object_with_several_facets_is_still_superseded_by_its_head(memory: Memory) -> None:
    memory.remember("u", like("likes plastic water bottles"))
    memory.remember("u", dislike("no plastic please"))
    assert active(memory) == [("dislike", "no plastic please")]


def test_an_allergy_that_is_over_is_not_captured_as_an_allergy() -> None:
    assert [c for c in extract_preferences("我对花生过敏好了。") if c.polarity == "dislike"] == []


def test_the_exception_to_no_allergies_is_a_protected_allergy() -> None:
    found = extract_preferences("Not allergic to anything except peanuts.")
    assert [(c.polarity, c.keywords, c.protected) for c in found] == [("dislike", ["peanut"], True)]


# -- qualified and substituted objects -----------------------------------------------------------


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (like("likes pizza"), dislike("dislikes pizza with pineapple")),
        (dislike("dislikes pizza with pineapple"), like("likes pizza with mushrooms")),
        (like("likes movies"), dislike("hates movies with horror")),
    ],
    ids=["bare-then-with", "with-then-other-with", "movies-horror"],
)
def test_an_object_with_a_qualifier_and_the_bare_object_stay_apart(
    memory: Memory, older: PreferenceCandidate, newer: PreferenceCandidate
) -> None:
    memory.remember("u", older)
    result = memory.remember("u", newer)
    assert result.superseded == []
    both = [(older.polarity, older.content), (newer.polarity, newer.content)]
    assert active(memory) == sorted(both)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (like("likes coffee with tea flavour"), dislike("dislikes coffee")),
        (dislike("dislikes tea with milk"), like("loves tea")),
    ],
    ids=["with-then-bare", "tea-milk"],
)
def test_a_flip_about_the_bare_head_supersedes_its_qualified_form(
    memory: Memory, older: PreferenceCandidate, newer: PreferenceCandidate
) -> None:
    """Issue 17 changed this rule: a flip about the head covers its modified forms (``no
    wine`` supersedes ``likes red wine with dinner``); a narrower newer one still does not."""
    memory.remember("u", older)
    result = memory.remember("u", newer)
    assert [s.preference.content for s in result.superseded] == [older.content]
    assert active(memory) == [(newer.polarity, newer.content)]


def test_a_qualified_object_is_still_forgotten_by_its_head(memory: Memory) -> None:
    memory.remember("u", dislike("dislikes pizza with pineapple"))
    assert [p.content for p in memory.forget("u", "pizza").removed] == [
        "dislikes pizza with pineapple"
    ]


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("likes faux leather", "dislikes leather"),
        ("likes vegan leather", "dislikes leather"),
        ("likes oat milk", "dislikes milk"),
        ("likes almond milk", "hates milk"),
        ("likes soy milk", "no milk"),
        ("likes faux fur", "dislikes fur"),
        ("likes plant-based meat", "dislikes meat"),
        ("likes non-alcoholic beer", "dislikes beer"),
        ("likes vegan cheese", "dislikes cheese"),
        ("likes ice cream", "dislikes cream"),
        ("likes hot dogs", "dislikes dogs"),
        ("likes peanut butter", "dislikes butter"),
        ("喜欢人造皮革", "不喜欢皮革"),
        ("喜欢植物肉", "不吃肉"),
    ],
)
def test_a_dislike_of_x_leaves_a_like_of_a_substitute_or_compound_of_x_alone(
    memory: Memory, older: str, newer: str
) -> None:
    memory.remember("u", like(older))
    result = memory.remember("u", dislike(newer))
    assert result.superseded == []
    assert ("like", older) in active(memory)


def test_an_ordinary_modifier_is_still_covered_by_its_head(memory: Memory) -> None:
    memory.remember("u", like("likes dark chocolate"))
    memory.remember("u", dislike("dislikes chocolate"))
    assert active(memory) == [("dislike", "dislikes chocolate")]


# -- third-person labels ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("is afraid of spiders", "is afraid of heights"),
        ("is scared of dogs", "is terrified of flying"),
        ("is lactose intolerant", "is gluten intolerant"),
        ("my favourite food is not sushi", "my favourite food is not pizza"),
        ("害怕蜘蛛", "害怕打雷"),
        ("对乳糖不耐受", "对麸质不耐受"),
    ],
)
def test_two_labels_with_the_same_frame_and_different_objects_stay_apart(
    memory: Memory, first: str, second: str
) -> None:
    memory.remember("u", dislike(first))
    result = memory.remember("u", dislike(second))
    assert (result.merged, result.superseded) == ([], [])
    assert active(memory) == sorted([("dislike", first), ("dislike", second)])


@pytest.mark.parametrize(
    ("content", "keywords"),
    [
        ("is afraid of spiders", ["spider"]),
        ("is lactose intolerant", ["lactose"]),
        ("has a nut allergy", ["nut"]),
        ("对乳糖不耐受", ["乳糖"]),
        ("my favourite food is not sushi", []),
        ("is against the idea", []),
    ],
)
def test_a_third_person_label_derives_its_real_object_or_none(
    memory: Memory, content: str, keywords: list[str]
) -> None:
    memory.remember("u", dislike(content))
    (pref,) = memory.preferences("u")
    assert pref.keywords == keywords


# -- negated slots ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我最喜欢的颜色不是红色",
        "我最喜欢的水果已经不是苹果了",
        "最喜欢的歌手不再是周杰伦",
        "my favourite colour is not red",
        "My favorite band isn't Coldplay anymore.",
    ],
)
def test_a_negated_slot_is_not_a_like_of_its_value(text: str) -> None:
    assert [c for c in extract_preferences(text) if c.polarity == "like"] == []


# -- discourse markers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Like I said, jazz is fine", []),
        ("Like you said before, I hate olives.", [("dislike", ["olive"])]),
        ("like I mentioned, I love green tea", [("like", ["green tea"])]),
        ("I love, like I told you, spicy ramen", [("like", ["spicy", "ramen"])]),
    ],
)
def test_like_i_said_is_a_discourse_marker_not_a_stance(
    text: str, expected: list[tuple[str, list[str]]]
) -> None:
    assert [(c.polarity, c.keywords) for c in extract_preferences(text)] == expected


# -- sentence boundaries ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm allergic to peanuts.I love cashews",
            [("dislike", ["peanut"]), ("like", ["cashew"])],
        ),
        ("I hate olives.i love capers", [("dislike", ["olive"]), ("like", ["caper"])]),
        ("I love snacks, e.g. pretzels.I hate chips", [("like", ["snack"]), ("dislike", ["chip"])]),
    ],
)
def test_a_full_stop_without_a_space_still_ends_a_sentence_after_a_word(
    text: str, expected: list[tuple[str, list[str]]]
) -> None:
    assert [(c.polarity, c.keywords) for c in extract_preferences(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "I like version 2.0 of it",
        "I love snacks, e.g.Pretzels",
        "I love the U.S.Open",
        "I like the U.S. Open",
    ],
)
def test_decimals_and_abbreviations_do_not_end_a_sentence(text: str) -> None:
    assert list(sentences(text)) == [text]


@pytest.mark.parametrize(
    "retraction",
    [
        like("我不再对花生过敏了"),
        like("已经不对花生过敏了"),
        like("no longer allergic to peanuts"),
        like("I'm not allergic to peanuts anymore"),
    ],
    ids=["zh-bu-zai-dui", "zh-yi-jing-bu-dui", "en-no-longer", "en-not-anymore"],
)
def test_a_retraction_written_without_keywords_lifts_the_allergy(
    memory: Memory, retraction: PreferenceCandidate
) -> None:
    allergy = "对花生过敏" if "花生" in retraction.content else "allergic to peanuts"
    memory.remember("u", dislike(allergy))
    memory.remember("u", retraction)
    assert [p for p in active(memory) if p[0] == "dislike"] == []
