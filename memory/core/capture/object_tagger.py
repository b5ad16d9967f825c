"""Which words of a statement name what it is about: a learned object tagger.

The statement head (:mod:`.statements`) reads what kind a clause is; rules then pull its
object (:mod:`.kinds`: the noun phrase left once stance words are out; :mod:`.structures`:
the parts around a connector). On phrasings no rule was written for they pull nothing, or
the wrong words: "Chrome's gone, Firefox is my browser now", "Never thought I'd say it but
I'm a convert to jazz", ``密室逃脱曾经很上头，现在一想就累``. This tagger marks each word of
a sentence as part of an object the user now likes, one the user now dislikes, or neither,
so a sentence the head reads as a statement yields its object when no rule read it
(:func:`~.tagged_sides.retagged`).

Model: multinomial logistic regression over hashed features of each token and its window,
as in the feature-rich linear taggers of Ratnaparkhi 1996 ("A Maximum Entropy Model for
Part-of-Speech Tagging") with the hashing trick (Weinberger et al. 2009): the word, its
shape and suffixes (its first and last character and length for a Chinese word), jieba's
part-of-speech tag (:mod:`.segment`), the words and tags two either side, the pairs with
each neighbour, a bag of the words three to six away on each side, and where in the sentence
it stands. Chinese is cut into words by the segmenter, so an object is whole words.
Pure numpy, deterministic.

The weights ship in ``object_tagger.npz`` (``W``, (:data:`BUCKETS`, 3) float32: outside, like,
dislike) with the SHA-256 pinned in :data:`TAGGER_SHA256`. Retrain with ``python
bench/train_objects.py`` (it rewrites both, and prints the tagger alone on the kinds'
development half when trained without it).
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...model import Polarity
from ..pinned_weights import loaded_once, read_pinned_weights
from .segment import tag

BUCKETS = 1 << 18
"""Hash buckets (rows of the weight matrix)."""
LABELS: tuple[str, ...] = ("outside", "like", "dislike")
"""The tagger's outputs per token, in column order."""
MIN_P = 0.5
"""A run of tokens is an object when their mean probability of its label is this or more."""
TAGGER_PATH = Path(__file__).resolve().with_name("object_tagger.npz")
TAGGER_SHA256 = "088e610a1ff8a51b7564ee1548fe5b7ca617334ae8beb7a0b030bdecad9ac694"
"""SHA-256 of :data:`TAGGER_PATH`, rewritten by ``bench/train_objects.py``."""

_LATIN = "A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
"""Letters and digits of a Latin-script word, accented ones included (``Pokémon``, ``Motörhead``
are one token each)."""
_TOKEN_RE = re.compile(f"[{_LATIN}][{_LATIN}'+&\\-]*[{_LATIN}+]|[{_LATIN}]|[\u4e00-\u9fff]+|\\S")
_HAN_RE = re.compile(r"[\u4e00-\u9fff]")
_POSSESSIVE_RE = re.compile(r"'s$", re.IGNORECASE)
_POLAR_COLUMNS: tuple[tuple[int, Polarity], ...] = ((1, "like"), (2, "dislike"))


@dataclass(frozen=True)
class Token:
    """One word of a sentence, as the tagger sees it.

    Attributes:
        text: The word (NFKC form).
        start: Its first character's offset in the NFKC form of the sentence.
        end: One past its last character's offset.
        tag: jieba's POS tag for a Chinese word; for others ``C`` (capitalised), ``L`` (lower
            case), ``D`` (digit first) or ``P`` (punctuation).
    """

    text: str
    start: int
    end: int
    tag: str


@dataclass(frozen=True)
class TaggedObject:
    """An object the tagger found: the words, the polarity they are held with, and the
    tokens' mean probability of it (0..1)."""

    polarity: Polarity
    text: str
    p: float


@dataclass(frozen=True)
class Reading:
    """The tagger's reading of a sentence.

    Attributes:
        tokens: Its tokens (:func:`tokenize`).
        probs: (len(tokens), 3) probabilities of :data:`LABELS` per token.
        objects: The objects found (:meth:`ObjectTagger.read`).
    """

    tokens: list[Token]
    probs: np.ndarray
    objects: list[TaggedObject]

    def outside(self, keywords: list[str]) -> float | None:
        """The mean probability that the tokens naming ``keywords`` are outside any object,
        or None when no token names one (a token names a keyword when it holds it, or, two
        characters or longer, is held in it: ``podcasts`` / ``podcast``, ``健身`` / ``健身房``)."""
        return self.mean(keywords, "outside")

    def mean(self, keywords: list[str], label: str) -> float | None:
        """The mean probability of ``label`` (one of :data:`LABELS`) over the tokens naming
        ``keywords`` (as :meth:`outside` finds them), or None when no token names one."""
        wanted = [k.lower() for k in keywords if k]
        rows = [
            i for i, token in enumerate(self.tokens)
            if any(k in token.text.lower() or (len(token.text) > 1 and token.text.lower() in k)
                   for k in wanted)
        ]  # fmt: skip
        return float(self.probs[rows, LABELS.index(label)].mean()) if rows else None


def normal_form(text: str) -> str:
    """The form the tagger reads (NFKC: full-width punctuation and letters folded, curly
    apostrophes kept apart by :func:`tokenize`)."""
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'")


def tokenize(text: str) -> list[Token]:
    """Tokens of ``text``'s :func:`normal_form`: Latin words (with inner apostrophes,
    hyphens, ``+`` and ``&``), Chinese words from the segmenter, single other characters."""
    return _tokens(normal_form(text))


