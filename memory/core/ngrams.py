"""Hashed word and character n-grams, and a linear model over them: the lexical part of the
statement head (:class:`~.capture.statements.StatementHead`) and of the directive head
(:class:`~.directive_head.DirectiveHead`).

The sentence embedding reads what a text means; it reads slang, idiom and chat spellings
(``mid``, ``slaps``, ``yyds``, ``踩雷``, ``下头``), and the wording of a directive dressed as
a preference, only as far as its pretraining saw them. A linear model over the text's own
n-grams learns those words from a corpus and costs no embedding. Mixed with an embedding
head it caught more of what it is trained for, with fewer look-alikes, on messages written
by other people than those who wrote its training data (``bench/train_statements.py`` and
``bench/train_directives.py`` give the figures).

Features (the "hashing trick", Weinberger et al. 2009, "Feature Hashing for Large Scale
Multitask Learning"; n-grams as in fastText, Joulin et al. 2017, "Bag of Tricks for
Efficient Text Classification"): each word, each pair of adjacent words, the character 3-,
4- and 5-grams of each Latin word with its boundaries, and the character 1-, 2- and 3-grams of
each run of Han characters; each hashed by CRC-32 into :data:`BUCKETS` buckets, present or
not (no counts), the sum of their weight rows scaled by one over the square root of their
number. Pure numpy and deterministic.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

BUCKETS = 1 << 18
"""Hash buckets (rows of the weight matrix)."""

_TOKEN_RE = re.compile(r"[a-z0-9']+|[\u4e00-\u9fff]+|[^\sa-z0-9\u4e00-\u9fff]")
_HAN_RE = re.compile(r"[\u4e00-\u9fff]")


def features(text: str) -> list[int]:
    """The sorted, distinct hash buckets of a text's n-grams (see the module doc).

    Args:
        text: One clause or message, any script.

    Returns:
        Bucket indices in ``0..BUCKETS-1``, ascending, no repeats.
    """
    words = _TOKEN_RE.findall(text.lower())
    grams: set[str] = set()
    for i, word in enumerate(words):
        grams.add(f"w:{word}")
        if i + 1 < len(words):
            grams.add(f"b:{word} {words[i + 1]}")
        if _HAN_RE.match(word):
            for n in (1, 2, 3):
                grams.update(f"z{n}:{word[j : j + n]}" for j in range(len(word) - n + 1))
        else:
            padded = f"<{word}>"
            for n in (3, 4, 5):
                grams.update(f"c{n}:{padded[j : j + n]}" for j in range(len(padded) - n + 1))
    return sorted({zlib.crc32(gram.encode("utf-8")) % BUCKETS for gram in grams})


def batch(texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The features of several texts, flat: ``(buckets, starts, counts)``, where text ``i``
    owns ``buckets[starts[i] : starts[i] + counts[i]]``; a text with no n-gram gets none."""
    found = [features(text) for text in texts]
    counts = np.array([len(f) for f in found], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    flat = np.array([b for f in found for b in f], dtype=np.int64)
    return flat, starts, counts


def logits(weights: np.ndarray, bias: np.ndarray, texts: list[str]) -> np.ndarray:
    """``(len(texts), k)`` logits: each text's mean-scaled sum of its buckets' rows, plus bias.

    Args:
        weights: ``(BUCKETS, k)`` float array.
        bias: ``(k,)`` float array.
        texts: The texts to score.
    """
    flat, _, counts = batch(texts)
    return batch_logits(weights, bias, flat, counts)


def batch_logits(
    weights: np.ndarray, bias: np.ndarray, flat: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """:func:`logits` of texts already featurised by :func:`batch` (``flat``, ``counts``), as
    training scores the same texts at every step."""
    summed = np.zeros((len(counts), weights.shape[1]), dtype=np.float64)
    np.add.at(summed, np.repeat(np.arange(len(counts)), counts), weights[flat].astype(np.float64))
    return summed * scale(counts)[:, None] + bias.astype(np.float64)


def scale(counts: np.ndarray) -> np.ndarray:
    """Each text's factor on its summed rows: one over the square root of its n-grams."""
    return 1.0 / np.sqrt(np.maximum(counts, 1))


__all__ = ["BUCKETS", "batch", "batch_logits", "features", "logits", "scale"]
