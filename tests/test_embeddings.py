"""Embedders: the fake, the selector, byte encoding, and the bundled model's integrity guard."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import redis

from penchant.memory import Settings
from penchant.memory.embeddings import (
    DEFAULT_MODEL,
    PINNED_DIGESTS,
    Embedder,
    HashEmbedder,
    LocalEmbedder,
    OpenAIEmbedder,
    bundled_model_dir,
    embedder_from_settings,
    from_bytes,
    to_bytes,
    verify_model_dir,
)
from penchant.memory.errors import InvalidInputError, ModelIntegrityError, PenchantError


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


def test_vector_bytes_round_trip() -> None:
    vec = np.linspace(-1, 1, 384, dtype=np.float32)
    data = to_bytes(vec)
    assert len(data) == 384 * 4
    assert np.array_equal(from_bytes(data, 384), vec)


def test_vector_bytes_of_the_wrong_length_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="dim=384"):
        from_bytes(b"\x00" * 12, 384)


@pytest.mark.parametrize(
    ("selector", "kind", "name"),
    [
        ("all-MiniLM-L6-v2", LocalEmbedder, DEFAULT_MODEL),
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
    assert not getattr(embedder, "loaded", False)


def test_bundled_model_dimension_is_known_without_loading() -> None:
    embedder = LocalEmbedder()
    assert embedder.dim == 384 and not embedder.loaded


def test_malformed_hash_selector_is_invalid_input() -> None:
    with pytest.raises(InvalidInputError, match="hash-64"):
        embedder_from_settings(Settings(embeddings="hash-big"))


def test_importing_and_constructing_loads_no_torch() -> None:
    code = (
        "import sys; from penchant.memory.embeddings import LocalEmbedder; LocalEmbedder(); "
        "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_bundled_model_files_match_their_pinned_digests() -> None:
    verify_model_dir(bundled_model_dir(), PINNED_DIGESTS)


def _tampered_copy(tmp_path: Path, filename: str) -> Path:
    copy = tmp_path / "model"
    shutil.copytree(bundled_model_dir(), copy)
    target = copy / filename
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    return copy


@pytest.mark.model
def test_tampered_model_copy_is_refused_before_loading(tmp_path: Path) -> None:
    copy = _tampered_copy(tmp_path, "model.safetensors")
    embedder = LocalEmbedder(copy, expected_digests=PINNED_DIGESTS)
    with pytest.raises(ModelIntegrityError) as info:
        embedder.embed(["hello"])
    message = str(info.value)
    assert "model.safetensors" in message
    assert PINNED_DIGESTS["model.safetensors"] in message
    assert not embedder.loaded


def test_tampered_config_names_file_and_both_digests(tmp_path: Path) -> None:
    copy = _tampered_copy(tmp_path, "config.json")
    with pytest.raises(ModelIntegrityError) as info:
        verify_model_dir(copy)
    actual = __import__("hashlib").sha256((copy / "config.json").read_bytes()).hexdigest()
    assert "config.json" in str(info.value)
    assert actual in str(info.value) and PINNED_DIGESTS["config.json"] in str(info.value)


@pytest.mark.model
def test_missing_model_is_a_clear_penchant_error(tmp_path: Path) -> None:
    embedder = LocalEmbedder(str(tmp_path / "no-such-model"), local_files_only=True)
    with pytest.raises(PenchantError, match="PENCHANT_EMBEDDINGS"):
        embedder.embed(["hello"])


@pytest.mark.model
def test_bundled_model_embeds_unit_vectors_with_an_unreachable_cache() -> None:
    broken = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    embedder = LocalEmbedder(cache_redis=broken)
    vectors = embedder.embed(["allergic to wool", "I need a warm sweater for winter"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.loaded and embedder.name == DEFAULT_MODEL
