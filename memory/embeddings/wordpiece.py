"""BERT's uncased WordPiece tokenizer, for all-MiniLM-L6-v2 on numpy (:mod:`.minilm_int8`).

The same pipeline as the ``tokenizers`` package runs from the model's ``tokenizer.json``
(``BertNormalizer`` with ``clean_text``, ``handle_chinese_chars`` and ``lowercase``, accents
stripped as ``lowercase`` implies; ``BertPreTokenizer``; ``WordPiece`` with ``##``
continuations and 100 characters at most a word; ``[CLS] … [SEP]``), with one difference:
a special token typed in the text (``[MASK]``, ``[SEP]``) is read as the text it is, not as
that token, so no message can place one. Devlin et al. 2019,
"BERT: Pre-training of Deep Bidirectional Transformers", and Google's reference
``tokenization.py``. It is written here rather than taken from ``tokenizers`` because that
package brings ``huggingface_hub`` and ≈36 MB with it, which the default install's 400 MB
bound (issue 18) cannot carry; ``tests/unit/test_wordpiece.py`` checks it token for token
against ``tokenizers`` on the bench's corpora when that package is installed (the test extra).
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np

MAX_WORD_CHARS = 100
"""A longer word is one ``[UNK]`` (the ``WordPiece`` model's ``max_input_chars_per_word``)."""


def _is_cjk(cp: int) -> bool:
    """CJK unified ideographs, as BERT's ``_is_chinese_char`` defines them."""
    return (
        0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F
    )  # fmt: skip


def _is_punctuation(ch: str) -> bool:
    """ASCII symbols and Unicode punctuation (BERT's ``_is_punctuation``)."""
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _normalise(text: str) -> str:
    """Clean, space CJK ideographs, strip accents, lower-case (``BertNormalizer``, in its
    order): NUL, U+FFFD, control, format and private-use characters go (tab, newline and
    carriage return stay, as spaces); every other space is one space. Letters are lower-cased
    one by one, as Rust's ``to_lowercase`` does (a final capital sigma becomes σ, not ς)."""
    out: list[str] = []
    for ch in text:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if ch in "\t\n\r" or cat in ("Zs", "Zl", "Zp"):
            out.append(" ")
        elif cp == 0 or cp == 0xFFFD or cat in ("Cc", "Cf", "Co"):
            continue
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    decomposed = unicodedata.normalize("NFD", "".join(out))
    return "".join(ch.lower() for ch in decomposed if unicodedata.category(ch) != "Mn")


def _words(text: str) -> list[str]:
    """Split on whitespace, each punctuation mark a word of its own (``BertPreTokenizer``)."""
    words: list[str] = []
    for chunk in text.split():
        start = 0
        for i, ch in enumerate(chunk):
            if _is_punctuation(ch):
                if i > start:
                    words.append(chunk[start:i])
                words.append(ch)
                start = i + 1
        if start < len(chunk):
            words.append(chunk[start:])
    return words


class WordPiece:
    """Text → token ids of an uncased BERT vocabulary.

    Args:
        vocab: Token → id (``[CLS]``, ``[SEP]``, ``[UNK]`` and ``[PAD]`` among them).

    Raises:
        KeyError: A special token is missing from ``vocab``.
    """

    def __init__(self, vocab: dict[str, int]) -> None:
        self.vocab = vocab
        self.cls, self.sep = vocab["[CLS]"], vocab["[SEP]"]
        self.unk, self.pad = vocab["[UNK]"], vocab["[PAD]"]
        self._word_ids = lru_cache(maxsize=65_536)(self._split_word)

    @classmethod
    def from_tokenizer_json(cls, path: Path) -> WordPiece:
        """Read the ``model.vocab`` of a ``tokenizers`` file (``tokenizer.json``)."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls({str(k): int(v) for k, v in data["model"]["vocab"].items()})

    def _split_word(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match-first pieces of one word; one ``[UNK]`` if any part fails."""
        if len(word) > MAX_WORD_CHARS:
            return (self.unk,)
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unk,)
            ids.append(found)
            start = end
        return tuple(ids)

    def encode(self, text: str, max_length: int) -> list[int]:
        """Ids of ``[CLS] text [SEP]``, the text's tokens cut to ``max_length − 2``."""
        ids: list[int] = []
        for word in _words(_normalise(text)):
            ids.extend(self._word_ids(word))
            if len(ids) >= max_length - 2:
                break
        return [self.cls, *ids[: max_length - 2], self.sep]

    def batch(self, texts: list[str], max_length: int) -> tuple[np.ndarray, np.ndarray]:
        """``(input_ids, attention_mask)``, both ``int64[len(texts), longest]``, padded right."""
        return self.padded([self.encode(t, max_length) for t in texts])

    def padded(self, rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """Encoded rows as ``(input_ids, attention_mask)``, ``int64[len(rows), longest]``,
        padded right with ``[PAD]`` (mask 0)."""
        width = max(map(len, rows))
        ids = np.full((len(rows), width), self.pad, dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        return ids, mask


__all__ = ["MAX_WORD_CHARS", "WordPiece"]
