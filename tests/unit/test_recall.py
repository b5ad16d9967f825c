"""Recall: fusion, filters, budget packing, vector spaces (pure; the real model where marked)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from penchant.memory.embeddings import (
    Embedder,
    FusedEmbedder,
    HashEmbedder,
    LocalEmbedder,
    USEEmbedder,
    block_cosines,
    embedding_text,
    zscore_fusion,
)
from penchant.memory.model.errors import InvalidInputError
from penchant.memory.model.records import Preference
from penchant.memory.recall import (
    DEFAULT_FUSION,
    GENERIC_REQUESTS,
    FusionConfig,
    Recaller,
    RecallResult,
    estimate_tokens,
)

from conftest import load_cases

NOW = datetime(2025, 6, 1, tzinfo=UTC)


class TableEmbedder:
    """Fake embedder: a fixed vector per text, for exact control of semantic ranks."""

    def __init__(
        self,
        table: dict[str, list[float]],
        name: str = "table-3",
        multilingual: bool = True,
        relevant_cosine: float = 0.0,
    ):
        self.table = {t: np.asarray(v, dtype=np.float32) for t, v in table.items()}
        self.name = name
        self.dim = 3
        self.multilingual = multilingual
        self.relevant_cosine = relevant_cosine

    def embed(self, texts: list[str]) -> np.ndarray:
        rows = [self.table.get(t, np.zeros(3, dtype=np.float32)) for t in texts]
        out = np.stack(rows) if rows else np.zeros((0, 3), dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)


def pref(content: str, embedder: Any = None, *, age_days: float = 0, **fields: Any) -> Preference:
    """A preference seen ``age_days`` ago, embedded by ``embedder`` when given."""
    p = Preference(
        user_id="u1",
        content=content,
        polarity=fields.pop("polarity", "like"),
        last_seen_at=NOW - timedelta(days=age_days),
        **fields,
    )
    if embedder is not None:
        vector = embedder.embed([embedding_text(content, p.category)])[0]
        p.embedding = vector.astype(np.float32).tobytes()
        p.embedding_model = embedder.name
        p.embedding_dim = embedder.dim
    return p


def contents(result: RecallResult) -> list[str]:
    return [item.preference.content for item in result.items]


# --- fusion maths ---------------------------------------------------------------------------


def test_score_is_weighted_reciprocal_rank_sum_with_k_60() -> None:
    emb = TableEmbedder({"a": [1, 0, 0], "b": [0.8, 0.6, 0], "q": [1, 0, 0]})
    prefs = [pref("a", emb, age_days=1), pref("b", emb, age_days=0)]
    result = Recaller(emb).recall(prefs, "q", k=2)
    top = result.items[0]
    assert top.preference.content == "a"
    assert top.channels == {"semantic": 1, "recency": 2}
    assert top.score == pytest.approx(1.0 / 61 + DEFAULT_FUSION.recency / 62)


def test_every_score_matches_its_channel_ranks() -> None:
    emb = HashEmbedder()
    prefs = [pref(t, emb, age_days=i) for i, t in enumerate(["red shoes", "wool hats", "jazz"])]
    fusion = FusionConfig(semantic=1.0, lexical=0.5, recency=0.2, lexical_mode="always")
    for item in Recaller(emb, fusion).recall(prefs, "red wool", k=3).items:
        expected = sum(fusion.weight(c) / (60 + r) for c, r in item.channels.items())
        assert item.score == pytest.approx(expected)


def test_a_document_first_in_two_channels_beats_one_first_in_one() -> None:
    emb = TableEmbedder({"wool hat": [1, 0, 0], "scarf": [0.99, 0.1, 0], "wool": [1, 0.05, 0]})
    prefs = [pref("scarf", emb), pref("wool hat", emb, age_days=1)]
    fusion = FusionConfig(lexical=1.0, recency=0.0, lexical_mode="always")
    result = Recaller(emb, fusion).recall(prefs, "wool", k=2)
    assert contents(result) == ["wool hat", "scarf"]


def test_semantic_ranks_follow_cosine() -> None:
    emb = TableEmbedder({"a": [0, 1, 0], "b": [1, 0, 0], "c": [0.7, 0.7, 0], "q": [1, 0.1, 0]})
    prefs = [pref(t, emb) for t in "abc"]
    assert contents(Recaller(emb).recall(prefs, "q", k=3)) == ["b", "c", "a"]


# --- recency and fill ---------------------------------------------------------------------


def test_unmatched_preferences_only_fill_up_to_k_newest_first() -> None:
    prefs = [
        pref("likes jazz", age_days=3),
        pref("likes opera", age_days=1),
        pref("wool", age_days=9),
    ]
    result = Recaller(None).recall(prefs, "wool socks", k=3)
    assert contents(result) == ["wool", "likes opera", "likes jazz"]
    assert [item.matched for item in result.items] == [True, False, False]


def test_k_limits_the_number_of_items() -> None:
    prefs = [pref(f"likes item {i}", age_days=i) for i in range(10)]
    assert len(Recaller(None).recall(prefs, "anything", k=4).items) == 4


def test_blank_query_ranks_by_recency() -> None:
    prefs = [pref("old", age_days=5), pref("new", age_days=0)]
    assert contents(Recaller(HashEmbedder()).recall(prefs, "  ", k=2)) == ["new", "old"]


def test_no_preferences_give_an_empty_result() -> None:
    assert Recaller(None).recall([], "wool").public_dict() == {"items": [], "tokens": 0}


# --- filters ------------------------------------------------------------------------------


def test_polarity_filter_keeps_only_that_polarity() -> None:
    prefs = [pref("likes wool", polarity="like"), pref("hates wool", polarity="dislike")]
    result = Recaller(None).recall(prefs, "wool", polarity="dislike")
    assert contents(result) == ["hates wool"]


def test_category_filter_is_normalised() -> None:
    prefs = [pref("likes tofu", category="food"), pref("likes wool", category="material")]
    assert contents(Recaller(None).recall(prefs, "likes", category="Food")) == ["likes tofu"]


@pytest.mark.parametrize(
    "kwargs",
    [{"k": 0}, {"token_budget": -1}, {"polarity": "love"}, {"category": "no such!"}],
)
def test_invalid_arguments_are_invalid_input(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        Recaller(None).recall([pref("likes wool")], "wool", **kwargs)


# --- token budget -------------------------------------------------------------------------


def test_token_estimate_counts_cjk_characters_and_latin_words() -> None:
    assert estimate_tokens("不吃香菜") == 4
    assert estimate_tokens("likes canvas tote bags") == 6  # ceil(4 × 1.3)
    assert estimate_tokens("no cilantro, please") == 5  # ceil(3 × 1.3 + 1 comma)
    assert estimate_tokens("") == 0


def test_budget_skips_an_item_that_does_not_fit_and_takes_a_smaller_one() -> None:
    long = "prefers " + "very " * 30 + "long wool scarves"
    prefs = [pref(long, age_days=0), pref("wool socks", age_days=1), pref("wool hat", age_days=2)]
    result = Recaller(None, FusionConfig(recency=1.0)).recall(prefs, "wool", k=3, token_budget=6)
    assert contents(result) == ["wool socks", "wool hat"]
    assert result.tokens == estimate_tokens("wool socks") + estimate_tokens("wool hat") <= 6


def test_zero_budget_returns_nothing() -> None:
    result = Recaller(None).recall([pref("wool")], "wool", token_budget=0)
    assert result.items == [] and result.tokens == 0


# --- vector spaces and languages ----------------------------------------------------------


def test_vectors_no_install_can_use_are_left_to_the_lexical_channel_and_reported() -> None:
    ours, theirs = HashEmbedder(64), TableEmbedder({"allergic to wool": [1, 0, 0]}, "mystery")
    prefs = [pref("allergic to wool", theirs), pref("likes jazz", ours)]
    result = Recaller(ours).recall(prefs, "wool sweater", k=2)
    by_content = {item.preference.content: item.channels for item in result.items}
    assert "semantic" not in by_content["allergic to wool"]
    assert "lexical" in by_content["allergic to wool"]
    assert "semantic" in by_content["likes jazz"]
    assert result.stale == {"mystery": 1}
    (warning,) = result.public_dict()["warnings"]
    assert "mystery" in warning and "penchant reembed" in warning


def test_vectors_of_another_shipped_model_are_scored_with_that_model() -> None:
    ours, theirs = HashEmbedder(64), HashEmbedder(32)
    prefs = [pref("allergic to wool", theirs), pref("likes jazz", ours)]
    result = Recaller(ours).recall(prefs, "wool sweater", k=2)
    top = result.items[0]
    assert top.preference.content == "allergic to wool"
    assert top.channels["semantic"] == 1 and result.stale == {}
    assert "warnings" not in result.public_dict()


def test_preference_without_a_vector_is_reported_stale() -> None:
    result = Recaller(HashEmbedder()).recall([pref("allergic to wool")], "wool", k=1)
    assert result.stale == {"(no vector)": 1}
    assert "without a vector" in result.warnings[0]


def test_scores_of_two_vector_spaces_are_ranked_by_z_scores() -> None:
    # the current space's cosines are high (0.9 / 0.8 / 0.7), the other's low (0.3 / 0.1 /
    # -0.1): raw cosines would rank every current preference first; z-scores interleave them.
    ours = TableEmbedder({"q": [1, 0, 0]}, name="ours")
    theirs = TableEmbedder({"q": [1, 0, 0]}, name="theirs")
    prefs = []
    for name, cosines in (("ours", [0.9, 0.8, 0.7]), ("theirs", [0.3, 0.1, -0.1])):
        for i, c in enumerate(cosines):
            p = pref(f"{name} {i}", None, age_days=len(prefs))
            vec = np.asarray([c, np.sqrt(1 - c * c), 0], np.float32)
            p.embedding, p.embedding_model, p.embedding_dim = vec.tobytes(), name, 3
            prefs.append(p)
    recaller = Recaller(ours, resolver=lambda name, dim: theirs if name == "theirs" else None)
    got = contents(recaller.recall(prefs, "q", k=6))
    assert set(got[:2]) == {"ours 0", "theirs 0"}
    assert set(got[4:]) == {"ours 2", "theirs 2"}


def test_fused_space_ranks_by_the_sum_of_its_parts_z_scores() -> None:
    fused = FusedEmbedder([HashEmbedder(16), HashEmbedder(32)])
    texts = ["wool socks", "wool hats and scarves", "red wool", "jazz records", "socks"]
    prefs = [pref(t, fused, age_days=i) for i, t in enumerate(texts)]
    query = "warm wool socks"
    ranks = Recaller(fused).channel_ranks(prefs, query)["semantic"]
    matrix = fused.embed([embedding_text(t) for t in texts])
    fused_scores = zscore_fusion(block_cosines(matrix, fused.embed([query])[0], fused.blocks))
    expected = np.empty(len(texts), dtype=np.int32)
    expected[np.argsort(-fused_scores, kind="stable")] = np.arange(1, len(texts) + 1)
    assert ranks.tolist() == expected.tolist()


def test_a_part_that_cannot_tell_candidates_apart_adds_nothing() -> None:
    informative = np.array([0.9, 0.2, 0.5])
    flat = np.array([0.4, 0.4, 0.4])
    alone = zscore_fusion(informative[None, :])
    assert zscore_fusion(np.vstack([informative, flat])).tolist() == pytest.approx(alone.tolist())


def test_relevance_label_follows_the_embedder_floor_and_ranking_keeps_everything() -> None:
    emb = TableEmbedder(
        {"near": [0.9, 0.436, 0], "far": [0.2, 0.98, 0], "q": [1, 0, 0]}, relevant_cosine=0.5
    )
    result = Recaller(emb).recall([pref("near", emb), pref("far", emb)], "q", k=2)
    assert contents(result) == ["near", "far"]
    assert [item.matched for item in result.items] == [True, False]
    assert result.items[0].similarity == pytest.approx(0.9, abs=1e-3)


def test_same_name_with_another_width_is_another_space() -> None:
    ours = TableEmbedder({"q": [1, 0, 0]}, name="m")
    odd = pref("wool", None)
    odd.embedding, odd.embedding_model, odd.embedding_dim = b"\x00" * 16, "m", 4
    item = Recaller(ours).recall([odd], "q", k=1).items[0]
    assert "semantic" not in item.channels


def test_cjk_query_uses_lexical_when_the_model_is_english_only() -> None:
    emb = TableEmbedder(
        {"不要塑料制品": [1, 0, 0], "爱看科幻小说": [0.9, 0.1, 0], "推荐几本科幻小说": [1, 0, 0]},
        multilingual=False,
    )
    prefs = [pref("不要塑料制品", emb), pref("爱看科幻小说", emb)]
    top = Recaller(emb).recall(prefs, "推荐几本科幻小说", k=2).items[0]
    assert top.preference.content == "爱看科幻小说"
    assert top.channels.get("lexical") == 1 and "semantic" not in top.channels


def test_query_vector_of_the_wrong_width_is_refused() -> None:
    emb = HashEmbedder()
    with pytest.raises(InvalidInputError, match="query_vector"):
        Recaller(emb).recall([pref("wool", emb)], "wool", query_vector=np.zeros(5))


def test_public_dict_has_the_cli_contract() -> None:
    p = pref("allergic to wool", polarity="dislike")
    out = Recaller(None).recall([p], "wool").public_dict()
    assert out["tokens"] == estimate_tokens("allergic to wool")
    assert out["items"] == [
        {
            "id": p.id,
            "content": "allergic to wool",
            "polarity": "dislike",
            "score": pytest.approx(out["items"][0]["score"]),
        }
    ]
    assert set(out["items"][0]) == {"id", "content", "polarity", "score"}


# --- the real model -----------------------------------------------------------------------


_MINILM: list[LocalEmbedder] = []


@pytest.fixture(params=["use", pytest.param("minilm", marks=pytest.mark.minilm)])
def real_embedder(request: pytest.FixtureRequest, use_embedder: USEEmbedder) -> Embedder:
    """The default USE model (session fixture), and the bundled MiniLM where installed."""
    if request.param == "use":
        return use_embedder
    if not _MINILM:
        _MINILM.append(LocalEmbedder())
    return _MINILM[0]


@pytest.mark.model
def test_semantic_recall_without_a_shared_word(real_embedder: Embedder) -> None:
    texts = [
        "allergic to wool",
        "listens to jazz while working",
        "prefers aisle seats",
        "is vegetarian",
        "runs marathons",
        "hates early morning flights",
    ]
    prefs = [pref(t, real_embedder, age_days=i) for i, t in enumerate(texts)]
    result = Recaller(real_embedder).recall(prefs, "I need a warm sweater for winter", k=3)
    assert "allergic to wool" in contents(result)


@pytest.mark.model
def test_unrelated_dislike_is_not_labelled_relevant_by_use(use_embedder: USEEmbedder) -> None:
    prefs = [
        pref("dislikes plastic", use_embedder, polarity="dislike", category="material"),
        pref("dislikes cilantro", use_embedder, polarity="dislike", category="food"),
    ]
    result = Recaller(use_embedder).recall(prefs, "Can you recommend a water bottle?", k=2)
    labels = {item.preference.content: item.matched for item in result.items}
    assert labels == {"dislikes plastic": True, "dislikes cilantro": False}


class GenericAwareEmbedder(TableEmbedder):
    """A table embedder that declares a generic-request correction; every text of
    :data:`GENERIC_REQUESTS` maps to the same vector."""

    def __init__(self, table: dict[str, list[float]], generic: list[float], penalty: float):
        super().__init__({**table, **{t: generic for t in GENERIC_REQUESTS}}, name="generic-aware")
        self.generic_penalty = penalty


def test_preference_close_to_every_request_is_ranked_below_the_specific_one() -> None:
    # cos(q, hub) = 0.8, cos(q, specific) = 0.6; cos(g, hub) = 0.8, cos(g, specific) = 0.
    emb = GenericAwareEmbedder(
        {"hub": [0.8, 0.6, 0.0], "specific": [0.6, 0.0, 0.8], "query": [1.0, 0.0, 0.0]},
        generic=[0.0, 1.0, 0.0],
        penalty=0.5,
    )
    prefs = [pref("hub", emb), pref("specific", emb)]
    corrected = Recaller(emb).recall(prefs, "query", k=2)
    plain = Recaller(emb, replace(DEFAULT_FUSION, generic_penalty=False)).recall(
        prefs, "query", k=2
    )
    assert contents(corrected) == ["specific", "hub"]  # 0.6 − 0 > 0.8 − 0.5·0.6
    assert contents(plain) == ["hub", "specific"]
    # The reported similarity stays the plain cosine (relevance floors are measured on it).
    assert {i.preference.content: round(i.similarity or 0, 4) for i in corrected.items} == {
        "hub": 0.8,
        "specific": 0.6,
    }


def test_embedder_without_generic_penalty_ranks_by_plain_cosine() -> None:
    emb = TableEmbedder(
        {"hub": [0.8, 0.6, 0.0], "specific": [0.6, 0.0, 0.8], "query": [1.0, 0.0, 0.0],
         **{t: [0.0, 1.0, 0.0] for t in GENERIC_REQUESTS}}  # fmt: skip
    )
    prefs = [pref("hub", emb), pref("specific", emb)]
    assert contents(Recaller(emb).recall(prefs, "query", k=2)) == ["hub", "specific"]


def test_generic_correction_applies_to_a_filtered_pool() -> None:
    emb = GenericAwareEmbedder(
        {"hub": [0.8, 0.6, 0.0], "specific": [0.6, 0.0, 0.8], "other": [0.0, 0.0, 1.0],
         "query": [1.0, 0.0, 0.0]},
        generic=[0.0, 1.0, 0.0],
        penalty=0.5,
    )  # fmt: skip
    prefs = [
        pref("other", emb, polarity="like"),
        pref("hub", emb, polarity="dislike"),
        pref("specific", emb, polarity="dislike"),
    ]
    recaller = Recaller(emb)
    result = recaller.recall(prefs, "query", k=2, polarity="dislike", cache_key="u1")
    assert contents(result) == ["specific", "hub"]


@pytest.mark.model
def test_use_demotes_a_preference_that_fits_any_request(use_embedder: USEEmbedder) -> None:
    prefs = [
        pref("I like getting suggestions for new things to try.", use_embedder),
        pref("I dislike spicy food.", use_embedder, polarity="dislike", age_days=1),
        pref("I prefer aisle seats on flights.", use_embedder, age_days=2),
    ]
    query = "What should I cook for dinner tonight?"
    plain = Recaller(use_embedder, replace(DEFAULT_FUSION, generic_penalty=False))
    assert contents(plain.recall(prefs, query, k=1)) == [
        "I like getting suggestions for new things to try."
    ]
    assert contents(Recaller(use_embedder).recall(prefs, query, k=1)) == ["I dislike spicy food."]


def _recall_cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [
        (f"{case['id']}:{query['q']}", case, query)
        for case in load_cases("recall.jsonl")
        for query in case["queries"]
    ]


@pytest.mark.model
@pytest.mark.parametrize(
    ("label", "case", "query"), _recall_cases(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_recall_case(
    real_embedder: Embedder, label: str, case: dict[str, Any], query: dict[str, Any]
) -> None:
    prefs = [
        pref(
            p["content"],
            real_embedder,
            age_days=i,
            polarity=p["polarity"],
            keywords=p.get("keywords", []),
            category=p.get("category", "other"),
        )
        for i, p in enumerate(case["prefs"])
    ]
    got = contents(Recaller(real_embedder).recall(prefs, query["q"], k=query["k"]))
    for relevant in query["relevant"]:
        assert any(relevant in c for c in got), (
            f"{label}: {relevant!r} not in top {query['k']}: {got}"
        )


# --- per-list cache ---------------------------------------------------------------------


def _cache_prefs(emb: Any) -> list[Preference]:
    texts = ["allergic to wool", "likes jazz", "prefers wool socks", "不要塑料制品", "is vegan"]
    return [
        pref(t, emb, age_days=i, polarity="dislike" if i % 2 else "like")
        for i, t in enumerate(texts)
    ]


def _summary(result: RecallResult) -> list[tuple[str, float, dict[str, int]]]:
    return [(it.preference.id, it.score, it.channels) for it in result.items]


@pytest.mark.parametrize(
    "kwargs", [{}, {"polarity": "like"}, {"category": "Other"}, {"token_budget": 6}]
)
@pytest.mark.parametrize("query", ["wool sweater", "塑料", "", "jazz records"])
def test_cached_recall_equals_uncached(kwargs: dict[str, Any], query: str) -> None:
    emb = HashEmbedder()
    prefs = _cache_prefs(emb)
    recaller = Recaller(emb)
    uncached = Recaller(emb).recall(prefs, query, k=4, **kwargs)
    for _ in range(2):  # the first call fills the cache, the second reads it
        cached = recaller.recall(prefs, query, k=4, cache_key=("u1", b"1"), **kwargs)
        assert _summary(cached) == _summary(uncached)


def test_same_key_with_another_list_is_recomputed() -> None:
    emb = HashEmbedder()
    recaller = Recaller(emb)
    first = _cache_prefs(emb)
    recaller.recall(first, "wool", k=5, cache_key="u1")
    second = [pref("loves opera", emb)]
    got = recaller.recall(second, "opera", k=5, cache_key="u1")
    assert contents(got) == ["loves opera"]


def test_different_keys_are_cached_apart() -> None:
    emb = HashEmbedder()
    recaller = Recaller(emb)
    a, b = _cache_prefs(emb), [pref("loves opera", emb)]
    assert "allergic to wool" in contents(recaller.recall(a, "wool", k=2, cache_key="a"))
    assert contents(recaller.recall(b, "wool", k=2, cache_key="b")) == ["loves opera"]
    assert "allergic to wool" in contents(recaller.recall(a, "wool", k=2, cache_key="a"))
    assert recaller.cache_info()["lists"] == 2


def test_cache_is_bounded_and_drops_the_least_recently_used() -> None:
    emb = HashEmbedder()
    recaller = Recaller(emb, cache_size=3)
    lists = {key: [pref(f"likes item {key}", emb)] for key in range(5)}
    for key, prefs in lists.items():
        recaller.recall(prefs, "item", k=1, cache_key=key)
    assert recaller.cache_info() == {"lists": 3, "max": 3}
    assert list(recaller._cache) == [2, 3, 4]
    recaller.recall(lists[2], "item", k=1, cache_key=2)
    recaller.recall(lists[0], "item", k=1, cache_key=0)
    assert list(recaller._cache) == [4, 2, 0]


def test_cache_size_zero_keeps_nothing() -> None:
    emb = HashEmbedder()
    recaller = Recaller(emb, cache_size=0)
    recaller.recall(_cache_prefs(emb), "wool", k=1, cache_key="u1")
    assert recaller.cache_info()["lists"] == 0


def test_cached_semantic_channel_uses_unit_vectors() -> None:
    emb = TableEmbedder({"q": [1, 0, 0]})
    long, short = pref("a", None), pref("b", None)
    for p, vec in ((long, [3.0, 4.0, 0.0]), (short, [0.8, 0.0, 0.6])):
        p.embedding = np.asarray(vec, np.float32).tobytes()
        p.embedding_model, p.embedding_dim = emb.name, 3
    got = Recaller(emb).recall([long, short], "q", k=2, cache_key="k")
    assert contents(got) == ["b", "a"]  # cosine 0.8 > 0.6, whatever the stored lengths


@pytest.mark.parametrize("seed", range(40))
def test_the_ordered_prefix_is_how_the_whole_order_begins(seed: int) -> None:
    """Recall orders only a prefix before packing (issue 18's latency): it must be exactly
    the first members of the full lexicographic order (matched, score, recency), ties and
    recency-only members included, for any weights."""
    from penchant.memory.recall import engine
    from penchant.memory.recall.fusion import FusionConfig, fused_scores

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    fusion = FusionConfig(recency=float(rng.choice([0.0, 0.01, 1.0])),
                          rrf_k=int(rng.choice([1, 60])))  # fmt: skip
    ranks = {"recency": rng.permutation(n).astype(np.int32) + 1}
    for channel in ("semantic", "lexical"):
        hit = rng.random(n) < rng.random()
        r = np.zeros(n, dtype=np.int32)
        r[hit] = rng.permutation(int(hit.sum())) + 1
        if rng.random() < 0.3:  # equal ranks make equal scores: ties
            r[hit] = rng.integers(1, 4, size=int(hit.sum()))
        ranks[channel] = r
    score = fused_scores(ranks, fusion)
    matched = (ranks["semantic"] > 0) | (ranks["lexical"] > 0)
    whole = np.lexsort((ranks["recency"], -score, ~matched))
    for need in (1, 5, 32, n):
        prefix = engine.Recaller._order(ranks, score, need)
        assert len(prefix) >= min(need, n)
        assert prefix.tolist() == whole[: len(prefix)].tolist()


@pytest.mark.parametrize("budget", [None, 6, 12, 40])
def test_a_budget_that_skips_past_the_ordered_prefix_packs_as_the_whole_order_would(
    budget: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Contents that do not fit the budget are skipped: packing may run past the ordered
    prefix and order the rest, with the same items as ordering everything first."""
    from penchant.memory.recall import engine

    emb = HashEmbedder()
    long_ones = [pref("wool " + "very long words " * 30 + str(i), emb, age_days=i)
                 for i in range(12)]  # fmt: skip
    short = [pref(f"wool socks {i}", emb, age_days=20 + i) for i in range(12)]
    prefs = long_ones + short

    needs: list[int] = []
    order = engine.Recaller._order

    def counted(ranks: Any, score: Any, need: int) -> Any:
        needs.append(need)
        return order(ranks, score, need)

    monkeypatch.setattr(engine.Recaller, "_order", staticmethod(counted))

    def packed(first: int) -> list[tuple[str, float]]:
        monkeypatch.setattr(engine, "ORDERED_FIRST", first)
        result = Recaller(emb).recall(prefs, "wool", k=3, token_budget=budget)
        return [(i.preference.content, i.score) for i in result.items]

    whole = packed(10**6)
    assert needs == [10**6]
    assert packed(1) == whole
    assert sum(estimate_tokens(c) for c, _ in whole) <= (budget or 10**6)
    if budget == 6:  # one short content fits, no second: packing runs past the prefix
        assert len(whole) == 1 and needs[1:] == [12, len(prefs)]
