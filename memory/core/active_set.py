"""A user's active preferences, indexed for the gate's lookups and copied on write.

:class:`ActiveSet` is the state :func:`~.resolution.plan_write` decides against: it finds the
few stored preferences a candidate could contradict, repeat or share a slot with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Literal

from ..model import Preference, has_cjk, normalise_keyword
from .layered_map import LayeredMap
from .matching import (
    TYPO_MIN_LEN,
    ZH_MATERIALS,
    is_transposition_typo,
    leading_word,
    spelling_key,
    transposition_variants,
)

_PUNCT_RE = re.compile(r"[^\w\s-]+")


class ActiveSet:
    """A user's active preferences with lookup indexes, copied on write.

    The gate only compares a candidate with preferences that share a keyword
    head (the last word of a Latin keyword, the last character of a Chinese
    one, a spelling variant of it, or a transposition typo of it), the same content or the
    same slot, so a write costs the same with 10 or 10,000 stored preferences. Instances are
    cached by the storage layer per revision and never modified once shared: :meth:`clone`
    gives an independent copy whose cost is what changed lately, not the number of
    preferences (:class:`~.layered_map.LayeredMap`), and buckets are replaced, not mutated.

    Attributes:
        prefs: Id → preference (a read-only ``Mapping``; change it with :meth:`add` and
            :meth:`remove`).
    """

    def __init__(self) -> None:
        self.prefs: LayeredMap[str, Preference] = LayeredMap()
        self._by_head: LayeredMap[str, frozenset[str]] = LayeredMap()
        self._by_content: LayeredMap[str, frozenset[str]] = LayeredMap()
        self._by_slot: LayeredMap[str, frozenset[str]] = LayeredMap()
        self._by_language: LayeredMap[str, frozenset[str]] = LayeredMap()
        self._by_lead: LayeredMap[str, frozenset[str]] = LayeredMap()
        self._by_group: LayeredMap[str, frozenset[str]] = LayeredMap()

    @classmethod
    def build(cls, prefs: Iterable[Preference]) -> ActiveSet:
        """Index ``prefs``."""
        active = cls()
        for pref in prefs:
            active.add(pref)
        return active

    def clone(self) -> ActiveSet:
        """A copy that can be changed without touching this one (O(recent changes))."""
        other = ActiveSet.__new__(ActiveSet)
        other.prefs = self.prefs.copy()
        other._by_head = self._by_head.copy()
        other._by_content = self._by_content.copy()
        other._by_slot = self._by_slot.copy()
        other._by_language = self._by_language.copy()
        other._by_lead = self._by_lead.copy()
        other._by_group = self._by_group.copy()
        return other

    def add(self, pref: Preference) -> None:
        """Insert or replace ``pref``."""
        if pref.id in self.prefs:
            self.remove(pref.id)
        self.prefs.set(pref.id, pref)
        for head in {h for k in pref.keywords for h in _heads(k)}:
            _bucket_add(self._by_head, head, pref.id)
        _bucket_add(self._by_content, content_key(pref.content), pref.id)
        if pref.slot:
            _bucket_add(self._by_slot, pref.slot, pref.id)
        if pref.keywords:
            _bucket_add(self._by_language, _language_key(pref), pref.id)
        for lead in {lead for k in pref.keywords if (lead := leading_word(k))}:
            _bucket_add(self._by_lead, lead, pref.id)
        _bucket_add(self._by_group, _group_key(pref), pref.id)

    def remove(self, pref_id: str) -> None:
        """Drop a preference (no-op when absent)."""
        pref = self.prefs.get(pref_id)
        if pref is None:
            return
        self.prefs.delete(pref_id)
        for head in {h for k in pref.keywords for h in _heads(k)}:
            _bucket_drop(self._by_head, head, pref_id)
        _bucket_drop(self._by_content, content_key(pref.content), pref_id)
        if pref.slot:
            _bucket_drop(self._by_slot, pref.slot, pref_id)
        if pref.keywords:
            _bucket_drop(self._by_language, _language_key(pref), pref_id)
        for lead in {lead for k in pref.keywords if (lead := leading_word(k))}:
            _bucket_drop(self._by_lead, lead, pref_id)
        _bucket_drop(self._by_group, _group_key(pref), pref_id)

    def in_group(self, group: Literal["like", "dislike", "protected"]) -> list[Preference]:
        """The likes, the dislikes that are not protected, or the protected ones (allergies
        and intolerances)."""
        ids = self._by_group.get(group) or frozenset()
        return [self.prefs[i] for i in sorted(ids) if i in self.prefs]

    def related(
        self, keywords: list[str], content: str, slot: str | None = None
    ) -> list[Preference]:
        """Preferences that could be the same object as (or covered by) these keywords,
        or that fill the same slot, or whose keywords these name first (a brand's products:
        ``canon`` for ``canon camera``, ``佳能`` for ``佳能相机``)."""
        ids: set[str] = set(self._by_content.get(content_key(content)) or ())
        if slot:
            ids |= self._by_slot.get(slot) or frozenset()
        for keyword in keywords:
            for head in _heads_like(_head(keyword), self._by_head):
                ids |= self._by_head[head]
            ids |= self._by_lead.get(keyword) or frozenset()
        return [self.prefs[i] for i in sorted(ids) if i in self.prefs]


    def in_language(self, category: str, zh: bool) -> list[Preference]:
        """Preferences whose keywords are Chinese (``zh``) or not, of ``category`` or of
        ``other``: an unknown category may be any (:func:`~.matching.categories_compatible`).
        An ``other`` object meets only the other language's ``other`` ones, so a write never
        compares against every preference of a store."""
        language = "zh" if zh else "en"
        ids = self._by_language.get(f"{language}:{category}") or frozenset()
        if category != "other":
            ids = ids | (self._by_language.get(f"{language}:other") or frozenset())
        return [self.prefs[i] for i in sorted(ids) if i in self.prefs]


def _group_key(pref: Preference) -> str:
    return "protected" if pref.protected else pref.polarity


def _language_key(pref: Preference) -> str:
    zh = any(map(has_cjk, pref.keywords))
    return f"{'zh' if zh else 'en'}:{pref.category}"


def _bucket_add(index: LayeredMap[str, frozenset[str]], key: str, pref_id: str) -> None:
    index.set(key, (index.get(key) or frozenset()) | {pref_id})


def _bucket_drop(index: LayeredMap[str, frozenset[str]], key: str, pref_id: str) -> None:
    left = (index.get(key) or frozenset()) - {pref_id}
    if left:
        index.set(key, left)
    else:
        index.delete(key)


def _heads(keyword: str) -> set[str]:
    """A keyword's buckets: its head's, and a Chinese material's (``玻璃`` for ``玻璃瓶``)."""
    heads = {_head(keyword)}
    if has_cjk(keyword):
        heads |= {m[-1] for m in ZH_MATERIALS if keyword.startswith(m) and keyword != m}
    return heads


