"""What the gate's cross-language identity needs that the pure core may not compute
(issue 17): object-phrase vectors and dictionary glosses, handed in as
:class:`~penchant.memory.core.identity.CrossLanguage`.

A phrase is embedded once per embedder and kept in a bounded in-process cache, so a
stored object's vector is computed the first time a statement in the other language
meets it and reused after; a write that meets no object in the other language (the same
category, the opposite polarity) embeds nothing and reads no dictionary.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np

from ..core import (
    ActiveSet,
    CrossLanguage,
    ObjectForm,
    PreparedCandidate,
    is_chinese,
    object_keywords,
    object_phrase,
    simple_form,
)
from ..embeddings import Embedder
from ..model import Preference, has_cjk

MAX_CACHED_PHRASES = 20_000
"""Object phrases kept per process (≈2 KB each at 512-d): a user's objects, many users."""


class ObjectVectors:
    """Embeds object phrases for cross-language identity and caches them (LRU).

    Args:
        embedder: The memory's embedder; ``None`` or one without the
            ``cross_language_*`` thresholds turns cross-language identity off.
        max_entries: Cache bound.
    """

    def __init__(self, embedder: Embedder | None, max_entries: int = MAX_CACHED_PHRASES):
        self.embedder = embedder
        self.max_entries = max_entries
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        thresholds = [
            getattr(embedder, f"cross_language_{name}_cosine", None)
            for name in ("same", "gloss", "flag")
        ]
        self._thresholds: tuple[float, float, float] | None = None
        if embedder is not None and all(t is not None for t in thresholds):
            same, gloss, flag = (float(t) for t in thresholds if t is not None)
            self._thresholds = (same, gloss, flag)

    @property
    def enabled(self) -> bool:
        """Whether the embedder declares cross-language thresholds."""
        return self._thresholds is not None

    def for_write(
        self, active: ActiveSet, prepared: Sequence[PreparedCandidate]
    ) -> CrossLanguage | None:
        """The vectors and glosses one write's comparisons need, or ``None`` when it has
        none to make (no simple object meets one in the other language)."""
        if self._thresholds is None:
            return None
        new_forms: list[tuple[ObjectForm, str, str]] = []
        languages = {
            (item.candidate.category, any(map(has_cjk, item.keywords))) for item in prepared
        }
        for item in prepared:
            cand = item.candidate
            zh = any(map(has_cjk, item.keywords))
            if not item.keywords or not (
                (cand.category, not zh) in languages
                or any(
                    p.polarity != cand.polarity for p in active.in_language(cand.category, not zh)
                )
            ):
                continue  # nothing in the other language to meet: no vector, no dictionary
            form = simple_form(cand.content, cand.polarity, tuple(item.keywords))
            if form is not None:
                new_forms.append((form, cand.category, cand.polarity))
        if not new_forms:
            return None
        forms: dict[str, ObjectForm] = {}
        for form, category, polarity in new_forms:
            others = _other_language(active, category, polarity, is_chinese(form))
            others += [
                f for f, c, p in new_forms
                if c == category and p != polarity and is_chinese(f) != is_chinese(form)
            ]  # fmt: skip
            if others:
                forms[object_phrase(form)] = form
                forms.update((object_phrase(o), o) for o in others)
        if not forms:
            return None
        same, gloss, flag = self._thresholds
        return CrossLanguage(
            vectors=self.vectors(list(forms)),
            glosses={p: _glossed(p) for p, f in forms.items() if is_chinese(f)},
            same_cosine=same,
            gloss_cosine=gloss,
            flag_cosine=flag,
        )

    def vectors(self, phrases: Sequence[str]) -> dict[str, np.ndarray]:
        """Unit vectors of phrases, embedding only those not cached (one batch)."""
        assert self.embedder is not None
        with self._lock:
            found = {p: self._cache[p] for p in phrases if p in self._cache}
            for phrase in found:
                self._cache.move_to_end(phrase)
        missing = [p for p in dict.fromkeys(phrases) if p not in found]
        if missing:
            embedded = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            with self._lock:
                for phrase, vector in zip(missing, embedded, strict=True):
                    self._cache[phrase] = vector
                    found[phrase] = vector
                while len(self._cache) > self.max_entries:
                    self._cache.popitem(last=False)
        return found

    def forget(self, prefs: Iterable[Preference]) -> None:
        """Drop the cached vectors of forgotten preferences' object phrases."""
        with self._lock:
            for pref in prefs:
                form = simple_form(pref.content, pref.polarity, tuple(pref.keywords))
                if form is not None:
                    self._cache.pop(object_phrase(form), None)


def _other_language(
    active: ActiveSet, category: str, polarity: str, zh: bool
) -> list[ObjectForm]:
    found = []
    for pref in active.in_language(category, not zh):
        if pref.polarity == polarity:
            continue
        form = simple_form(pref.content, pref.polarity, tuple(pref.keywords))
        if form is not None:
            found.append(form)
    return found


def _glossed(phrase: str) -> tuple[tuple[str, ...], ...]:
    """The English keyword lists of a Chinese phrase's dictionary glosses."""
    from ..embeddings import glosses

    groups = (tuple(object_keywords(g)) for g in glosses(phrase))
    return tuple(dict.fromkeys(g for g in groups if g))


__all__ = ["MAX_CACHED_PHRASES", "ObjectVectors"]
