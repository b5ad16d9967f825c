"""Rule-based capture of preferences from one user message (English and Chinese).

No model is involved. A message is cut into sentences and clauses
(:mod:`.clauses`); each clause is matched against tables of stance rules
(:mod:`.rules_en`, :mod:`.rules_zh`: "I like …", "I have a strong aversion to
…", "I switched from … to …", "my favourite … is …", ``我不再…``, ``我对…过敏``),
and a match counts only when everything before the verb is the user speaking.
Questions, requests, hypotheticals, reactions to the assistant's suggestions,
other people's preferences and Penchant's own injected blocks yield nothing; a
stance the user has moved on from ("I used to like …") is not kept.

The object is cut out of the clause (:mod:`.objects`) and turned into
normalised keywords that the gate compares (:mod:`.keywords`); its category
is a function of the keywords (:mod:`.categories`), so one object gets one
category whatever the verb. :mod:`.extract` builds the candidates, with the
single-valued slot and allergy protection marked.
"""

from __future__ import annotations

from .categories import category_for
from .extract import MAX_CAPTURE_CHARS, RULE_CONFIDENCE, extract_preferences, slot_key
from .keywords import object_keywords
from .lexicons import ATTRIBUTE_MODIFIERS, CATEGORY_PRIORITY, MATERIALS
from .objects import MAX_OBJECT_CHARS

__all__ = [
    "ATTRIBUTE_MODIFIERS",
    "CATEGORY_PRIORITY",
    "MATERIALS",
    "MAX_CAPTURE_CHARS",
    "MAX_OBJECT_CHARS",
    "RULE_CONFIDENCE",
    "category_for",
    "extract_preferences",
    "object_keywords",
    "slot_key",
]
