"""CJK-aware tokens and the BM25 scorer (pure, no Redis, no model)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from penchant.memory.core.lexical import (
    CJK_STOP_CHARS,
    ENGLISH_STOP_WORDS,
    BM25Index,
    singular,
    tokenize,
)


def test_chinese_request_shares_bigrams_with_stored_preference() -> None:
    shared = set(tokenize("推荐几本科幻小说")) & set(tokenize("爱看科幻小说"))
    assert {"科幻", "小说"} <= shared


def test_chinese_tokens_are_characters_and_bigrams() -> None:
    assert tokenize("帆布包") == ["帆", "布", "包", "帆布", "布包"]


def test_chinese_grammatical_characters_are_dropped_as_unigrams_only() -> None:
    tokens = tokenize("我的包")
    assert "我" not in tokens and "的" not in tokens
    assert "的包" in tokens


def test_traditional_chinese_is_simplified() -> None:
    assert tokenize("喜歡") == tokenize("喜欢")


def test_full_width_latin_is_normalised() -> None:
    assert tokenize("ＷＯＯＬ") == ["wool"]


def test_english_is_lower_cased_singular_and_without_stop_words() -> None:
    assert tokenize("I prefer the Canvas Tote BAGS") == ["prefer", "canvas", "tote", "bag"]


def test_japanese_and_korean_runs_give_bigrams() -> None:
    assert "アニ" in tokenize("アニメが好き")
    assert "음식" in tokenize("한국 음식")


@pytest.mark.parametrize(
    ("plural", "single"),
    [
        ("bags", "bag"),
        ("movies", "movie"),
        ("berries", "berry"),
        ("dishes", "dish"),
        ("boxes", "box"),
        ("shoes", "shoe"),
        ("tomatoes", "tomato"),
        ("knives", "knife"),
        ("children", "child"),
        ("glass", "glass"),
        ("bus", "bus"),
        ("news", "news"),
        ("analysis", "analysis"),
    ],
)
def test_singular_forms(plural: str, single: str) -> None:
    assert singular(plural) == single


def test_bm25_ranks_the_preference_sharing_the_cjk_words_first() -> None:
    docs = ["不要塑料制品", "爱看科幻小说", "喜欢帆布包", "不吃香菜"]
    scores = BM25Index(docs).scores("推荐几本科幻小说")
    assert int(np.argmax(scores)) == 1


def test_bm25_scores_zero_for_documents_without_a_shared_term() -> None:
    scores = BM25Index(["allergic to wool", "likes jazz"]).scores("wool sweaters")
    assert scores[0] > 0 and scores[1] == 0


def test_bm25_prefers_the_rarer_term() -> None:
    docs = ["red shoes", "red hats", "red scarves", "green shoes"]
    scores = BM25Index(docs).scores("green red")
    assert int(np.argmax(scores)) == 3


def test_bm25_shorter_document_wins_on_equal_term_frequency() -> None:
    scores = BM25Index(["wool", "wool socks and scarves and mittens"]).scores("wool")
    assert scores[0] > scores[1]


def test_bm25_on_empty_corpus_or_query_is_empty_or_zero() -> None:
    assert BM25Index([]).scores("wool").shape == (0,)
    assert not BM25Index(["wool"]).scores("the and of").any()


@given(st.text(max_size=60))
def test_tokens_never_include_stop_words_or_single_latin_letters(text: str) -> None:
    for token in tokenize(text):
        assert token not in ENGLISH_STOP_WORDS
        assert not (len(token) == 1 and token.isascii())
        assert not (len(token) == 1 and token in CJK_STOP_CHARS)


@given(st.lists(st.text(max_size=30), max_size=8), st.text(max_size=30))
def test_bm25_scores_are_finite_and_non_negative(docs: list[str], query: str) -> None:
    scores = BM25Index(docs).scores(query)
    assert scores.shape == (len(docs),)
    assert np.isfinite(scores).all() and (scores >= 0).all()


def _reference_bm25(docs: list[str], query: str) -> np.ndarray:
    """Okapi BM25 written out term by term over every document (no inverted index)."""
    toks = [tokenize(d) for d in docs]
    avgdl = sum(map(len, toks)) / len(toks)
    out = np.zeros(len(docs))
    if avgdl == 0:
        return out
    for term in set(tokenize(query)):
        df = sum(term in t for t in toks)
        if not df:
            continue
        idf = np.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
        for i, t in enumerate(toks):
            tf = t.count(term)
            out[i] += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(t) / avgdl))
    return out


@given(st.lists(st.text(max_size=30), min_size=1, max_size=8), st.text(max_size=20))
def test_inverted_index_scores_equal_the_formula(docs: list[str], query: str) -> None:
    got = BM25Index(docs).scores(query)
    np.testing.assert_allclose(got, _reference_bm25(docs, query), rtol=1e-4, atol=1e-5)
