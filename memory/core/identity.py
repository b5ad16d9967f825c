"""Cross-language identity of objects: the gate's pure decision (issue 17).

An object stated in one language is the same object as one stated in the other when
either of two signals says so, and the second confirms:

* the **dictionary**: an English gloss of the Chinese object (CC-CEDICT, read outside
  the core by :mod:`~penchant.memory.embeddings.glossary`) is the English object,
  keyword for keyword with the merge rule of one language
  (:func:`~.matching.same_object`: ``绿茶`` = ``green tea``, ``郁金香`` = ``tulip``,
  ``榴莲`` = ``durian``), and the multilingual embeddings of the two object phrases agree at
  least ``gloss_cosine`` (a guard against a gloss of another sense). A gloss that only
  shares a head (``豆腐`` = ``tofu`` against ``stinky tofu``, ``薯条`` = ``french
  fried potato`` against ``potato``) is no match: only the same object counts (covering a
  modified form, as a flip does within one language, was measured: 2 false supersessions
  in 3,000 unrelated pairs, exactly these two);
* the **embedding** alone: the two object phrases' cosine is at least ``same_cosine``.

A flip between two such objects supersedes; a pair whose cosine is at least
``flag_cosine`` but which neither signal settles is a question for the user (a check-up
flag), never a deletion. Only *simple* objects are compared (one object, at most two
keywords, no qualifier), in the same category, and a protected preference (an allergy) is
only ever flagged. The thresholds are the embedder's (``cross_language_*`` attributes),
measured by ``bench/object_identity.py`` on ``bench/data/object_pairs.jsonl``.

Nothing here computes a vector or reads a file: the client computes the vectors and the
glosses and hands them in as :class:`CrossLanguage` (DESIGN.md §2: the core is pure).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ..model import Polarity, Preference, has_cjk
from .matching import same_object, supersedes
from .objects import ObjectForm, object_forms, object_words

Verdict = Literal["same", "flag"]

MAX_SIMPLE_KEYWORDS = 2
"""An object of more keywords (``plastic`` + ``water bottle`` + ``lid``) is not simple."""


@dataclass(frozen=True)
class CrossLanguage:
    """What the client computed for one write's cross-language comparisons.

    Attributes:
        vectors: Object phrase (:func:`object_phrase`) → L2-normalised ``float32[dim]``
            embedding of that phrase alone.
        glosses: Chinese object phrase → the keyword lists of its English glosses
            (``"绿茶"`` → ``(("green tea",),)``); a phrase the dictionary lacks is absent.
        same_cosine: Cosine from which the embedding alone says "same object".
        gloss_cosine: Cosine from which a dictionary match is confirmed.
        flag_cosine: Cosine from which an unsettled pair is flagged for confirmation.
    """

    vectors: Mapping[str, np.ndarray] = field(default_factory=dict)
    glosses: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    same_cosine: float = 2.0
    gloss_cosine: float = 2.0
    flag_cosine: float = 2.0


def simple_form(
    content: str, polarity: Polarity, keywords: tuple[str, ...]
) -> ObjectForm | None:
    """The one simple object of a preference, or ``None`` (several objects, qualifiers,
    more than :data:`MAX_SIMPLE_KEYWORDS` keywords, a ``with`` qualifier, no keywords)."""
    forms = object_forms(content, polarity, keywords)
    if len(forms) != 1:
        return None
    form = forms[0]
    if (
        not form.keywords
        or form.qualifiers
        or len(form.keywords) > MAX_SIMPLE_KEYWORDS
        or any(" with " in k for k in form.keywords)
    ):
        return None
    return form


def object_phrase(form: ObjectForm) -> str:
    """The text embedded for an object: its keywords in order (``green tea``, ``绿茶``;
    Chinese keywords joined without a space, ``塑料盒子``)."""
    joiner = "" if any(map(has_cjk, form.keywords)) else " "
    return joiner.join(form.keywords)


def is_chinese(form: ObjectForm) -> bool:
    """Whether an object is stated in Chinese."""
    return any(map(has_cjk, form.keywords))


def judge(
    new: ObjectForm, old: ObjectForm, cross: CrossLanguage
) -> tuple[Verdict | None, float]:
    """Whether a newer object in one language is the older one in the other.

    Args:
        new: The newer statement's simple object.
        old: The older preference's simple object, in the other language.
        cross: Vectors, glosses and thresholds.

    Returns:
        ``("same", cosine)`` (a flip supersedes), ``("flag", cosine)`` (ask the user) or
        ``(None, cosine)``; the cosine is 0.0 when a vector is missing (then only ``None``).
    """
    new_vec = cross.vectors.get(object_phrase(new))
    old_vec = cross.vectors.get(object_phrase(old))
    if new_vec is None or old_vec is None:
        return None, 0.0
    cosine = float(np.dot(new_vec, old_vec))
    zh, en = (new, old) if is_chinese(new) else (old, new)
    english = list(en.keywords)
    glossed = cross.glosses.get(object_phrase(zh), ())
    by_dictionary = any(same_object(list(g), english) for g in glossed)
    if (by_dictionary and cosine >= cross.gloss_cosine) or cosine >= cross.same_cosine:
        return "same", cosine
    if by_dictionary or cosine >= cross.flag_cosine:
        return "flag", cosine
    return None, cosine


def same_qualifiers(a: tuple[ObjectForm, ...], b: tuple[ObjectForm, ...]) -> bool:
    """Whether two same-keyword preferences also qualify their objects alike (issue 17:
    ``hotels near the airport`` and ``hotels that only take cash`` are two preferences)."""
    return {q for f in a for q in f.qualifiers} - object_words(b) == set() and {
        q for f in b for q in f.qualifiers
    } - object_words(a) == set()


def form_supersedes(new: ObjectForm, old: ObjectForm) -> bool:
    """The newer object covers the older one: its keywords cover the older ones
    (:func:`~.matching.supersedes`) and it qualifies the head no more than the older one
    (``no coffee`` covers ``coffee in the morning``; ``no coffee in the morning`` leaves
    ``likes coffee`` alone)."""
    return supersedes(list(new.keywords), list(old.keywords)) and new.qualifiers <= old.qualifiers


def cross_matches(
    new: ObjectForm, winner: Preference, others: list[Preference], cross: CrossLanguage
) -> list[tuple[Preference, Verdict, float]]:
    """The other language's preferences of the opposite polarity that ``new`` (the object of
    ``winner``) is, or may be: ``(older, verdict, cosine)`` for each one :func:`judge` does
    not dismiss."""
    found = []
    for old in others:
        if old.id == winner.id or old.polarity == winner.polarity:
            continue
        old_form = simple_form(old.content, old.polarity, tuple(old.keywords))
        if old_form is None:
            continue
        verdict, cosine = judge(new, old_form, cross)
        if verdict is not None:
            found.append((old, verdict, cosine))
    return found


__all__ = [
    "MAX_SIMPLE_KEYWORDS",
    "CrossLanguage",
    "Verdict",
    "cross_matches",
    "form_supersedes",
    "is_chinese",
    "judge",
    "object_phrase",
    "same_qualifiers",
    "simple_form",
]
