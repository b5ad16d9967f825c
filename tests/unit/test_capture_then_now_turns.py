"""Which way a then-and-now sentence turned (``changes.py``, issue 17): the structure head's
reading of the whole sentence, or a past the rules read, over a present clause the statement
head reads alone. The heads are scripted: what is tested is what capture does with a reading.
The sentences are new instances of the kind, written for these tests.
"""

from __future__ import annotations

from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.statements import KINDS, Kind


def _kind(name: str, p: float, structure: str | None = None) -> Kind:
    rest = (1 - p) / (len(KINDS) - 1)
    probs = tuple(p if k == name else rest for k in KINDS)
    shape = structure or name
    return Kind(name, p, probs, structure=tuple(p if k == shape else rest for k in KINDS))


def _scripted(whole: Kind, by_clause: dict[str, Kind]):  # type: ignore[no-untyped-def]
    """A reader that reads each clause as ``by_clause`` has it (else no statement) and a
    sentence of several clauses as ``whole``."""
    def read(texts: list[str]) -> list[Kind]:
        return [by_clause.get(t, whole if "," in t or "，" in t else _kind("none", 0.9))
                for t in texts]
    return read


def test_the_way_the_whole_sentence_turns_outweighs_the_present_clause_read_alone() -> None:
    """The statement head read a present clause of coming round (``现在觉得香甜可口``) as going
    off it; the structure head, reading the whole sentence, reads the turn."""
    text = "榴莲以前觉得臭，现在觉得香甜可口"
    read = _scripted(_kind("flip_dislike", 0.7, structure="flip_like"), {
        "榴莲以前觉得臭": _kind("flip_dislike", 0.7),
        "现在觉得香甜可口": _kind("flip_dislike", 0.7),
    })
    found = extract_preferences(text, reader=read)
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["榴莲"])]


def test_a_past_the_rules_read_turns_the_other_way_whatever_the_present_reads() -> None:
    text = "I used to hate olives, these days I order them everywhere"
    read = _scripted(_kind("none", 0.9), {
        "I used to hate olives": _kind("flip_dislike", 0.9),
        "these days I order them everywhere": _kind("flip_dislike", 0.9),
    })
    found = extract_preferences(text, reader=read)
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["olive"])]


def test_a_turn_read_no_way_stores_nothing_of_a_plain_past_clause() -> None:
    """The past clause's own reading was stored when neither clause nor the whole sentence
    said which way it went; a plain dislike there is history ("As a teen I found museums
    painfully dull, but now…" stored *dislikes teen*)."""
    text = "以前觉得爬山又累又无聊，现在每周都要去一次"
    read = _scripted(_kind("none", 0.5, structure="none"), {
        "以前觉得爬山又累又无聊": _kind("dislike", 0.9),
        "现在每周都要去一次": _kind("limit", 0.6),
    })
    assert extract_preferences(text, reader=read) == []


def test_a_past_clause_read_as_going_off_it_stands_when_the_turn_is_unread() -> None:
    """"Gel nails used to be my thing, now it's short natural nails for me": the past clause
    alone says the user went off it."""
    text = "Gel nails used to be my thing, now it is mostly short ones"
    read = _scripted(_kind("none", 0.5, structure="none"), {
        "Gel nails used to be my thing": _kind("flip_dislike", 0.9),
        "now it is mostly short ones": _kind("none", 0.9),
    })
    found = extract_preferences(text, reader=read)
    assert [(c.polarity, c.keywords) for c in found] == [("dislike", ["gel nail"])]
