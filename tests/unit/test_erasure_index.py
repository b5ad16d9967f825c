"""The change log's erasure index (issue 19): a forget reads only the events whose index
terms satisfy its query, so the terms and the query must over-approximate the exact rules
(:meth:`Erasure.names_event`): every event the rules scrub is a candidate. The query is
minimised (:func:`minimal_clauses`) without changing which events it selects."""

from __future__ import annotations

import itertools

import pytest

from penchant.memory.backends.erasure import index_args, index_satisfies
from penchant.memory.core.erasure_index import event_terms, minimal_clauses
from penchant.memory.core.tombstones import Erasure
from penchant.memory.model import ChangeEvent

PREF = {"id": "p1", "content": "I like espresso martinis", "polarity": "like",
        "keywords": ["espresso martini"], "category": "drink"}  # fmt: skip

EVENTS = [
    ChangeEvent(op="created", after=PREF, reason="new"),
    ChangeEvent(op="merged", before={**PREF, "id": "p0", "content": "espresso martinis!"},
                replaced_by="p1", reason="merged into p1"),
    ChangeEvent(op="superseded", before={**PREF, "id": "p9", "content": "I dislike colour"},
                reason="flipped"),
    ChangeEvent(op="rejected", content="I like the colors of autumn", reason="screened"),
    ChangeEvent(op="rejected", content="我喜欢喝乌龙茶", reason="screened"),
    ChangeEvent(op="rejected", content="I like teas from Yunnan", reason="x"),
    ChangeEvent(op="rejected", content="I like hiking", reason="mentions espresso"),
]

ERASURES = [
    Erasure(text="espresso martini", ids=frozenset({"p1"}),
            contents=("I like espresso martinis",), keywords=("espresso martini",)),
    Erasure(text="color"),
    Erasure(text="colour"),
    Erasure(text="乌龙茶"),
    Erasure(text="tea"),
    Erasure(text="espresso martini", polarity="dislike"),
    Erasure(text="hiking"),
]


@pytest.mark.parametrize(("event", "erasure"), list(itertools.product(EVENTS, ERASURES)))
def test_every_event_the_rules_scrub_is_a_candidate(event: ChangeEvent, erasure: Erasure) -> None:
    if erasure.names_event(event):
        assert index_satisfies(event_terms(event), index_args(erasure)), (event, erasure)


def test_the_rules_scrub_some_of_these_events_and_the_index_skips_others() -> None:
    named = sum(e.names_event(v) for v, e in itertools.product(EVENTS, ERASURES))
    skipped = sum(not index_satisfies(event_terms(v), index_args(e))
                  for v, e in itertools.product(EVENTS, ERASURES))  # fmt: skip
    assert named >= 6 and skipped >= 10


def test_the_reason_is_no_index_term_since_the_rules_never_read_it() -> None:
    event = ChangeEvent(op="rejected", content="I like hiking", reason="mentions espresso")
    assert " ^es " not in event_terms(event) and " ^hi " in event_terms(event)


def test_a_tombstone_event_has_no_terms() -> None:
    assert event_terms(ChangeEvent(op="forgotten", before={"id": "p1"}, reason="gone",
                                   digest="0" * 32)) == " "  # fmt: skip


def _selects(clauses: list[list[list[str]]], terms: set[str]) -> bool:
    return any(all(any(t in terms for t in g) for g in c) for c in clauses)


def test_minimal_clauses_select_exactly_what_the_full_query_selects() -> None:
    clauses = [[["#a"]], [["^li"], ["^th"], ["^tr"]], [["^tr"]], [["^tr"]],
               [["x"], ["x", "y"]], [["x"]], [["x", "y"]], [["^li", "^lo"], ["^tr"]]]
    small = minimal_clauses(clauses)
    assert len(small) == 3  # #a, ^tr, x|y
    universe = ["#a", "^li", "^lo", "^th", "^tr", "x", "y"]
    for n in range(len(universe) + 1):
        for terms in itertools.combinations(universe, n):
            assert _selects(small, set(terms)) == _selects(clauses, set(terms)), terms


def test_a_forgets_query_drops_the_clauses_another_one_covers() -> None:
    erasure = Erasure(text="trinket", ids=frozenset({"p1"}),
                      contents=("I like the trinket in amber",), keywords=("trinket",))
    assert sorted(index_args(erasure)) == ["#p1", "^tr"]