def _tokens(text: str) -> list[Token]:
    """:func:`tokenize` of a text already in :func:`normal_form`."""
    found: list[Token] = []
    for match in _TOKEN_RE.finditer(text):
        word = match.group(0)
        if _HAN_RE.match(word):
            at = match.start()
            for piece, flag in tag(word):
                found.append(Token(piece, at, at + len(piece), flag))
                at += len(piece)
            continue
        first = word[0]
        shape = "P" if not first.isalnum() else "D" if first.isdigit() else (
            "C" if first.isupper() else "L"
        )
        found.append(Token(word, match.start(), match.end(), shape))
    return found


def token_features(tokens: list[Token]) -> list[list[int]]:
    """The sorted, distinct hash buckets of each token's features (see the module doc)."""
    words = [t.text.lower() for t in tokens]
    tags = [t.tag for t in tokens]
    n = len(tokens)

    def word(j: int) -> str:
        return words[j] if 0 <= j < n else "<s>" if j < 0 else "</s>"

    def flag(j: int) -> str:
        return tags[j] if 0 <= j < n else "<s>" if j < 0 else "</s>"

    rows: list[list[int]] = []
    for i, w in enumerate(words):
        grams = ["bias", f"w:{w}", f"f:{tags[i]}", f"pos:{min(4, 5 * i // n)}"]
        if _HAN_RE.match(w):
            grams += [f"zl:{w[-1]}", f"zf:{w[0]}", f"zn:{min(len(w), 4)}"]
        else:
            grams += [f"s3:{w[-3:]}", f"s2:{w[-2:]}", f"p3:{w[:3]}"]
            if "'" in w:
                stem, _, tail = w.partition("'")
                grams += [f"w:{stem}", f"ap:{tail}"]
        for d in (-2, -1, 1, 2):
            grams += [f"{d}:{word(i + d)}", f"{d}f:{flag(i + d)}"]
        grams += [
            f"bl:{word(i - 1)}|{w}", f"br:{w}|{word(i + 1)}",
            f"ff:{flag(i - 1)}|{tags[i]}|{flag(i + 1)}",
        ]  # fmt: skip
        grams += [f"L:{words[j]}" for j in range(max(0, i - 6), max(0, i - 2))]
        grams += [f"R:{words[j]}" for j in range(i + 3, min(n, i + 7))]
        rows.append(sorted({zlib.crc32(g.encode("utf-8")) % BUCKETS for g in grams}))
    return rows


class ObjectTagger:
    """The tagger's weights and its reading of a sentence."""

    def __init__(self, weights: np.ndarray) -> None:
        """Args:
        weights: (:data:`BUCKETS`, 3) float32, columns in :data:`LABELS` order.

        Raises:
            ValueError: The shape is not that.
        """
        if weights.shape != (BUCKETS, len(LABELS)):
            raise ValueError(f"object tagger weights have shape {weights.shape}, "
                             f"expected {(BUCKETS, len(LABELS))}")
        self.weights = weights.astype(np.float32, copy=False)

    @classmethod
    def load(cls, path: Path = TAGGER_PATH, sha256: str = TAGGER_SHA256) -> ObjectTagger:
        """The tagger in ``path``, after its digest is checked.

        Raises:
            ModelIntegrityError: The file is missing or its SHA-256 is not ``sha256``.
        """
        arrays = read_pinned_weights(path, sha256, "object tagger", "python bench/train_objects.py")
        return cls(arrays["W"])

    def probabilities(self, tokens: list[Token]) -> np.ndarray:
        """(len(tokens), 3) probabilities of :data:`LABELS` per token."""
        if not tokens:
            return np.zeros((0, len(LABELS)), np.float32)
        logits = np.stack([self.weights[row].sum(axis=0) for row in token_features(tokens)])
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def read(self, sentence: str, min_p: float = MIN_P) -> Reading:
        """The tagger's reading of one sentence: each token's probabilities and the objects.

        Args:
            sentence: One sentence, English and/or Chinese.
            min_p: The least mean probability of an object's run (default :data:`MIN_P`).

        Returns:
            A :class:`Reading`. Its objects are, for each polarity, the run of consecutive
            tokens tagged with it whose mean probability is highest, if that is ``min_p`` or
            more: at most one like and one dislike, in label order; their text is the
            sentence's :func:`normal_form` from the run's first to last token, without a
            trailing possessive ``'s``.
        """
        text = normal_form(sentence)
        tokens = _tokens(text)
        probs = self.probabilities(tokens)
        best_label = probs.argmax(axis=1) if len(tokens) else np.zeros(0, np.int64)
        found: list[TaggedObject] = []
        for column, polarity in _POLAR_COLUMNS:
            best: tuple[float, int, int] | None = None
            start = None
            for i in range(len(tokens) + 1):
                inside = i < len(tokens) and best_label[i] == column
                if inside and start is None:
                    start = i
                elif not inside and start is not None:
                    mean = float(probs[start:i, column].mean())
                    if best is None or mean > best[0]:
                        best = (mean, start, i)
                    start = None
            if best is not None and best[0] >= min_p:
                words = text[tokens[best[1]].start : tokens[best[2] - 1].end]
                words = _POSSESSIVE_RE.sub("", words).strip()
                if words:
                    found.append(TaggedObject(polarity, words, best[0]))
        return Reading(tokens, probs, found)

    def objects(self, sentence: str, min_p: float = MIN_P) -> list[TaggedObject]:
        """The objects of :meth:`read`."""
        return self.read(sentence, min_p).objects


@loaded_once
def default_tagger() -> ObjectTagger:
    """The shipped tagger, loaded (and its digest checked) once per process."""
    return ObjectTagger.load()


__all__ = [
    "BUCKETS", "LABELS", "MIN_P", "TAGGER_PATH", "TAGGER_SHA256", "ObjectTagger", "Reading",
    "TaggedObject", "Token", "default_tagger", "normal_form", "token_features", "tokenize",
]  # fmt: skip
