"""The change log's erasure index (issue 19): the terms stored beside each change event, and the
pre-tests a forget runs on them before the exact rules of :class:`~.tombstones.Erasure`."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..model import ChangeEvent, has_cjk, normalise_keyword, singular
from .matching import forget_phrases, spelling_key

# -- the change log's erasure index ----------------------------------------------------------------
#
# Matching a forget against every change event cost 1.6–2.6 s at the default 1,000-event log
# (issue 19). Each event is stored with a small set of index terms (:func:`event_terms`), and a
# forget asks the server only for the events whose terms can satisfy :meth:`Erasure.names_event`
# (:meth:`Erasure.index_query`); the exact rules then run on those alone. The terms are a sound
# over-approximation of the rules: an event the rules scrub always passes the filter.
#
# * ``#<id>``: an id the event names (``id``, ``preference_ids``, ``replaced_by``), for the
#   scrub by removed preference or observation id.
# * ``^<xy>``: the first two characters of each word of the event's texts, casefolded, also in
#   its singular and its spelling key. Two words the rules call equal share them: equal words,
#   a plural (``teas``), a British/American variant (via the spelling key) or a swapped-letter
#   typo (which keeps the first two letters, :func:`~.matching.is_transposition_typo`).
# * each CJK character (Chinese matches by substring).

_ID_FIELDS = frozenset({"id", "preference_ids", "replaced_by", "user_id"})
_WORD_TERM_RE = re.compile(r"\w+")


def _string_leaves(value: Any, texts: list[str], ids: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "id" and isinstance(item, str):
                ids.add(item)
            elif key == "preference_ids" and isinstance(item, list):
                ids.update(i for i in item if isinstance(i, str))
            elif key not in _ID_FIELDS:
                _string_leaves(item, texts, ids)
    elif isinstance(value, list):
        for item in value:
            _string_leaves(item, texts, ids)
    elif isinstance(value, str):
        texts.append(value)


def _word_forms(word: str) -> set[str]:
    return {word[:2], spelling_key(word)[:2], singular(word)[:2]}


def text_terms(text: str) -> set[str]:
    """Index terms of one free text (see the comment above :func:`event_terms`)."""
    terms: set[str] = set()
    words = set(_WORD_TERM_RE.findall(text.casefold())) | set(normalise_keyword(text).split(" "))
    for word in words:
        if not word:
            continue
        if has_cjk(word):
            terms.update(ch for ch in word if has_cjk(ch))
        terms.update("^" + form for form in _word_forms(word) if form)
    return terms


@lru_cache(maxsize=65_536)
def record_terms(content: str, keywords: tuple[str, ...]) -> frozenset[str]:
    """Index terms of a preference's content and keywords (cached: a forget checks every
    active preference, whose texts repeat from one forget to the next)."""
    terms: set[str] = set()
    for text in (content, *keywords):
        terms |= text_terms(text)
    return frozenset(terms)


def may_forget(text: str, keywords: list[str], content: str) -> bool:
    """A sound, cheap pre-test of :func:`~.matching.forget_matches`: False only when the
    forget request cannot match (no phrase has its words' first-two-character forms)."""
    terms = record_terms(content, tuple(keywords))
    return any(
        all(any(t in terms for t in group) for group in clause) for clause in _clauses(text)
    )


@lru_cache(maxsize=1024)
def _clauses(text: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """:func:`phrase_clause` of each of ``text``'s forget phrases (cached: a forget tests
    every active preference against the same text)."""
    return tuple(
        tuple(tuple(group) for group in phrase_clause(phrase)) for phrase in forget_phrases(text)
    )


def event_terms(event: ChangeEvent) -> str:
    """The index terms of a change event, as stored beside it: ``" t1 t2 … "``.

    A tombstone event (which no forget scrubs) has none.
    """
    if event.digest is not None:
        return " "
    texts: list[str] = [event.content or ""]  # not the reason: names_event never reads it
    ids: set[str] = {event.replaced_by} if event.replaced_by else set()
    for part in (event.before, event.after):
        if part is not None:
            _string_leaves(part, texts, ids)
    terms = {"#" + i for i in ids}
    for text in texts:
        if text:
            terms |= text_terms(text)
    return " " + " ".join(sorted(t for t in terms if not any(c.isspace() for c in t))) + " "


def phrase_clause(phrase: str) -> list[list[str]]:
    """The terms an event needs for a forget phrase to match it: per word (of two characters
    or more) one of its first-two-character forms; a Chinese phrase, its first character."""
    if has_cjk(phrase):
        return [[phrase[0]]] if phrase else []
    return [sorted({"^" + word[:2], "^" + spelling_key(word)[:2]})
            for word in phrase.split(" ") if len(word) >= 2]


def content_clause(content: str) -> list[list[str]]:
    """Terms an event needs to contain ``content`` verbatim: each word but the first (which
    may end a longer word of the text) starts a word there; Chinese: its characters."""
    words = _WORD_TERM_RE.findall(content.casefold())
    clause = [["^" + w[:2]] for w in words[1:] if len(w) >= 2 and not has_cjk(w)]
    clause += [[ch] for ch in dict.fromkeys(c for c in content if has_cjk(c))]
    return clause[:6]


def minimal_clauses(clauses: list[list[list[str]]]) -> list[list[list[str]]]:
    """The same query (an event is a candidate when it satisfies one clause) with fewer
    tests: a repeated clause once, and no clause that implies another one kept (each of the
    other's groups holds every term of one of its groups), e.g. ``^li ^th ^tr`` under
    ``^tr``."""
    keyed = {tuple(sorted(tuple(sorted(set(g))) for g in c)): c for c in clauses}

    def implies(a: tuple[tuple[str, ...], ...], b: tuple[tuple[str, ...], ...]) -> bool:
        return all(any(set(ga) <= set(gb) for ga in a) for gb in b)

    def weaker(o: tuple[tuple[str, ...], ...], k: tuple[tuple[str, ...], ...]) -> bool:
        return o != k and implies(k, o) and (not implies(o, k) or o < k)  # ties: keep one

    kept = [k for k in keyed if not any(weaker(o, k) for o in keyed)]
    return [keyed[k] for k in kept]


__all__ = [
    "content_clause", "event_terms", "may_forget", "minimal_clauses", "phrase_clause",
    "record_terms", "text_terms",
]