def _head(keyword: str) -> str:
    """A keyword's head bucket: its head's last word (``smoked sausage with mash`` →
    ``sausage``), or a Chinese keyword's last character."""
    if has_cjk(keyword):
        return keyword[-1:]
    keyword = keyword.split(" with ", 1)[0]
    return spelling_key(keyword.replace("-", " ").rsplit(" ", 1)[-1])


def _heads_like(head: str, index: Mapping[str, frozenset[str]]) -> list[str]:
    """``head`` and the stored heads that are a transposition typo of it, when indexed.

    The typo rule (:func:`~.matching.is_transposition_typo`) admits only a swap of two
    adjacent letters after the first two, so the few words it can match are enumerated
    (:func:`~.matching.transposition_variants`, O(length)) and looked up, instead of
    scoring every stored head.
    """
    found = [head] if index.get(head) else []
    if head.isalpha() and len(head) >= TYPO_MIN_LEN:
        found += [
            variant for variant in transposition_variants(head)
            if index.get(variant) and is_transposition_typo(head, variant)
        ]
    return found


def content_key(content: str) -> str:
    """Content compared for exact-duplicate detection (case, width, punctuation)."""
    return normalise_keyword(_PUNCT_RE.sub(" ", content))


__all__ = ["ActiveSet", "content_key"]
