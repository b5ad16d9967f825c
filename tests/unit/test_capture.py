"""Specification of rule capture from one user message (penchant.memory.core.capture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from penchant.memory.core.blocks import wrap_block
from penchant.memory.core.capture import (
    MAX_CAPTURE_CHARS,
    RULE_CONFIDENCE,
    category_for,
    extract_preferences,
    object_keywords,
    slot_key,
)
from penchant.memory.core.capture.questions import is_question_or_hypothetical
from penchant.memory.model.protection import is_retraction
from penchant.memory.model.records import PreferenceCandidate

CASES_DIR = Path(__file__).parents[1] / "cases"
CASE_FILES = ("capture.jsonl", "capture-k2.jsonl")


def stances(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """(polarity, keywords) of every candidate found in ``text``, in order."""
    return [(c.polarity, tuple(c.keywords)) for c in extract_preferences(text)]


def only(text: str) -> PreferenceCandidate:
    """The single candidate found in ``text``."""
    found = extract_preferences(text)
    assert len(found) == 1, found
    return found[0]


# --------------------------------------------------------------------------------------------
# What is captured: (message, expected [(polarity, keywords)…])
# --------------------------------------------------------------------------------------------

CAPTURED = [
    ("en-like", "I like jazz.", [("like", ("jazz",))]),
    ("en-love", "I love green tea.", [("like", ("green tea",))]),
    ("en-prefer", "I prefer canvas tote bags for shopping.", [("like", ("canvas", "tote bag"))]),
    ("en-favourite-is", "My favourite colour is blue.", [("like", ("blue",))]),
    ("en-is-my-favorite", "Green tea is my favorite.", [("like", ("green tea",))]),
    ("en-enjoy", "I really enjoy long walks.", [("like", ("long walk",))]),
    ("en-into", "I'm into vintage furniture.", [("like", ("vintage", "furniture"))]),
    ("en-big-fan", "I'm a big fan of Radiohead.", [("like", ("radiohead",))]),
    ("en-dislike", "I dislike loud restaurants.", [("dislike", ("loud restaurant",))]),
    ("en-hate-smell", "I hate the smell of lavender.", [("dislike", ("lavender",))]),
    ("en-cant-stand", "I can't stand polyester.", [("dislike", ("polyester",))]),
    ("en-cannot-stand", "I cannot stand spicy food.", [("dislike", ("spicy", "food"))]),
    ("en-not-a-fan", "I'm not a fan of heavy metal.", [("dislike", ("heavy metal",))]),
    ("en-avoid", "I avoid gluten.", [("dislike", ("gluten",))]),
    ("en-never-eat", "I never eat pork.", [("dislike", ("pork",))]),
    ("en-dont-want", "Actually I don't want plastic anymore.", [("dislike", ("plastic",))]),
    ("en-do-not-want", "I do not want leather seats.", [("dislike", ("leather", "seat"))]),
    ("en-dont-like", "I don't really like cilantro.", [("dislike", ("cilantro",))]),
    ("en-no-longer-like", "I no longer like sweet drinks.", [("dislike", ("sweet", "drink"))]),
    ("en-allergic", "Just so you know, I'm allergic to peanuts.", [("dislike", ("peanut",))]),
    ("en-allergy-noun", "I have a shellfish allergy.", [("dislike", ("shellfish",))]),
    ("en-dont-eat", "I don't eat meat.", [("dislike", ("meat",))]),
    ("en-no-more", "No more plastic bags, please.", [("dislike", ("plastic", "bag"))]),
    ("en-stop-recommending", "Stop recommending wool socks.", [("dislike", ("wool", "sock"))]),
    ("en-intolerant", "I'm lactose intolerant.", [("dislike", ("lactose",))]),
    ("en-subjectless", "Can't stand polyester.", [("dislike", ("polyester",))]),
    ("en-remember-that", "Remember that I hate mushrooms.", [("dislike", ("mushroom",))]),
    (
        "en-plastic-containers",
        "I really like plastic containers, they are so light.",
        [("like", ("plastic", "container"))],
    ),
    (
        "en-two-in-one",
        "I like wool sweaters but I can't stand polyester.",
        [("like", ("wool", "sweater")), ("dislike", ("polyester",))],
    ),
    (
        "en-coordinated",
        "I hate onions and garlic.",
        [("dislike", ("onion",)), ("dislike", ("garlic",))],
    ),
    ("en-and-compound", "I love rock and roll.", [("like", ("rock and roll",))]),
    ("en-used-to-now-prefer", "I used to like jazz, now I prefer blues.", [("like", ("blues",))]),
    ("en-used-to-now-hate", "I used to love sushi but now I hate it.", [("dislike", ("sushi",))]),
    ("en-friend-then-me", "My friend loves sushi but I hate it.", [("dislike", ("sushi",))]),
    ("en-prefer-not-to", "I prefer not to eat red meat.", [("dislike", ("red meat",))]),
    ("en-curly-apostrophe", "I don\u2019t like plastic.", [("dislike", ("plastic",))]),
    ("en-when-clause", "When I travel, I prefer window seats.", [("like", ("window seat",))]),
    ("zh-like", "我喜欢帆布包。", [("like", ("帆布包",))]),  # one word (issue 17)
    ("zh-dislike-buyao", "我不要塑料的东西。", [("dislike", ("塑料",))]),
    ("zh-like-spicy", "我很喜欢辣的菜。", [("like", ("辣",))]),
    ("zh-stopped-eating", "最近不吃辣了。", [("dislike", ("辣",))]),
    ("zh-allergy", "我对花生过敏。", [("dislike", ("花生",))]),
    ("zh-hate", "我讨厌香菜。", [("dislike", ("香菜",))]),
    ("zh-love-eat", "我爱吃火锅！", [("like", ("火锅",))]),
    ("zh-love-drink", "我超爱喝奶茶", [("like", ("奶茶",))]),
    ("zh-not-really-like", "我不太喜欢甜的。", [("dislike", ("甜",))]),
    ("zh-favourite", "我最喜欢的颜色是蓝色。", [("like", ("蓝色",))]),
    ("zh-prefer", "我偏好纯棉的衣服", [("like", ("纯棉", "衣服"))]),
    ("zh-cant-stand", "我受不了榴莲", [("dislike", ("榴莲",))]),
    ("zh-dont-want", "我不想要皮革的包", [("dislike", ("皮革", "包"))]),
    ("zh-dont-recommend", "别给我推荐塑料的东西了", [("dislike", ("塑料",))]),
    ("zh-used-to", "以前喜欢咖啡，现在不喜欢了。", [("dislike", ("咖啡",))]),
    ("zh-used-to-now-prefer", "我以前喜欢咖啡，现在更喜欢茶。", [("like", ("茶",))]),
    (
        "zh-two-in-one",
        "我不喜欢塑料，但是我喜欢玻璃瓶。",
        [("dislike", ("塑料",)), ("like", ("玻璃瓶",))],
    ),
    ("zh-friend-then-me", "我朋友喜欢寿司，我不喜欢。", [("dislike", ("寿司",))]),
    ("zh-traditional", "我喜歡帆布包", [("like", ("帆布包",))]),
    ("mixed-zh-en", "I love jazz. 我不吃香菜。", [("like", ("jazz",)), ("dislike", ("香菜",))]),
]


@pytest.mark.parametrize(
    ("text", "expected"), [case[1:] for case in CAPTURED], ids=[case[0] for case in CAPTURED]
)
def test_first_person_preference_is_captured(text: str, expected: list) -> None:
    assert stances(text) == expected


NOT_CAPTURED = [
    ("en-question", "Do you like jazz?"),
    ("en-question-without-mark", "Do you like jazz"),
    ("en-negative-question", "Don't you love jazz?"),
    ("en-small-talk", "What's the weather like in Lisbon today?"),
    ("en-rhetorical-question", "Did I mention I love green tea?"),
    ("en-request", "Recommend me a bag."),
    ("en-what-should-i-buy", "what should I buy"),
    ("en-would-like", "I'd like a new bag."),
    ("en-would-love-to", "I would love to see more options."),
    ("en-friend", "My friend loves sushi."),
    ("en-wife", "My wife hates onions."),
    ("en-we", "We love camping."),
    ("en-kids", "My kids love pizza."),
    ("en-think-wife", "I think my wife loves tulips."),
    ("en-hypothetical", "If I liked jazz, I'd buy the album."),
    ("en-imagine", "Imagine I love opera."),
    ("en-maybe", "Maybe I like opera."),
    ("en-feel-like", "I feel like pizza tonight."),
    ("en-im-like", "I'm like 30 years old."),
    ("en-love-you", "I love you!"),
    ("en-love-it-no-antecedent", "I love it."),
    ("en-like-how", "I like how you explained that."),
    ("en-hate-it-when", "I hate it when people are late."),
    ("en-dont-mind", "I don't mind plastic."),
    ("en-dont-hate", "I don't hate plastic."),
    ("en-used-to-only", "I used to love sushi."),
    ("en-shopping-for", "I'm looking for shoes I like."),
    ("en-weather-like", "The weather is like summer here."),
    ("en-no-object", "I like"),
    ("zh-question", "你喜欢猫吗？"),
    ("zh-question-without-mark", "你喜欢猫吗"),
    ("zh-a-not-a", "你喜不喜欢猫"),
    ("zh-request", "给我推荐一个包"),
    ("zh-want-to-buy", "我想买一个帆布包"),
    ("zh-recommend-what-i-like", "给我推荐一个我会喜欢的包"),
    ("zh-friend", "我朋友喜欢寿司。"),
    ("zh-mother", "我妈妈不吃辣。"),
    ("zh-he", "他讨厌香菜"),
    ("zh-hypothetical", "如果我喜欢猫的话"),
    ("zh-maybe", "我可能喜欢"),
    ("zh-love-you", "我爱你"),
    ("zh-dont-worry", "不要担心"),
    ("zh-used-to-only", "我以前喜欢咖啡。"),
    (
        "injected-block",
        "<user_preferences>\n- dislikes: plastic\n</user_preferences>\nwhat bottle should I buy?",
    ),
    ("empty", ""),
    ("whitespace", "  \n "),
]


@pytest.mark.parametrize(
    "text", [case[1] for case in NOT_CAPTURED], ids=[case[0] for case in NOT_CAPTURED]
)
def test_message_without_first_person_preference_yields_nothing(text: str) -> None:
    assert extract_preferences(text) == []


# --------------------------------------------------------------------------------------------
# One behaviour per test
# --------------------------------------------------------------------------------------------


def test_allergy_is_dislike() -> None:
    found = only("I'm severely allergic to peanuts.")
    assert (found.polarity, found.keywords, found.content) == (
        "dislike",
        ["peanut"],
        "allergic to peanuts",
    )


def test_question_is_not_captured() -> None:
    assert extract_preferences("Is it true that I like jazz?") == []


def test_statement_next_to_a_question_is_captured() -> None:
    assert stances("I love jazz. Do you?") == [("like", ("jazz",))]


def test_other_persons_preference_is_not_captured_but_mine_is() -> None:
    assert stances("My wife hates onions, but I love them.") == [("like", ("onion",))]


def test_other_person_carries_over_to_subjectless_clause() -> None:
    assert extract_preferences("我朋友喜欢寿司，不吃辣。") == []


def test_used_to_like_is_stale_and_no_dislike_is_invented() -> None:
    assert stances("I used to like coffee, now I prefer tea.") == [("like", ("tea",))]


def test_last_stance_in_one_message_wins() -> None:
    assert stances("I like tea. Actually, I hate tea.") == [("dislike", ("tea",))]


def test_injected_block_is_not_recaptured() -> None:
    message = wrap_block("user_preferences", "- like (food): I love durian") + "\nhi there"
    assert extract_preferences(message) == []


def test_text_around_an_injected_block_is_still_captured() -> None:
    message = wrap_block("recalled_memories", "- I love durian") + "\nI hate plastic."
    assert stances(message) == [("dislike", ("plastic",))]


def test_material_modifier_is_its_own_keyword() -> None:
    assert object_keywords("wool sweaters") == ["wool", "sweater"]
    assert object_keywords("canvas tote bags") == ["canvas", "tote bag"]
    assert object_keywords("wooden toys") == ["wood", "toy"]


def test_ordinary_compound_noun_stays_whole_and_singular() -> None:
    assert object_keywords("green tea") == ["green tea"]
    assert object_keywords("milk chocolate") == ["milk chocolate"]
    assert object_keywords("hiking boots") == ["hiking boot"]


def test_negation_stays_inside_the_object() -> None:
    assert object_keywords("plastic-free packaging") == ["plastic-free", "packaging"]
    assert object_keywords("coffee without sugar") == ["coffee", "sugar-free"]


def test_negating_modifier_keeps_material_joined() -> None:
    assert object_keywords("vegan leather") == ["vegan leather"]


def test_frames_and_stop_words_are_dropped() -> None:
    assert object_keywords("the smell of lavender") == ["lavender"]
    assert object_keywords("things made of bamboo") == ["bamboo"]


def test_words_that_only_look_plural_stay() -> None:
    assert object_keywords("blues") == ["blues"]
    assert object_keywords("glass") == ["glass"]


def test_chinese_keywords_drop_particles_and_fillers() -> None:
    assert object_keywords("塑料的东西") == ["塑料"]
    assert object_keywords("辣的菜") == ["辣"]
    assert object_keywords("吃辣") == ["辣"]


def test_category_depends_on_the_object_not_the_verb() -> None:
    like = only("I really like plastic containers.")
    dislike = only("I don't want plastic anymore.")
    assert like.category == dislike.category == "material"


def test_same_chinese_object_gets_same_category_in_any_sentence() -> None:
    assert only("我很喜欢辣的菜。").category == only("最近不吃辣了。").category == "food"


def test_category_prefers_material_over_the_head_noun() -> None:
    assert category_for(["wool", "sweater"]) == "material"
    assert category_for(["sweater"]) == "style"


def test_unknown_object_is_category_other() -> None:
    assert category_for(["lavender"]) == "other"


def test_english_content_is_a_short_third_person_sentence() -> None:
    assert only("I prefer canvas tote bags for shopping.").content == "likes canvas tote bags"
    assert only("I hate the smell of lavender.").content == "dislikes the smell of lavender"


def test_chinese_content_stays_chinese() -> None:
    assert only("我不要塑料的东西。").content == "不要塑料的东西"
    assert only("我喜欢帆布包。").content == "喜欢帆布包"


def test_every_candidate_is_rule_sourced_with_rule_confidence() -> None:
    found = extract_preferences("I like wool but I hate polyester. 我讨厌香菜。")
    assert len(found) == 3
    assert {(c.source, c.confidence) for c in found} == {("rule", RULE_CONFIDENCE)}


def test_pronoun_takes_the_earlier_object() -> None:
    assert stances("I used to hate coffee but now I love it.") == [("like", ("coffee",))]


def test_overlong_object_is_not_captured() -> None:
    assert extract_preferences("I love " + "very big " * 20 + "bags.") == []


def test_only_the_head_of_a_very_long_message_is_read() -> None:
    message = "I like tea. " * (MAX_CAPTURE_CHARS // 12 + 10) + "I hate plastic."
    assert stances(message) == [("like", ("tea",))]


@pytest.mark.parametrize(
    "case",
    [
        json.loads(line)
        for name in CASE_FILES
        for line in (CASES_DIR / name).read_text(encoding="utf-8").splitlines()
        if line
    ],
    ids=lambda case: case["id"],
)
def test_shared_capture_case_holds_at_extraction_level(case: dict) -> None:
    """The last turn states what must end up active; counts of 0 mean no turn captures."""
    expect = case["expect"]
    if expect.get("count") == 0:
        assert all(extract_preferences(turn) == [] for turn in case["user_turns"])
        return
    last = extract_preferences(case["user_turns"][-1])
    for stance in expect.get("active", []):
        if any(stance["keyword"] in " ".join(c.keywords) for c in last):
            assert any(
                c.polarity == stance["polarity"] and stance["keyword"] in " ".join(c.keywords)
                for c in last
            )
        else:  # stated in an earlier turn and not contradicted later
            earlier = [c for turn in case["user_turns"] for c in extract_preferences(turn)]
            assert any(
                c.polarity == stance["polarity"] and stance["keyword"] in " ".join(c.keywords)
                for c in earlier
            )


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_text_yields_only_complete_candidates(text: str) -> None:
    for candidate in extract_preferences(text):
        assert candidate.content.strip()
        assert candidate.keywords and all(k.strip() for k in candidate.keywords)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "I",
                "like",
                "love",
                "hate",
                "don't",
                "my friend",
                "tea",
                "plastic",
                "bags",
                ",",
                "but",
                "and",
                "it",
                "?",
                ".",
                "喜欢",
                "我",
                "不",
                "塑料",
                "吗",
                "，",
                "的",
                "used to",
            ]
        ),
        max_size=12,
    ).map(" ".join)
)
def test_word_salad_never_breaks_capture(text: str) -> None:
    for candidate in extract_preferences(text):
        assert candidate.source == "rule"
        assert candidate.keywords


def test_chinese_started_to_like_takes_the_earlier_object() -> None:
    assert stances("我以前很讨厌香菜，现在爱上了。") == [("like", ("香菜",))]


def test_chinese_place_name_is_not_cut_by_a_verb_lookalike() -> None:
    assert stances("我爱上海") == [("like", ("上海",))]


def test_correlative_word_is_not_part_of_the_object() -> None:
    assert stances("I like both tea and coffee.") == [("like", ("tea",)), ("like", ("coffee",))]


# --------------------------------------------------------------------------------------------
# Adversarial findings: brands, Chinese modifiers, "no longer" in Chinese, elliptic allergies
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I love apples.", "food"),
        ("I Love Apples.", "food"),  # a plural is the fruit, whatever the casing
        ("Apple is my favourite.", "food"),  # sentence-initial capital says nothing
        ("I love apple pie.", "food"),
        ("I love Italian food.", "food"),
        ("I love Greek yogurt.", "food"),
        ("I hate Apple products.", "brand"),
        ("I hate apple products.", "brand"),
        ("I hate Apple.", "brand"),
        ("Big fan of Sony headphones.", "brand"),
        ("I love Nike shoes.", "brand"),
        ("I love my iPhone.", "brand"),
        ("I love Adidas.", "brand"),
        ("I hate plastic products.", "material"),
        ("I don't eat dairy products.", "food"),
        ("I love BBQ.", "food"),
    ],
)
def test_brand_is_told_from_the_common_noun_by_casing_and_context(text: str, category: str) -> None:
    assert only(text).category == category


def test_same_brand_object_gets_same_category_whatever_the_verb() -> None:
    assert only("I love Apple products.").category == only("I hate Apple products.").category


def test_brand_word_is_not_singularised() -> None:
    assert only("I love Adidas.").keywords == ["adidas"]


@pytest.mark.parametrize(
    ("phrase", "keywords"),
    [
        ("塑料盒子", ["塑料", "盒子"]),
        ("帆布包", ["帆布包"]),  # one dictionary word with a one-character head (issue 17)
        ("不锈钢保温杯", ["不锈钢", "保温杯"]),
        ("真皮沙发", ["真皮", "沙发"]),
        ("皮革的包", ["皮革", "包"]),
        ("木头桌子", ["木头", "桌子"]),
        ("有机蔬菜", ["有机", "蔬菜"]),
        ("甜饮料", ["甜", "饮料"]),
        ("塑料制品", ["塑料"]),
        ("塑料", ["塑料"]),
        ("饮料", ["饮料"]),
        ("辣椒", ["辣椒"]),
        ("甜点", ["甜点"]),
        ("素食", ["素食"]),
        ("棉花糖", ["棉花糖"]),
        ("纸巾", ["纸巾"]),
        ("竹子", ["竹子"]),
    ],
)
def test_chinese_leading_modifier_is_its_own_keyword(phrase: str, keywords: list[str]) -> None:
    assert object_keywords(phrase) == keywords


@pytest.mark.parametrize(
    "text",
    [
        "我不再喜欢咖啡了",
        "我再也不喝咖啡了",
        "我已经不再喜欢咖啡了",
        "我早就不喝咖啡了",
        "我现在不再喜欢咖啡",
        "我再也不想喝咖啡了",
    ],
)
def test_chinese_no_longer_is_a_dislike(text: str) -> None:
    assert stances(text) == [("dislike", ("咖啡",))]


def test_chinese_no_longer_without_object_is_nothing() -> None:
    assert extract_preferences("我不再爱他了") == []


def test_taiwan_plastic_is_mainland_plastic() -> None:
    assert stances("我喜歡塑膠盒子") == [("like", ("塑料", "盒子"))]


def test_simplified_text_is_not_rewritten_as_taiwan_phrases() -> None:
    assert only("我喜欢看影片").content == "喜欢看影片"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please don't recommend anything with nuts, I'm allergic.", [("dislike", ("nut",))]),
        ("No nuts please, I'm allergic.", [("dislike", ("nut",))]),
        ("I love peanuts but I'm allergic.", [("dislike", ("peanut",))]),
        (
            "I'm allergic to nuts and shellfish.",
            [("dislike", ("nut",)), ("dislike", ("shellfish",))],
        ),
        ("I don't want anything with nuts.", [("dislike", ("nut",))]),
    ],
)
def test_allergy_refers_to_the_object_named_before(text: str, expected: list) -> None:
    assert stances(text) == expected


@pytest.mark.parametrize(
    "text", ["I'm allergic.", "No problem, I'm allergic.", "Thanks, I'm allergic."]
)
def test_allergy_with_nothing_named_before_is_nothing(text: str) -> None:
    assert extract_preferences(text) == []


@pytest.mark.parametrize(
    ("text", "keyword"),
    [("I'm vegetarian.", "vegetarian"), ("I am a strict vegan.", "vegan"),
     ("I'm vegetarian and I love Italian food.", "vegetarian")],
)
def test_a_diet_the_user_keeps_is_a_like(text: str, keyword: str) -> None:
    found = [c for c in extract_preferences(text) if keyword in c.keywords]
    assert [c.polarity for c in found] == ["like"]


@pytest.mark.parametrize(
    "text", ["My wife is vegetarian.", "Are you vegetarian?", "I'm not vegetarian.",
             "I used to be vegetarian."],
)
def test_a_diet_not_kept_by_the_user_is_not_captured(text: str) -> None:
    assert not any("vegetarian" in c.keywords for c in extract_preferences(text))


# --------------------------------------------------------------------------------------------
# Issue 9: how people talk (flips, switches, comparisons, slots, quitting, exceptions,
# allergies and their retraction, aversion and evaluation phrasing) and what is no preference
# --------------------------------------------------------------------------------------------


def polarity_of(text: str, keyword: str) -> set[str]:
    """Polarities of the candidates in ``text`` whose keywords contain ``keyword``."""
    return {c.polarity for c in extract_preferences(text) if keyword in " ".join(c.keywords)}


@pytest.mark.parametrize(
    ("text", "keyword", "polarity"),
    [
        ("Okay, I've changed my mind on linen, it's great in summer.", "linen", "like"),
        ("I've changed my mind: I like olives now.", "olive", "like"),
        ("I don't watch reality TV anymore, it bores me.", "reality tv", "dislike"),
        ("I'm not a fan of opera anymore.", "opera", "dislike"),
        ("I no longer drink coffee.", "coffee", "dislike"),
        ("These days I'm into bouldering.", "bouldering", "like"),
        ("I've come around to olives.", "olive", "like"),
        ("I used to love sushi. Not anymore.", "sushi", "dislike"),
        ("我现在不喝咖啡了", "咖啡", "dislike"),
        ("我不再喜欢咖啡了", "咖啡", "dislike"),
    ],
)
def test_flip_in_natural_phrasing_states_the_current_stance(
    text: str, keyword: str, polarity: str
) -> None:
    assert polarity_of(text, keyword) == {polarity}


@pytest.mark.parametrize(
    ("text", "new", "old"),
    [
        ("I switched from Kindle to paper books.", "paper", "kindle"),
        ("I've changed from coffee to green tea.", "green tea", "coffee"),
        ("I replaced my gas stove with an induction hob.", "induction hob", "gas stove"),
        ("我从咖啡换成茶了", "茶", "咖啡"),
    ],
)
def test_switch_likes_the_new_and_dislikes_the_old(text: str, new: str, old: str) -> None:
    assert polarity_of(text, new) == {"like"}
    assert polarity_of(text, old) == {"dislike"}


def test_switch_to_alone_likes_the_new() -> None:
    assert stances("I switched to decaf.") == [("like", ("decaf",))]
    assert stances("我换成燕麦奶了") == [("like", ("燕麦奶",))]


@pytest.mark.parametrize(
    ("text", "liked", "other"),
    [
        ("I prefer tea over coffee.", "tea", "coffee"),
        ("I prefer tea to coffee.", "tea", "coffee"),
        ("I'd rather have tea than coffee.", "tea", "coffee"),
        ("I like cats more than dogs.", "cat", "dog"),
        ("I prefer trains rather than planes.", "train", "plane"),
        ("我更喜欢茶而不是咖啡", "茶", "咖啡"),
        ("比起咖啡，我更喜欢茶", "茶", "咖啡"),
    ],
)
def test_comparison_likes_one_and_does_not_leave_the_other_liked(
    text: str, liked: str, other: str
) -> None:
    assert polarity_of(text, liked) == {"like"}
    assert polarity_of(text, other) == {"dislike"}


def test_compared_against_object_is_worded_as_the_comparison() -> None:
    # A dislike's content reads as a dislike (issue 17), never "likes tea over coffee".
    found = [c for c in extract_preferences("I prefer tea over coffee.") if c.polarity == "dislike"]
    assert [(c.content, c.keywords) for c in found] == [
        ("less keen on coffee than tea", ["coffee"])
    ]


def test_prefer_to_do_something_is_no_comparison() -> None:
    assert stances("I like going to the beach.") == [("like", ("beach",))]


@pytest.mark.parametrize(
    ("text", "slot", "keyword"),
    [
        ("My favourite author is Ursula Le Guin.", "favorite author", "ursula le guin"),
        ("These days my favourite author is Ted Chiang.", "favorite author", "ted chiang"),
        ("My all-time favorite bands is Wilco.", "favorite band", "wilco"),
        ("Ted Chiang is my favourite author.", "favorite author", "ted chiang"),
        ("My current phone is a Pixel 8.", "current phone", "pixel 8"),
        ("我最喜欢的作家是鲁迅。", "最喜欢的作家", "鲁迅"),
    ],
)
def test_single_valued_statement_carries_its_slot(text: str, slot: str, keyword: str) -> None:
    found = only(text)
    assert (found.polarity, found.slot, found.keywords) == ("like", slot, [keyword])


@pytest.mark.parametrize(
    "text",
    ["I love jazz.", "My favourite bands are Wilco and Low.", "My favourite is tea."],
)
def test_a_like_that_fills_no_single_slot_has_none(text: str) -> None:
    assert [c.slot for c in extract_preferences(text)] == [None] * len(extract_preferences(text))


def test_an_evaluation_of_a_current_thing_is_no_slot_value() -> None:
    assert extract_preferences("My current job is boring.") == []


def test_slot_names_are_normalised() -> None:
    assert slot_key("all-time favourite authors") == "favorite author"
    assert slot_key("Fave band") == "favorite band"
    assert slot_key("favourite") is None


@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("I quit smoking.", "smoking"),
        ("I gave up red meat this year.", "red meat"),
        ("I've stopped eating sugar.", "sugar"),
        ("I'm trying to cut down on coffee.", "coffee"),
        ("我戒烟斗了。", "烟斗"),
        ("我已经戒酒了", "酒"),
        ("我不再喝奶茶了。", "奶茶"),
    ],
)
def test_quitting_is_a_dislike(text: str, keyword: str) -> None:
    assert polarity_of(text, keyword) == {"dislike"}


@pytest.mark.parametrize(
    "text", ["I quit my job.", "I stopped by the store.", "I gave up on that book.", "我喜欢戒指"]
)
def test_quitting_words_that_are_no_preference_yield_no_dislike(text: str) -> None:
    assert not any(c.polarity == "dislike" for c in extract_preferences(text))


@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("I like all vegetables except eggplant.", "eggplant"),
        ("I'll eat anything except mushrooms.", "mushroom"),
        ("I eat everything but mushrooms.", "mushroom"),
        ("除了香菜，我什么都吃。", "香菜"),
        ("除了香菜我都喜欢", "香菜"),
    ],
)
def test_exception_is_stored_as_a_dislike(text: str, keyword: str) -> None:
    assert polarity_of(text, keyword) == {"dislike"}


def test_the_rule_an_exception_breaks_is_kept_without_it() -> None:
    found = extract_preferences("I like all vegetables except eggplant.")
    assert [(c.polarity, c.content) for c in found] == [
        ("like", "likes all vegetables"),
        ("dislike", "dislikes eggplant (the exception to all vegetables)"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I'm allergic to peanuts.",
        "I have a severe shellfish allergy.",
        "I'm lactose intolerant.",
        "我对花生过敏。",
        "Please don't recommend anything with nuts, I'm allergic.",
    ],
)
def test_allergy_and_intolerance_are_protected_dislikes(text: str) -> None:
    found = extract_preferences(text)
    assert found and all(c.polarity == "dislike" and c.protected for c in found)


def test_ordinary_dislike_is_not_protected() -> None:
    assert only("I hate mushrooms.").protected is False


@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("I'm no longer allergic to peanuts.", "peanut"),
        ("I'm not allergic to peanuts anymore.", "peanut"),
        ("I outgrew my peanut allergy.", "peanut"),
        ("我对花生不再过敏了", "花生"),
    ],
)
def test_retraction_is_a_like_whose_content_retracts_the_allergy(text: str, keyword: str) -> None:
    found = only(text)
    assert (found.polarity, found.keywords, found.protected) == ("like", [keyword], False)
    assert is_retraction(found.content)


@pytest.mark.parametrize(
    ("text", "keyword", "polarity"),
    [
        ("I have a strong aversion to cilantro.", "cilantro", "dislike"),
        ("I find podcasts boring.", "podcast", "dislike"),
        ("I find long meetings overwhelming.", "long meeting", "dislike"),
        ("I prefer to stay away from crowded bars.", "crowded bar", "dislike"),
        ("I have no interest in golf.", "golf", "dislike"),
        ("I'm not comfortable with heights.", "height", "dislike"),
        ("Pineapple on pizza is a deal-breaker for me.", "pineapple", "dislike"),
        ("I can't do spicy food.", "spicy", "dislike"),
        ("I'd like to avoid layovers.", "layover", "dislike"),
        ("I prefer not to watch horror films.", "horror film", "dislike"),
        ("Loud music gives me headaches.", "loud music", "dislike"),
        ("Horror films don't interest me.", "horror film", "dislike"),
        ("Honestly, loud bars just aren't my thing.", "loud bar", "dislike"),
        ("I refuse to buy fast fashion.", "fast fashion", "dislike"),
        ("I won't eat anything with mayo.", "mayo", "dislike"),
        ("I'm against animal testing.", "animal testing", "dislike"),
        ("I have a phobia of spiders.", "spider", "dislike"),
        ("我对足球不感兴趣", "足球", "dislike"),
        ("I have a soft spot for old jazz records.", "old jazz record", "like"),
        ("I only drink oat milk.", "oat milk", "like"),
        ("I learn best with hands-on projects.", "hands-on project", "like"),
        ("I follow a keto diet.", "keto diet", "like"),
        ("I'm passionate about birdwatching.", "birdwatching", "like"),
        ("I find gardening relaxing.", "gardening", "like"),
        ("I only enjoy jazz.", "jazz", "like"),
        ("I only eat at vegetarian restaurants.", "vegetarian restaurant", "like"),
        ("I love quiet cafes, avoiding loud chains.", "loud chain", "dislike"),
        ("I'm a cat person.", "cat", "like"),
        ("I'm not much of a beach person.", "beach", "dislike"),
        ("I'm gluten-free.", "gluten", "dislike"),
        ("No onions for me.", "onion", "dislike"),
        ("I'd pick the mountains over the beach any day.", "beach", "dislike"),
        ("我不太能吃辣。", "辣", "dislike"),
        ("我对咖啡因很敏感。", "咖啡因", "dislike"),
    ],
)
def test_aversion_preference_and_evaluation_phrasing_is_captured(
    text: str, keyword: str, polarity: str
) -> None:
    assert polarity_of(text, keyword) == {polarity}


@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("I prefer to avoid animated movies.", "animated movie"),
        ("I strongly prefer not to eat red meat.", "red meat"),
        ("I'd prefer to steer clear of chain hotels.", "chain hotel"),
    ],
)
def test_preferring_to_avoid_is_a_dislike_not_a_like(text: str, keyword: str) -> None:
    assert polarity_of(text, keyword) == {"dislike"}


@pytest.mark.parametrize(
    "text",
    [
        "Great, I love that suggestion!",
        "Sounds good to me.",
        "I like that idea.",
        "I love your recommendation.",
        "I like the second option.",
        "That's great, thanks!",
        "It's great.",
        "这个建议不错。",
        "好主意",
        "我喜欢这个主意",
    ],
)
def test_reaction_to_the_assistants_suggestion_is_no_preference(text: str) -> None:
    assert extract_preferences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Suppose I liked skiing, where should I go?",
        "Suppose I liked skiing.",
        "What if I hated cheese.",
        "Let's say I love jazz.",
        "假如我喜欢滑雪",
    ],
)
def test_hypothetical_preference_is_no_preference(text: str) -> None:
    assert extract_preferences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I'm struggling to stay motivated.",
        "I need a new laptop for college.",
        "I'm planning a trip to Colorado.",
        "I'm looking for a gift for my wife, who loves roses.",
        "My wife doesn't like spicy food.",
        "I find it hard to choose.",
        "I'm excited about my trip.",
        "Cost is a deal-breaker for my wife.",
        "I went from Paris to Rome by train.",
        "Recommending hit series while avoiding violent ones could be hard for you.",
        "我老公戒烟了。",
        "他换成了苹果手机。",
        "I'm a busy person.",
        "I'm enjoying the book you recommended.",
        "No problem, please go ahead.",
    ],
)
def test_situation_or_someone_elses_taste_is_no_preference(text: str) -> None:
    assert extract_preferences(text) == []


def test_a_list_closed_by_and_is_several_objects() -> None:
    assert stances("I don't wear leather, wool, and silk.") == [
        ("dislike", ("leather",)),
        ("dislike", ("wool",)),
        ("dislike", ("silk",)),
    ]


def test_stacked_adjectives_before_one_noun_are_one_object() -> None:
    assert stances("I prefer traditional, in-person classes.") == [
        ("like", ("traditional in-person class",))
    ]


def test_a_negated_relative_clause_stays_with_its_object() -> None:
    assert stances("I only want pets that don't shed fur or dander.") == [("like", ("pet",))]


def test_a_long_object_is_cut_at_its_first_qualifier() -> None:
    found = only(
        "I strongly dislike online learning platforms that rely heavily on pre-recorded video "
        "lectures and quizzes."
    )
    assert (found.polarity, found.keywords) == ("dislike", ["online learning platform"])


# -- mild acceptance flips an older dislike (fresh-user test: "plastic is fine now") --------------


@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("Actually I've changed my mind, plastic is fine now", "plastic"),
        ("Plastic is fine now.", "plastic"),
        ("Spicy food is OK by me these days.", "spicy"),
        ("I don't mind spicy food anymore.", "spicy"),
        ("Jazz is growing on me.", "jazz"),
        ("I've come around to olives.", "olive"),
        ("香菜其实还不错。", "香菜"),
        ("我现在能接受辣的了。", "辣"),
        ("我已经不讨厌香菜了。", "香菜"),
    ],
)
def test_mild_acceptance_with_a_marker_of_change_is_a_like(text: str, keyword: str) -> None:
    found = extract_preferences(text)
    assert [c.polarity for c in found] == ["like"]
    assert any(keyword in k for k in found[0].keywords)


@pytest.mark.parametrize(
    "text",
    [
        "The weather is fine.",
        "Is plastic fine now?",
        "My back is fine now.",
        "Everything is fine now.",
        "I don't mind if you call me later.",
        "I don't mind.",
        "I have changed my mind.",
        "天气现在还不错。",
        "这个建议不错。",
    ],
)
def test_fine_and_dont_mind_without_an_object_or_a_marker_capture_nothing(text: str) -> None:
    assert extract_preferences(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I never get tired of green tea.", [("like", "never tires of green tea")]),
        ("I can't get sick of sushi", [("like", "never tires of sushi")]),
        ("I'm tired of green tea", [("dislike", "dislikes green tea")]),
        ("My sister never gets tired of jazz", []),
        ("FYI, I dig garlic.", [("like", "likes garlic")]),
        ("we dig a hole", []),
    ],
)
def test_a_negated_weariness_is_a_like_and_dig_is_slang_for_one(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert [(c.polarity, c.content) for c in extract_preferences(text)] == expected


def test_a_long_message_with_no_sentence_end_is_read_not_dropped() -> None:
    # over MAX_CAPTURE_CHARS and no sentence end: cut after a whole word, not emptied
    text = "I love green tea; " + "la " * 8_000
    found = extract_preferences(text)
    assert any("green tea" in c.content for c in found)


def test_a_very_long_sentence_is_not_tried_for_a_structure_in_quadratic_time() -> None:
    from penchant.memory.core.capture.structuring import MAX_STRUCTURED_CHARS, structured

    sentence = ("skip the tea to the coffee over " * 1_000)[: MAX_STRUCTURED_CHARS + 1]
    assert structured(sentence, [sentence], [None], [], 0.6) is None


@pytest.mark.parametrize(("text", "asked"), [
    ("Could eat dumplings every single day", False),
    ("Was never into jazz, then one Coltrane record flipped me", False),
    ("Would pick a Kindle over a Kobo every time", False),
    ("Was it any good", True),
    ("Would anyone recommend a VPN", True),
    ("Could you suggest a paella recipe", True),
    ("Had a reaction to cashews last night", True),
    ("Can finally have shrimp again, the allergist cleared me", False),
    ("Can you book a table for two", True),
    ("Can my son have peanut butter", True),
    ("Can the kitchen make it without garlic", True),
])
def test_a_modal_or_was_opening_is_a_question_only_before_a_subject(text: str, asked: bool) -> None:
    """Chat drops the "I" before "could", "would", "will", "can", "was", "did" ("Could eat
    dumplings every day", "Can finally have shrimp again"); these had all been read as
    questions. "Can" asks of anyone named after it, an article or a possessive too ("Can the
    kitchen…"). "Had" still opens questions: "Had a reaction to cashews last night" is a report
    the allergy readers would misread."""
    assert is_question_or_hypothetical(text) is asked
