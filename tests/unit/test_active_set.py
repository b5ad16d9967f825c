"""The active set's lookups are indexed (O(related)) and find what a full scan finds."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import OSA

from penchant.memory.core.active_set import ActiveSet, _head, content_key
from penchant.memory.core.matching import (
    TYPO_MIN_LEN,
    brand_covers,
    is_transposition_typo,
    leading_word,
    transposition_variants,
)
from penchant.memory.model.records import Preference

WORD = st.text(alphabet="abcdeo", min_size=5, max_size=10)


def scanned_typos(head: str, stored: list[str]) -> set[str]:
    """The typo scan as it was: score every stored head (issue 12 measured it at 65% of a
    warm write at 10k preferences)."""
    matches = process.extract(head, stored, scorer=OSA.distance, score_cutoff=1, limit=None)
    return {m[0] for m in matches if m[0] != head and is_transposition_typo(head, m[0])}


@settings(max_examples=300, deadline=None)
@given(WORD, st.lists(WORD, max_size=60))
def test_transposition_variants_find_what_a_scan_of_every_word_finds(
    head: str, stored: list[str]
) -> None:
    stored = [*stored, *transposition_variants(head)[:2]]  # make some of them real typos
    indexed = {v for v in transposition_variants(head) if v in set(stored)}
    assert {v for v in indexed if is_transposition_typo(head, v)} == scanned_typos(head, stored)


def test_transposition_variants_of_a_known_typo() -> None:
    assert "receive" in transposition_variants("recieve")
    assert transposition_variants("recipe") == []  # shorter than TYPO_MIN_LEN
    assert len("recipe") < TYPO_MIN_LEN


def pref(i: int, keywords: list[str], content: str = "", slot: str | None = None) -> Preference:
    return Preference(id=f"p{i:05d}", user_id="u", content=content or f"likes {keywords[0]}",
                      polarity="like", keywords=keywords, slot=slot)


def scanned_related(prefs: list[Preference], keywords: list[str], content: str) -> list[str]:
    """What :meth:`ActiveSet.related` must return, by looking at every preference."""
    heads = {_head(k) for k in keywords}
    found = []
    for p in prefs:
        stored = {_head(k) for k in p.keywords}
        typo = any(
            h.isalpha() and len(h) >= TYPO_MIN_LEN and s in scanned_typos(h, [s])
            for h in heads for s in stored
        )
        if heads & stored or typo or content_key(p.content) == content_key(content):
            found.append(p.id)
    return sorted(found)


def test_related_finds_what_a_scan_of_every_preference_finds() -> None:
    rng = random.Random(5)
    words = ["ceramics", "cermaics", "jasmine", "jasmnie", "coffee", "tea", "chocolate",
             "chocolaet", "colour", "color", "plastic", "plastics"]
    prefs = [pref(i, [f"{rng.choice(['dark', 'green', 'red'])} {rng.choice(words)}"])
             for i in range(300)]
    active = ActiveSet.build(prefs)
    for word in words:
        query = [f"hot {word}"]
        assert [p.id for p in active.related(query, "x")] == scanned_related(prefs, query, "x")


def test_clone_is_independent_of_the_set_it_came_from() -> None:
    base = ActiveSet.build(pref(i, [f"word{i}"]) for i in range(1_000))
    clone = base.clone()
    clone.remove("p00001")
    clone.add(pref(5_000, ["word1"]))
    assert "p00001" in base.prefs and "p05000" not in base.prefs
    assert [p.id for p in base.related(["word1"], "")] == ["p00001"]
    assert [p.id for p in clone.related(["word1"], "")] == ["p05000"]
    assert len(base.prefs) == 1_000 and len(clone.prefs) == 1_000


def test_removed_preference_leaves_no_trace_in_lookups() -> None:
    active = ActiveSet.build([pref(1, ["green tea"], slot="favorite drink")])
    active.remove("p00001")
    assert active.related(["tea"], "likes green tea", "favorite drink") == []
    assert len(active.prefs) == 0


def test_the_other_language_is_searched_in_the_same_and_the_unknown_category() -> None:
    def pref(i: str, keyword: str, category: str) -> Preference:
        return Preference(id=i, user_id="u", content=f"likes {keyword}", polarity="like",
                          category=category, keywords=[keyword])

    active = ActiveSet.build([
        pref("1", "南瓜", "food"), pref("2", "蜡烛", "other"), pref("3", "羊毛", "material"),
    ])
    assert [p.id for p in active.in_language("food", zh=True)] == ["1", "2"]
    assert [p.id for p in active.in_language("other", zh=True)] == ["2"]
    assert active.in_language("food", zh=False) == []


def test_a_keyword_is_found_by_the_word_it_opens_with() -> None:
    camera = Preference(id="1", user_id="u", content="likes my Canon camera", polarity="like",
                        category="brand", keywords=["canon camera"])
    zh = Preference(id="2", user_id="u", content="喜欢用佳能相机", polarity="like",
                    keywords=["佳能相机"])
    active = ActiveSet.build([camera, zh])
    assert [p.id for p in active.related(["canon"], "switched from Canon")] == ["1"]
    assert [p.id for p in active.related(["佳能"], "从佳能换成索尼")] == ["2"]
    active.remove("1")
    assert active.related(["canon"], "switched from Canon") == []


def test_a_brand_covers_the_products_named_after_it_and_nothing_else() -> None:
    assert leading_word("canon camera") == "canon" and leading_word("canon") == ""
    assert leading_word("佳能相机") == "佳能"
    assert brand_covers(["canon"], ["canon camera"])
    assert brand_covers(["佳能"], ["佳能相机"])
    assert not brand_covers(["canon"], ["camera"])
    assert not brand_covers(["apple"], ["pineapple juice"])
    assert not brand_covers(["canon"], ["canon camera", "tripod"])  # every object, or none
