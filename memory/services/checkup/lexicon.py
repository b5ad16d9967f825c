"""The check-up's concept lexicon: a second signal beside the embedding.

A preference about a member of a concept ("likes leather jackets") and an opposite-polarity
preference naming the concept ("avoids animal products") are a possible contradiction that
shares no subject word, which sentence embeddings score low.
"""


from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...model import Preference, singular

if TYPE_CHECKING:
    pass

CONCEPTS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "animal products": (
        ("animal product", "animal-derived", "animal derived", "animal-based"),
        frozenset(
            """leather suede wool cashmere silk fur down feather meat beef pork chicken lamb
            steak bacon ham fish seafood shrimp sushi dairy milk cheese butter yogurt cream
            egg honey gelatin""".split()
        ),
    ),
    "meat": (
        ("meat",),
        frozenset("beef pork chicken lamb steak bacon ham sausage turkey veal".split()),
    ),
    "dairy": (("dairy",), frozenset("milk cheese butter yogurt cream".split())),
    "caffeine": (
        ("caffeine", "caffeinated"),
        frozenset("coffee espresso latte cappuccino matcha cola energy-drink".split()),
    ),
    "synthetic fabrics": (
        ("synthetic fabric", "synthetic material", "synthetics", "synthetic"),
        frozenset("polyester nylon acrylic spandex elastane lycra microfiber".split()),
    ),
    "alcohol": (
        ("alcohol", "alcoholic"),
        frozenset("beer wine whisky whiskey vodka gin rum champagne cocktail sake".split()),
    ),
}
"""Concept → (phrases that name it, words that are instances of it). Deliberately tiny: a
second signal beside the embedding, for the commonest "no shared word" contradictions."""

_WORD_RE = re.compile(r"[a-z][a-z-]*")



def _words(pref: Preference) -> set[str]:
    text = " ".join([pref.content, *pref.keywords]).lower()
    return {singular(w) for w in _WORD_RE.findall(text)}


def _phrase_text(pref: Preference) -> str:
    return " " + " ".join(_WORD_RE.findall(" ".join([pref.content, *pref.keywords]).lower())) + " "


def concepts_named(pref: Preference) -> set[str]:
    """Concepts of :data:`CONCEPTS` that a preference names ("avoids animal products")."""
    text = _phrase_text(pref)
    return {
        concept
        for concept, (phrases, _members) in CONCEPTS.items()
        if any(f" {phrase}" in text for phrase in phrases)
    }


def concepts_instanced(pref: Preference) -> set[str]:
    """Concepts a preference is about an instance of ("likes leather jackets" → animal products)."""
    words = _words(pref)
    return {concept for concept, (_p, members) in CONCEPTS.items() if words & members}


def lexicon_contradiction(a: Preference, b: Preference) -> str | None:
    """The concept through which two opposite-polarity preferences clash, or ``None``."""
    if a.polarity == b.polarity:
        return None
    return _clash(
        (concepts_instanced(a), concepts_named(a)), (concepts_instanced(b), concepts_named(b))
    )


_Concepts = tuple[set[str], set[str]]
"""A preference's ``(concepts it is an instance of, concepts it names)``."""


def _clash(a: _Concepts, b: _Concepts) -> str | None:
    """:func:`lexicon_contradiction` on precomputed concepts (polarities already opposite)."""
    for (instanced, named_by_instance), (_i, named) in ((a, b), (b, a)):
        shared = instanced & named
        shared -= named_by_instance  # "avoids animal products but loves wool": explicit
        if shared:
            return sorted(shared)[0]
    return None

