"""Issue 17's objects through the gate, on a real Redis: heads and modifiers, Chinese words
from the segmenter, and cross-language identity with the real default embedder (USE
multilingual v3). Each test checks what is stored before and after, not return codes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from penchant.memory import Memory, PreferenceCandidate
from penchant.memory.embeddings import USEEmbedder


def like(content: str, category: str = "food") -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", category=category)


def dislike(content: str, category: str = "food") -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="dislike", category=category)


def active(memory: Memory, user: str = "u") -> list[tuple[str, str]]:
    return sorted((p.polarity, p.content) for p in memory.preferences(user))


# -- heads and modifiers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("older", "newer", "likes_after"),
    [
        ("I love my Canon camera.", "I switched from Canon to Sony.", [["sony"]]),
        ("I love Nike running shoes.", "I'm done with Nike.", []),
        ("我喜欢用佳能相机。", "我从佳能改用索尼了。", [["索尼"]]),
    ],
)
def test_turning_from_a_brand_retires_the_liked_products_named_after_it(
    memory: Memory, older: str, newer: str, likes_after: list[list[str]]
) -> None:
    memory.capture("u", older)
    memory.capture("u", newer)
    assert [p.keywords for p in memory.preferences("u") if p.polarity == "like"] == likes_after


def test_a_brand_leaves_a_different_kind_of_thing_of_the_same_word(memory: Memory) -> None:
    memory.capture("u", "I love apple pie.")
    memory.capture("u", "I hate Apple.")
    assert sorted((p.polarity, p.category) for p in memory.preferences("u")) == [
        ("dislike", "brand"), ("like", "food")
    ]



def test_a_flip_about_the_head_supersedes_the_modified_form(memory: Memory) -> None:
    memory.remember("u", like("likes red wine with dinner"))
    assert active(memory) == [("like", "likes red wine with dinner")]
    memory.remember("u", dislike("no wine"))
    assert active(memory) == [("dislike", "no wine")]


def test_two_qualifiers_of_one_head_are_two_preferences_never_merged(memory: Memory) -> None:
    memory.remember("u", dislike("dislikes hotels near the airport", "travel"))
    result = memory.remember("u", dislike("dislikes hotels that only take cash", "travel"))
    assert result.merged == []
    stored = memory.preferences("u")
    assert sorted(p.content for p in stored) == [
        "dislikes hotels near the airport",
        "dislikes hotels that only take cash",
    ]
    assert [p.mention_count for p in stored] == [1, 1]


def test_a_qualifier_on_one_side_keeps_a_flip_from_superseding(memory: Memory) -> None:
    memory.remember("u", like("likes hotels near the beach", "travel"))
    result = memory.remember("u", dislike("dislikes hotels that only take cash", "travel"))
    assert result.superseded == []
    assert len(memory.preferences("u")) == 2


def test_a_narrower_qualified_flip_leaves_the_bare_head_alone(memory: Memory) -> None:
    memory.remember("u", like("likes coffee"))
    result = memory.remember("u", dislike("dislikes coffee in the evening"))
    assert result.superseded == []
    assert active(memory) == [
        ("dislike", "dislikes coffee in the evening"),
        ("like", "likes coffee"),
    ]


def test_the_bare_head_supersedes_a_qualified_form_of_the_other_polarity(memory: Memory) -> None:
    memory.remember("u", like("likes coffee in the morning"))
    memory.remember("u", dislike("has given up coffee"))
    assert active(memory) == [("dislike", "has given up coffee")]


def test_a_topic_fronted_label_supersedes_by_its_subject(memory: Memory) -> None:
    memory.remember("u", like("likes suede jackets", "style"))
    memory.remember("u", dislike("suede jackets are off the menu now", "style"))
    assert active(memory) == [("dislike", "suede jackets are off the menu now")]


def test_two_chinese_compounds_sharing_a_head_stay_apart(memory: Memory) -> None:
    memory.remember("u", like("喜欢头戴式耳机", "style"))
    result = memory.remember("u", dislike("不喜欢入耳式耳机", "style"))
    assert result.superseded == [] and result.merged == []
    assert active(memory) == [("dislike", "不喜欢入耳式耳机"), ("like", "喜欢头戴式耳机")]


def test_a_chinese_flip_about_the_head_covers_its_compounds(memory: Memory) -> None:
    memory.remember("u", like("喜欢头戴式耳机", "style"))
    memory.remember("u", dislike("耳机我已经不用了", "style"))
    assert active(memory) == [("dislike", "耳机我已经不用了")]


def test_a_material_covers_the_one_word_compound_made_of_it(memory: Memory) -> None:
    memory.remember("u", like("喜欢玻璃瓶", "material"))
    assert memory.preferences("u")[0].keywords == ["玻璃瓶"]
    memory.remember("u", dislike("不要玻璃", "material"))
    assert active(memory) == [("dislike", "不要玻璃")]


def test_a_one_character_chinese_material_never_covers_a_garment(memory: Memory) -> None:
    memory.remember("u", like("喜欢皮鞋", "style"))
    memory.remember("u", dislike("不吃皮", "style"))
    assert ("like", "喜欢皮鞋") in active(memory)


def test_a_topic_fronted_chinese_flip_supersedes(memory: Memory) -> None:
    memory.remember("u", like("喜欢吃臭豆腐"))
    memory.remember("u", dislike("臭豆腐我已经戒了"))
    assert active(memory) == [("dislike", "臭豆腐我已经戒了")]


# -- cross-language identity (real embedder) --------------------------------------------------


class CountingEmbedder:
    """The real USE embedder, counting the texts it is asked to embed (no fake vectors)."""

    def __init__(self, inner: USEEmbedder) -> None:
        self.inner = inner
        self.texts: list[str] = []
        for name in dir(inner):
            if name.endswith("_cosine") or name in ("name", "dim", "multilingual"):
                setattr(self, name, getattr(inner, name))

    def embed(self, texts: list[str]) -> np.ndarray:
        self.texts.extend(texts)
        return self.inner.embed(texts)


@pytest.fixture
def counting(use_embedder: USEEmbedder) -> CountingEmbedder:
    return CountingEmbedder(use_embedder)


@pytest.fixture
def real(redis_client: Any, settings: Any, counting: CountingEmbedder) -> Iterator[Memory]:
    """A ``Memory`` with the real default embedder (wrapped to count what it embeds)."""
    mem = Memory(redis_client, settings=settings, embedder=counting)  # type: ignore[arg-type]
    mem.backend.ensure_schema()
    yield mem
    mem.close()


@pytest.mark.model
def test_an_english_like_is_superseded_by_a_chinese_dislike(real: Memory) -> None:
    real.remember("u", like("I love green tea"))
    result = real.remember("u", dislike("我不喝绿茶了"))
    assert [s.preference.content for s in result.superseded] == ["I love green tea"]
    assert active(real) == [("dislike", "我不喝绿茶了")]


@pytest.mark.model
def test_a_chinese_like_is_superseded_by_an_english_dislike(real: Memory) -> None:
    real.remember("u", like("喜欢郁金香", "other"))
    real.remember("u", dislike("dislikes tulips", "other"))
    assert active(real) == [("dislike", "dislikes tulips")]


@pytest.mark.model
@pytest.mark.parametrize(
    ("older", "newer", "winner"),
    [
        ("I like strawberries.", "我不再喜欢草莓了。", "草莓"),
        ("我喜欢吃茄子。", "I don't like eggplant anymore.", "eggplant"),
        ("I love mangoes.", "我现在不吃芒果了。", "芒果"),
        ("我很喜欢蘑菇。", "I've stopped eating mushrooms.", "mushroom"),
        ("我喜欢羊毛。", "I don't want wool anymore.", "wool"),
        ("I enjoy jazz.", "我不再听爵士乐了。", "爵士乐"),
    ],
)
def test_a_captured_flip_in_the_other_language_supersedes_when_no_category_is_given(
    real: Memory, older: str, newer: str, winner: str
) -> None:
    """Capture gives no category to Chinese objects its lexicon lacks (草莓, 蘑菇); the gate
    names them by their dictionary glosses, so they meet their English twins."""
    real.capture("u", older)
    real.capture("u", newer)
    stored = real.preferences("u")
    assert [(p.polarity, p.keywords) for p in stored] == [("dislike", [winner])]


@pytest.mark.model
def test_an_unrelated_object_of_the_same_glossed_category_is_untouched(real: Memory) -> None:
    real.capture("u", "I love pumpkin.")
    real.capture("u", "我不喜欢西瓜。")
    assert [(p.polarity, p.keywords, p.category) for p in real.preferences("u")] == [
        ("like", ["pumpkin"], "food"), ("dislike", ["西瓜"], "food")
    ]


@pytest.mark.model
def test_a_sibling_in_the_other_language_is_flagged_never_deleted(real: Memory) -> None:
    real.remember("u", like("likes green tea"))
    real.remember("u", dislike("不喝红茶"))
    assert active(real) == [("dislike", "不喝红茶"), ("like", "likes green tea")]
    flags = real.flags("u")
    assert [sorted(f.contents) for f in flags] == [sorted(["likes green tea", "不喝红茶"])]
    assert flags[0].kind == "contradiction"


@pytest.mark.model
def test_an_unrelated_object_in_the_other_language_is_untouched(real: Memory) -> None:
    real.remember("u", like("likes coffee"))
    real.remember("u", dislike("不吃香菜"))
    assert active(real) == [("dislike", "不吃香菜"), ("like", "likes coffee")]
    assert real.flags("u") == []


@pytest.mark.model
def test_the_same_object_in_another_category_is_another_object(real: Memory) -> None:
    real.remember("u", like("likes green tea", "food"))
    real.remember("u", dislike("不喝绿茶", "brand"))  # "other" is derived (food)
    assert len(real.preferences("u")) == 2


@pytest.mark.model
def test_a_protected_allergy_is_only_flagged_by_a_like_in_the_other_language(real: Memory) -> None:
    real.remember("u", dislike("allergic to peanuts"))
    real.remember("u", like("喜欢花生"))
    assert active(real) == [("dislike", "allergic to peanuts"), ("like", "喜欢花生")]
    assert len(real.flags("u")) == 1


@pytest.mark.model
def test_a_write_meeting_no_object_in_the_other_language_embeds_only_its_content(
    real: Memory, counting: CountingEmbedder
) -> None:
    real.remember("u", like("likes coffee"))
    counting.texts.clear()
    real.remember("u", dislike("dislikes tea"))
    assert len(counting.texts) == 1  # the content's own vector; no object phrase


@pytest.mark.model
def test_an_object_phrase_is_embedded_once_and_reused(
    real: Memory, counting: CountingEmbedder
) -> None:
    real.remember("u", dislike("不吃香菜"))
    real.remember("u", like("likes coffee"))
    phrases = [t for t in counting.texts if t in ("coffee", "香菜")]
    assert sorted(phrases) == ["coffee", "香菜"]
    counting.texts.clear()
    real.remember("u", like("likes espresso"))
    assert "香菜" not in counting.texts  # the stored object's vector came from the cache
    assert "espresso" in counting.texts


@pytest.mark.model
def test_the_default_space_reads_identity_by_its_use_block(
    redis_client: Any, settings: Any, default_embedder: Any
) -> None:
    """The default space (USE + MiniLM): cross-language identity embeds object phrases with
    its USE part and USE's thresholds, so a flip across languages supersedes and a sibling
    is only flagged, as with USE alone."""
    mem = Memory(redis_client, settings=settings, embedder=default_embedder)
    mem.backend.ensure_schema()
    try:
        mem.remember("u", like("I love green tea"))
        result = mem.remember("u", dislike("我不喝绿茶了"))
        assert [s.preference.content for s in result.superseded] == ["I love green tea"]
        mem.remember("u", like("likes oolong tea"))
        assert sorted(active(mem)) == [("dislike", "我不喝绿茶了"), ("like", "likes oolong tea")]
    finally:
        mem.close()
